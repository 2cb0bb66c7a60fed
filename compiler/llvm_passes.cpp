// llvm_passes.cpp: LLVMRunPasses, less the pass runs that cannot change anything (llvm_emit.h).
//
// -O3 runs InstCombine eight times over a kernel, and on one whose code is mostly an inlined device
// library (mathfuns: ocml's sin, cos, exp, log, tanh) InstCombine was 20.7 M of a compile's 114 M
// instructions, most of it computeKnownBits over ocml's integer argument reduction. Several of those runs
// meet a function exactly as the previous run left it: the passes between them changed nothing.
// InstCombine's result depends only on the function, the module around it and analyses computed from
// them, so a run on a function that no pass changed since InstCombine last ran on it and changed nothing,
// while no module or call-graph pass changed anything either, would change nothing too. Such a run is
// skipped, through the pass instrumentation's should-run hook (the same hook opt-bisect uses); every other
// pass runs as LLVMRunPasses runs it, so the optimised module is the same.
//
// "Changed" is what a pass reports: a pass that changes the IR must not say that it preserved every
// analysis (LLVM's -verify-analysis-invalidation checks exactly that), and one that says less when it
// changed nothing only makes the next InstCombine run.
//
// CalledValuePropagation is skipped in a module without indirect calls: all it does is attach the
// possible callees (!callees) to indirect calls, and its module-wide solver cost mathfuns 1.8 M
// instructions for none.
#include "llvm_emit.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/Error.h>
#include <llvm/Target/TargetMachine.h>

#include <cstring>
#include <new>
#include <string>

namespace
{
// The functions on which InstCombine ran last among the passes that changed them, and changed nothing.
// Any change by a pass over the module, a call-graph SCC or an unknown unit forgets them all: it may have
// changed what InstCombine reads of other functions (a callee's attributes, a global's initializer).
class SkipIdlePasses
{
  public:
    void register_callbacks(llvm::PassInstrumentationCallbacks &pic)
    {
        pic.registerShouldRunOptionalPassCallback([this](llvm::StringRef pass, llvm::Any ir) {
            if (pass == "CalledValuePropagationPass") {
                const auto *m = llvm::any_cast<const llvm::Module *>(&ir);
                return !m || has_indirect_call(**m);
            }
            const llvm::Function *f = as_function(ir);
            return !(f && pass == "InstCombinePass" && settled.contains(f));
        });
        pic.registerAfterPassCallback([this](llvm::StringRef pass, llvm::Any ir, const llvm::PreservedAnalyses &pa) {
            if (reports_no_ir_change(pass))
                return;
            bool changed = !pa.areAllPreserved();
            const llvm::Function *f = as_function(ir);
            if (f && pass == "InstCombinePass") {
                if (changed)
                    settled.erase(f);
                else
                    settled.insert(f);
            } else if (changed) {
                if (f)
                    settled.erase(f);
                else
                    settled.clear();
            }
        });
        pic.registerAfterPassInvalidatedCallback(
            [this](llvm::StringRef, const llvm::PreservedAnalyses &) { settled.clear(); });
    }

  private:
    llvm::SmallPtrSet<const llvm::Function *, 8> settled;

    // A pass manager or adaptor reports what the passes it ran reported already, summed over a whole
    // pipeline: its report would forget an InstCombine run inside it that settled a function. An
    // invalidate<...> pass drops an analysis and changes no IR.
    static bool reports_no_ir_change(llvm::StringRef pass)
    {
        llvm::StringRef name = pass.substr(0, pass.find('<'));
        return name.ends_with("PassManager") || name.ends_with("PassAdaptor") || name == "DevirtSCCRepeatedPass" ||
               name == "ModuleInlinerWrapperPass" || name == "InvalidateAnalysisPass";
    }

    static bool has_indirect_call(const llvm::Module &m)
    {
        for (const llvm::Function &f : m)
            for (const llvm::BasicBlock &bb : f)
                for (const llvm::Instruction &in : bb)
                    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&in))
                        if (call->isIndirectCall())
                            return true;
        return false;
    }

    // The function a function or loop pass ran on; NULL for a module or SCC.
    static const llvm::Function *as_function(const llvm::Any &ir)
    {
        if (const auto *f = llvm::any_cast<const llvm::Function *>(&ir))
            return *f;
        if (const auto *l = llvm::any_cast<const llvm::Loop *>(&ir))
            return (*l)->getHeader()->getParent();
        return nullptr;
    }
};
} // namespace

extern "C" int jk_run_passes(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, char **err)
{
    *err = nullptr;
    try {
        llvm::Module *mod = llvm::unwrap(m);
        llvm::TargetMachine *machine = reinterpret_cast<llvm::TargetMachine *>(tm);
        // as LLVMRunPasses sets them up (default pass builder options: no debug logging, no verify-each)
        llvm::PassInstrumentationCallbacks pic;
        llvm::PassBuilder pb(machine, llvm::PipelineTuningOptions(), std::nullopt, &pic);
        llvm::LoopAnalysisManager lam;
        llvm::FunctionAnalysisManager fam;
        llvm::CGSCCAnalysisManager cgam;
        llvm::ModuleAnalysisManager mam;
        pb.registerLoopAnalyses(lam);
        pb.registerFunctionAnalyses(fam);
        pb.registerCGSCCAnalyses(cgam);
        pb.registerModuleAnalyses(mam);
        pb.crossRegisterProxies(lam, fam, cgam, mam);
        llvm::StandardInstrumentations si(mod->getContext(), false, false);
        si.registerCallbacks(pic, &mam);
        SkipIdlePasses skip;
        skip.register_callbacks(pic);
        llvm::ModulePassManager mpm;
        if (llvm::Error e = pb.parsePassPipeline(mpm, passes)) {
            *err = strdup(llvm::toString(std::move(e)).c_str());
            return 0;
        }
        mpm.run(*mod, mam);
        return 1;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}
