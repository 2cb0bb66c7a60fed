/* target_cpu.c: the CPU target: the host triple and CPU, work-item state
 * read from a JukeCpuState, local memory carved from st->lds, libm for
 * math, and a shared object exporting the kernel table of runtime/abi.h. */
#include <dlfcn.h>
#include <link.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "builtins.h"
#include "cpu_split.h"
#include "cpu_regions.h"
#include "target.h"

/* JukeCpuState (abi.h) as LLVM sees it, x86-64 / LP64:
 *   field 0  item[3]        u32 x3   offset  0
 *   field 1  group[3]       u32 x3   offset 12
 *   field 2  group_dim[3]   u32 x3   offset 24
 *   field 3  grid_groups[3] u32 x3   offset 36
 *   field 4  lds            ptr      offset 48
 *   field 5  barrier        ptr      offset 56   void (*)(JukeCpuState *, i32 line, i32 col)
 *   field 6  exit_item      ptr      offset 64   void (*)(JukeCpuState *), noreturn
 *   field 7  runtime        ptr      offset 72
 *   field 8  dynamic_lds_bytes u64  offset 80
 *   field 9  cancel         ptr      offset 88   const u32 *
 *   field 10 wave           ptr      offset 96   u64 (*)(JukeCpuState *, i32 prim, i64 x, i64 y, i32 line, i32 col)
 *   field 11 grid_sync      ptr      offset 104  void (*)(JukeCpuState *, i32 line, i32 col)
 *   field 12 spill          ptr      offset 112
 *   field 13 region_round   ptr      offset 120  i32 (*)(JukeCpuState *, const i64 *locs)
 * 128 bytes. */
_Static_assert(offsetof(JukeCpuState, group) == 12 && offsetof(JukeCpuState, group_dim) == 24 &&
                   offsetof(JukeCpuState, grid_groups) == 36 && offsetof(JukeCpuState, lds) == 48 &&
                   offsetof(JukeCpuState, barrier) == 56 && offsetof(JukeCpuState, exit_item) == 64 &&
                   offsetof(JukeCpuState, dynamic_lds_bytes) == 80 && offsetof(JukeCpuState, cancel) == 88 &&
                   offsetof(JukeCpuState, wave) == 96 && offsetof(JukeCpuState, grid_sync) == 104 &&
                   offsetof(JukeCpuState, spill) == 112 && offsetof(JukeCpuState, region_round) == 120 &&
                   sizeof(JukeCpuState) == 128,
               "the CPU state layout below assumes LP64");
enum {
    ST_ITEM,
    ST_GROUP,
    ST_GROUP_DIM,
    ST_GRID_GROUPS,
    ST_LDS,
    ST_BARRIER,
    ST_EXIT_ITEM,
    ST_RUNTIME,
    ST_DYNAMIC_LDS_BYTES,
    ST_CANCEL,
    ST_WAVE,
    ST_GRID_SYNC,
    ST_SPILL,
    ST_REGION_ROUND,
    ST_NFIELDS
};

/* JukeCpuKernelInfo (abi.h): { ptr name, ptr entry, i32 kernarg_size,
 * i32 static_lds_bytes, i32 uses_barrier, i32 max_group_size,
 * i32 wavefront_size, i32 flags }: 40 bytes. */
_Static_assert(sizeof(JukeCpuGroupEntry) == 16 && offsetof(JukeCpuGroupEntry, flags) == 12,
               "the group entries' layout below assumes LP64");
_Static_assert(sizeof(JukeCpuKernelInfo) == 40 && offsetof(JukeCpuKernelInfo, kernarg_size) == 16 &&
                   offsetof(JukeCpuKernelInfo, flags) == 36,
               "the kernel table layout below assumes LP64");

typedef struct CpuKernel {
    char *name;
    LLVMValueRef entry;
    LLVMValueRef group_entry; /* the whole workgroup as loops (cpu_emit_group_entry), or NULL */
    uint32_t kernarg_size;
    uint32_t spill_bytes; /* a region kernel's (group_flags JUKE_CPU_GROUP_REGIONS) */
    uint32_t group_flags;
    LLVMValueRef body;         /* a kernel with barriers: its body, until cpu_link_libraries makes its regions */
    LLVMMetadataRef loop_mark; /* the property its group entry's x loops hold (cpu_split.h), or NULL */
} CpuKernel;

typedef struct CpuPriv {
    char *cpu, *features, *triple;
    LLVMTypeRef state_ty;
    uint64_t lds_total;   /* static local bytes allocated so far (module-wide) */
    LLVMValueRef lds_end; /* internal constant i64: align16(lds_total), set when finishing */
    CpuKernel *kernels;
    int nkernels;
    char *symbol;
    uint32_t kernarg_size;
    bool uses_wave;
    LLVMValueRef barrier_fn, exit_fn; /* the helpers barriers and exits call (barrier_helper, exit_helper) */
} CpuPriv;

_Static_assert(ST_SPILL == CPU_STATE_SPILL_FIELD && CPU_REGION_RETURNED == JUKE_CPU_REGION_RETURNED &&
                   CPU_REGION_EXITED == JUKE_CPU_REGION_EXITED,
               "cpu_regions.h agrees with abi.h");
_Static_assert((int)JUKE_WAVE_MASK == (int)WAVE_MASK && (int)JUKE_WAVE_BALLOT == (int)WAVE_BALLOT &&
                   (int)JUKE_WAVE_LANE == (int)WAVE_LANE && (int)JUKE_WAVE_READ == (int)WAVE_READ &&
                   (int)JUKE_WAVE_READ_UNIFORM == (int)WAVE_READ_UNIFORM &&
                   (int)JUKE_WAVE_READ_FIRST == (int)WAVE_READ_FIRST && (int)JUKE_WAVE_SYNC == (int)WAVE_SYNC,
               "the CPU ABI's wavefront primitives are target.h's");

static CpuPriv *cpu(TargetCtx *tc)
{
    return tc->priv;
}

/* A listed CPU, or the host's own under whatever name LLVM gives it. */
static bool cpu_proc_known(const char *proc)
{
    if (target_proc_listed(target_by_kind(TARGET_CPU), proc))
        return true;
    char *host = LLVMGetHostCPUName();
    bool same = host && strcmp(host, proc) == 0;
    LLVMDisposeMessage(host);
    return same;
}

static bool cpu_init(TargetCtx *tc)
{
    const char *want = tc->opts->proc;
    bool native = !want || !*want || strcmp(want, "native") == 0;
    if (!native && !cpu_proc_known(want)) {
        StrBuf known = { 0 };
        target_list_procs(target_by_kind(TARGET_CPU), &known);
        diag_plain(tc->diags, DIAG_USER, "unknown CPU \"%s\"; known CPUs: %s", want, known.data ? known.data : "");
        sb_free(&known);
        return false;
    }
    CpuPriv *cp = calloc(1, sizeof *cp);
    if (!cp) {
        diag_plain(tc->diags, DIAG_INTERNAL, "out of memory");
        return false;
    }
    tc->priv = cp;
    char *t = LLVMGetDefaultTargetTriple(), *nt = LLVMNormalizeTargetTriple(t);
    cp->triple = strdup(nt);
    LLVMDisposeMessage(t);
    LLVMDisposeMessage(nt);
    if (native) {
        char *c = LLVMGetHostCPUName(), *f = LLVMGetHostCPUFeatures();
        cp->cpu = strdup(c);
        cp->features = strdup(f);
        LLVMDisposeMessage(c);
        LLVMDisposeMessage(f);
    } else {
        cp->cpu = strdup(want);
        cp->features = strdup("");
    }
    if (!cp->triple || !cp->cpu || !cp->features) {
        diag_plain(tc->diags, DIAG_INTERNAL, "out of memory");
        return false;
    }
    tc->proc = cp->cpu;
    /* waves of 64 work-items by default (AMDGPU's CDNA), or 32: the runtime forms them when the kernel uses
     * wavefront operations */
    int wave = tc->opts->wavefront_size ? tc->opts->wavefront_size : 64;
    if (wave != 32 && wave != 64) {
        diag_plain(tc->diags, DIAG_USER, "wavefront size %d is not possible on the CPU (32 or 64)", wave);
        return false;
    }
    tc->wavefront_size = wave;
    if (!llvm_create_target_machine(tc, cp->triple, cp->cpu, cp->features, LLVMRelocPIC))
        return false;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(tc->llctx), a3 = LLVMArrayType2(i32, 3);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(tc->llctx, 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(tc->llctx);
    LLVMTypeRef fields[ST_NFIELDS] = { a3, a3, a3, a3, ptr, ptr, ptr, ptr, i64, ptr, ptr, ptr, ptr, ptr };
    cp->state_ty = LLVMStructCreateNamed(tc->llctx, "JukeCpuState");
    LLVMStructSetBody(cp->state_ty, fields, ST_NFIELDS, 0);
    return true;
}

static void cpu_fini(TargetCtx *tc)
{
    CpuPriv *cp = cpu(tc);
    if (cp) {
        for (int i = 0; i < cp->nkernels; i++)
            free(cp->kernels[i].name);
        free(cp->kernels);
        free(cp->cpu);
        free(cp->features);
        free(cp->triple);
        free(cp->symbol);
        free(cp);
    }
    tc->priv = NULL;
    llvm_dispose_target_machine(tc);
}

/* ---- the state --------------------------------------------------------- */
static LLVMValueRef state_field_ptr(TargetCtx *tc, LLVMBuilderRef b, int field, int elem)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(tc->llctx);
    LLVMValueRef idx[3] = { LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, (unsigned)field, 0),
                            LLVMConstInt(i32, (unsigned)elem, 0) };
    return LLVMBuildInBoundsGEP2(b, cpu(tc)->state_ty, tc->cur_state, idx, elem >= 0 ? 3 : 2, "");
}

/* The fields a work-item reads never change while its entry runs. */
static LLVMValueRef load_state(TargetCtx *tc, LLVMBuilderRef b, int field, int elem, LLVMTypeRef t)
{
    LLVMValueRef v = LLVMBuildLoad2(b, t, state_field_ptr(tc, b, field, elem), "");
    LLVMContextRef c = tc->llctx;
    LLVMValueRef empty = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0));
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(c, "invariant.load", 14), empty);
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(c, "noundef", 7), empty);
    return v;
}

static LLVMValueRef load_u32(TargetCtx *tc, LLVMBuilderRef b, int field, int dim)
{
    return load_state(tc, b, field, dim, LLVMInt32TypeInContext(tc->llctx));
}

/* A load of the state known to lie in [lo, hi): the CPU device runs at most
 * 1024 work-items a group (runtime/dev_cpu.c, CPU_MAX_GROUP, checked at
 * launch), so index arithmetic on ids and sizes is known not to wrap. */
static LLVMValueRef with_range(TargetCtx *tc, LLVMValueRef v, unsigned lo, unsigned hi)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(tc->llctx);
    LLVMMetadataRef r[2] = { LLVMValueAsMetadata(LLVMConstInt(i32, lo, 0)),
                             LLVMValueAsMetadata(LLVMConstInt(i32, hi, 0)) };
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(tc->llctx, "range", 5),
                    LLVMMetadataAsValue(tc->llctx, LLVMMDNodeInContext2(tc->llctx, r, 2)));
    return v;
}

/* Not an invariant load: the workgroup entry (cpu_emit_group_entry) stores each work-item's index into
 * st->item before running it, and the optimiser forwards the store to these loads. */
static LLVMValueRef cpu_workitem_id(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    LLVMValueRef v = LLVMBuildLoad2(b, LLVMInt32TypeInContext(tc->llctx), state_field_ptr(tc, b, ST_ITEM, d), "");
    LLVMValueRef empty = LLVMMetadataAsValue(tc->llctx, LLVMMDNodeInContext2(tc->llctx, NULL, 0));
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(tc->llctx, "noundef", 7), empty);
    return with_range(tc, v, 0, 1024);
}
static LLVMValueRef cpu_workgroup_id(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    return load_u32(tc, b, ST_GROUP, d);
}
static LLVMValueRef cpu_workgroup_dim(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    return with_range(tc, load_u32(tc, b, ST_GROUP_DIM, d), 1, 1025);
}
static LLVMValueRef cpu_grid_groups(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    return load_u32(tc, b, ST_GRID_GROUPS, d);
}

/* Call st->FIELD(st). */
static LLVMValueRef call_state_fn(TargetCtx *tc, LLVMBuilderRef b, int field)
{
    LLVMTypeRef ptr = LLVMPointerTypeInContext(tc->llctx, 0);
    LLVMValueRef f = load_state(tc, b, field, -1, ptr);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(tc->llctx), &ptr, 1, 0);
    LLVMValueRef st = tc->cur_state;
    return LLVMBuildCall2(b, fty, f, &st, 1, "");
}

/* `void __juke_cpu_barrier(ptr st, i32 line, i32 col)`, internal: st->barrier(st, line, col). Barriers call
 * it, so that cpu_regions.c finds them; the optimiser inlines it. */
static LLVMValueRef barrier_helper(TargetCtx *tc)
{
    CpuPriv *cp = cpu(tc);
    if (cp->barrier_fn)
        return cp->barrier_fn;
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef params[3] = { ptr, i32, i32 };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 3, 0);
    LLVMValueRef f = LLVMAddFunction(tc->mod, "__juke_cpu_barrier", fty);
    LLVMSetLinkage(f, LLVMInternalLinkage);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, "entry"));
    LLVMValueRef saved = tc->cur_state;
    tc->cur_state = LLVMGetParam(f, 0);
    LLVMValueRef fp = load_state(tc, b, ST_BARRIER, -1, ptr);
    LLVMValueRef args[3] = { tc->cur_state, LLVMGetParam(f, 1), LLVMGetParam(f, 2) };
    LLVMBuildCall2(b, fty, fp, args, 3, "");
    LLVMBuildRetVoid(b);
    tc->cur_state = saved;
    LLVMDisposeBuilder(b);
    return cp->barrier_fn = f;
}

/* `void __juke_cpu_exit(ptr st)`, internal, noreturn: st->exit_item(st). */
static LLVMValueRef exit_helper(TargetCtx *tc)
{
    CpuPriv *cp = cpu(tc);
    if (cp->exit_fn)
        return cp->exit_fn;
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), &ptr, 1, 0);
    LLVMValueRef f = LLVMAddFunction(tc->mod, "__juke_cpu_exit", fty);
    LLVMSetLinkage(f, LLVMInternalLinkage);
    unsigned k = LLVMGetEnumAttributeKindForName("noreturn", 8);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, k, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, "entry"));
    LLVMValueRef saved = tc->cur_state;
    tc->cur_state = LLVMGetParam(f, 0);
    LLVMValueRef call = call_state_fn(tc, b, ST_EXIT_ITEM);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, k, 0));
    LLVMBuildUnreachable(b);
    tc->cur_state = saved;
    LLVMDisposeBuilder(b);
    return cp->exit_fn = f;
}

/* The barrier at line:col: the runtime names it when work-items diverge. */
static void cpu_barrier(TargetCtx *tc, LLVMBuilderRef b, SrcLoc loc)
{
    LLVMValueRef f = barrier_helper(tc);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(tc->llctx);
    LLVMValueRef args[3] = { tc->cur_state, LLVMConstInt(i32, (unsigned)(loc.line > 0 ? loc.line : 0), 0),
                             LLVMConstInt(i32, (unsigned)(loc.col > 0 ? loc.col : 0), 0) };
    LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 3, "");
    tc->uses_barrier = true;
}

/* st->wave(st, p, x, y, line, col), x and y i64: a rendezvous of the wave's lanes (cpu_wave). */
static LLVMValueRef wave_call(TargetCtx *tc, LLVMBuilderRef b, WavePrim p, LLVMValueRef x, LLVMValueRef y, SrcLoc loc)
{
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    cpu(tc)->uses_wave = true;
    tc->uses_barrier = true;
    LLVMValueRef f = load_state(tc, b, ST_WAVE, -1, ptr);
    LLVMTypeRef params[6] = { ptr, i32, i64, i64, i32, i32 };
    LLVMTypeRef fty = LLVMFunctionType(i64, params, 6, 0);
    LLVMValueRef args[6] = { tc->cur_state,
                             LLVMConstInt(i32, (unsigned)p, 0),
                             x,
                             y,
                             LLVMConstInt(i32, (unsigned)(loc.line > 0 ? loc.line : 0), 0),
                             LLVMConstInt(i32, (unsigned)(loc.col > 0 ? loc.col : 0), 0) };
    return LLVMBuildCall2(b, fty, f, args, 6, "");
}

/* The wavefront primitives: this work-item's lane is its linear index modulo the wave size; the rest are a
 * rendezvous of the wave's lanes in the runtime, st->wave(st, prim, x, y, line, col). Kernels that use them
 * run as fibers. */
static LLVMValueRef cpu_wave(TargetCtx *tc, LLVMBuilderRef b, WavePrim p, LLVMValueRef x, LLVMValueRef y, SrcLoc loc)
{
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    if (p == WAVE_LANE) {
        LLVMValueRef id = LLVMConstInt(i32, 0, 0);
        for (int d = 2; d >= 0; d--)
            id = LLVMBuildAdd(b, LLVMBuildMul(b, id, load_u32(tc, b, ST_GROUP_DIM, d), ""), load_u32(tc, b, ST_ITEM, d),
                              "");
        return LLVMBuildAnd(b, id, LLVMConstInt(i32, (unsigned)tc->wavefront_size - 1, 0), "");
    }
    LLVMValueRef r = wave_call(tc, b, p, x ? LLVMBuildZExt(b, x, i64, "") : LLVMConstInt(i64, 0, 0),
                               y ? LLVMBuildZExt(b, y, i64, "") : LLVMConstInt(i64, 0, 0), loc);
    switch (p) {
    case WAVE_MASK:
    case WAVE_BALLOT: return r;
    case WAVE_SYNC: return NULL;
    default: return LLVMBuildTrunc(b, r, i32, "");
    }
}

/* A stack slot of type t in fn's entry block (a fiber's own stack: its lanes' slots differ). */
static LLVMValueRef entry_alloca(TargetCtx *tc, LLVMBuilderRef b, LLVMTypeRef t, const char *name)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b)));
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(tc->llctx);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first)
        LLVMPositionBuilderBefore(eb, first);
    else
        LLVMPositionBuilderAtEnd(eb, entry);
    LLVMValueRef s = LLVMBuildAlloca(eb, t, name);
    LLVMDisposeBuilder(eb);
    return s;
}

/* WMMA (TargetOps.wmma) as gfx11 computes it, in waves of 32 lanes (a wave of 64 is two of them): lane l holds
 * row l & 15 of A, column l & 15 of B and of C, and of C the rows 2k + (l >> 4 & 1) (base/wmma.jl). Each lane
 * puts its A row in a stack slot and reads, in 8 meetings of the wave, the slot addresses of the lanes whose
 * rows its 8 values of D need (a lane that takes no part gives a row of zeros); then D[k] = C[k] + the 16
 * products A[r, j] * B[j, c] added in order j = 1..16 in Float32 (a product of two Float16 is exact there).
 * A last meeting keeps every slot alive until all lanes have read it. */
static LLVMValueRef cpu_wmma(TargetCtx *tc, LLVMBuilderRef b, LLVMValueRef a, LLVMValueRef bm, LLVMValueRef c,
                             SrcLoc loc)
{
    LLVMContextRef cx = tc->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(cx), i64 = LLVMInt64TypeInContext(cx), h = LLVMHalfTypeInContext(cx);
    LLVMTypeRef f = LLVMFloatTypeInContext(cx), ptr = LLVMPointerTypeInContext(cx, 0);
    LLVMTypeRef row_t = LLVMTypeOf(a);
    LLVMValueRef mine = entry_alloca(tc, b, row_t, "wmma.row"), none = entry_alloca(tc, b, row_t, "wmma.zero");
    LLVMBuildStore(b, a, mine);
    LLVMBuildStore(b, LLVMConstNull(row_t), none);
    LLVMValueRef lane = cpu_wave(tc, b, WAVE_LANE, NULL, NULL, loc);
    LLVMValueRef base = LLVMBuildAnd(b, lane, LLVMConstInt(i32, ~31u, 0), "");
    LLVMValueRef half =
        LLVMBuildAnd(b, LLVMBuildLShr(b, lane, LLVMConstInt(i32, 4, 0), ""), LLVMConstInt(i32, 1, 0), "");
    LLVMValueRef rows[8];
    for (unsigned k = 0; k < 8; k++) {
        LLVMValueRef src = LLVMBuildAdd(b, LLVMBuildAdd(b, base, LLVMConstInt(i32, 2 * k, 0), ""), half, "");
        LLVMValueRef addr =
            wave_call(tc, b, WAVE_READ, LLVMBuildPtrToInt(b, mine, i64, ""), LLVMBuildZExt(b, src, i64, ""), loc);
        LLVMValueRef got = LLVMBuildIntToPtr(b, addr, ptr, "");
        rows[k] = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, addr, LLVMConstInt(i64, 0, 0), ""), none, got, "");
    }
    LLVMValueRef d = LLVMGetUndef(LLVMTypeOf(c));
    for (unsigned k = 0; k < 8; k++) {
        LLVMValueRef acc = LLVMBuildExtractElement(b, c, LLVMConstInt(i32, k, 0), "");
        for (unsigned j = 0; j < 16; j++) {
            LLVMValueRef idx = LLVMConstInt(i32, j, 0);
            LLVMValueRef x = LLVMBuildLoad2(b, h, LLVMBuildGEP2(b, h, rows[k], &idx, 1, ""), "");
            LLVMValueRef y = LLVMBuildExtractElement(b, bm, idx, "");
            acc = LLVMBuildFAdd(b, acc, LLVMBuildFMul(b, LLVMBuildFPExt(b, x, f, ""), LLVMBuildFPExt(b, y, f, ""), ""),
                                "");
        }
        d = LLVMBuildInsertElement(b, d, acc, LLVMConstInt(i32, k, 0), "");
    }
    wave_call(tc, b, WAVE_SYNC, LLVMConstInt(i64, 0, 0), LLVMConstInt(i64, 0, 0), loc);
    return d;
}

/* st->grid_sync(st, line, col). */
static void cpu_grid_sync(TargetCtx *tc, LLVMBuilderRef b, SrcLoc loc)
{
    LLVMTypeRef ptr = LLVMPointerTypeInContext(tc->llctx, 0), i32 = LLVMInt32TypeInContext(tc->llctx);
    LLVMValueRef f = load_state(tc, b, ST_GRID_SYNC, -1, ptr);
    LLVMTypeRef params[3] = { ptr, i32, i32 };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(tc->llctx), params, 3, 0);
    LLVMValueRef args[3] = { tc->cur_state, LLVMConstInt(i32, (unsigned)(loc.line > 0 ? loc.line : 0), 0),
                             LLVMConstInt(i32, (unsigned)(loc.col > 0 ? loc.col : 0), 0) };
    LLVMBuildCall2(b, fty, f, args, 3, "");
    tc->uses_barrier = true;
    tc->uses_grid_sync = true;
}

static void cpu_exit_item(TargetCtx *tc, LLVMBuilderRef b)
{
    LLVMValueRef f = exit_helper(tc), st = tc->cur_state;
    LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &st, 1, "");
    unsigned k = LLVMGetEnumAttributeKindForName("noreturn", 8);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(tc->llctx, k, 0));
}

static LLVMValueRef lds_at(TargetCtx *tc, LLVMBuilderRef b, LLVMValueRef off)
{
    LLVMValueRef base = load_state(tc, b, ST_LDS, -1, LLVMPointerTypeInContext(tc->llctx, 0));
    return LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(tc->llctx), base, &off, 1, "");
}

/* Static local arrays get consecutive offsets in st->lds (each aligned as
 * asked); the runtime allocates static_lds_bytes (+ dynamic) per group. */
static LLVMValueRef cpu_static_local(TargetCtx *tc, LLVMBuilderRef b, const char *name, uint64_t bytes, unsigned align)
{
    CpuPriv *cp = cpu(tc);
    uint64_t a = align ? align : 16;
    uint64_t off = (cp->lds_total + a - 1) / a * a;
    cp->lds_total = off + bytes;
    tc->static_lds_bytes = (uint32_t)cp->lds_total;
    return lds_at(tc, b, LLVMConstInt(LLVMInt64TypeInContext(tc->llctx), off, 0));
}

/* The dynamic segment starts at align16(static total), known only when the
 * kernel is finished: read it from an internal constant whose initializer
 * finish_kernel sets; the optimiser folds the load. */
static LLVMValueRef cpu_dynamic_local(TargetCtx *tc, LLVMBuilderRef b)
{
    CpuPriv *cp = cpu(tc);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(tc->llctx);
    if (!cp->lds_end) {
        cp->lds_end = LLVMAddGlobal(tc->mod, i64, "__juke_dynamic_lds_offset");
        LLVMSetLinkage(cp->lds_end, LLVMInternalLinkage);
        LLVMSetGlobalConstant(cp->lds_end, 1);
        LLVMSetInitializer(cp->lds_end, LLVMConstInt(i64, 0, 0));
    }
    tc->uses_dynamic_lds = true;
    LLVMValueRef off = LLVMBuildLoad2(b, i64, cp->lds_end, "");
    return lds_at(tc, b, off);
}

static LLVMValueRef cpu_dynamic_local_bytes(TargetCtx *tc, LLVMBuilderRef b)
{
    return load_state(tc, b, ST_DYNAMIC_LDS_BYTES, -1, LLVMInt64TypeInContext(tc->llctx));
}

/* *st->cancel != 0, a relaxed atomic load: the watchdog thread writes it
 * while the loop runs, so it must be read again at every back-edge. */
static LLVMValueRef cpu_cancel_requested(TargetCtx *tc, LLVMBuilderRef b)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(tc->llctx);
    LLVMValueRef flag = load_state(tc, b, ST_CANCEL, -1, LLVMPointerTypeInContext(tc->llctx, 0));
    LLVMValueRef v = LLVMBuildLoad2(b, i32, flag, "");
    LLVMSetOrdering(v, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(v, 4);
    return LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstInt(i32, 0, 0), "");
}

/* libm: sinf/sin, atan2f/atan2, ... (glibc has exp10); powi is LLVM's
 * llvm.powi. The shared object leaves them undefined: the process that
 * dlopens it has libm. */
static LLVMValueRef cpu_math_fn(TargetCtx *tc, const char *name, LLVMTypeRef ty, LLVMTypeRef *fty)
{
    if (!llvm_math_arity(name)) {
        diag_plain(tc->diags, DIAG_INTERNAL, "no CPU math function \"%s\"", name);
        return NULL;
    }
    LLVMTypeKind k = LLVMGetTypeKind(ty);
    if (strcmp(name, "powi") != 0) {
        char sym[64];
        snprintf(sym, sizeof sym, "%s%s", name, k == LLVMDoubleTypeKind ? "" : "f");
        return llvm_math_libfn(tc, name, ty, sym, fty);
    }
    /* libm has no powi */
    LLVMTypeRef ov[2] = { ty, LLVMInt32TypeInContext(tc->llctx) };
    return llvm_intrinsic(tc, "llvm.powi", ov, 2, fty);
}

/* ---- the entry and the table --------------------------------------------- */
static LLVMValueRef const_cstring(TargetCtx *tc, const char *s, const char *gname)
{
    LLVMValueRef init = LLVMConstStringInContext(tc->llctx, s, (unsigned)strlen(s), 0);
    LLVMValueRef g = LLVMAddGlobal(tc->mod, LLVMTypeOf(init), gname);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return g;
}

/* (Re)build juke_cpu_kernels / juke_cpu_nkernels / juke_cpu_group_entries from every kernel finished
 * so far; static LDS and barrier use are module-wide (one total for all). */
static void build_table(TargetCtx *tc)
{
    CpuPriv *cp = cpu(tc);
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
    LLVMTypeRef fields[8] = { ptr, ptr, i32, i32, i32, i32, i32, i32 };
    LLVMTypeRef info_ty = LLVMStructTypeInContext(c, fields, 8, 0);
    LLVMValueRef old = LLVMGetNamedGlobal(tc->mod, JUKE_CPU_TABLE_SYMBOL);
    if (old)
        LLVMDeleteGlobal(old);
    old = LLVMGetNamedGlobal(tc->mod, JUKE_CPU_COUNT_SYMBOL);
    if (old)
        LLVMDeleteGlobal(old);
    unsigned maxg = (unsigned)target_group_items(tc->opts, 0);
    LLVMValueRef *elems = calloc((size_t)cp->nkernels + 1, sizeof *elems);
    if (!elems)
        return;
    for (int i = 0; i < cp->nkernels; i++) {
        char gname[48];
        snprintf(gname, sizeof gname, "__juke_kernel_name.%d", i);
        LLVMValueRef name = LLVMGetNamedGlobal(tc->mod, gname);
        if (!name)
            name = const_cstring(tc, cp->kernels[i].name, gname);
        unsigned flags = (cp->uses_wave ? JUKE_CPU_USES_WAVE : 0) | (tc->uses_grid_sync ? JUKE_CPU_USES_GRID_SYNC : 0);
        LLVMValueRef v[8] = { name,
                              cp->kernels[i].entry,
                              LLVMConstInt(i32, cp->kernels[i].kernarg_size, 0),
                              LLVMConstInt(i32, cp->lds_total, 0),
                              LLVMConstInt(i32, tc->uses_barrier ? JUKE_CPU_BARRIER_LOC : 0, 0),
                              LLVMConstInt(i32, maxg, 0),
                              LLVMConstInt(i32, (unsigned)tc->wavefront_size, 0),
                              LLVMConstInt(i32, flags, 0) };
        elems[i] = LLVMConstNamedStruct(info_ty, v, 8);
    }
    LLVMValueRef arr = LLVMConstArray2(info_ty, elems, (uint64_t)cp->nkernels);
    /* the group entries: none where the work-items must run as fibers */
    LLVMTypeRef gfields[3] = { ptr, i32, i32 };
    LLVMTypeRef gty = LLVMStructTypeInContext(c, gfields, 3, 0);
    for (int i = 0; i < cp->nkernels; i++) {
        CpuKernel *ck = &cp->kernels[i];
        if (tc->uses_barrier && ck->group_entry && !(ck->group_flags & JUKE_CPU_GROUP_REGIONS)) {
            LLVMDeleteFunction(ck->group_entry);
            ck->group_entry = NULL;
        }
        LLVMValueRef v[3] = { ck->group_entry ? ck->group_entry : LLVMConstPointerNull(ptr),
                              LLVMConstInt(i32, ck->spill_bytes, 0), LLVMConstInt(i32, ck->group_flags, 0) };
        elems[i] = LLVMConstStructInContext(c, v, 3, 0);
    }
    LLVMValueRef groups = LLVMConstArray2(gty, elems, (uint64_t)cp->nkernels);
    free(elems);
    old = LLVMGetNamedGlobal(tc->mod, JUKE_CPU_GROUP_SYMBOL);
    if (old)
        LLVMDeleteGlobal(old);
    LLVMValueRef gtable = LLVMAddGlobal(tc->mod, LLVMTypeOf(groups), JUKE_CPU_GROUP_SYMBOL);
    LLVMSetInitializer(gtable, groups);
    LLVMSetGlobalConstant(gtable, 1);
    LLVMValueRef table = LLVMAddGlobal(tc->mod, LLVMTypeOf(arr), JUKE_CPU_TABLE_SYMBOL);
    LLVMSetInitializer(table, arr);
    LLVMSetGlobalConstant(table, 1);
    LLVMValueRef count = LLVMAddGlobal(tc->mod, i32, JUKE_CPU_COUNT_SYMBOL);
    LLVMSetInitializer(count, LLVMConstInt(i32, (unsigned)cp->nkernels, 0));
    LLVMSetGlobalConstant(count, 1);
    if (cp->lds_end)
        LLVMSetInitializer(cp->lds_end, LLVMConstInt(LLVMInt64TypeInContext(c), (cp->lds_total + 15) / 16 * 16, 0));
}

/* Load each explicit argument of fn from the kernarg buffer into args[] (abi.h: each at the next offset aligned
 * to its natural alignment; an array's {ptr, [N x i64], i64} is 16+8N bytes aligned 8; Bool is one byte), then
 * the exception pointer at the next 8-aligned offset; args[np - 1] is left for the state (np: fn's parameters up
 * to the state, a region copy's mode after it). Returns the bytes
 * the buffer takes. */
static uint64_t load_kernargs(TargetCtx *tc, LLVMBuilderRef b, LLVMValueRef fn, unsigned np, LLVMValueRef kernarg,
                              LLVMValueRef *args)
{
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(tc->mod);
    uint64_t off = 0;
    for (unsigned i = 0; i + 1 < np; i++) {
        LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, i));
        bool is_bool = LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 1;
        LLVMTypeRef mt = is_bool ? i8 : t;
        uint64_t align = i == np - 2 ? 8 : LLVMABIAlignmentOfType(td, mt);
        uint64_t size = i == np - 2 ? 8 : LLVMABISizeOfType(td, mt);
        off = (off + align - 1) / align * align;
        LLVMValueRef idx = LLVMConstInt(i64, off, 0);
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, kernarg, &idx, 1, "");
        LLVMValueRef v = LLVMBuildLoad2(b, mt, p, "");
        /* the runtime's buffer is only guaranteed byte-aligned */
        LLVMSetAlignment(v, 1);
        if (is_bool)
            v = LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstInt(i8, 0, 0), "");
        args[i] = v;
        off += size;
    }
    return off;
}

static void add_fn_attr(TargetCtx *tc, LLVMValueRef fn, unsigned index, const char *name)
{
    unsigned k = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, index, LLVMCreateEnumAttribute(tc->llctx, k, 0));
}

/* An internal `void NAME(const void *kernarg, JukeCpuState *st)`, the builder at its entry block. */
static LLVMValueRef add_entry(TargetCtx *tc, const char *name, LLVMBuilderRef b)
{
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
    LLVMTypeRef params[2] = { ptr, ptr };
    LLVMValueRef e = LLVMAddFunction(tc->mod, name, LLVMFunctionType(LLVMVoidTypeInContext(c), params, 2, 0));
    LLVMSetLinkage(e, LLVMInternalLinkage);
    LLVMSetValueName2(LLVMGetParam(e, 0), "kernarg", 7);
    LLVMSetValueName2(LLVMGetParam(e, 1), "st", 2);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, e, "entry"));
    return e;
}

/* A region round's statuses reduced as its items stop (cpu_emit_group_entry): after each item, the status the
 * resumable item returns is and-ed into all_and and or-ed into all_or (allocas the optimiser makes into a
 * vectorisable reduction); the two are equal after the round when every item stopped at the same place. The
 * item takes its index as its last three arguments, args[ids_at + d]. */
typedef struct RoundStatus {
    LLVMValueRef all_and, all_or;
    unsigned ids_at;
} RoundStatus;

/* At the builder: the loops over the group's work-items, z outermost, x innermost (do-while loops: every
 * dimension has at least one item), each item's index stored into st->item (with rs: given as arguments),
 * then call(args) (and, with rs, its status reduced); the builder ends after the loops. The x loop's ID holds
 * mark (cpu_split.h), where split_group_entries finds it; a region's mark declares the region copy's
 * accesses parallel (cpu_regions_parallel): LLVM vectorises a region without proving its work-items'
 * accesses independent. */
static void emit_item_loops(TargetCtx *tc, LLVMBuilderRef b, LLVMValueRef e, LLVMValueRef *dim, LLVMValueRef callee,
                            LLVMValueRef *args, unsigned nargs, LLVMMetadataRef mark, const RoundStatus *rs)
{
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMBasicBlockRef head[3], pre = LLVMGetInsertBlock(b);
    LLVMValueRef iv[3];
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0), one = LLVMConstInt(i32, 1, 0);
    for (int d = 2; d >= 0; d--) {
        head[d] = LLVMAppendBasicBlockInContext(c, e, d == 0 ? "item.x" : d == 1 ? "item.y" : "item.z");
        LLVMBuildBr(b, head[d]);
        LLVMPositionBuilderAtEnd(b, head[d]);
        iv[d] = LLVMBuildPhi(b, i32, "");
        LLVMAddIncoming(iv[d], &zero, &pre, 1);
        if (rs)
            args[rs->ids_at + (unsigned)d] = iv[d];
        else
            LLVMBuildStore(b, iv[d], state_field_ptr(tc, b, ST_ITEM, d));
        pre = head[d];
    }
    LLVMValueRef s = LLVMBuildCall2(b, LLVMGlobalGetValueType(callee), callee, args, nargs, "");
    if (rs) {
        LLVMBuildStore(b, LLVMBuildAnd(b, LLVMBuildLoad2(b, i32, rs->all_and, ""), s, ""), rs->all_and);
        LLVMBuildStore(b, LLVMBuildOr(b, LLVMBuildLoad2(b, i32, rs->all_or, ""), s, ""), rs->all_or);
    }
    for (int d = 0; d < 3; d++) {
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
        LLVMValueRef next = LLVMBuildNUWAdd(b, iv[d], one, "");
        LLVMAddIncoming(iv[d], &next, &latch, 1);
        LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(c, e, d == 2 ? "items.done" : "");
        LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, dim[d], ""), head[d], after);
        if (mark && d == 0)
            LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c, "llvm.loop", 9),
                            LLVMMetadataAsValue(c, cpu_split_loop_id(c, mark)));
        LLVMPositionBuilderAtEnd(b, after);
    }
}

/* What status_loop does to each item's status p[i]. */
typedef enum { STATUS_FILL, STATUS_CLEAR, STATUS_FILL_UNSET } StatusOp;

/* At the builder, for i in 0 .. n - 1 (n >= 1): p[i] = v (FILL), 0 (CLEAR), or v where it is 0 (FILL_UNSET:
 * the items that did not record their status stopped where expected); the builder ends after the loop. */
static void status_loop(TargetCtx *tc, LLVMBuilderRef b, LLVMValueRef e, LLVMValueRef p, LLVMValueRef n, StatusOp op,
                        LLVMValueRef v)
{
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(b), body = LLVMAppendBasicBlockInContext(c, e, "status.loop");
    LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(c, e, "status.done");
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    LLVMBuildBr(b, body);
    LLVMPositionBuilderAtEnd(b, body);
    LLVMValueRef i = LLVMBuildPhi(b, i32, "");
    LLVMAddIncoming(i, &zero, &pre, 1);
    LLVMValueRef i64v = LLVMBuildZExt(b, i, i64, "");
    LLVMValueRef at = LLVMBuildInBoundsGEP2(b, i32, p, &i64v, 1, "");
    LLVMValueRef nv = op == STATUS_CLEAR ? zero : v;
    if (op == STATUS_FILL_UNSET) {
        LLVMValueRef old = LLVMBuildLoad2(b, i32, at, "");
        nv = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, old, zero, ""), v, old, "");
    }
    LLVMBuildStore(b, nv, at);
    LLVMValueRef next = LLVMBuildNUWAdd(b, i, LLVMConstInt(i32, 1, 0), "");
    LLVMAddIncoming(i, &next, &body, 1);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, n, ""), body, after);
    LLVMPositionBuilderAtEnd(b, after);
}

/* The workgroup entry `void SYMBOL.group(const void *kernarg, JukeCpuState *st)`: the kernel's arguments
 * loaded once, then every work-item of the group, x fastest, in loops whose induction variables the body
 * (inlined) reads as its indices: a store to st->item that the optimiser forwards to the body's loads, so
 * LLVM can vectorise across work-items. The loops run the items in the order of the runtime's one-by-one
 * mode, and st->item names the running item when the body calls exit_item.
 * Without regions (NULL), for kernels without barriers: each item runs to its end. With regions, fn is the
 * resumable work-item of cpu_regions.c: the loops run every item to its next stop, round after round, until
 * st->region_round says the group is done. */
static LLVMValueRef cpu_emit_group_entry(TargetCtx *tc, LLVMValueRef fn, const char *symbol, LLVMValueRef *args,
                                         const CpuRegions *regions)
{
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
    unsigned np = LLVMCountParams(fn);
    char name[280];
    snprintf(name, sizeof name, "%s.group", symbol);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMValueRef e = add_entry(tc, name, b);
    LLVMValueRef st = LLVMGetParam(e, 1);
    add_fn_attr(tc, e, 2, "noalias");
    /* the state is readable whole: its loads (the local memory's address, ...) leave conditional code */
    unsigned deref = LLVMGetEnumAttributeKindForName("dereferenceable", 15);
    uint64_t state_bytes = LLVMABISizeOfType(LLVMGetModuleDataLayout(tc->mod), cpu(tc)->state_ty);
    LLVMAddAttributeAtIndex(e, 2, LLVMCreateEnumAttribute(c, deref, state_bytes));
    LLVMAddAttributeAtIndex(
        e, 2,
        LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("align", 5),
                                LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(tc->mod), cpu(tc)->state_ty)));
    LLVMValueRef saved_state = tc->cur_state;
    tc->cur_state = st;
    unsigned nk = regions ? np - CPU_REGION_EXTRA_PARAMS : np; /* fn's parameters up to the state */
    load_kernargs(tc, b, fn, nk, LLVMGetParam(e, 0), args);
    args[nk - 1] = st;
    LLVMValueRef dim[3];
    for (int d = 0; d < 3; d++)
        dim[d] = cpu_workgroup_dim(tc, b, d);
    if (!regions) {
        emit_item_loops(tc, b, e, dim, fn, args, np, cpu_split_plain_mark(c), NULL);
        LLVMBuildRetVoid(b);
    } else {
        LLVMValueRef *lv = calloc((size_t)regions->nbarriers + 1, sizeof *lv);
        if (!lv) { /* the kernel runs as fibers */
            LLVMDisposeBuilder(b);
            tc->cur_state = saved_state;
            LLVMDeleteFunction(e);
            return NULL;
        }
        for (uint32_t k = 0; k <= regions->nbarriers; k++)
            lv[k] = LLVMConstInt(i64, regions->locs[k], 0);
        LLVMValueRef init = LLVMConstArray2(i64, lv, regions->nbarriers + 1);
        free(lv);
        LLVMValueRef locs = LLVMAddGlobal(tc->mod, LLVMTypeOf(init), "__juke_barrier_locs");
        LLVMSetInitializer(locs, init);
        LLVMSetGlobalConstant(locs, 1);
        LLVMSetLinkage(locs, LLVMPrivateLinkage);
        /* round: the mode is the barrier every item waits at (more - 2), or CPU_REGION_ANY when they wait at
         * different ones (more = 1), when the launch was cancelled (every cancel check reads the flag then),
         * or for barriers past CPU_REGION_SPECIALISE (one copy of the body each is enough) */
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(b), round = LLVMAppendBasicBlockInContext(c, e, "round");
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(c, e, "round.next");
        LLVMBuildBr(b, round);
        LLVMPositionBuilderAtEnd(b, round);
        LLVMValueRef r = LLVMBuildPhi(b, i32, "more");
        LLVMValueRef start = LLVMConstInt(i32, 2, 0);
        LLVMAddIncoming(r, &start, &pre, 1);
        /* the group's uniform values (cpu_regions.c): the round's snapshot, then what its items leave, which
         * the next round reads (copied there at round.next) */
        LLVMValueRef uni = LLVMConstNull(ptr), silent_at = NULL, recorded_at = NULL;
        uint32_t gb = regions->group_bytes;
        bool owns = cpu_regions_owns_status(regions);
        uint64_t ubytes = owns ? CPU_REGION_RECORDED_AT(gb) + 4 : 2 * (uint64_t)gb;
        if (ubytes) {
            LLVMBasicBlockRef cur = LLVMGetInsertBlock(b);
            LLVMPositionBuilder(b, LLVMGetEntryBasicBlock(e), LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(e)));
            uni = LLVMBuildAlloca(b, LLVMArrayType2(LLVMInt8TypeInContext(c), ubytes), "uniform");
            LLVMSetAlignment(uni, 16);
            LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(pre));
            LLVMBuildMemSet(b, uni, LLVMConstInt(LLVMInt8TypeInContext(c), 0, 0), LLVMConstInt(i64, ubytes, 0), 16);
            LLVMPositionBuilderAtEnd(b, cur);
        }
        if (owns) { /* cpu_regions.h: where the items leave what the status array does not record; zero each round */
            LLVMTypeRef i8 = LLVMInt8TypeInContext(c);
            LLVMValueRef so = LLVMConstInt(i64, CPU_REGION_SILENT_AT(gb), 0),
                         ro = LLVMConstInt(i64, CPU_REGION_RECORDED_AT(gb), 0);
            silent_at = LLVMBuildInBoundsGEP2(b, i8, uni, &so, 1, "");
            recorded_at = LLVMBuildInBoundsGEP2(b, i8, uni, &ro, 1, "");
            LLVMBuildStore(b, LLVMConstInt(i32, 0, 0), silent_at);
            LLVMBuildStore(b, LLVMConstInt(i32, 0, 0), recorded_at);
        }
        args[nk + 1] = uni;
        /* the round's statuses, reduced as the items stop (RoundStatus) */
        RoundStatus rs = { .ids_at = nk + 2 };
        LLVMBasicBlockRef cur = LLVMGetInsertBlock(b);
        LLVMPositionBuilder(b, LLVMGetEntryBasicBlock(e), LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(e)));
        rs.all_and = LLVMBuildAlloca(b, i32, "status.and");
        rs.all_or = LLVMBuildAlloca(b, i32, "status.or");
        /* with cpu_regions_owns_status: the status array is zero between rounds (the items record only
         * where not every item stops) unless `valid` (the round before read it, or it ended mixed: then it
         * holds every item's status); `at` is where every item stopped in the last round */
        LLVMValueRef valid = LLVMBuildAlloca(b, i32, "status.valid"), at = LLVMBuildAlloca(b, i32, "status.at");
        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(pre));
        LLVMBuildStore(b, LLVMConstInt(i32, 0, 0), valid);
        LLVMBuildStore(b, LLVMConstInt(i32, 0, 0), at);
        LLVMValueRef nitems = LLVMBuildMul(b, LLVMBuildMul(b, dim[0], dim[1], ""), dim[2], "items");
        LLVMValueRef status = load_state(tc, b, ST_SPILL, -1, ptr);
        LLVMPositionBuilderAtEnd(b, cur);
        LLVMBuildStore(b, LLVMConstInt(i32, ~0u, 0), rs.all_and);
        LLVMBuildStore(b, LLVMConstInt(i32, 0, 0), rs.all_or);
        LLVMValueRef mixed = LLVMBuildOr(b, cpu_cancel_requested(tc, b),
                                         LLVMBuildICmp(b, LLVMIntULT, r, LLVMConstInt(i32, 2, 0), ""), "");
        LLVMValueRef mode = LLVMBuildSelect(b, mixed, LLVMConstInt(i32, CPU_REGION_ANY, 0),
                                            LLVMBuildSub(b, r, LLVMConstInt(i32, 2, 0), ""), "mode");
        LLVMBasicBlockRef any = LLVMAppendBasicBlockInContext(c, e, "round.any");
        uint32_t nspec = regions->nbarriers < CPU_REGION_SPECIALISE ? regions->nbarriers : CPU_REGION_SPECIALISE;
        LLVMMetadataRef mark = regions->access_group ? cpu_regions_parallel(c, regions->access_group) : NULL;
        LLVMValueRef sw = LLVMBuildSwitch(b, mode, any, nspec + 1);
        for (uint32_t k = 0; k <= nspec; k++) {
            LLVMBasicBlockRef at = LLVMAppendBasicBlockInContext(c, e, "round.at");
            LLVMAddCase(sw, LLVMConstInt(i32, k, 0), at);
            LLVMPositionBuilderAtEnd(b, at);
            args[nk] = LLVMConstInt(i32, k, 0);
            emit_item_loops(tc, b, e, dim, fn, args, np, mark, &rs);
            LLVMBuildBr(b, next);
        }
        LLVMPositionBuilderAtEnd(b, any);
        if (owns) { /* a round that reads the statuses: every item at `at` unless the array holds them */
            LLVMBasicBlockRef fill = LLVMAppendBasicBlockInContext(c, e, "status.fill");
            LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(c, e, "round.any.go");
            LLVMValueRef v = LLVMBuildLoad2(b, i32, valid, "");
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, v, LLVMConstInt(i32, 0, 0), ""), fill, go);
            LLVMPositionBuilderAtEnd(b, fill);
            status_loop(tc, b, e, status, nitems, STATUS_FILL, LLVMBuildLoad2(b, i32, at, ""));
            LLVMBuildStore(b, LLVMConstInt(i32, 1, 0), valid);
            LLVMBuildBr(b, go);
            LLVMPositionBuilderAtEnd(b, go);
        }
        args[nk] = LLVMConstInt(i32, CPU_REGION_ANY, 0);
        emit_item_loops(tc, b, e, dim, fn, args, np, mark, &rs);
        LLVMBuildBr(b, next);
        /* every item stopped at one place: the next round's kind without the runtime (as region_round
         * answers then: 2 + k at barrier k, 0 when all ended); else the runtime decides */
        LLVMPositionBuilderAtEnd(b, next);
        for (uint32_t off = 0; off < gb; off += 8) {
            LLVMValueRef from = LLVMConstInt(i64, gb + off, 0), to = LLVMConstInt(i64, off, 0);
            LLVMTypeRef i8 = LLVMInt8TypeInContext(c);
            LLVMValueRef v = LLVMBuildLoad2(b, i64, LLVMBuildInBoundsGEP2(b, i8, uni, &from, 1, ""), "");
            LLVMBuildStore(b, v, LLVMBuildInBoundsGEP2(b, i8, uni, &to, 1, ""));
        }
        LLVMValueRef s_and = LLVMBuildLoad2(b, i32, rs.all_and, ""), s_or = LLVMBuildLoad2(b, i32, rs.all_or, "");
        LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(c, e, "round.mixed");
        LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c, e, "round.end");
        LLVMValueRef same =
            LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, s_and, LLVMConstInt(i32, CPU_REGION_RETURNED, 0), ""),
                            LLVMBuildAdd(b, s_and, LLVMConstInt(i32, 2, 0), ""), LLVMConstInt(i32, 0, 0), "");
        LLVMValueRef uniform = LLVMBuildICmp(b, LLVMIntEQ, s_and, s_or, "");
        LLVMBasicBlockRef same_from = next;
        if (owns) {
            /* some items recorded their statuses (the round read them, or stopped where not every item
             * stops): those that did not stopped at the silent status; the array is made whole for the
             * runtime when the round ended mixed, else cleared */
            LLVMValueRef ex = LLVMBuildLoad2(b, i32, silent_at, "silent.status");
            LLVMValueRef recorded = LLVMBuildLoad2(b, i32, recorded_at, "recorded");
            LLVMBuildStore(b, s_and, at);
            LLVMValueRef v = LLVMBuildLoad2(b, i32, valid, "");
            LLVMValueRef none =
                LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildOr(b, recorded, v, ""), LLVMConstInt(i32, 0, 0), "");
            LLVMValueRef clean = LLVMBuildAnd(b, uniform, none, "");
            LLVMBasicBlockRef tidy = LLVMAppendBasicBlockInContext(c, e, "status.tidy");
            LLVMBasicBlockRef clear = LLVMAppendBasicBlockInContext(c, e, "status.clear");
            LLVMBuildCondBr(b, clean, join, tidy);
            LLVMPositionBuilderAtEnd(b, tidy);
            LLVMBasicBlockRef whole = LLVMAppendBasicBlockInContext(c, e, "status.whole");
            LLVMBuildCondBr(b, uniform, clear, whole);
            LLVMPositionBuilderAtEnd(b, whole);
            LLVMBasicBlockRef unset = LLVMAppendBasicBlockInContext(c, e, "status.unset");
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, v, LLVMConstInt(i32, 0, 0), ""), unset, slow);
            LLVMPositionBuilderAtEnd(b, unset);
            status_loop(tc, b, e, status, nitems, STATUS_FILL_UNSET, ex);
            LLVMBuildStore(b, LLVMConstInt(i32, 1, 0), valid);
            LLVMBuildBr(b, slow);
            LLVMPositionBuilderAtEnd(b, clear);
            status_loop(tc, b, e, status, nitems, STATUS_CLEAR, NULL);
            LLVMBuildStore(b, LLVMConstInt(i32, 0, 0), valid);
            same_from = LLVMGetInsertBlock(b);
            LLVMBuildBr(b, join);
        } else {
            LLVMBuildCondBr(b, uniform, join, slow);
        }
        LLVMPositionBuilderAtEnd(b, slow);
        LLVMValueRef f = load_state(tc, b, ST_REGION_ROUND, -1, ptr);
        LLVMTypeRef params[2] = { ptr, ptr };
        LLVMValueRef cargs[2] = { st, locs };
        LLVMValueRef called = LLVMBuildCall2(b, LLVMFunctionType(i32, params, 2, 0), f, cargs, 2, "");
        if (owns) { /* the rounds go on where the array is not read (or the group ends): clear it */
            LLVMBasicBlockRef clear = LLVMAppendBasicBlockInContext(c, e, "status.clear");
            LLVMBasicBlockRef kept = LLVMGetInsertBlock(b);
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, called, LLVMConstInt(i32, 1, 0), ""), join, clear);
            LLVMPositionBuilderAtEnd(b, clear);
            status_loop(tc, b, e, status, nitems, STATUS_CLEAR, NULL);
            LLVMBuildStore(b, LLVMConstInt(i32, 0, 0), valid);
            LLVMBuildStore(b, LLVMBuildSub(b, called, LLVMConstInt(i32, 2, 0), ""), at);
            LLVMBasicBlockRef cleared = LLVMGetInsertBlock(b);
            LLVMBuildBr(b, join);
            LLVMPositionBuilderAtEnd(b, join);
            LLVMValueRef more = LLVMBuildPhi(b, i32, "");
            LLVMValueRef vals[4] = { same, same, called, called };
            LLVMBasicBlockRef from[4] = { next, same_from, kept, cleared };
            LLVMAddIncoming(more, vals, from, 4);
            LLVMAddIncoming(r, &more, &join, 1);
        } else {
            LLVMBuildBr(b, join);
            LLVMPositionBuilderAtEnd(b, join);
        }
        LLVMValueRef more = owns ? LLVMGetFirstInstruction(join) : LLVMBuildPhi(b, i32, "");
        if (!owns) {
            LLVMValueRef vals[2] = { same, called };
            LLVMBasicBlockRef from[2] = { next, slow };
            LLVMAddIncoming(more, vals, from, 2);
        }
        if (!owns)
            LLVMAddIncoming(r, &more, &join, 1);
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, e, "done");
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, more, LLVMConstInt(i32, 0, 0), ""), round, done);
        LLVMPositionBuilderAtEnd(b, done);
        LLVMBuildRetVoid(b);
    }
    LLVMDisposeBuilder(b);
    tc->cur_state = saved_state;
    return e;
}

/* Mark alwaysinline every function that reaches a barrier (but the entries), so that they are inlined into
 * the region copy. */
static void inline_barrier_callers(TargetCtx *tc, LLVMValueRef keep1, LLVMValueRef keep2)
{
    LLVMValueRef bar = cpu(tc)->barrier_fn;
    for (bool changed = true; changed;) {
        changed = false;
        for (LLVMValueRef f = LLVMGetFirstFunction(tc->mod); f; f = LLVMGetNextFunction(f)) {
            if (f == keep1 || f == keep2 || f == bar || LLVMIsDeclaration(f))
                continue;
            unsigned k = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
            if (LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, k))
                continue;
            bool calls = false;
            for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !calls; bb = LLVMGetNextBasicBlock(bb))
                for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !calls; i = LLVMGetNextInstruction(i)) {
                    if (LLVMGetInstructionOpcode(i) != LLVMCall)
                        continue;
                    LLVMValueRef callee = LLVMGetCalledValue(i);
                    calls =
                        callee == bar || (LLVMIsAFunction(callee) &&
                                          LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, k) != NULL);
                }
            if (calls) {
                add_fn_attr(tc, f, LLVMAttributeFunctionIndex, "alwaysinline");
                changed = true;
            }
        }
    }
}

/* The region copy of a kernel with barriers (cpu_regions.c): `SYMBOL.regions`, the body inlined into it with
 * everything that reaches a barrier, made resumable. NULL (nothing added) when it cannot be: wavefront
 * operations or sync_grid (fibers meet there), a barrier left in a function that could not be inlined
 * (recursion), or what cpu_regions_transform cannot express. */
static LLVMValueRef cpu_emit_regions(TargetCtx *tc, LLVMValueRef fn, LLVMValueRef entry, const char *symbol,
                                     CpuRegions *regions)
{
    CpuPriv *cp = cpu(tc);
    if (!cp->barrier_fn || cp->uses_wave || tc->uses_grid_sync)
        return NULL;
    LLVMContextRef c = tc->llctx;
    unsigned np = LLVMCountParams(fn);
    char name[280];
    snprintf(name, sizeof name, "%s.regions", symbol);
    /* fn's parameters, then the mode, the group's uniform values and the item's index (cpu_regions.h) */
    LLVMTypeRef *pt = calloc(np + CPU_REGION_EXTRA_PARAMS, sizeof *pt);
    LLVMValueRef *args = calloc(np + CPU_REGION_EXTRA_PARAMS, sizeof *args);
    if (!pt || !args) {
        free(pt), free(args);
        return NULL;
    }
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMGetParamTypes(LLVMGlobalGetValueType(fn), pt);
    pt[np] = i32;
    pt[np + 1] = LLVMPointerTypeInContext(c, 0);
    pt[np + 2] = pt[np + 3] = pt[np + 4] = i32;
    LLVMValueRef rb = LLVMAddFunction(tc->mod, name, LLVMFunctionType(i32, pt, np + CPU_REGION_EXTRA_PARAMS, 0));
    free(pt);
    LLVMSetLinkage(rb, LLVMInternalLinkage);
    add_fn_attr(tc, rb, np, "noalias");
    for (unsigned i = 0; i < np; i++)
        args[i] = LLVMGetParam(rb, i);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, rb, "entry"));
    LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, np, "");
    LLVMBuildRet(b, LLVMConstInt(i32, 0, 0)); /* cpu_regions_transform makes it the status */
    LLVMDisposeBuilder(b);
    free(args);
    inline_barrier_callers(tc, entry, rb);
    /* the inlined copy in SSA form again (sroa), so that only the values live across a barrier go to memory;
     * loops of a few iterations known at compile time unrolled, so that their cancel checks leave the rounds
     * (cpu_regions.c, uniform_cancel_checks) */
    if (!llvm_run_passes(
            tc,
            "always-inline,function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,sroa,early-cse,"
            "instcombine<no-verify-fixpoint>,simplifycfg,loop(loop-rotate,"
            "indvars),loop-unroll<O3;no-partial;no-runtime;no-upperbound;no-profile-peeling>)",
            NULL)) {
        LLVMDeleteFunction(rb);
        return NULL;
    }
    for (LLVMUseRef u = LLVMGetFirstUse(cp->barrier_fn); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        LLVMValueRef f = LLVMIsAInstruction(user) ? LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) : NULL;
        if (f != rb && f != entry) {
            LLVMDeleteFunction(rb);
            return NULL;
        }
    }
    if (!cpu_regions_transform(tc->mod, rb, cp->state_ty, cp->barrier_fn, cp->exit_fn, regions)) {
        free(regions->locs);
        regions->locs = NULL;
        LLVMDeleteFunction(rb);
        return NULL;
    }
    /* one copy per round kind in the group entry, each folded to its region */
    add_fn_attr(tc, rb, LLVMAttributeFunctionIndex, "alwaysinline");
    return rb;
}

/* The entry `void SYMBOL(const void *kernarg, JukeCpuState *st)` (internal: reached through the table) runs
 * one work-item: it loads the arguments (load_kernargs) and calls the kernel function fn(args..., exception,
 * st). SYMBOL.group runs the whole group (cpu_emit_group_entry): for a kernel with barriers through the
 * region copy (cpu_emit_regions), where there is one. */
static void cpu_finish_kernel(TargetCtx *tc, LLVMValueRef fn, const char *symbol)
{
    CpuPriv *cp = cpu(tc);
    LLVMContextRef c = tc->llctx;
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    unsigned np = LLVMCountParams(fn);
    if (np < 2) {
        diag_plain(tc->diags, DIAG_INTERNAL, "CPU kernel %s lacks its exception and state parameters", symbol);
        return;
    }
    LLVMSetValueName2(LLVMGetParam(fn, np - 2), "__juke_exception", 16);
    LLVMSetValueName2(LLVMGetParam(fn, np - 1), "__juke_state", 12);
    /* the state is reached through no other pointer while the body runs; the body is inlined into the
     * entries, so that the group entry's loops see it whole */
    add_fn_attr(tc, fn, np, "noalias");
    add_fn_attr(tc, fn, LLVMAttributeFunctionIndex, "alwaysinline");
    /* The entry takes the kernel's symbol (so the optimised module shows the
     * kernel under its name, its body inlined); the body becomes SYMBOL.body. */
    char bname[256];
    snprintf(bname, sizeof bname, "%s.body", symbol);
    LLVMSetValueName2(fn, bname, strlen(bname));
    LLVMValueRef *args = calloc(np, sizeof *args);
    if (!args) {
        diag_plain(tc->diags, DIAG_INTERNAL, "out of memory");
        return;
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMValueRef entry = add_entry(tc, symbol, b);
    uint64_t off = load_kernargs(tc, b, fn, np, LLVMGetParam(entry, 0), args);
    args[np - 1] = LLVMGetParam(entry, 1);
    LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, np, "");
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    /* a kernel with barriers gets its group entry in cpu_link_libraries, once the module is complete */
    LLVMValueRef group = tc->uses_barrier ? NULL : cpu_emit_group_entry(tc, fn, symbol, args, NULL);
    free(args);

    CpuKernel *k = realloc(cp->kernels, (size_t)(cp->nkernels + 1) * sizeof *k);
    if (!k) {
        diag_plain(tc->diags, DIAG_INTERNAL, "out of memory");
        return;
    }
    cp->kernels = k;
    k[cp->nkernels++] = (CpuKernel){ strdup(symbol),
                                     entry,
                                     group,
                                     (uint32_t)off,
                                     0,
                                     0,
                                     tc->uses_barrier ? fn : NULL,
                                     group ? cpu_split_plain_mark(c) : NULL };
    if (!cp->symbol) {
        cp->symbol = strdup(symbol);
        cp->kernarg_size = (uint32_t)off;
    }
    build_table(tc);
}

/* The region copy inlined into the group entry now, and the scope declarations the inliner adds for the
 * noalias states of the body and the region copy dropped (cpu_regions_drop_scope_decls): a declaration is a
 * call that keeps an item loop with nothing else left in it (the items past a guard's split that only stop
 * where they waited) from being deleted, and a loop unrolled or vectorised does not need its scopes renamed
 * per item, the state being no item's own. */
static void parallel_group_entry(TargetCtx *tc, LLVMValueRef group)
{
    if (!llvm_run_passes(tc, "always-inline", NULL)) /* the main pipeline inlines it, and the declarations stay */
        return;
    cpu_regions_drop_scope_decls(group);
}

/* The group entries with the kernels inlined (those of kernels without barriers: region kernels' are already)
 * and cleaned up (the item's index and a round's uniform values in SSA form, the latter hoisted out of the
 * item loops), then each x loop split at its uniform guard (cpu_split.c). */
static void split_group_entries(TargetCtx *tc)
{
    CpuPriv *cp = cpu(tc);
    if (!llvm_run_passes(tc,
                         "always-inline,function(sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,"
                         "loop-mssa(licm))",
                         NULL)) /* the loops stay whole */
        return;
    /* a region round splits only at a guard that decides its branch alone: split at the first of its `&&`
     * guards, the tiled matmul's rounds grew by half and ran slower (bench/RESULTS.md §23a) */
    for (int i = 0; i < cp->nkernels; i++) {
        CpuKernel *k = &cp->kernels[i];
        if (k->group_entry && k->loop_mark)
            cpu_split_item_loops(k->group_entry, k->loop_mark, !(k->group_flags & JUKE_CPU_GROUP_REGIONS));
    }
}

/* The module is complete (and its debug information final): each kernel with barriers gets its region copy
 * and its group entry (cpu_emit_regions), or keeps running as fibers. */
static bool cpu_link_libraries(TargetCtx *tc)
{
    CpuPriv *cp = cpu(tc);
    bool changed = false;
    for (int i = 0; i < cp->nkernels; i++) {
        CpuKernel *k = &cp->kernels[i];
        if (!k->body || k->group_entry)
            continue;
        CpuRegions regions = { 0 };
        LLVMValueRef rb = cpu_emit_regions(tc, k->body, k->entry, k->name, &regions);
        k->body = NULL; /* it may be gone: inlined everywhere */
        unsigned np = rb ? LLVMCountParams(rb) : 0;
        LLVMValueRef *args = rb ? calloc(np, sizeof *args) : NULL;
        if (args) {
            k->group_entry = cpu_emit_group_entry(tc, rb, k->name, args, &regions);
            if (k->group_entry && regions.access_group) {
                parallel_group_entry(tc, k->group_entry);
                k->loop_mark = cpu_regions_parallel(tc->llctx, regions.access_group);
            }
            k->spill_bytes = regions.spill_bytes;
            k->group_flags = !k->group_entry                     ? 0
                             : cpu_regions_owns_status(&regions) ? JUKE_CPU_GROUP_REGIONS | JUKE_CPU_GROUP_OWNS_STATUS
                                                                 : JUKE_CPU_GROUP_REGIONS;
            changed = true;
        }
        free(args);
        free(regions.locs);
    }
    bool marked = false;
    for (int i = 0; i < cp->nkernels; i++)
        marked |= cp->kernels[i].group_entry && cp->kernels[i].loop_mark;
    if (marked)
        split_group_entries(tc);
    if (changed)
        build_table(tc);
    return true;
}

/* The full path of a shared library this process has loaded, or NULL. */
static char *loaded_library_path(const char *soname)
{
    void *h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return NULL;
    struct link_map *lm = NULL;
    char *path = NULL;
    if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && lm->l_name[0] == '/')
        path = strdup(lm->l_name);
    dlclose(h);
    return path;
}

static bool cpu_emit(TargetCtx *tc, CodeObject *out)
{
    CpuPriv *cp = cpu(tc);
    if (!tc->opts->skip_asm && !llvm_emit_asm_from_copy(tc, out))
        return false;
    /* The object calls libm (sinf, ...) and, for Float16 without F16C,
     * libgcc's __extendhfsf2 / __truncsfhf2: record them as DT_NEEDED (when
     * used) so the shared object loads in any process. This process has
     * both loaded (LLVM needs them); their paths are taken from it. */
    char *libm = loaded_library_path("libm.so.6"), *libgcc = loaded_library_path("libgcc_s.so.1");
    const char *lld_args[8] = { "-z", "noexecstack", "--as-needed" };
    int na = 3;
    if (libm)
        lld_args[na++] = libm;
    if (libgcc)
        lld_args[na++] = libgcc;
    lld_args[na] = NULL;
    uint8_t *so;
    size_t sosize;
    bool ok = llvm_emit_shared_object(tc, lld_args, &so, &sosize);
    free(libm);
    free(libgcc);
    if (!ok)
        return false;
    target_take_code(tc, out, TARGET_CPU, so, sosize, cp->symbol);
    out->static_lds_bytes = (uint32_t)cp->lds_total;
    out->lds_bytes = (int)cp->lds_total;
    out->wavefront_size = tc->wavefront_size;
    out->kernarg_size = (int)cp->kernarg_size;
    out->vgprs = out->sgprs = out->agprs = -1;
    out->occupancy = -1;
    out->max_flat_workgroup_size = (int)target_group_items(tc->opts, 0);
    StrBuf r = { 0 };
    sb_printf(&r, "kernel:            %s (entry, through %s)\n", cp->symbol ? cp->symbol : "?", JUKE_CPU_TABLE_SYMBOL);
    sb_printf(&r, "target:            %s, cpu %s\n", cp->triple, cp->cpu);
    sb_printf(&r, "local memory:      %llu bytes (static)%s\n", (unsigned long long)cp->lds_total,
              tc->uses_dynamic_lds ? " + dynamic at align16(static)" : "");
    sb_printf(&r, "barrier:           %s\n",
              !tc->uses_barrier ? "no (the workgroup runs as loops over its work-items)"
              : cp->nkernels && cp->kernels[0].group_entry
                  ? "yes (the workgroup runs as loops over its work-items, round by round between barriers)"
                  : "yes (work-items run as fibers)");
    if (cp->uses_wave)
        sb_printf(&r, "wavefront:         %d lanes (wavefront operations: fibers meet per wave)\n", tc->wavefront_size);
    if (tc->uses_grid_sync)
        sb_printf(&r, "grid sync:         yes (cooperative launches only)\n");
    sb_printf(&r, "kernarg:           %u bytes\n", cp->kernarg_size);
    free(out->resources);
    out->resources = sb_take(&r);
    return true;
}

/* The host CPU as LLVM sees it: code for "native" depends on it. */
static void cpu_build_identity(const TargetOptions *o, StrBuf *ident, StrBuf *files)
{
    (void)o;
    (void)files;
    char *c = LLVMGetHostCPUName(), *f = LLVMGetHostCPUFeatures();
    sb_printf(ident, "|host %s %s", c ? c : "", f ? f : "");
    LLVMDisposeMessage(c);
    LLVMDisposeMessage(f);
}

static void cpu_llvm_init(void)
{
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    LLVMInitializeX86AsmParser();
}

/* debugtrap() and device_sleep() do nothing on the CPU (no debugger to stop for: a trap instruction would
 * kill the host); memtime() and memrealtime() read the time-stamp counter (constant-rate); the CPU has no
 * endpgm or sendmsg. */
static LLVMValueRef cpu_exec_control(TargetCtx *tc, LLVMBuilderRef b, int builtin, LLVMValueRef *args)
{
    (void)args;
    if (builtin == BI_DEBUGTRAP || builtin == BI_DEVICE_SLEEP)
        return LLVMConstInt(LLVMInt32TypeInContext(tc->llctx), 0, 0);
    if (builtin != BI_MEMTIME && builtin != BI_MEMREALTIME)
        return NULL;
    LLVMTypeRef fty;
    LLVMValueRef f = llvm_intrinsic(tc, "llvm.readcyclecounter", NULL, 0, &fty);
    return f ? LLVMBuildCall2(b, fty, f, NULL, 0, "") : NULL;
}

const TargetOps target_cpu_ops = {
    .exec_control = cpu_exec_control,
    .llvm_init = cpu_llvm_init,
    .build_identity = cpu_build_identity,
    .as_global = 0,
    .as_local = 0,
    .as_private = 0,
    .needs_state_param = true,
    .narrow_guards = true,
    .init = cpu_init,
    .fini = cpu_fini,
    .workitem_id = cpu_workitem_id,
    .workgroup_id = cpu_workgroup_id,
    .workgroup_dim = cpu_workgroup_dim,
    .grid_groups = cpu_grid_groups,
    .barrier = cpu_barrier,
    .wave = cpu_wave,
    .wmma = cpu_wmma,
    .grid_sync = cpu_grid_sync,
    .static_local = cpu_static_local,
    .dynamic_local = cpu_dynamic_local,
    .dynamic_local_bytes = cpu_dynamic_local_bytes,
    .cancel_requested = cpu_cancel_requested,
    .exit_item = cpu_exit_item,
    .math_fn = cpu_math_fn,
    .finish_kernel = cpu_finish_kernel,
    .link_libraries = cpu_link_libraries,
    .emit = cpu_emit,
};
