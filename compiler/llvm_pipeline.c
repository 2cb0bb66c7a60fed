/* llvm_pipeline.c: the LLVM steps every target shares: target
 * initialisation, optimisation, verification, printing, emission into
 * memory, bitcode-library linking, and running ld.lld as a child process
 * without leaving files behind. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "prelude.h"
#include "juke.h"
#include "juke_config.h"
#include "checkopt.h"
#include "libslice.h"
#include "llvm_emit.h"
#include "addr32.h"
#include "narrow.h"
#include "target.h"

extern char **environ;

/* ---- target initialisation and target machines --------------------------
 * LLVM's target registry is process-wide; registering is idempotent but not
 * thread-safe, hence under a lock, and only for the targets a process
 * compiles for (x86's set-up is most of the first compile's extra cost). */
enum { MAX_TARGETS = 16 };

void llvm_init_target(const TargetOps *ops)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static const TargetOps *done[MAX_TARGETS];
    pthread_mutex_lock(&lock);
    int i = 0;
    while (i < MAX_TARGETS && done[i] && done[i] != ops)
        i++;
    if (i < MAX_TARGETS && !done[i]) {
        ops->llvm_init();
        done[i] = ops;
    }
    pthread_mutex_unlock(&lock);
}

/* Target machines are pooled for the process: creating one builds its
 * subtarget on first use (on AMDGPU the instruction, register and lowering
 * tables and GlobalISel's legalizer: a few ms of every small kernel's
 * compile), and a target machine keeps no state of the modules it compiles
 * (the subtarget is keyed by the function's target-cpu and features, the
 * options are reset from each function's attributes). It is not safe for
 * two threads at once, so a compile takes one out of the pool and gives it
 * back at the end; the pool holds the idle ones, at most POOL_IDLE. Julia's
 * JIT keeps such a pool for the same reason. */
typedef struct TmSlot {
    struct TmSlot *next;
    LLVMTargetMachineRef tm;
    JkCodegen *codegen; /* tm's object-file pipeline, kept for the next module (llvm_emit.cpp), or NULL */
    char key[];         /* triple, processor, features, code generation level, relocation model */
} TmSlot;

enum { POOL_IDLE = 16 };

static pthread_mutex_t tm_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static TmSlot *tm_pool; /* idle target machines, most recently returned first */

static TmSlot *tm_pool_take(const char *key)
{
    TmSlot *s = NULL;
    pthread_mutex_lock(&tm_pool_lock);
    for (TmSlot **p = &tm_pool; *p; p = &(*p)->next)
        if (strcmp((*p)->key, key) == 0) {
            s = *p;
            *p = s->next;
            break;
        }
    pthread_mutex_unlock(&tm_pool_lock);
    return s;
}

static void tm_pool_give(TmSlot *s)
{
    TmSlot *evict = NULL;
    pthread_mutex_lock(&tm_pool_lock);
    s->next = tm_pool;
    tm_pool = s;
    int n = 0;
    for (TmSlot **p = &tm_pool; *p; p = &(*p)->next)
        if (++n > POOL_IDLE) {
            evict = *p; /* the least recently returned */
            *p = NULL;
            break;
        }
    pthread_mutex_unlock(&tm_pool_lock);
    if (evict) {
#ifdef JUKE_HAVE_LLVM_EMIT
        jk_codegen_free(evict->codegen);
#endif
        LLVMDisposeTargetMachine(evict->tm);
        free(evict);
    }
}

bool llvm_create_target_machine(TargetCtx *tc, const char *triple, const char *cpu, const char *features,
                                LLVMRelocMode reloc)
{
    llvm_init_target(tc->ops);
    LLVMCodeGenOptLevel lvl = tc->opts->opt_level <= 0   ? LLVMCodeGenLevelNone
                              : tc->opts->opt_level == 1 ? LLVMCodeGenLevelLess
                              : tc->opts->opt_level == 2 ? LLVMCodeGenLevelDefault
                                                         : LLVMCodeGenLevelAggressive;
    const char *fs = features ? features : "";
    size_t kn = strlen(triple) + strlen(cpu) + strlen(fs) + 32;
    char *key = malloc(kn);
    if (!key) {
        diag_plain(tc->diags, DIAG_NOMEM, "out of memory");
        return false;
    }
    snprintf(key, kn, "%s|%s|%s|%d|%d", triple, cpu, fs, (int)lvl, (int)reloc);
    TmSlot *slot = tm_pool_take(key);
    if (!slot) {
        LLVMTargetRef target = NULL;
        char *err = NULL;
        if (LLVMGetTargetFromTriple(triple, &target, &err)) {
            diag_plain(tc->diags, DIAG_INTERNAL, "LLVM has no target for %s: %s", triple, err ? err : "?");
            LLVMDisposeMessage(err);
            free(key);
            return false;
        }
        LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, cpu, fs, lvl, reloc, LLVMCodeModelDefault);
        if (!tm) {
            diag_plain(tc->diags, DIAG_INTERNAL, "cannot create an LLVM target machine for %s (%s)", triple, cpu);
            free(key);
            return false;
        }
        /* out of memory for a slot: this compile's machine alone */
        slot = malloc(sizeof *slot + strlen(key) + 1);
        if (slot) {
            slot->next = NULL;
            slot->tm = tm;
            slot->codegen = NULL;
            strcpy(slot->key, key);
        }
        tc->tm = tm;
    } else {
        tc->tm = slot->tm;
    }
    free(key);
    tc->tm_slot = slot;
    tc->tm_reloc = reloc;
    LLVMSetTarget(tc->mod, triple);
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tc->tm);
    LLVMSetModuleDataLayout(tc->mod, dl);
    LLVMDisposeTargetData(dl);
    return true;
}

void llvm_dispose_target_machine(TargetCtx *tc)
{
    if (tc->tm_slot) {
        if (tc->tm != tc->tm_slot->tm && tc->tm)
            LLVMDisposeTargetMachine(tc->tm);
        tm_pool_give(tc->tm_slot);
    } else if (tc->tm) {
        LLVMDisposeTargetMachine(tc->tm);
    }
    tc->tm_slot = NULL;
    tc->tm = NULL;
}

LLVMValueRef llvm_intrinsic(TargetCtx *tc, const char *name, LLVMTypeRef *overloads, unsigned n, LLVMTypeRef *fty)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    if (!id)
        return NULL;
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(tc->mod, id, overloads, n);
    if (fty)
        *fty = LLVMIntrinsicGetType(tc->llctx, id, overloads, n);
    return f;
}

LLVMValueRef llvm_declare(TargetCtx *tc, const char *name, LLVMTypeRef fty)
{
    LLVMValueRef f = LLVMGetNamedFunction(tc->mod, name);
    if (!f)
        f = LLVMAddFunction(tc->mod, name, fty);
    return f;
}

LLVMValueRef llvm_call_intrinsic_n(TargetCtx *tc, LLVMBuilderRef b, const char *name, LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef fty;
    LLVMValueRef f = llvm_intrinsic(tc, name, NULL, 0, &fty);
    return f ? LLVMBuildCall2(b, fty, f, args, n, "") : NULL;
}

LLVMValueRef llvm_call_intrinsic(TargetCtx *tc, LLVMBuilderRef b, const char *name)
{
    return llvm_call_intrinsic_n(tc, b, name, NULL, 0);
}

/* Local memory cannot be initialised: the initializer says "anything". */
LLVMValueRef llvm_local_array(TargetCtx *tc, const char *name, uint64_t bytes, unsigned align, bool poison)
{
    LLVMTypeRef t = LLVMArrayType2(LLVMInt8TypeInContext(tc->llctx), bytes);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(tc->mod, t, name && *name ? name : "__juke_local", tc->ops->as_local);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetInitializer(g, poison ? LLVMGetPoison(t) : LLVMGetUndef(t));
    uint64_t a = align ? align : 16;
    LLVMSetAlignment(g, (unsigned)a);
    tc->static_lds_bytes = (uint32_t)(((tc->static_lds_bytes + a - 1) / a) * a + bytes);
    return g;
}

LLVMValueRef llvm_dynamic_local_array(TargetCtx *tc, const char *name)
{
    LLVMValueRef g = LLVMGetNamedGlobal(tc->mod, name);
    if (!g) {
        LLVMTypeRef t = LLVMArrayType2(LLVMInt8TypeInContext(tc->llctx), 0);
        g = LLVMAddGlobalInAddressSpace(tc->mod, t, name, tc->ops->as_local);
        LLVMSetLinkage(g, LLVMExternalLinkage);
        LLVMSetAlignment(g, 16);
    }
    tc->uses_dynamic_lds = true;
    return g;
}

LLVMValueRef llvm_math_libfn(TargetCtx *tc, const char *name, LLVMTypeRef ty, const char *sym, LLVMTypeRef *fty)
{
    *fty = llvm_math_type(tc, name, ty);
    return llvm_declare(tc, sym, *fty);
}

/* ---- optimisation, verification, printing ------------------------------ */

/* Huge kernels (thousands of statements) meet LLVM's superlinear corners;
 * bench/RESULTS.md, "Large kernels", has the measurements. The limits are
 * far above what hand-written kernels reach, so their code is unchanged. */
enum {
    /* A function this big before optimisation (about 500 bounds-checked
     * statements) gets the -O1 pipeline at -O2 and -O3: it has no SLP
     * vectoriser, quadratic in a block's length (3.7 s of 7 s of -O3 for
     * 10,000 if/else statements), and still folds the repeated checks. */
    HUGE_FUNCTION_INSTS = 30000,
    /* A block this long after optimisation gets code generation at level
     * None: the machine scheduler (collectVRegUses, the DAG's topological
     * sort) and kill-flag upkeep walk every use of a register per
     * instruction, quadratic when one hoisted constant has 10,000 uses in
     * one block; splitting the block did not help, as the register spans
     * every piece. Level None (fast instruction selection and register
     * allocation) took x86 emission from 6.5 s to 0.2 s at 10,000 if/else
     * statements. Many short blocks keep the full back end: at level None
     * the fast allocator spills every value live across a block boundary
     * (12,817 VGPR spills for 2,000 nested branches on gfx90a). */
    HUGE_BLOCK_INSTS = 4000,
};

static unsigned block_insts(LLVMBasicBlockRef bb)
{
    unsigned n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        n++;
    return n;
}

/* The instruction count of the module's largest function definition, or
 * with per_block, of its largest block. */
static unsigned largest_insts(LLVMModuleRef m, bool per_block)
{
    unsigned most = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        unsigned n = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
            n = per_block ? block_insts(bb) : n + block_insts(bb);
            if (per_block && n > most)
                most = n;
        }
        if (n > most)
            most = n;
    }
    return most;
}

/* The target machine again, with the same target, processor and features,
 * at code generation level None. */
static bool recreate_tm_unoptimised(TargetCtx *tc)
{
    char *triple = LLVMGetTargetMachineTriple(tc->tm), *cpu = LLVMGetTargetMachineCPU(tc->tm);
    char *features = LLVMGetTargetMachineFeatureString(tc->tm);
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(LLVMGetTargetMachineTarget(tc->tm), triple, cpu, features,
                                                      LLVMCodeGenLevelNone, tc->tm_reloc, LLVMCodeModelDefault);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    if (!tm) {
        diag_plain(tc->diags, DIAG_INTERNAL, "cannot create an LLVM target machine for a huge kernel");
        return false;
    }
    if (!tc->tm_slot || tc->tm != tc->tm_slot->tm)
        LLVMDisposeTargetMachine(tc->tm); /* the pooled one goes back at the end */
    tc->tm = tm;
    return true;
}

bool llvm_run_passes(TargetCtx *tc, const char *passes, const char *what)
{
#ifdef JUKE_HAVE_LLVM_EMIT
    char *err = NULL;
    int r = jk_run_passes(tc->mod, tc->tm, passes, &err);
    if (r > 0)
        return true;
    if (what) {
        if (r < 0)
            diag_plain(tc->diags, DIAG_NOMEM, "out of memory");
        else
            diag_plain(tc->diags, DIAG_INTERNAL, "LLVM optimisation (%s)%s%s failed: %s", passes, *what ? " " : "",
                       what, err ? err : "?");
    }
    free(err);
    return false;
#else
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(tc->mod, passes, tc->tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (!e)
        return true;
    if (!what) {
        LLVMConsumeError(e);
        return false;
    }
    char *msg = LLVMGetErrorMessage(e);
    diag_plain(tc->diags, DIAG_INTERNAL, "LLVM optimisation (%s)%s%s failed: %s", passes, *what ? " " : "", what, msg);
    LLVMDisposeErrorMessage(msg);
    return false;
#endif
}

/* ---- library entry points inlined first ------------------------------------
 * -O3 inlines bottom-up: ocml's sin_f32 gets its argument reduction
 * (__ocmlpriv_trigred_f32) inlined before sin itself goes into the kernel,
 * so a kernel calling sin(x) and cos(x) gets two copies of the reduction,
 * branches and tables included, that nothing merges afterwards. Inlined the
 * other way round, the kernel first gets the two entry points' bodies, whose
 * calls of the reduction on the same value are one pure call that EarlyCSE
 * keeps once; the reduction is inlined after. The values are the same calls'
 * values, so results do not change (mathfuns on gfx90a: 434 instructions to
 * about 300, and its compile time with them: bench/RESULTS.md §4g).
 *
 * The libraries are built as OpenCL or CUDA code, where every function is
 * convergent, and a convergent call is never merged. A library function
 * whose body calls nothing convergent (no cross-lane operation, no barrier,
 * no asm, no indirect call), itself or through the functions it calls, is
 * not: that is LLVM's own inference (FunctionAttrs), done here before the
 * inliner rather than after it. */

/* The string attribute that marks a library definition from its linking
 * (adopt_library_global) until the start of optimisation. */
static const char LIB_ATTR[] = "juke-library";

static bool has_fn_attr(LLVMValueRef f, unsigned kind)
{
    return LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind) != NULL;
}

static void add_fn_attr(LLVMValueRef f, unsigned kind)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
}

static bool is_call(LLVMValueRef in)
{
    return LLVMIsACallInst(in) || LLVMIsAInvokeInst(in) || LLVMIsACallBrInst(in);
}

static bool call_is_convergent(LLVMValueRef call, unsigned conv)
{
    return LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, conv) != NULL;
}

/* The index of f among the library's n definitions, or -1. */
static int lib_index(LLVMValueRef *lib, int n, LLVMValueRef f)
{
    for (int i = 0; i < n; i++)
        if (lib[i] == f)
            return i;
    return -1;
}

/* Whether library function lib[i]'s body calls only what cannot be
 * convergent: non-convergent declarations and library functions still safe. */
static bool calls_nothing_convergent(LLVMValueRef *lib, const bool *safe, int n, int i, unsigned conv)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(lib[i]); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (!is_call(in))
                continue;
            LLVMValueRef callee = LLVMGetCalledValue(in);
            if (!LLVMIsAFunction(callee)) /* asm, a pointer */
                return false;
            int j = lib_index(lib, n, callee);
            if (j >= 0 ? !safe[j] : has_fn_attr(callee, conv) || call_is_convergent(in, conv))
                return false;
        }
    return true;
}

static bool inline_library_entries(TargetCtx *tc, bool cse)
{
    LLVMModuleRef m = tc->mod;
    unsigned conv = LLVMGetEnumAttributeKindForName("convergent", 10);
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    int n = 0, cap = 0;
    LLVMValueRef *lib = NULL;
    bool ok = true;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, LIB_ATTR, sizeof LIB_ATTR - 1))
            continue;
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, LIB_ATTR, sizeof LIB_ATTR - 1);
        if (!cse || LLVMIsDeclaration(f))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            LLVMValueRef *p = realloc(lib, (size_t)cap * sizeof *p);
            if (!p) {
                free(lib);
                return true; /* the plain bottom-up order: the same code as before, larger */
            }
            lib = p;
        }
        lib[n++] = f;
    }
    if (n == 0)
        return true;
    bool *safe = malloc((size_t)n * 2 * sizeof *safe), *entry = safe + n;
    if (!safe) {
        free(lib);
        return true;
    }
    for (int i = 0; i < n; i++)
        safe[i] = true, entry[i] = false;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++)
            if (safe[i] && !calls_nothing_convergent(lib, safe, n, i, conv))
                safe[i] = false, changed = true;
    }
    /* the convergent attributes go, on the definitions and on their calls;
     * the entry points are the library functions the rest of the module calls */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        bool caller_is_lib = lib_index(lib, n, f) >= 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                if (!is_call(in))
                    continue;
                int j = lib_index(lib, n, LLVMGetCalledValue(in));
                if (j < 0)
                    continue;
                if (safe[j])
                    LLVMRemoveCallSiteEnumAttribute(in, LLVMAttributeFunctionIndex, conv);
                if (!caller_is_lib)
                    entry[j] = true;
            }
    }
    /* the functions below the entry points wait for the second round */
    for (int i = 0; i < n; i++) {
        if (safe[i])
            LLVMRemoveEnumAttributeAtIndex(lib[i], LLVMAttributeFunctionIndex, conv);
        if (entry[i] || !has_fn_attr(lib[i], always))
            lib[i] = NULL;
        else
            LLVMRemoveEnumAttributeAtIndex(lib[i], LLVMAttributeFunctionIndex, always);
    }
    ok = llvm_run_passes(tc, "always-inline,function(early-cse)", "inlining the library's entry points");
    for (int i = 0; i < n; i++)
        if (lib[i])
            add_fn_attr(lib[i], always);
    free(safe);
    free(lib);
    return ok;
}

bool llvm_optimize(TargetCtx *tc, int opt_level)
{
    if (!inline_library_entries(tc, opt_level >= 2))
        return false;
    /* O0 still inlines alwaysinline helpers; globaldce drops the internalised
     * library functions nothing calls (higher levels do both themselves). */
    const char *passes = opt_level <= 0   ? "always-inline,globaldce"
                         : opt_level == 1 ? "default<O1>"
                         : opt_level == 2 ? "default<O2>"
                                          : "default<O3>";
    if (opt_level >= 2 && largest_insts(tc->mod, false) > HUGE_FUNCTION_INSTS)
        passes = "default<O1>";
    if (!llvm_run_passes(tc, passes, ""))
        return false;
    /* bounds checks implied by their guards go; on GPUs, where each is a
     * divergent branch, the rest of a straight run become one branch (on
     * the CPU a branch is cheap, and the merged one kept more registers
     * live: bench/RESULTS.md); simplifycfg drops the decided ones */
    CheckoptStats cs = { 0 };
    int mc = tc->opts->merge_checks;
    if (opt_level >= 2 && checkopt_run(tc->mod, mc > 0 || (mc == 0 && tc->opts->kind != TARGET_CPU), &cs)) {
        if (!llvm_run_passes(tc, "instsimplify,simplifycfg,dce", "after checkopt"))
            return false;
    }
    /* the 32-bit class: compares of values its facts bound to 32 bits, narrowed (narrow.c) after checkopt,
     * which decided the implied checks in the compares' own width; instcombine folds the truncations. Where
     * addr32.c forms the addresses in 32 bits, the guards too (measured on the H200 together: diffusion2d
     * 990 us against 998 with 64-bit guards; alone, a 32-bit guard had cost it 1 %: bench/RESULTS.md §15, §17) */
    bool a32 = opt_level >= 2 && tc->opts->index32 && tc->ops->addr32 && addr32_applies(tc->mod);
    if (opt_level >= 2 && tc->opts->index32 &&
        narrow_run(tc->mod, tc->opts->small_grid ? tc->ops->group_id_intrinsic : NULL, tc->ops->narrow_guards || a32)) {
        if (!llvm_run_passes(tc, "instcombine<no-verify-fixpoint>,simplifycfg,dce", "after narrowing"))
            return false;
    }
    /* a merged check's compares that its others or its guards imply, out of the hot path (NVPTX, where the
     * checked diffusion2d's loads wait for the check: 1.049x of @inbounds to 1.026x, bench/RESULTS.md §19b) */
    if (a32 && narrow_drop_implied(tc->mod, tc->opts->small_grid ? tc->ops->group_id_intrinsic : NULL)) {
        if (!llvm_run_passes(tc, "dce", "after dropping implied compares"))
            return false;
    }
    /* last: no pass after it may infer the wrap flags that let code generation split the 32-bit indices */
    if (a32 && addr32_run(tc->mod)) {
        if (!llvm_run_passes(tc, "dce", "after addr32"))
            return false;
    }
    if (opt_level >= 1 && largest_insts(tc->mod, true) > HUGE_BLOCK_INSTS)
        return recreate_tm_unoptimised(tc);
    return true;
}

bool llvm_verify(TargetCtx *tc)
{
    char *msg = NULL;
    if (LLVMVerifyModule(tc->mod, LLVMReturnStatusAction, &msg)) {
        size_t n = msg ? strlen(msg) : 0;
        while (n && msg[n - 1] == '\n')
            msg[--n] = 0;
        diag_plain(tc->diags, DIAG_INVALID_IR, "LLVM IR verification failed:\n%s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        return false;
    }
    LLVMDisposeMessage(msg);
    return true;
}

/* ---- assembly with source lines -------------------------------------------
 * The assembly of a module with line information carries .file/.loc
 * directives (the DWARF line table, as the assembler would encode it) and the
 * DWARF sections themselves. The listing a user reads gets a comment with
 * the file, line and source text wherever the line changes, and loses the
 * directives, the debug sections and what only they needed (.cfi for
 * .debug_frame, labels only they reference, PTX's ", debug"): the code object
 * has none of them either. */

/* Source line `line` (1-based) of src, without its newline; *n its length. */
static const char *src_line_text(const SrcFile *src, int line, size_t *n)
{
    *n = 0;
    if (!src || !src->text || line < 1)
        return NULL;
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return NULL;
        p = nl + 1;
    }
    const char *e = memchr(p, '\n', (size_t)(end - p));
    size_t len = e ? (size_t)(e - p) : (size_t)(end - p);
    while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' || p[len - 1] == '\t'))
        len--;
    *n = len;
    return p;
}

static const char *skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

static bool starts(const char *p, const char *e, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(e - p) >= n && memcmp(p, s, n) == 0;
}

enum { ASM_MAX_FILES = 64 };

/* The last quoted string of [p, e): the file name of a .file directive. */
static void asm_file_name(const char *p, const char *e, const char **name, size_t *n)
{
    const char *close = NULL, *open = NULL;
    for (const char *q = e; q > p; q--)
        if (q[-1] == '"') {
            if (!close)
                close = q - 1;
            else {
                open = q;
                break;
            }
        }
    *name = open;
    *n = open && close ? (size_t)(close - open) : 0;
}

/* Is [p, e) a label that line information alone introduces (".Ltmp3:",
 * ".Lfunc_begin0:", "$L__tmp0:", "$L__func_begin0:")? *n: the name's length. */
static bool debug_label(const char *p, const char *e, size_t *n)
{
    static const char *const prefixes[] = { ".Ltmp",   ".Lfunc_begin",   ".Lfunc_end",
                                            "$L__tmp", "$L__func_begin", "$L__func_end" };
    if (e <= p || e[-1] != ':')
        return false;
    for (int i = 0; i < JK_ARRAY_LEN(prefixes); i++)
        if (starts(p, e, prefixes[i])) {
            const char *d = p + strlen(prefixes[i]);
            if (d == e - 1)
                return false;
            for (; d < e - 1; d++)
                if (*d < '0' || *d > '9')
                    return false;
            *n = (size_t)(e - 1 - p);
            return true;
        }
    return false;
}

/* How often the label [s, s+n) occurs in text as a whole word. */
static int label_uses(const char *text, const char *s, size_t n)
{
    int uses = 0;
    size_t len = strlen(text);
    for (const char *q = text; (q = memmem(q, len - (size_t)(q - text), s, n)); q += n) {
        char after = q[n];
        if (!((after >= '0' && after <= '9') || (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') ||
              after == '_'))
            uses++;
    }
    return uses;
}

/* The listing of assembly `text` with source-line comments (see above);
 * malloc'd, NULL when out of memory. */
static char *annotate_asm(const TargetCtx *tc, const char *text)
{
    struct {
        const char *name;
        size_t n;
        const SrcFile *src;
    } files[ASM_MAX_FILES] = { { 0 } };
    /* each assembler's own comment: in x86 GNU syntax ';' separates statements */
    const char *comment = tc->opts->kind == TARGET_NVPTX ? "//" : tc->opts->kind == TARGET_CPU ? "#" : ";";
    const char *end = text + strlen(text);
    /* the file table first: PTX lists it after the code */
    for (const char *p = text; p < end;) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        const char *q = skip_ws(p, e);
        if (starts(q, e, ".file") && (q[5] == ' ' || q[5] == '\t')) {
            long id = strtol(q + 6, NULL, 10);
            if (id >= 0 && id < ASM_MAX_FILES) {
                asm_file_name(q, e, &files[id].name, &files[id].n);
                for (int i = 0; i < tc->ndebug_files; i++) {
                    const SrcFile *f = tc->debug_files[i];
                    if (f && f->name && strlen(f->name) == files[id].n && files[id].name &&
                        memcmp(f->name, files[id].name, files[id].n) == 0)
                        files[id].src = f;
                }
            }
        }
        p = e + (e < end);
    }
    StrBuf out = { 0 };
    long last_file = -1, last_line = -1;
    bool in_debug = false, ptx_block = false;
    for (const char *p = text; p < end;) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        const char *q = skip_ws(p, e);
        const char *next = e + (e < end);
        bool debug_section = starts(q, e, ".section") && memmem(q, (size_t)(e - q), ".debug_", 7);
        bool switches =
            starts(q, e, ".section") || starts(q, e, ".text") || starts(q, e, ".data") || starts(q, e, ".bss");
        if (in_debug) {
            /* GNU syntax: a debug section runs to the next section; PTX: a { } block */
            if (ptx_block ? starts(q, e, "}") : switches)
                in_debug = false;
            if (in_debug || ptx_block) {
                p = next;
                continue;
            }
        }
        if (debug_section) {
            in_debug = true;
            ptx_block = comment[0] == '/';
            p = next;
            continue;
        }
        if ((starts(q, e, ".file") && !memchr(q, '"', 7)) || starts(q, e, ".cfi_")) {
            p = next;
            continue;
        }
        if (starts(q, e, ".loc") && (q[4] == ' ' || q[4] == '\t')) {
            char *x;
            long file = strtol(q + 5, &x, 10), line = strtol(x, NULL, 10);
            if (line > 0 && (file != last_file || line != last_line) && file >= 0 && file < ASM_MAX_FILES &&
                files[file].name) {
                size_t tn;
                const char *t = src_line_text(files[file].src, (int)line, &tn);
                sb_printf(&out, "\t%s %.*s:%ld:%s%.*s\n", comment, (int)files[file].n, files[file].name, line,
                          t ? " " : "", (int)tn, t ? t : "");
                last_file = file;
                last_line = line;
            }
            p = next;
            continue;
        }
        if (starts(q, e, ".target") && comment[0] == '/') {
            const char *d = strstr(q, ", debug");
            if (d && d < e) {
                sb_putn(&out, p, (size_t)(d - p));
                sb_putn(&out, d + 7, (size_t)(e - (d + 7)));
                sb_puts(&out, "\n");
                p = next;
                continue;
            }
        }
        sb_putn(&out, p, (size_t)(next - p));
        p = next;
    }
    if (out.failed) {
        sb_free(&out);
        return NULL;
    }
    char *mid = sb_take(&out);
    if (!mid)
        return NULL;
    /* drop the labels nothing references any more */
    const char *mend = mid + strlen(mid);
    for (const char *p = mid; p < mend;) {
        const char *e = memchr(p, '\n', (size_t)(mend - p));
        if (!e)
            e = mend;
        const char *next = e + (e < mend);
        size_t n;
        if (!(debug_label(p, e, &n) && label_uses(mid, p, n) == 1))
            sb_putn(&out, p, (size_t)(next - p));
        p = next;
    }
    free(mid);
    if (out.failed) {
        sb_free(&out);
        return NULL;
    }
    return sb_take(&out);
}

/* ---- printing with source lines --------------------------------------------
 * The module is printed by LLVM with its debug metadata; the text is then
 * rewritten as Julia's code_llvm shows it: a comment line
 * ";  @ file.jl:5 within `f`" wherever an instruction's source line changes
 * (";  ┌ @ ..." / "; └" around code inlined from another function), and no
 * !dbg attachments or debug metadata left over. Other metadata (ranges,
 * module flags) stays. */

typedef struct MdDef {
    const char *text; /* what follows "!N = ", up to the end of the line */
    size_t len;
    bool keep;
} MdDef;

typedef struct MdTable {
    MdDef *defs;
    int n;
} MdTable;

typedef struct DbgFrame {
    int sp, line, file; /* metadata ids; line 0 when unknown */
} DbgFrame;

enum { DBG_MAX_DEPTH = 32 };

/* The number after the first occurrence of key in [s, s+n) (key ends in "!"
 * or ": "), or -1. */
static long md_field_num(const char *s, size_t n, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl <= n; i++)
        if (memcmp(s + i, key, kl) == 0) {
            const char *p = s + i + kl;
            if (p >= s + n || *p < '0' || *p > '9')
                return -1;
            return strtol(p, NULL, 10);
        }
    return -1;
}

/* The quoted string after key (key ends in '"'), its length in *len; NULL if absent. */
static const char *md_field_str(const char *s, size_t n, const char *key, size_t *len)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl <= n; i++)
        if (memcmp(s + i, key, kl) == 0) {
            const char *p = s + i + kl, *e = memchr(p, '"', (size_t)(s + n - p));
            if (!e)
                return NULL;
            *len = (size_t)(e - p);
            return p;
        }
    return NULL;
}

static const MdDef *md_get(const MdTable *t, long id)
{
    return id >= 0 && id < t->n && t->defs[id].text ? &t->defs[id] : NULL;
}

static bool md_is(const MdDef *d, const char *kind)
{
    if (!d)
        return false;
    const char *p = d->text;
    if (d->len > 9 && memcmp(p, "distinct ", 9) == 0)
        p += 9;
    return strncmp(p, kind, strlen(kind)) == 0;
}

/* For each "!N" (metadata reference) in [s, s+n) outside quoted strings,
 * call fn(N, arg). */
static void md_each_ref(const char *s, size_t n, void (*fn)(long, void *), void *arg)
{
    bool quoted = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            quoted = !quoted;
        else if (!quoted && s[i] == '!' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
            fn(strtol(s + i + 1, NULL, 10), arg);
    }
}

static void md_mark(long id, void *arg)
{
    MdTable *t = arg;
    if (id < 0 || id >= t->n || !t->defs[id].text || t->defs[id].keep)
        return;
    t->defs[id].keep = true;
    md_each_ref(t->defs[id].text, t->defs[id].len, md_mark, t);
}

/* Is [s, s+n) the definition "!N = ..."? Sets *id. */
static bool md_def_line(const char *s, size_t n, long *id)
{
    if (n < 2 || s[0] != '!' || s[1] < '0' || s[1] > '9')
        return false;
    *id = strtol(s + 1, NULL, 10);
    return true;
}

static bool is_debug_flag(const MdTable *t, long id)
{
    const MdDef *d = md_get(t, id);
    if (!d)
        return false;
    size_t n;
    const char *s = md_field_str(d->text, d->len, "!\"", &n);
    return s &&
           ((n == 18 && memcmp(s, "Debug Info Version", 18) == 0) || (n == 13 && memcmp(s, "Dwarf Version", 13) == 0));
}

/* The line [s, s+n) as printed: no !dbg attachment, no debug module flag;
 * false if the whole line goes (debug named metadata, a debug node). *dbg
 * gets the attachment's id or -1. */
static bool edit_ir_line(const MdTable *t, const char *s, size_t n, StrBuf *out, long *dbg)
{
    *dbg = -1;
    long id;
    if (md_def_line(s, n, &id)) {
        if (!md_get(t, id) || !t->defs[id].keep)
            return false;
        sb_putn(out, s, n);
        return true;
    }
    if (n >= 12 && memcmp(s, "!llvm.dbg.", 10) == 0)
        return false;
    if (n >= 19 && memcmp(s, "!llvm.module.flags ", 19) == 0) {
        const char *open = memchr(s, '{', n);
        if (!open)
            return true;
        StrBuf list = { 0 };
        int kept = 0;
        for (const char *p = open + 1; p < s + n; p++)
            if (*p == '!' && p[1] >= '0' && p[1] <= '9') {
                long f = strtol(p + 1, NULL, 10);
                if (!is_debug_flag(t, f))
                    sb_printf(&list, "%s!%ld", kept++ ? ", " : "", f);
            }
        if (kept)
            sb_printf(out, "!llvm.module.flags = !{%s}", list.data);
        sb_free(&list);
        return kept > 0;
    }
    bool quoted = false;
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            quoted = !quoted;
        if (quoted || s[i] != '!' || n - i < 6 || memcmp(s + i, "!dbg !", 6) != 0)
            continue;
        size_t start = i, end = i + 6;
        while (end < n && s[end] >= '0' && s[end] <= '9')
            end++;
        *dbg = strtol(s + i + 6, NULL, 10);
        if (start >= 2 && s[start - 2] == ',' && s[start - 1] == ' ')
            start -= 2;
        else if (start >= 1 && s[start - 1] == ' ')
            start -= 1;
        sb_putn(out, s + from, start - from);
        from = end;
        i = end - 1;
    }
    sb_putn(out, s + from, n - from);
    return true;
}

/* The subprogram a scope belongs to (through lexical blocks), or -1. */
static long md_subprogram(const MdTable *t, long scope)
{
    for (int hops = 0; hops < 64; hops++) {
        const MdDef *d = md_get(t, scope);
        if (!d)
            return -1;
        if (md_is(d, "!DISubprogram("))
            return scope;
        scope = md_field_num(d->text, d->len, "scope: !");
    }
    return -1;
}

/* The inlining chain of location loc, outermost frame first; returns its depth. */
static int dbg_chain(const MdTable *t, long loc, DbgFrame *chain)
{
    DbgFrame rev[DBG_MAX_DEPTH];
    int n = 0;
    while (n < DBG_MAX_DEPTH) {
        const MdDef *d = md_get(t, loc);
        if (!d || !md_is(d, "!DILocation("))
            break;
        long sp = md_subprogram(t, md_field_num(d->text, d->len, "scope: !"));
        const MdDef *spd = md_get(t, sp);
        if (!spd)
            break;
        long line = md_field_num(d->text, d->len, "line: ");
        if (!memmem(spd->text, spd->len, "DIFlagArtificial", 16)) /* a target's wrapper (codegen.c) */
            rev[n++] =
                (DbgFrame){ (int)sp, line > 0 ? (int)line : 0, (int)md_field_num(spd->text, spd->len, "file: !") };
        loc = md_field_num(d->text, d->len, "inlinedAt: !");
    }
    for (int i = 0; i < n; i++)
        chain[i] = rev[n - 1 - i];
    return n;
}

static void put_bars(StrBuf *out, int n, const char *bar)
{
    for (int i = 0; i < n; i++)
        sb_puts(out, bar);
}

/* "file.jl:5 within `f`" of a frame, after the prefix the depth asks for. */
static void put_frame(const MdTable *t, StrBuf *out, DbgFrame f)
{
    const MdDef *sp = md_get(t, f.sp), *file = md_get(t, f.file);
    size_t nn = 0, fn = 0, dn = 0;
    const char *name = sp ? md_field_str(sp->text, sp->len, "name: \"", &nn) : NULL;
    const char *fname = file ? md_field_str(file->text, file->len, "filename: \"", &fn) : NULL;
    const char *dir = file ? md_field_str(file->text, file->len, "directory: \"", &dn) : NULL;
    sb_puts(out, " @ ");
    if (dir && dn && fname && fn && fname[0] != '/')
        sb_printf(out, "%.*s/", (int)dn, dir);
    sb_printf(out, "%.*s:%d within `%.*s`\n", (int)fn, fname ? fname : "?", f.line, (int)nn, name ? name : "?");
}

/* Print what changes from chain *cur (depth *ncur) to chain c (depth nc), as
 * Julia's DILineInfoPrinter does, and make c current. */
static void dbg_transition(const MdTable *t, StrBuf *out, DbgFrame *cur, int *ncur, const DbgFrame *c, int nc)
{
    int k = 0;
    while (k < *ncur && k < nc && cur[k].sp == c[k].sp && cur[k].line == c[k].line)
        k++;
    if (k == *ncur && k == nc)
        return;
    bool moved = k < *ncur && k < nc && cur[k].sp == c[k].sp; /* same function, another line */
    int keep = moved ? k + 1 : k;
    if (*ncur > keep && keep > 0) {
        sb_puts(out, "; ");
        put_bars(out, keep - 1, "│");
        put_bars(out, *ncur - keep, "└");
        sb_puts(out, "\n");
    }
    if (moved) {
        sb_puts(out, "; ");
        put_bars(out, k, "│");
        put_frame(t, out, c[k]);
    }
    for (int d = keep; d < nc; d++) {
        sb_puts(out, "; ");
        if (d > 0) {
            put_bars(out, d - 1, "│");
            sb_puts(out, "┌");
        }
        put_frame(t, out, c[d]);
    }
    memmove(cur, c, (size_t)nc * sizeof *c);
    *ncur = nc;
}

/* The module text of LLVM with source-line comments and without debug
 * metadata (see above); malloc'd, NULL when out of memory. */
static char *annotate_ir(const char *text)
{
    size_t len = strlen(text);
    MdTable t = { 0 };
    for (const char *p = text; p < text + len;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        long id;
        if (md_def_line(p, n, &id) && id >= t.n)
            t.n = (int)id + 1;
        p += n + (e ? 1 : 0);
    }
    t.defs = calloc((size_t)t.n + 1, sizeof *t.defs);
    if (!t.defs)
        return NULL;
    for (const char *p = text; p < text + len;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        long id;
        /* searched within the line: a strstr over the rest of the module per
         * metadata line is quadratic in the module's size */
        const char *eq = n > 4 ? memmem(p, n, " = ", 3) : NULL;
        if (md_def_line(p, n, &id) && eq && id < t.n) {
            t.defs[id].text = eq + 3;
            t.defs[id].len = (size_t)(p + n - (eq + 3));
        }
        p += n + (e ? 1 : 0);
    }
    /* what the printed lines still reference stays, with what that references */
    StrBuf line = { 0 }, out = { 0 };
    for (const char *p = text; p < text + len;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        long id, dbg;
        line.len = 0;
        if (!md_def_line(p, n, &id) && edit_ir_line(&t, p, n, &line, &dbg) && line.data)
            md_each_ref(line.data, line.len, md_mark, &t);
        p += n + (e ? 1 : 0);
    }
    DbgFrame cur[DBG_MAX_DEPTH], c[DBG_MAX_DEPTH];
    int ncur = 0;
    size_t attrs_at = SIZE_MAX; /* where a "; Function Attrs" line just printed starts */
    for (const char *p = text; p < text + len;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        long dbg;
        line.len = 0;
        if (edit_ir_line(&t, p, n, &line, &dbg)) {
            if (n >= 7 && memcmp(p, "define ", 7) == 0) {
                ncur = 0;
                const MdDef *sp = md_get(&t, dbg);
                if (sp && md_is(sp, "!DISubprogram(")) {
                    long l = md_field_num(sp->text, sp->len, "line: ");
                    cur[0] =
                        (DbgFrame){ (int)dbg, l > 0 ? (int)l : 0, (int)md_field_num(sp->text, sp->len, "file: !") };
                    ncur = 1;
                    /* above the attributes, as Julia prints it */
                    char *attrs = attrs_at < out.len ? strndup(out.data + attrs_at, out.len - attrs_at) : NULL;
                    if (attrs)
                        out.len = attrs_at;
                    sb_puts(&out, "; ");
                    put_frame(&t, &out, cur[0]);
                    if (attrs)
                        sb_puts(&out, attrs);
                    free(attrs);
                }
            } else if (n == 1 && p[0] == '}') {
                if (ncur > 1)
                    dbg_transition(&t, &out, cur, &ncur, cur, 1);
                ncur = 0;
            } else if (dbg >= 0 && ncur > 0) {
                int nc = dbg_chain(&t, dbg, c);
                if (nc > 0)
                    dbg_transition(&t, &out, cur, &ncur, c, nc);
            }
            attrs_at = n >= 16 && memcmp(p, "; Function Attrs", 16) == 0 ? out.len : SIZE_MAX;
            sb_putn(&out, line.data ? line.data : "", line.len);
            sb_puts(&out, "\n");
        }
        p += n + (e ? 1 : 0);
    }
    if (len && text[len - 1] != '\n' && out.len)
        out.len--, out.data[out.len] = 0;
    sb_free(&line);
    free(t.defs);
    if (out.failed) {
        sb_free(&out);
        return NULL;
    }
    return sb_take(&out);
}

char *llvm_module_text(LLVMModuleRef m)
{
    char *raw = LLVMPrintModuleToString(m);
    char *r = raw ? annotate_ir(raw) : NULL;
    LLVMDisposeMessage(raw);
    return r;
}

/* Printed from the whole module, so the function's !dbg references resolve
 * against the module's metadata; then cut out with the comment lines above
 * its "define". */
char *llvm_function_text(LLVMValueRef fn, const char *module_text)
{
    const char *all = module_text;
    if (!all)
        return NULL;
    size_t nl;
    const char *name = LLVMGetValueName2(fn, &nl);
    const char *start = NULL, *end = NULL;
    for (const char *p = all; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (!start && n >= 7 && memcmp(p, "define ", 7) == 0) {
            const char *at = strstr(p, "@");
            if (at && at < p + n && strncmp(at + 1, name, nl) == 0 && at[1 + nl] == '(') {
                start = p;
                /* the comments above it (attributes, source line) belong to it */
                while (start > all) {
                    const char *q = start - 1;
                    while (q > all && q[-1] != '\n')
                        q--;
                    if (*q != ';')
                        break;
                    start = q;
                }
            }
        } else if (start && n == 1 && *p == '}') {
            end = p + 1;
            break;
        }
        if (!e)
            break;
        p = e + 1;
    }
    char *r = start && end ? strndup(start, (size_t)(end - start) + 1) : NULL;
    if (r)
        r[end - start] = '\n', r[end - start + 1] = 0;
    return r;
}

/* The buffer is NUL-terminated (assembly is text); *size excludes the NUL. */
bool llvm_emit_to_memory(TargetCtx *tc, LLVMCodeGenFileType kind, uint8_t **data, size_t *size)
{
    char *err = NULL;
    LLVMMemoryBufferRef buf = NULL;
    *data = NULL;
    *size = 0;
#ifdef JUKE_HAVE_LLVM_EMIT
    TmSlot *slot = tc->tm_slot;
    if (kind == LLVMObjectFile && tc->ops->reuse_codegen && slot && slot->tm == tc->tm) {
        if (!slot->codegen)
            slot->codegen = jk_codegen_new(tc->tm);
        int r = slot->codegen ? jk_codegen_emit_object(slot->codegen, tc->mod, data, size) : 0;
        if (r < 0)
            diag_plain(tc->diags, DIAG_NOMEM, "out of memory");
        if (r != 0)
            return r > 0;
    }
#endif
    if (LLVMTargetMachineEmitToMemoryBuffer(tc->tm, tc->mod, kind, &err, &buf)) {
        diag_plain(tc->diags, DIAG_INTERNAL, "LLVM %s emission failed: %s",
                   kind == LLVMAssemblyFile ? "assembly" : "object", err ? err : "?");
        LLVMDisposeMessage(err);
        return false;
    }
    size_t n = LLVMGetBufferSize(buf);
    uint8_t *p = malloc(n + 1);
    if (!p) {
        LLVMDisposeMemoryBuffer(buf);
        diag_plain(tc->diags, DIAG_INTERNAL, "out of memory");
        return false;
    }
    memcpy(p, LLVMGetBufferStart(buf), n);
    p[n] = 0;
    LLVMDisposeMemoryBuffer(buf);
    *data = p;
    *size = n;
    return true;
}

/* Code generation rewrites IR (on AMDGPU: LDS and kernel-argument
 * lowering), so the assembly is produced from a copy and the object, later,
 * from the module itself. */
bool llvm_emit_asm_from_copy(TargetCtx *tc, CodeObject *out)
{
    LLVMModuleRef saved = tc->mod, copy = LLVMCloneModule(tc->mod);
    tc->mod = copy;
    uint8_t *text;
    size_t n;
    bool ok = llvm_emit_to_memory(tc, LLVMAssemblyFile, &text, &n);
    tc->mod = saved;
    LLVMDisposeModule(copy);
    if (ok && tc->ndebug_files) {
        char *listing = annotate_asm(tc, (const char *)text);
        free(text);
        text = (uint8_t *)listing;
        if (!listing) {
            diag_plain(tc->diags, DIAG_NOMEM, "out of memory");
            ok = false;
        }
    }
    if (ok) {
        free(out->asm_text);
        out->asm_text = (char *)text;
    }
    return ok;
}

/* LLVM promises that debug information never changes the code it makes, so
 * the object of a module stripped of it is the object of a module that
 * never had it. */
void llvm_strip_debug_info(TargetCtx *tc)
{
    if (tc->ndebug_files)
        LLVMStripModuleDebugInfo(tc->mod);
}

bool llvm_emit_shared_object(TargetCtx *tc, const char *const *lld_args, uint8_t **so, size_t *sosize)
{
    uint8_t *obj;
    size_t objsize;
    llvm_strip_debug_info(tc);
    if (!llvm_emit_to_memory(tc, LLVMObjectFile, &obj, &objsize))
        return false;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool ok = lld_link_shared(tc, obj, objsize, lld_args, so, sosize);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    tc->ms_link = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    free(obj);
    return ok;
}

void target_take_code(TargetCtx *tc, CodeObject *out, TargetKind kind, uint8_t *data, size_t size, const char *symbol)
{
    free(out->data);
    out->data = data;
    out->size = size;
    out->kind = kind;
    if (!out->proc)
        out->proc = strdup(tc->proc);
    if (!out->kernel_symbol && symbol)
        out->kernel_symbol = strdup(symbol);
    out->uses_barrier = tc->uses_barrier;
    out->uses_grid_sync = tc->uses_grid_sync;
    out->uses_dynamic_lds = tc->uses_dynamic_lds;
}

long target_group_items(const TargetOptions *o, long dflt)
{
    const int *g = o->group_size;
    return g[0] > 0 ? (long)g[0] * (g[1] > 0 ? g[1] : 1) * (g[2] > 0 ? g[2] : 1) : dflt;
}

/* ---- device libraries ------------------------------------------------------ */
bool target_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool target_find_devlib(const TargetCtx *tc, const char *dflt, const char *fallback, const char *file, bool file_ok,
                        char *path, size_t n, const char **found, StrBuf *looked)
{
    const char *cands[2] = { dflt, fallback };
    int ncands = 2;
    /* An explicit choice that is wrong is an error rather than silently replaced. */
    if (tc->opts->devlib_dir && *tc->opts->devlib_dir) {
        cands[0] = tc->opts->devlib_dir;
        ncands = 1;
    }
    for (int i = 0; i < ncands; i++) {
        snprintf(path, n, "%s", cands[i]);
        if (!file_ok || !target_file_exists(path))
            snprintf(path, n, "%s/%s", cands[i], file);
        if (target_file_exists(path)) {
            if (found)
                *found = cands[i];
            return true;
        }
        sb_printf(looked, "%s%s", i ? ", " : "", cands[i]);
    }
    return false;
}

/* ---- ld.lld as a child process -------------------------------------------
 * With memfd_create: the object goes into a memfd the child sees as fd 3
 * (/dev/fd/3), ld.lld writes the output to stdout ("-o -") and its messages
 * to stderr, both memfds; nothing touches the file system. Without memfd:
 * a private mkdtemp directory, emptied and removed on every path. All fds
 * are close-on-exec in this process so concurrent spawns from other threads
 * do not inherit them; posix_spawn's dup2 clears the flag in the child. */

static int memfd_high(const char *name)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fd < 10) { /* keep clear of 0..3, which the child's dup2s use */
        int hi = fcntl(fd, F_DUPFD_CLOEXEC, 10);
        close(fd);
        fd = hi;
    }
    return fd;
}

static bool write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Read the whole file behind fd from its start into a malloc'd buffer
 * (NUL-terminated, *n excludes the NUL). */
static uint8_t *read_all_fd(int fd, size_t *n)
{
    struct stat st;
    *n = 0;
    if (fstat(fd, &st) != 0 || lseek(fd, 0, SEEK_SET) < 0)
        return NULL;
    size_t sz = (size_t)st.st_size, got = 0;
    uint8_t *p = malloc(sz + 1);
    if (!p)
        return NULL;
    while (got < sz) {
        ssize_t r = read(fd, p + got, sz - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    p[got] = 0;
    *n = got;
    return p;
}

/* argv: ld.lld -shared [extra...] -o OUT IN */
static int build_argv(const char **argv, int max, const char *const *extra, const char *outpath, const char *inpath)
{
    int n = 0;
    argv[n++] = JUKE_LD_LLD;
    argv[n++] = "-shared";
    argv[n++] = "--threads=1"; /* a tiny link: starting lld's thread pool costs more than it saves */
    for (int i = 0; extra && extra[i] && n < max - 5; i++)
        argv[n++] = extra[i];
    argv[n++] = "-o";
    argv[n++] = outpath;
    argv[n++] = inpath;
    argv[n] = NULL;
    return n;
}

/* Spawn ld.lld and wait. Returns false with a message in *why when it could
 * not run or failed; stderr_fd holds what it printed. */
static bool run_lld(TargetCtx *tc, const char **argv, posix_spawn_file_actions_t *fa, int stderr_fd)
{
    pid_t pid;
    int rc = posix_spawn(&pid, JUKE_LD_LLD, fa, NULL, (char *const *)argv, environ);
    if (rc != 0) {
        if (rc == ENOENT)
            diag_plain(tc->diags, DIAG_USER, "the linker ld.lld was not found at %s (install lld-19)", JUKE_LD_LLD);
        else
            diag_plain(tc->diags, DIAG_INTERNAL, "cannot run %s: %s", JUKE_LD_LLD, strerror(rc));
        return false;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            diag_plain(tc->diags, DIAG_INTERNAL, "waiting for %s: %s", JUKE_LD_LLD, strerror(errno));
            return false;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return true;
    size_t n = 0;
    uint8_t *msg = stderr_fd >= 0 ? read_all_fd(stderr_fd, &n) : NULL;
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && n == 0)
        diag_plain(tc->diags, DIAG_USER, "the linker ld.lld could not be started from %s", JUKE_LD_LLD);
    else
        diag_plain(tc->diags, DIAG_INTERNAL, "ld.lld failed (%s %d): %s", WIFEXITED(status) ? "exit status" : "signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), n ? (char *)msg : "(no message)");
    free(msg);
    return false;
}

static bool link_with_memfd(TargetCtx *tc, const uint8_t *obj, size_t objsize, const char *const *extra, uint8_t **out,
                            size_t *outsize, bool *unavailable)
{
    int infd = memfd_high("juke-obj"), outfd = -1, errfd = -1;
    bool ok = false;
    *unavailable = infd < 0;
    if (infd < 0)
        return false;
    outfd = memfd_high("juke-so");
    errfd = memfd_high("juke-lld-err");
    if (outfd < 0 || errfd < 0) {
        *unavailable = true;
        goto done;
    }
    if (!write_all(infd, obj, objsize)) {
        diag_plain(tc->diags, DIAG_INTERNAL, "writing the object for ld.lld: %s", strerror(errno));
        goto done;
    }
    const char *argv[64];
    build_argv(argv, 64, extra, "-", "/dev/fd/3");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, outfd, 1);
    posix_spawn_file_actions_adddup2(&fa, errfd, 2);
    posix_spawn_file_actions_adddup2(&fa, infd, 3);
    ok = run_lld(tc, argv, &fa, errfd);
    posix_spawn_file_actions_destroy(&fa);
    if (ok) {
        *out = read_all_fd(outfd, outsize);
        if (!*out || *outsize == 0) {
            diag_plain(tc->diags, DIAG_INTERNAL, "ld.lld produced no output");
            free(*out);
            *out = NULL;
            ok = false;
        }
    }
done:
    if (infd >= 0)
        close(infd);
    if (outfd >= 0)
        close(outfd);
    if (errfd >= 0)
        close(errfd);
    return ok;
}

static bool link_with_tmpdir(TargetCtx *tc, const uint8_t *obj, size_t objsize, const char *const *extra, uint8_t **out,
                             size_t *outsize)
{
    const char *base = getenv("TMPDIR");
    char dir[512], in[600], so[600], errp[600];
    snprintf(dir, sizeof dir, "%s/juke-lld-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir)) {
        diag_plain(tc->diags, DIAG_INTERNAL, "cannot create a temporary directory for ld.lld: %s", strerror(errno));
        return false;
    }
    snprintf(in, sizeof in, "%s/in.o", dir);
    snprintf(so, sizeof so, "%s/out.so", dir);
    snprintf(errp, sizeof errp, "%s/err.txt", dir);
    bool ok = false;
    int infd = open(in, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int errfd = open(errp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (infd < 0 || errfd < 0 || !write_all(infd, obj, objsize)) {
        diag_plain(tc->diags, DIAG_INTERNAL, "writing the object for ld.lld: %s", strerror(errno));
        goto done;
    }
    const char *argv[64];
    build_argv(argv, 64, extra, so, in);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, errfd, 2);
    ok = run_lld(tc, argv, &fa, errfd);
    posix_spawn_file_actions_destroy(&fa);
    if (ok) {
        int sofd = open(so, O_RDONLY | O_CLOEXEC);
        *out = sofd >= 0 ? read_all_fd(sofd, outsize) : NULL;
        if (sofd >= 0)
            close(sofd);
        if (!*out) {
            diag_plain(tc->diags, DIAG_INTERNAL, "cannot read ld.lld's output");
            ok = false;
        }
    }
done:
    if (infd >= 0)
        close(infd);
    if (errfd >= 0)
        close(errfd);
    unlink(in);
    unlink(so);
    unlink(errp);
    rmdir(dir);
    return ok;
}

/* extra_args: NULL or a NULL-terminated list placed after "-shared". */
#ifdef JUKE_HAVE_LLD_LIBRARY
int juke_lld_elf_link(int argc, const char *const *argv, char **err); /* lld_inproc.cpp */

/* Drains a pipe into a growing buffer until EOF, so lld never blocks on a
 * full pipe however large the code object. */
typedef struct PipeDrain {
    int fd;
    uint8_t *data;
    size_t len, cap;
    bool failed;
} PipeDrain;

static void *pipe_drain(void *arg)
{
    PipeDrain *d = arg;
    for (;;) {
        if (d->len == d->cap) {
            size_t cap = d->cap ? d->cap * 2 : 64 * 1024;
            uint8_t *p = realloc(d->data, cap + 1);
            if (!p) {
                d->failed = true;
                uint8_t sink[4096]; /* read on to EOF so the writer never blocks */
                ssize_t r;
                while ((r = read(d->fd, sink, sizeof sink)) > 0 || (r < 0 && errno == EINTR)) {
                }
                return NULL;
            }
            d->data = p;
            d->cap = cap;
        }
        ssize_t r = read(d->fd, d->data + d->len, d->cap - d->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            d->failed = true;
        if (r <= 0)
            return NULL;
        d->len += (size_t)r;
    }
}

/* lld in this process. The object is read from a memfd and the output goes
 * into a pipe (-o /proc/self/fd/N) that a thread drains. A pipe, not a file,
 * on purpose: for a regular output path lld's FileOutputBuffer makes a
 * TempFile, whose sys::RemoveFileOnSignal installs LLVM's handlers for INT,
 * TERM, SEGV, USR1... and an alternate signal stack in the host process for
 * good (and leaks an entry per link); for a pipe, and with
 * --no-mmap-output-file, it keeps the output in memory and writes it on
 * commit, touching no signal state. Returns 1 on success, 0 on failure
 * (diagnosed), -1 when lld cannot run in process (the caller spawns it). */
static int link_in_process(TargetCtx *tc, const uint8_t *obj, size_t objsize, const char *const *extra, uint8_t **out,
                           size_t *outsize)
{
    int infd = memfd_create("juke-obj", MFD_CLOEXEC);
    if (infd < 0)
        return -1;
    if (!write_all(infd, obj, objsize)) {
        close(infd);
        return -1;
    }
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0) {
        close(infd);
        return -1;
    }
    PipeDrain drain = { .fd = pfd[0] };
    pthread_t reader;
    if (pthread_create(&reader, NULL, pipe_drain, &drain) != 0) {
        close(pfd[0]);
        close(pfd[1]);
        close(infd);
        return -1;
    }
    const char *more[64] = { "--no-mmap-output-file" };
    int nmore = 1;
    for (int i = 0; extra && extra[i] && nmore < 63; i++)
        more[nmore++] = extra[i];
    more[nmore] = NULL;
    char so[64], in[64];
    snprintf(so, sizeof so, "/proc/self/fd/%d", pfd[1]);
    snprintf(in, sizeof in, "/proc/self/fd/%d", infd);
    const char *argv[64];
    int argc = build_argv(argv, 64, more, so, in);
    char *err = NULL;
    int rc = juke_lld_elf_link(argc, argv, &err);
    close(pfd[1]); /* lld closed its own descriptor: the reader now sees EOF */
    pthread_join(reader, NULL);
    close(pfd[0]);
    close(infd);
    int result = -1;
    if (rc == 0) {
        if (!drain.failed && drain.len) {
            drain.data[drain.len] = 0;
            *out = drain.data;
            *outsize = drain.len;
            drain.data = NULL;
            result = 1;
        } else {
            diag_plain(tc->diags, DIAG_INTERNAL, "cannot read ld.lld's output");
            result = 0;
        }
    } else if (rc == -1) {
        size_t n = err ? strlen(err) : 0;
        while (n && (err[n - 1] == '\n' || err[n - 1] == '\r'))
            err[--n] = 0;
        diag_plain(tc->diags, DIAG_INTERNAL, "ld.lld failed: %s", err ? err : "(no message)");
        result = 0;
    }
    free(drain.data);
    free(err);
    return result;
}
#endif

bool lld_link_shared(TargetCtx *tc, const uint8_t *obj, size_t objsize, const char *const *extra_args, uint8_t **out,
                     size_t *outsize)
{
    *out = NULL;
    *outsize = 0;
#ifdef JUKE_HAVE_LLD_LIBRARY
    if (tc->opts->linker == JUKE_LINK_AUTO) {
        int r = link_in_process(tc, obj, objsize, extra_args, out, outsize);
        if (r >= 0)
            return r == 1;
    }
#endif
    if (access(JUKE_LD_LLD, X_OK) != 0) {
        diag_plain(tc->diags, DIAG_USER, "the linker ld.lld was not found at %s (install lld-19)", JUKE_LD_LLD);
        return false;
    }
    /* JUKE_LINK_SPAWN_TMPDIR forces the temporary-directory path (for tests) */
    bool unavailable = tc->opts->linker == JUKE_LINK_SPAWN_TMPDIR;
    if (!unavailable && link_with_memfd(tc, obj, objsize, extra_args, out, outsize, &unavailable))
        return true;
    if (!unavailable)
        return false;
    return link_with_tmpdir(tc, obj, objsize, extra_args, out, outsize);
}

/* ---- bitcode libraries ------------------------------------------------- */
typedef struct NameList {
    char **names;
    int len, cap;
} NameList;

static bool names_push(NameList *l, const char *s, size_t n)
{
    if (l->len == l->cap) {
        int cap = l->cap ? l->cap * 2 : 256;
        char **p = realloc(l->names, (size_t)cap * sizeof *p);
        if (!p)
            return false;
        l->names = p;
        l->cap = cap;
    }
    char *c = strndup(s, n);
    if (!c)
        return false;
    l->names[l->len++] = c;
    return true;
}

static void names_free(NameList *l)
{
    for (int i = 0; i < l->len; i++)
        free(l->names[i]);
    free(l->names);
}

static bool is_kernel_cc(LLVMValueRef f)
{
    unsigned cc = LLVMGetFunctionCallConv(f);
    return cc == LLVMAMDGPUKERNELCallConv || cc == LLVMPTXKernelCallConv;
}

/* Internalise a library definition so that the optimiser drops it unless it
 * is used, and let it inline into the kernel: the libraries were built for a
 * generic processor, and an inliner refuses callees whose target-cpu or
 * target-features are not a subset of the caller's. Local linkage needs
 * default visibility. */
static void adopt_library_global(LLVMValueRef g, bool is_fn)
{
    if (LLVMIsDeclaration(g))
        return;
    if (is_fn && is_kernel_cc(g))
        return;
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetVisibility(g, LLVMDefaultVisibility);
    if (is_fn) {
        LLVMRemoveStringAttributeAtIndex(g, LLVMAttributeFunctionIndex, "target-cpu", 10);
        LLVMRemoveStringAttributeAtIndex(g, LLVMAttributeFunctionIndex, "target-features", 15);
        /* Inlined before the kernel is optimised, as hipcc's
         * -amdgpu-early-inline-all and libdevice's own attributes do: the
         * optimiser would inline them anyway, after simplifying each on its
         * own first (half of mathfuns' -O3 time, for the same code). */
        if (!has_fn_attr(g, LLVMGetEnumAttributeKindForName("noinline", 8)))
            add_fn_attr(g, LLVMGetEnumAttributeKindForName("alwaysinline", 12));
        /* for the entry points' inlining (inline_library_entries) */
        LLVMAddTargetDependentFunctionAttr(g, LIB_ATTR, "");
    }
}

/* A library definition the linker may leave behind: LLVMLinkModules2 moves
 * a linkonce definition only when the module refers to it (ModuleLinker's
 * lazy linking), and reads the body of a lazily loaded one only then. */
static void make_linkonce(LLVMValueRef g, bool is_fn)
{
    if (LLVMIsDeclaration(g) || (is_fn && is_kernel_cc(g)))
        return;
    switch (LLVMGetLinkage(g)) {
    case LLVMExternalLinkage:
    case LLVMWeakAnyLinkage:
    case LLVMWeakODRLinkage:
    case LLVMLinkOnceAnyLinkage: LLVMSetLinkage(g, LLVMLinkOnceODRLinkage); break;
    default: /* linkonce_odr already, local, appending (always linked) */ break;
    }
}

void llvm_prepare_library(LLVMModuleRef lib, LLVMModuleRef m, bool only_needed)
{
    /* Match the module so the linker does not warn about (harmless) layout
     * or triple differences, e.g. libraries built by an older clang. */
    LLVMSetTarget(lib, LLVMGetTarget(m));
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(m));
    if (!only_needed)
        return;
    for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f))
        make_linkonce(f, true);
    for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g))
        make_linkonce(g, false);
}

/* Link the bitcode library at path into tc->mod. With only_needed the
 * library is loaded lazily (the module's globals and declarations are read,
 * a function body only when linking reaches it), every definition made
 * linkonce so that only the functions the module calls, and theirs, are
 * moved, and those are internalised (adopt_library_global): ocml is 505
 * functions, mathfuns calls 10 of them; libdevice defines ~350 with
 * external linkage, all of which a plain link used to move and optimise.
 * What is read is the process's slice of the library for the names the
 * module needs (libslice.c): the same definitions, without reading ocml's
 * module level (its constant tables) again in every compile. */
bool llvm_link_bitcode_file(TargetCtx *tc, const char *path, bool only_needed)
{
    LLVMMemoryBufferRef buf = NULL;
    char *err = NULL;
    const uint8_t *slice = NULL;
    size_t slice_size = 0;
    LibsliceResult sr = only_needed ? libslice_get(tc->mod, path, &slice, &slice_size) : LIBSLICE_WHOLE;
    if (sr == LIBSLICE_NONE)
        return true;
    if (sr == LIBSLICE_SLICE)
        buf = LLVMCreateMemoryBufferWithMemoryRange((const char *)slice, slice_size, path, false);
    if (!buf && LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &err)) {
        diag_plain(tc->diags, DIAG_USER, "cannot read the device library %s: %s", path, err ? err : "?");
        LLVMDisposeMessage(err);
        return false;
    }
    LLVMModuleRef lib = NULL;
    bool bad;
    if (only_needed) {
        bad = LLVMGetBitcodeModuleInContext2(tc->llctx, buf, &lib); /* the module owns buf */
    } else {
        bad = LLVMParseBitcodeInContext2(tc->llctx, buf, &lib);
        LLVMDisposeMemoryBuffer(buf);
    }
    if (bad || !lib) {
        diag_plain(tc->diags, DIAG_USER, "the device library %s is not valid LLVM bitcode", path);
        return false;
    }
    llvm_prepare_library(lib, tc->mod, only_needed);
    /* Remember what the library defines: LLVMLinkModules2 consumes it. */
    NameList fns = { 0 }, globals = { 0 };
    bool oom = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f)) {
        size_t n;
        const char *s = LLVMGetValueName2(f, &n);
        if (!LLVMIsDeclaration(f) && !names_push(&fns, s, n))
            oom = true;
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g)) {
        size_t n;
        const char *s = LLVMGetValueName2(g, &n);
        if (!LLVMIsDeclaration(g) && !names_push(&globals, s, n))
            oom = true;
    }
    if (oom) {
        names_free(&fns);
        names_free(&globals);
        LLVMDisposeModule(lib);
        diag_plain(tc->diags, DIAG_INTERNAL, "out of memory");
        return false;
    }
    if (LLVMLinkModules2(tc->mod, lib)) {
        names_free(&fns);
        names_free(&globals);
        diag_plain(tc->diags, DIAG_INTERNAL, "linking the device library %s failed", path);
        return false;
    }
    if (only_needed) {
        for (int i = 0; i < fns.len; i++) {
            LLVMValueRef f = LLVMGetNamedFunction(tc->mod, fns.names[i]);
            if (f)
                adopt_library_global(f, true);
        }
        for (int i = 0; i < globals.len; i++) {
            LLVMValueRef g = LLVMGetNamedGlobal(tc->mod, globals.names[i]);
            if (g)
                adopt_library_global(g, false);
        }
    }
    names_free(&fns);
    names_free(&globals);
    return true;
}

bool llvm_module_calls_prefix(LLVMModuleRef m, const char *prefix)
{
    size_t pn = strlen(prefix);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t n;
        const char *s = LLVMGetValueName2(f, &n);
        if (n >= pn && memcmp(s, prefix, pn) == 0 && LLVMIsDeclaration(f) && LLVMGetFirstUse(f))
            return true;
    }
    return false;
}

bool llvm_link_ir_text(TargetCtx *tc, const char *name, const char *ir)
{
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), name);
    LLVMModuleRef m = NULL;
    char *err = NULL;
    if (LLVMParseIRInContext(tc->llctx, buf, &m, &err)) { /* consumes buf */
        diag_plain(tc->diags, DIAG_INTERNAL, "parsing the built-in IR %s: %s", name, err ? err : "?");
        LLVMDisposeMessage(err);
        return false;
    }
    LLVMSetTarget(m, LLVMGetTarget(tc->mod));
    LLVMSetDataLayout(m, LLVMGetDataLayoutStr(tc->mod));
    if (LLVMLinkModules2(tc->mod, m)) {
        diag_plain(tc->diags, DIAG_INTERNAL, "linking the built-in IR %s failed", name);
        return false;
    }
    return true;
}

/* Julia name -> number of float arguments (powi: 1 float + i32); 0 unknown. */
int llvm_math_arity(const char *name)
{
    /* powi is pow's integer-exponent form, which only code generation calls */
    if (strcmp(name, "powi") == 0)
        return 1;
    return builtin_math_arity(name);
}

/* The function type of a library math function for float type ty. */
LLVMTypeRef llvm_math_type(TargetCtx *tc, const char *name, LLVMTypeRef ty)
{
    LLVMTypeRef p[2] = { ty, ty };
    if (strcmp(name, "powi") == 0)
        p[1] = LLVMInt32TypeInContext(tc->llctx);
    int n = strcmp(name, "powi") == 0 ? 2 : llvm_math_arity(name);
    return LLVMFunctionType(ty, p, (unsigned)n, 0);
}

/* ---- the build identity, for the disk cache ---- */

bool cg_build_identity(const TargetOptions *to, StrBuf *ident, StrBuf *files)
{
    unsigned major, minor, patch;
    LLVMGetVersion(&major, &minor, &patch);
    sb_printf(ident, "juke %s llvm %u.%u.%u", jk_source_id, major, minor, patch);
    const TargetInfo *t = target_by_kind(to->kind);
    if (t && t->ops)
        t->ops->build_identity(to, ident, files);
    return true;
}
