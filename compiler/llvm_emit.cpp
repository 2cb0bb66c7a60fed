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
#include <llvm/CodeGen/TargetRegisterInfo.h>
#include <llvm/CodeGen/TargetSubtargetInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Pass.h>
#include <llvm/PassInfo.h>
#include <llvm/PassRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <cstdint>
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
// ---- the register alias cache ----------------------------------------------
// The first code object of a target machine cost 18 M instructions more than
// the next (a third of a fresh process's first compile of vadd), all in
// MCRegisterInfo::getCachedAliasesOf: AMDGPU's resource-usage analysis asks
// MachineRegisterInfo::isPhysRegUsed of every 32-bit VGPR, AGPR and SGPR
// above the highest used (about 600 registers), and LLVM 19 fills each
// register's entry of its alias cache at the first question by collecting
// every super-register of every root of every unit of the register (each
// VGPR is in about 130 tuples, twice over) and sorting them. Here the same
// set, registers sharing a root with the register, is marked in a bit set
// and read back in order: the entry LLVM would make (its aliases in
// ascending order, then the register itself), for a tenth of the work.
// The cache is a private member: a pointer to it is formed in an explicit
// instantiation's template argument, where access is not checked.
using AliasCache = std::vector<std::vector<llvm::MCPhysReg>>;
AliasCache llvm::MCRegisterInfo::*alias_cache_member();
template <AliasCache llvm::MCRegisterInfo::*member> struct AliasCacheAccess {
    friend AliasCache llvm::MCRegisterInfo::*alias_cache_member() { return member; }
};
template struct AliasCacheAccess<&llvm::MCRegisterInfo::RegAliasesCache>;

// Fill ri's alias cache for the registers of the classes the resource-usage analysis walks.
void fill_alias_cache(const llvm::TargetRegisterInfo &ri)
{
    AliasCache &cache = const_cast<llvm::TargetRegisterInfo &>(ri).*alias_cache_member();
    unsigned nregs = ri.getNumRegs();
    if (cache.size() != nregs)
        return;
    std::vector<uint64_t> marks((nregs + 63) / 64);
    std::vector<llvm::MCPhysReg> found;
    for (const llvm::TargetRegisterClass *rc : ri.regclasses()) {
        llvm::StringRef name = ri.getRegClassName(rc);
        if (name != "VGPR_32" && name != "AGPR_32" && name != "SGPR_32")
            continue;
        for (llvm::MCPhysReg reg : rc->getRegisters()) {
            std::vector<llvm::MCPhysReg> &aliases = cache[reg];
            if (!aliases.empty())
                continue;
            unsigned lo = nregs, hi = 0;
            for (unsigned unit : ri.regunits(reg))
                for (llvm::MCRegUnitRootIterator root(unit, &ri); root.isValid(); ++root)
                    for (llvm::MCPhysReg super : ri.superregs_inclusive(*root)) {
                        marks[super / 64] |= uint64_t(1) << (super % 64);
                        lo = std::min(lo, unsigned(super));
                        hi = std::max(hi, unsigned(super));
                    }
            marks[reg / 64] &= ~(uint64_t(1) << (reg % 64));
            found.clear();
            for (unsigned w = lo / 64; lo <= hi && w <= hi / 64; w++) {
                for (uint64_t bits = marks[w]; bits; bits &= bits - 1)
                    found.push_back(llvm::MCPhysReg(w * 64 + unsigned(__builtin_ctzll(bits))));
                marks[w] = 0;
            }
            found.push_back(reg);
            aliases.assign(found.begin(), found.end()); // one allocation of the exact size, as LLVM's shrink_to_fit
        }
    }
}
} // namespace

struct JkCodegen {
    llvm::TargetMachine *tm;
    llvm::SmallVector<char, 0> out; // what the pipeline's object writer writes, one module at a time
    llvm::raw_svector_ostream os{ out };
    std::unique_ptr<Pipeline> pm;
    unsigned runs = 0;
    bool unshareable = false; // the target's pipeline cannot serve a second module: always the C API's
    std::vector<const llvm::TargetRegisterInfo *> filled; // the subtargets' register infos whose cache is filled
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
    for (const llvm::Function &f : m) {
        const llvm::TargetSubtargetInfo *st = f.isDeclaration() ? nullptr : cg->tm->getSubtargetImpl(f);
        const llvm::TargetRegisterInfo *ri = st ? st->getRegisterInfo() : nullptr;
        if (ri && std::find(cg->filled.begin(), cg->filled.end(), ri) == cg->filled.end()) {
            fill_alias_cache(*ri);
            cg->filled.push_back(ri);
        }
    }
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

// For tests: create two target machines for triple/cpu/features, fill the first's alias cache here and let LLVM
// fill the second's, and count the registers whose alias lists differ; -1 when the machines cannot be made.
extern "C" int jk_codegen_alias_cache_mismatches(const char *triple, const char *cpu, const char *features)
{
    LLVMTargetRef target;
    char *err = nullptr;
    if (LLVMGetTargetFromTriple(triple, &target, &err)) {
        LLVMDisposeMessage(err);
        return -1;
    }
    LLVMTargetMachineRef tms[2];
    for (LLVMTargetMachineRef &tm : tms)
        tm = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelAggressive, LLVMRelocPIC,
                                     LLVMCodeModelDefault);
    llvm::LLVMContext ctx;
    llvm::Module m("aliases", ctx);
    llvm::Function *f = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
                                               llvm::GlobalValue::ExternalLinkage, "f", m);
    const llvm::TargetRegisterInfo *ri[2];
    for (int i = 0; i < 2; i++) {
        const llvm::TargetSubtargetInfo *st =
            tms[i] ? reinterpret_cast<llvm::TargetMachine *>(tms[i])->getSubtargetImpl(*f) : nullptr;
        ri[i] = st ? st->getRegisterInfo() : nullptr;
    }
    int mismatches = -1;
    if (ri[0] && ri[1]) {
        fill_alias_cache(*ri[0]);
        const AliasCache &ours = const_cast<llvm::TargetRegisterInfo &>(*ri[0]).*alias_cache_member();
        const AliasCache &llvms = const_cast<llvm::TargetRegisterInfo &>(*ri[1]).*alias_cache_member();
        int filled = 0;
        mismatches = 0;
        for (unsigned reg = 1; reg < ours.size(); reg++) {
            if (ours[reg].empty())
                continue;
            filled++;
            llvm::MCRegAliasIterator fill(reg, ri[1], true); // LLVM fills its entry
            mismatches += reg >= llvms.size() || ours[reg] != llvms[reg];
        }
        if (!filled)
            mismatches = -1; // not the register classes this knows
    }
    for (LLVMTargetMachineRef tm : tms)
        if (tm)
            LLVMDisposeTargetMachine(tm);
    return mismatches;
}
