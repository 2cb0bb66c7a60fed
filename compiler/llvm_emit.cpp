// llvm_emit.cpp: object emission through a legacy code generation pipeline
// kept with its target machine (llvm_emit.h).
//
// LLVMTargetMachineEmitToMemoryBuffer builds the whole legacy pipeline for
// each module: about 150 passes scheduled, their analysis usage resolved
// (AnalysisUsage::setPreservesCFG alone walks every registered pass), and
// torn down again. That was 19 % of a small kernel's compile on gfx90a
// (bench/RESULTS.md §4f). LLVM supports running one pipeline on several
// modules (llc -compile-twice; the AsmPrinter resets its streamer and the
// AMDGPU target streamer its PAL metadata at the end of each module), so
// the pipeline here lives as long as its pooled target machine.
//
// Two things in AMDGPU's pipeline outlive a module. LLVM 19's wait-count
// insertion (si-insert-waitcnts) keeps, from one function to the next, the
// addresses that scalar loads read and the blocks it chose to flush before
// a loop, keyed by Value and MachineBasicBlock addresses that a later module
// reuses: a shared pipeline put an s_waitcnt more into 12 of the 3000 code
// objects of tests/lang. That pass runs as a new instance for every module
// (FreshEachModule), as LLVM's later versions build its state per function.
//
// The other: the resource-usage
// analysis keeps each function's register counts in a map keyed by the
// Function's address that no run clears. A function analysed in this run
// overwrites its entry, so the counts a kernel gets are its own, as long as
// the analysis never reads an entry this run did not write. It reads one
// only for a call: a callee found in the map, or, for a call it cannot
// resolve, every entry (the registers an indirect call may need). A module
// with a call other than to an intrinsic, or with a function that no
// caller in the call graph reaches (a local one), therefore gets a
// pipeline of its own, as before. The map keeps an entry per function the
// pipeline has seen, so the pipeline is built again every MAX_RUNS modules.
#include "llvm_emit.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Pass.h>
#include <llvm/PassInfo.h>
#include <llvm/PassRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace
{
enum { MAX_RUNS = 256 };

// Does every entry the resource-usage analysis reads come from this module's
// run (see above)? True when every call is to an intrinsic or inline
// assembly and every defined function is visible outside the module.
bool fits_shared_pipeline(const llvm::Module &m)
{
    for (const llvm::Function &f : m) {
        if (f.isDeclaration())
            continue;
        if (f.hasLocalLinkage())
            return false;
        for (const llvm::BasicBlock &bb : f)
            for (const llvm::Instruction &in : bb) {
                const auto *call = llvm::dyn_cast<llvm::CallBase>(&in);
                if (!call || call->isInlineAsm())
                    continue;
                const llvm::Function *callee = call->getCalledFunction();
                if (!callee || !callee->isIntrinsic())
                    return false;
            }
    }
    return true;
}
// The passes that keep state of one function for the next (see above), by their command-line names.
bool keeps_function_state(const llvm::PassInfo *info)
{
    return info && info->getPassArgument() == "si-insert-waitcnts";
}

// A function pass of the pipeline run by a new instance of it for every module. The instance borrows the
// wrapper's analysis resolver: it declares the same analyses, so it finds what the pass manager made
// available to the wrapper.
class FreshEachModule : public llvm::FunctionPass
{
    std::unique_ptr<llvm::Pass> configured; // what the target added: its name and analysis usage
    const llvm::PassInfo *info;
    std::unique_ptr<llvm::FunctionPass> inner;

    void drop_inner()
    {
        if (inner)
            inner->setResolver(nullptr); // the resolver is the wrapper's
        inner.reset();
    }

  public:
    static char ID;
    FreshEachModule(llvm::Pass *p, const llvm::PassInfo *pi) : llvm::FunctionPass(ID), configured(p), info(pi) {}
    ~FreshEachModule() override { drop_inner(); }
    llvm::StringRef getPassName() const override { return configured->getPassName(); }
    void getAnalysisUsage(llvm::AnalysisUsage &au) const override { configured->getAnalysisUsage(au); }
    bool doInitialization(llvm::Module &m) override
    {
        drop_inner();
        inner.reset(static_cast<llvm::FunctionPass *>(info->createPass()));
        inner->setResolver(getResolver());
        return inner->doInitialization(m);
    }
    bool runOnFunction(llvm::Function &f) override { return inner->runOnFunction(f); }
    bool doFinalization(llvm::Module &m) override
    {
        bool changed = inner->doFinalization(m);
        drop_inner();
        return changed;
    }
};
char FreshEachModule::ID = 0;

// The legacy pass manager, with the passes of keeps_function_state wrapped as the target adds them.
class Pipeline : public llvm::legacy::PassManager
{
  public:
    bool unwrapped = false; // a pass of keeps_function_state could not be wrapped: not for a second module
    void add(llvm::Pass *p) override
    {
        const llvm::PassInfo *info = llvm::PassRegistry::getPassRegistry()->getPassInfo(p->getPassID());
        if (keeps_function_state(info)) {
            if (info->getNormalCtor() && p->getPassKind() == llvm::PT_Function)
                p = new FreshEachModule(p, info);
            else
                unwrapped = true;
        }
        llvm::legacy::PassManager::add(p);
    }
};
} // namespace

struct JkCodegen {
    llvm::TargetMachine *tm;
    llvm::SmallVector<char, 0> out; // what the pipeline's object writer writes, one module at a time
    llvm::raw_svector_ostream os{ out };
    std::unique_ptr<Pipeline> pm;
    unsigned runs = 0;
    bool unshareable = false; // the target's pipeline cannot serve a second module: always the C API's
    explicit JkCodegen(llvm::TargetMachine *t) : tm(t) {}
};

extern "C" JkCodegen *jk_codegen_new(LLVMTargetMachineRef tm)
{
    return new (std::nothrow) JkCodegen(reinterpret_cast<llvm::TargetMachine *>(tm));
}

extern "C" void jk_codegen_free(JkCodegen *cg)
{
    delete cg;
}

extern "C" int jk_codegen_emit_object(JkCodegen *cg, LLVMModuleRef mref, uint8_t **data, size_t *size)
{
    llvm::Module &m = *llvm::unwrap(mref);
    if (cg->unshareable || !fits_shared_pipeline(m))
        return 0;
    if (cg->pm && cg->runs >= MAX_RUNS)
        cg->pm.reset();
    if (!cg->pm) {
        // as LLVMTargetMachineEmitToMemoryBuffer builds it
        cg->pm = std::make_unique<Pipeline>();
        cg->runs = 0;
        if (cg->tm->addPassesToEmitFile(*cg->pm, cg->os, nullptr, llvm::CodeGenFileType::ObjectFile) ||
            cg->pm->unwrapped) {
            cg->pm.reset();
            cg->unshareable = true;
            return 0;
        }
    }
    m.setDataLayout(cg->tm->createDataLayout());
    cg->out.clear();
    cg->pm->run(m);
    cg->runs++;
    uint8_t *p = static_cast<uint8_t *>(malloc(cg->out.size() + 1));
    if (!p)
        return -1;
    memcpy(p, cg->out.data(), cg->out.size());
    p[cg->out.size()] = 0;
    *data = p;
    *size = cg->out.size();
    cg->out.clear();
    return 1;
}
