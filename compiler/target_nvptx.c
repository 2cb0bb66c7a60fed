/* target_nvptx.c: the NVPTX target (nvptx64-nvidia-cuda): special
 * registers, shared memory, libdevice for math, and PTX text as the code
 * object (the CUDA driver JIT-compiles it and allocates registers). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "juke_config.h"
#include "builtins.h"
#include "target.h"

typedef struct NvPriv {
    char *symbol;
    char proc[16];
    char libdevice[1024]; /* "" until looked up; resolved path when found */
    bool looked, found, linked;
} NvPriv;

static NvPriv *nv(TargetCtx *tc)
{
    return tc->priv;
}

static bool nvptx_init(TargetCtx *tc)
{
    const TargetInfo *info = target_by_kind(TARGET_NVPTX);
    const char *name = tc->opts->proc && *tc->opts->proc ? tc->opts->proc : info->default_proc;
    if (!target_proc_listed(info, name)) {
        StrBuf known = { 0 };
        target_list_procs(info, &known);
        diag_plain(tc->diags, DIAG_USER, "unknown NVPTX target \"%s\"; known targets: %s", name,
                   known.data ? known.data : "");
        sb_free(&known);
        return false;
    }
    if (tc->opts->wavefront_size && tc->opts->wavefront_size != 32) {
        diag_plain(tc->diags, DIAG_USER, "wavefront size %d is not possible on NVPTX (warps are 32 wide)",
                   tc->opts->wavefront_size);
        return false;
    }
    NvPriv *np = calloc(1, sizeof *np);
    if (!np) {
        diag_plain(tc->diags, DIAG_INTERNAL, "out of memory");
        return false;
    }
    tc->priv = np;
    snprintf(np->proc, sizeof np->proc, "%s", name);
    tc->proc = np->proc;
    tc->wavefront_size = 32;
    /* PTX ISA 7.8 covers sm_50..sm_90 and keeps older drivers working;
     * sm_90a needs 8.0. */
    const char *features = strcmp(name, "sm_90a") == 0 ? "+ptx80" : "+ptx78";
    if (!llvm_create_target_machine(tc, "nvptx64-nvidia-cuda", name, features, LLVMRelocDefault))
        return false;
    /* libdevice's __nvvm_reflect("__CUDA_FTZ") reads this: no flush to zero */
    LLVMAddModuleFlag(tc->mod, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(tc->llctx), 0, 0)));
    return true;
}

static void nvptx_fini(TargetCtx *tc)
{
    NvPriv *np = nv(tc);
    if (np) {
        free(np->symbol);
        free(np);
    }
    tc->priv = NULL;
    llvm_dispose_target_machine(tc);
}

static LLVMValueRef sreg(TargetCtx *tc, LLVMBuilderRef b, const char *reg, int dim)
{
    char name[48];
    snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s.%c", reg, "xyz"[dim]);
    return llvm_call_intrinsic(tc, b, name);
}

static LLVMValueRef nvptx_workitem_id(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    return sreg(tc, b, "tid", d);
}
static LLVMValueRef nvptx_workgroup_id(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    return sreg(tc, b, "ctaid", d);
}
static LLVMValueRef nvptx_workgroup_dim(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    return sreg(tc, b, "ntid", d);
}
static LLVMValueRef nvptx_grid_groups(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    return sreg(tc, b, "nctaid", d);
}

/* barrier.sync 0 orders shared and global memory among the block's threads. Not bar.sync (which is
 * barrier.sync.aligned): the aligned form requires every thread of a warp to execute the same barrier
 * instruction, and a warp whose threads reach the barrier of one source place from two branches (a function
 * with a barrier called in both arms of an `if`) waits there for ever. The unaligned form counts threads as
 * they arrive, from any instruction, as the CPU device and the AMD devices do (cooperative groups' block sync
 * is the same instruction). */
static void nvptx_barrier(TargetCtx *tc, LLVMBuilderRef b, SrcLoc loc)
{
    (void)loc;
    LLVMValueRef id = LLVMConstInt(LLVMInt32TypeInContext(tc->llctx), 0, 0);
    llvm_call_intrinsic_n(tc, b, "llvm.nvvm.barrier.sync", &id, 1);
    tc->uses_barrier = true;
}


/* The wavefront primitives of a warp: activemask, vote.ballot.sync, the laneid register, shfl.sync.idx;
 * every .sync names the lanes active at the call. */
static LLVMValueRef nvptx_wave(TargetCtx *tc, LLVMBuilderRef b, WavePrim p, LLVMValueRef x, LLVMValueRef y, SrcLoc loc)
{
    (void)loc;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(tc->llctx), i64 = LLVMInt64TypeInContext(tc->llctx);
    LLVMValueRef mask = llvm_call_intrinsic_n(tc, b, "llvm.nvvm.activemask", NULL, 0);
    switch (p) {
    case WAVE_MASK: return LLVMBuildZExt(b, mask, i64, "");
    case WAVE_BALLOT: {
        LLVMValueRef a[2] = { mask, x };
        return LLVMBuildZExt(b, llvm_call_intrinsic_n(tc, b, "llvm.nvvm.vote.ballot.sync", a, 2), i64, "");
    }
    case WAVE_LANE: return llvm_call_intrinsic(tc, b, "llvm.nvvm.read.ptx.sreg.laneid");
    case WAVE_READ:
    case WAVE_READ_UNIFORM:
    case WAVE_READ_FIRST: {
        LLVMValueRef lane = y;
        if (p == WAVE_READ_FIRST) {
            LLVMValueRef a[2] = { mask, LLVMConstInt(LLVMInt1TypeInContext(tc->llctx), 0, 0) };
            LLVMTypeRef fty;
            LLVMValueRef f = llvm_intrinsic(tc, "llvm.cttz", &i32, 1, &fty);
            lane = LLVMBuildCall2(b, fty, f, a, 2, "");
        }
        LLVMValueRef a[4] = { mask, x, lane, LLVMConstInt(i32, 0x1f, 0) };
        return llvm_call_intrinsic_n(tc, b, "llvm.nvvm.shfl.sync.idx.i32", a, 4);
    }
    case WAVE_SYNC: llvm_call_intrinsic_n(tc, b, "llvm.nvvm.bar.warp.sync", &mask, 1); return NULL;
    }
    return NULL;
}

/* bar.red.popc / .and / .or: a barrier that reduces the predicate over the block. */
static LLVMValueRef nvptx_barrier_reduce(TargetCtx *tc, LLVMBuilderRef b, int kind, LLVMValueRef pred, SrcLoc loc)
{
    (void)loc;
    tc->uses_barrier = true;
    const char *name = kind == SYNC_REDUCE_COUNT ? "llvm.nvvm.barrier0.popc"
                       : kind == SYNC_REDUCE_AND ? "llvm.nvvm.barrier0.and"
                                                 : "llvm.nvvm.barrier0.or";
    return llvm_call_intrinsic_n(tc, b, name, &pred, 1);
}

/* Shared memory cannot be initialised: undef initializer. */
static LLVMValueRef nvptx_static_local(TargetCtx *tc, LLVMBuilderRef b, const char *name, uint64_t bytes,
                                       unsigned align)
{
    return llvm_local_array(tc, name, bytes, align, false);
}

/* CUDA's `extern __shared__`: `.extern .shared .align 16 .b8 NAME[]`,
 * sized by the launch's dynamic shared memory bytes. */
static LLVMValueRef nvptx_dynamic_local(TargetCtx *tc, LLVMBuilderRef b)
{
    return llvm_dynamic_local_array(tc, "__juke_dynamic_shmem");
}

/* PTX's %dynamic_smem_size (PTX ISA 4.1); LLVM 19 has no intrinsic for it. */
static LLVMValueRef nvptx_dynamic_local_bytes(TargetCtx *tc, LLVMBuilderRef b)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(tc->llctx);
    LLVMTypeRef fty = LLVMFunctionType(i32, NULL, 0, 0);
    static const char text[] = "mov.u32 $0, %dynamic_smem_size;";
    LLVMValueRef a = LLVMGetInlineAsm(fty, text, sizeof text - 1, "=r", 2, 0, 0, LLVMInlineAsmDialectATT, 0);
    LLVMValueRef v = LLVMBuildCall2(b, fty, a, NULL, 0, "");
    return LLVMBuildZExt(b, v, LLVMInt64TypeInContext(tc->llctx), "");
}

static void nvptx_exit_item(TargetCtx *tc, LLVMBuilderRef b)
{
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(tc->llctx), NULL, 0, 0);
    LLVMValueRef a = LLVMGetInlineAsm(fty, "exit;", 5, "", 0, 1, 0, LLVMInlineAsmDialectATT, 0);
    LLVMBuildCall2(b, fty, a, NULL, 0, "");
}

/* libdevice.10.bc: opts->devlib_dir (the file, or a directory holding it)
 * if given, else $JUKE_LIBDEVICE if set, else the build's default and
 * Debian's CUDA toolkit. */
static bool find_libdevice(TargetCtx *tc)
{
    NvPriv *np = nv(tc);
    if (np->looked)
        return np->found;
    np->looked = true;
    StrBuf looked = { 0 };
    np->found = target_find_devlib(tc, JUKE_LIBDEVICE_DEFAULT, "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc",
                                   "libdevice.10.bc", true, np->libdevice, sizeof np->libdevice, NULL, &looked);
    if (!np->found)
        snprintf(np->libdevice, sizeof np->libdevice, "%s", looked.data ? looked.data : "(nowhere)");
    sb_free(&looked);
    return np->found;
}

/* libdevice: __nv_<name>f (float) / __nv_<name> (double); powi is
 * __nv_powif / __nv_powi. Without
 * libdevice only the LLVM intrinsics (sqrt, fma, floor, ...) are possible. */
static LLVMValueRef nvptx_math_fn(TargetCtx *tc, const char *name, LLVMTypeRef ty, LLVMTypeRef *fty)
{
    if (!llvm_math_arity(name)) {
        diag_plain(tc->diags, DIAG_INTERNAL, "no NVPTX math function \"%s\"", name);
        return NULL;
    }
    if (!find_libdevice(tc)) {
        diag_plain(tc->diags, DIAG_USER, "libdevice not found at %s: the NVPTX target needs it for %s",
                   nv(tc)->libdevice, name);
        return NULL;
    }
    char sym[64];
    snprintf(sym, sizeof sym, "__nv_%s%s", name, LLVMGetTypeKind(ty) == LLVMDoubleTypeKind ? "" : "f");
    return llvm_math_libfn(tc, name, ty, sym, fty);
}

static LLVMMetadataRef md_i32(TargetCtx *tc, int v)
{
    return LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(tc->llctx), (unsigned)v, 0));
}

static void annotate(TargetCtx *tc, LLVMValueRef fn, const char *key, int v)
{
    LLVMMetadataRef ops[3] = { LLVMValueAsMetadata(fn), LLVMMDStringInContext2(tc->llctx, key, strlen(key)),
                               md_i32(tc, v) };
    LLVMAddNamedMetadataOperand(tc->mod, "nvvm.annotations",
                                LLVMMetadataAsValue(tc->llctx, LLVMMDNodeInContext2(tc->llctx, ops, 3)));
}

/* LLVM 19 marks kernels by !nvvm.annotations !{ptr @k, !"kernel", i32 1}. */
static void nvptx_finish_kernel(TargetCtx *tc, LLVMValueRef fn, const char *symbol)
{
    LLVMSetLinkage(fn, LLVMExternalLinkage);
    annotate(tc, fn, "kernel", 1);
    const int *g = tc->opts->group_size;
    if (g[0] > 0) {
        annotate(tc, fn, "maxntidx", g[0]);
        annotate(tc, fn, "maxntidy", g[1] > 0 ? g[1] : 1);
        annotate(tc, fn, "maxntidz", g[2] > 0 ? g[2] : 1);
    }
    unsigned n = LLVMCountParams(fn);
    if (n > 0)
        LLVMSetValueName2(LLVMGetParam(fn, n - 1), "__juke_exception", 16);
    /* LLVM renames PTX parameters NAME_param_N, so the name above never reaches
     * the PTX; this comment line tells the runtime (dev_cuda.c) instead. */
    if (symbol) {
        char marker[256];
        int ml = snprintf(marker, sizeof marker, "// juke-exception-arg: %s\n", symbol);
        if (ml > 0 && (size_t)ml < sizeof marker)
            LLVMAppendModuleInlineAsm(tc->mod, marker, (size_t)ml);
    }
    NvPriv *np = nv(tc);
    if (!np->symbol && symbol)
        np->symbol = strdup(symbol);
}

static bool nvptx_link_libraries(TargetCtx *tc)
{
    if (!llvm_module_calls_prefix(tc->mod, "__nv_"))
        return true;
    if (!find_libdevice(tc)) {
        diag_plain(tc->diags, DIAG_USER, "libdevice not found at %s (needed for math functions on NVPTX)",
                   nv(tc)->libdevice);
        return false;
    }
    if (!llvm_link_bitcode_file(tc, nv(tc)->libdevice, true))
        return false;
    nv(tc)->linked = true;
    return true;
}

/* Sum of `.reg .TYPE %x<N>;` declarations by type, over the whole PTX. */
static void count_regs(const char *ptx, StrBuf *r)
{
    static const char *const types[] = { "pred", "b16", "b32", "b64", "f32", "f64" };
    long counts[6] = { 0 };
    for (const char *p = strstr(ptx, ".reg ."); p; p = strstr(p + 1, ".reg .")) {
        const char *t = p + 6;
        for (int i = 0; i < 6; i++) {
            size_t n = strlen(types[i]);
            if (strncmp(t, types[i], n) == 0 && t[n] == ' ') {
                const char *lt = strchr(t, '<');
                const char *nl = strchr(t, '\n');
                if (lt && (!nl || lt < nl))
                    counts[i] += strtol(lt + 1, NULL, 10);
            }
        }
    }
    sb_puts(r, "virtual registers: ");
    for (int i = 0; i < 6; i++)
        sb_printf(r, "%s%s %ld", i ? ", " : "", types[i], counts[i]);
    sb_puts(r, "\n");
}

/* Bytes of `.shared ... NAME[N]` (static) and `.param ... [N]` / scalar params. */
static long shared_bytes(const char *ptx)
{
    long total = 0;
    for (const char *p = strstr(ptx, ".shared ."); p; p = strstr(p + 1, ".shared .")) {
        if (p >= ptx + 8 && strncmp(p - 8, ".extern ", 8) == 0)
            continue;
        const char *nl = strchr(p, '\n'), *lb = strchr(p, '[');
        if (lb && (!nl || lb < nl))
            total += strtol(lb + 1, NULL, 10);
    }
    return total;
}

static long param_bytes(const char *ptx)
{
    long total = 0;
    const char *e = strstr(ptx, ".entry");
    for (const char *p = e ? strstr(e, ".param .") : NULL; p; p = strstr(p + 1, ".param .")) {
        const char *t = p + 8, *nl = strchr(p, '\n'), *lb = strchr(p, '[');
        if (lb && (!nl || lb < nl)) {
            total += strtol(lb + 1, NULL, 10);
        } else if (t[0] == 'u' || t[0] == 's' || t[0] == 'b' || t[0] == 'f') {
            total += strtol(t + 1, NULL, 10) / 8;
        }
        if (strchr(p, ')') && nl && strchr(p, ')') < nl)
            break;
    }
    return total;
}

/* LLVM 19's NVPTX back end selects atomic loads and stores only when they
 * are monotonic (it emits ld/st.volatile) and no `fence` instruction at all
 * (clang's CUDA __threadfence_system() calls llvm.nvvm.membar.sys instead),
 * so the exception record's release fence and release store of flag = 2
 * (codegen.c) stop instruction selection ("Cannot select: AtomicStore /
 * AtomicFence"). membar.sys (fence.sc.sys on sm_70+) then a monotonic store
 * orders at least as strongly as a release store (C++'s fence-then-relaxed-
 * store), and a monotonic load then membar.sys as an acquire load; so every
 * fence becomes membar.sys and every stronger load or store that pair. Only
 * the exception path has them: nothing changes on the hot path. */
static void legalize_atomic_orderings(TargetCtx *tc)
{
    LLVMTypeRef vt = LLVMFunctionType(LLVMVoidTypeInContext(tc->llctx), NULL, 0, 0);
    LLVMValueRef membar = NULL;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(tc->llctx);
    for (LLVMValueRef fn = LLVMGetFirstFunction(tc->mod); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;) {
                LLVMValueRef next = LLVMGetNextInstruction(in);
                LLVMOpcode op = LLVMGetInstructionOpcode(in);
                bool fence_before = false, fence_after = false;
                if (op == LLVMFence) {
                    fence_before = true;
                } else if (op == LLVMStore || op == LLVMLoad) {
                    LLVMAtomicOrdering o = LLVMGetOrdering(in);
                    if (o != LLVMAtomicOrderingNotAtomic && o != LLVMAtomicOrderingUnordered &&
                        o != LLVMAtomicOrderingMonotonic) {
                        LLVMSetOrdering(in, LLVMAtomicOrderingMonotonic);
                        LLVMValueRef prev = LLVMGetPreviousInstruction(in);
                        bool fenced = prev && (LLVMGetInstructionOpcode(prev) == LLVMFence ||
                                               (membar && LLVMGetInstructionOpcode(prev) == LLVMCall &&
                                                LLVMGetCalledValue(prev) == membar));
                        fence_before = op == LLVMStore && !fenced;
                        fence_after = op == LLVMLoad;
                    }
                }
                if (fence_before || fence_after) {
                    if (!membar) {
                        membar = LLVMGetNamedFunction(tc->mod, "llvm.nvvm.membar.sys");
                        if (!membar)
                            membar = LLVMAddFunction(tc->mod, "llvm.nvvm.membar.sys", vt);
                    }
                    if (fence_after && next)
                        LLVMPositionBuilderBefore(b, next);
                    else if (fence_after)
                        LLVMPositionBuilderAtEnd(b, bb);
                    else
                        LLVMPositionBuilderBefore(b, in);
                    LLVMBuildCall2(b, vt, membar, NULL, 0, "");
                }
                if (op == LLVMFence)
                    LLVMInstructionEraseFromParent(in);
                in = next;
            }
    LLVMDisposeBuilder(b);
}

/* Whether in calls llvm.nvvm.read.ptx.sreg.ntid.* or .nctaid.*: the launch's shape, which the driver passes in
 * the constant bank. */
static bool reads_launch_shape(LLVMValueRef in)
{
    if (LLVMGetInstructionOpcode(in) != LLVMCall)
        return false;
    LLVMValueRef callee = LLVMGetCalledValue(in);
    if (!callee || LLVMGetValueKind(callee) != LLVMFunctionValueKind)
        return false;
    size_t len;
    const char *name = LLVMGetValueName2(callee, &len);
    static const char prefix[] = "llvm.nvvm.read.ptx.sreg.";
    if (len < sizeof prefix || strncmp(name, prefix, sizeof prefix - 1) != 0)
        return false;
    name += sizeof prefix - 1;
    return strncmp(name, "ntid.", 5) == 0 || strncmp(name, "nctaid.", 7) == 0;
}

/* The launch's shape read first. ptxas (CUDA 13, sm_90) keeps, of `ctaid.x * ntid.x`, the operand whose read
 * comes first in a uniform register and the other in a vector register: with ctaid read first (the order of
 * Julia's `(workgroupIdx().x - 1) * workgroupDim().x`), S2UR for the id and a vector LDC for the size; with
 * ntid first, S2R and a uniform ULDC, as in nvcc's code. Both sit on every warp's path to its guard. Nothing else
 * in the code changes, yet on the H200 diffusion2d 16384² went from 990 to 968 us (Float32) and from 1230 to
 * 1214 us (Float64), nvcc's `int` twin taking 965 and 1215 (bench/RESULTS.md §19). So every read of ntid and
 * nctaid moves to the top of its function's entry block, one per register (they take no operands and read
 * values fixed for the launch: any place that dominates their uses gives the same value). */
static void hoist_launch_shape(TargetCtx *tc)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(tc->llctx);
    for (LLVMValueRef fn = LLVMGetFirstFunction(tc->mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (!LLVMGetFirstBasicBlock(fn))
            continue;
        LLVMValueRef kept[8] = { 0 }; /* ntid.x/y/z, nctaid.x/y/z: the first read of each */
        int nkept = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;) {
                LLVMValueRef next = LLVMGetNextInstruction(in);
                if (reads_launch_shape(in)) {
                    LLVMValueRef same = NULL;
                    for (int k = 0; k < nkept && !same; k++)
                        if (LLVMGetCalledValue(kept[k]) == LLVMGetCalledValue(in))
                            same = kept[k];
                    if (same) {
                        LLVMReplaceAllUsesWith(in, same);
                        LLVMInstructionEraseFromParent(in);
                    } else if (nkept < 8) {
                        LLVMInstructionRemoveFromParent(in);
                        kept[nkept++] = in;
                    }
                }
                in = next;
            }
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
        for (int k = 0; k < nkept; k++)
            LLVMInsertIntoBuilder(b, kept[k]);
    }
    LLVMDisposeBuilder(b);
}

static bool nvptx_emit(TargetCtx *tc, CodeObject *out)
{
    NvPriv *np = nv(tc);
    uint8_t *text;
    size_t n;
    legalize_atomic_orderings(tc);
    hoist_launch_shape(tc);
    /* PTX is both the listing and the code: the listing with source lines,
     * when asked, comes from a copy; the code never has them */
    if (tc->ndebug_files && !tc->opts->skip_asm && !llvm_emit_asm_from_copy(tc, out))
        return false;
    llvm_strip_debug_info(tc);
    if (!llvm_emit_to_memory(tc, LLVMAssemblyFile, &text, &n))
        return false;
    /* a launch's compile (skip_asm, made without source lines) leaves the listing to be made on demand */
    if (!out->asm_text && !tc->opts->skip_asm) {
        char *copy = malloc(n + 1);
        if (!copy) {
            free(text);
            diag_plain(tc->diags, DIAG_INTERNAL, "out of memory");
            return false;
        }
        memcpy(copy, text, n + 1);
        out->asm_text = copy;
    }
    const char *copy = (const char *)text; /* the code, read below for its resources */
    target_take_code(tc, out, TARGET_NVPTX, text, n, np->symbol);
    long shared = shared_bytes(copy);
    out->static_lds_bytes = (uint32_t)shared;
    out->lds_bytes = (int)shared;
    out->wavefront_size = 32;
    out->kernarg_size = (int)param_bytes(copy);
    out->vgprs = out->sgprs = out->agprs = out->occupancy = -1;
    out->max_flat_workgroup_size = (int)target_group_items(tc->opts, 1024);
    StrBuf r = { 0 };
    sb_printf(&r, "kernel:            %s\n", np->symbol ? np->symbol : "?");
    sb_printf(&r, "target:            %s (PTX, warp 32)\n", tc->proc);
    count_regs(copy, &r);
    sb_printf(&r, "shared memory:     %ld bytes (static)%s\n", shared, tc->uses_dynamic_lds ? " + dynamic" : "");
    sb_printf(&r, "params:            %ld bytes\n", (long)out->kernarg_size);
    sb_printf(&r, "barrier:           %s\n", tc->uses_barrier ? "yes" : "no");
    if (np->linked)
        sb_printf(&r, "libdevice:         %s\n", np->libdevice);
    sb_puts(&r, "note:              final register allocation happens in the CUDA driver's JIT\n");
    free(out->resources);
    out->resources = sb_take(&r);
    return true;
}

/* libdevice, the one library a compile for o may link. */
static void nvptx_build_identity(const TargetOptions *o, StrBuf *ident, StrBuf *files)
{
    (void)ident;
    TargetCtx tc = { .opts = o };
    char path[1024];
    StrBuf looked = { 0 };
    if (target_find_devlib(&tc, JUKE_LIBDEVICE_DEFAULT, "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc",
                           "libdevice.10.bc", true, path, sizeof path, NULL, &looked))
        sb_printf(files, "%s\n", path);
    sb_free(&looked);
}

static void nvptx_llvm_init(void)
{
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

/* device_sleep (nanosleep), memtime (%clock64), memrealtime (%globaltimer, ns); NVPTX has no endpgm or
 * sendmsg. debugtrap() does nothing: AMD's s_trap 3 is a no-op without a debugger, while PTX's brkpt
 * (llvm.debugtrap) without one is an illegal instruction that kills the CUDA context (seen on the H200). */
static LLVMValueRef nvptx_exec_control(TargetCtx *tc, LLVMBuilderRef b, int builtin, LLVMValueRef *args)
{
    if (builtin == BI_DEBUGTRAP)
        return LLVMConstInt(LLVMInt32TypeInContext(tc->llctx), 0, 0);
    const char *name = builtin == BI_DEVICE_SLEEP  ? "llvm.nvvm.nanosleep"
                       : builtin == BI_MEMTIME     ? "llvm.nvvm.read.ptx.sreg.clock64"
                       : builtin == BI_MEMREALTIME ? "llvm.nvvm.read.ptx.sreg.globaltimer"
                                                   : NULL;
    return name ? llvm_call_intrinsic_n(tc, b, name, args, builtin == BI_DEVICE_SLEEP ? 1 : 0) : NULL;
}

const TargetOps target_nvptx_ops = {
    .exec_control = nvptx_exec_control,
    .llvm_init = nvptx_llvm_init,
    .build_identity = nvptx_build_identity,
    .as_global = 1,
    .as_local = 3,
    .as_private = 0, /* allocas are generic pointers; NVPTX lowers them to .local */
    .needs_state_param = false,
    .group_id_intrinsic = "llvm.nvvm.read.ptx.sreg.ctaid.",
    .addr32 = true,
    .init = nvptx_init,
    .fini = nvptx_fini,
    .workitem_id = nvptx_workitem_id,
    .workgroup_id = nvptx_workgroup_id,
    .workgroup_dim = nvptx_workgroup_dim,
    .grid_groups = nvptx_grid_groups,
    .barrier = nvptx_barrier,
    .wave = nvptx_wave,
    .barrier_reduce = nvptx_barrier_reduce,
    .static_local = nvptx_static_local,
    .dynamic_local = nvptx_dynamic_local,
    .dynamic_local_bytes = nvptx_dynamic_local_bytes,
    .exit_item = nvptx_exit_item,
    .math_fn = nvptx_math_fn,
    .finish_kernel = nvptx_finish_kernel,
    .link_libraries = nvptx_link_libraries,
    .emit = nvptx_emit,
};
