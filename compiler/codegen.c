/* codegen.c: typed IR → LLVM IR, the same for every target; the target's
 * hooks (target.h) supply indices, barriers, local memory, math and the
 * kernel's calling convention. cg_compile is the back half of the pipeline:
 * emit, verify, link libraries, optimise, emit the code object.
 *
 * Value representation (docs/abi.md has the argument ABI):
 *   Bool        i1 in registers, i8 in memory and kernel arguments
 *   IntN/UIntN  iN;  Float16/32/64  half/float/double
 *   arrays      { ptr addrspace(G or L), [N x i64] dims, i64 length }
 *   tuples      literal structs of their fields
 *   workitemIdx() and friends  { i64, i64, i64 } (x, y, z)
 *   ranges      { i64 start, i64 step, i64 stop }   (stop normalised as Julia does)
 *   Nothing, functions, types, values of no single type  {} (nothing at run time)
 * Every generated function takes, after its Julia arguments, the exception
 * buffer pointer and (CPU) the JukeCpuState pointer. */
#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend.h"
#include "target.h"
#include "abi.h"

typedef struct CG {
    TargetCtx *tc;
    const TargetOps *ops;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    TypeTable *types;
    Diags *d;
    Spec **specs;
    int nspecs;
    LLVMValueRef *fns;     /* per spec */
    /* the function being emitted */
    Spec *spec;
    IrFunc *f;
    LLVMValueRef fn;
    LLVMValueRef *vals;    /* per instruction */
    LLVMValueRef *slots;   /* allocas */
    LLVMBasicBlockRef *labels;
    LLVMBasicBlockRef entry;
    /* the function's one cold exception block and its phis */
    LLVMBasicBlockRef throw_bb;
    LLVMValueRef throw_phi[4 + 2 * JUKE_EXC_MAXDIMS + 1];
    bool failed;
} CG;

enum { PHI_KIND, PHI_LINE, PHI_COL, PHI_NDIMS, PHI_IDX0 = 4, PHI_DIM0 = 4 + JUKE_EXC_MAXDIMS,
       PHI_AUX = 4 + 2 * JUKE_EXC_MAXDIMS, PHI_COUNT };

/* ---- types ---- */

static LLVMTypeRef i1(CG *g) { return LLVMInt1TypeInContext(g->ctx); }
static LLVMTypeRef i8(CG *g) { return LLVMInt8TypeInContext(g->ctx); }
static LLVMTypeRef i32(CG *g) { return LLVMInt32TypeInContext(g->ctx); }
static LLVMTypeRef i64(CG *g) { return LLVMInt64TypeInContext(g->ctx); }
static LLVMTypeRef unit_t(CG *g) { return LLVMStructTypeInContext(g->ctx, NULL, 0, 0); }
static LLVMValueRef unit_v(CG *g) { return LLVMGetUndef(unit_t(g)); }
static LLVMValueRef ci64(CG *g, int64_t v) { return LLVMConstInt(i64(g), (unsigned long long)v, 1); }
static LLVMValueRef ci32(CG *g, int64_t v) { return LLVMConstInt(i32(g), (unsigned long long)v, 1); }

static bool is_unit(const Type *t)
{
    return t->kind == TY_NOTHING || t->kind == TY_FUNCTION || t->kind == TY_TYPE || t->kind == TY_ANY ||
           !ty_is_concrete(t);
}

static LLVMTypeRef prim_t(CG *g, const Type *t)
{
    switch (t->kind) {
    case TY_BOOL: return i1(g);
    case TY_FLOAT16: return LLVMHalfTypeInContext(g->ctx);
    case TY_FLOAT32: return LLVMFloatTypeInContext(g->ctx);
    case TY_FLOAT64: return LLVMDoubleTypeInContext(g->ctx);
    default: return LLVMIntTypeInContext(g->ctx, (unsigned)t->bits);
    }
}

static LLVMTypeRef lt(CG *g, const Type *t);

static LLVMTypeRef array_t(CG *g, const Type *t)
{
    LLVMTypeRef f[3] = {
        LLVMPointerTypeInContext(g->ctx, t->kind == TY_ARRAY ? g->ops->as_global : g->ops->as_local),
        LLVMArrayType2(i64(g), (uint64_t)t->ndims), i64(g)};
    return LLVMStructTypeInContext(g->ctx, f, 3, 0);
}

static LLVMTypeRef lt(CG *g, const Type *t)
{
    if (ty_is_prim(t))
        return prim_t(g, t);
    switch (t->kind) {
    case TY_ARRAY:
    case TY_LOCALARRAY:
        return array_t(g, t);
    case TY_TUPLE: {
        LLVMTypeRef f[64];
        for (int i = 0; i < t->nfields && i < 64; i++)
            f[i] = lt(g, t->fields[i]);
        return LLVMStructTypeInContext(g->ctx, f, (unsigned)t->nfields, 0);
    }
    case TY_DIM3:
    case TY_RANGE: {
        LLVMTypeRef f[3] = {i64(g), i64(g), i64(g)};
        return LLVMStructTypeInContext(g->ctx, f, 3, 0);
    }
    default:
        return unit_t(g);
    }
}

/* Memory and kernel-argument type: Bool is a byte there. */
static LLVMTypeRef mem_t(CG *g, const Type *t) { return t->kind == TY_BOOL ? i8(g) : lt(g, t); }

static LLVMValueRef to_mem(CG *g, LLVMValueRef v, const Type *t)
{
    return t->kind == TY_BOOL ? LLVMBuildZExt(g->b, v, i8(g), "") : v;
}

static LLVMValueRef from_mem(CG *g, LLVMValueRef v, const Type *t)
{
    return t->kind == TY_BOOL ? LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstInt(i8(g), 0, 0), "") : v;
}

/* ---- intrinsics and helpers ---- */

static LLVMValueRef intrinsic(CG *g, const char *name, LLVMTypeRef *over, int nover, LLVMValueRef *args, int nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, over, (size_t)nover);
    LLVMTypeRef fty = LLVMIntrinsicGetType(g->ctx, id, over, (size_t)nover);
    return LLVMBuildCall2(g->b, fty, fn, args, (unsigned)nargs, "");
}

static LLVMValueRef intr1(CG *g, const char *name, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    return intrinsic(g, name, &t, 1, &x, 1);
}

static LLVMValueRef intr2(CG *g, const char *name, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef a[2] = {x, y};
    return intrinsic(g, name, &t, 1, a, 2);
}

static LLVMValueRef fconst(CG *g, const Type *t, double v) { return LLVMConstReal(prim_t(g, t), v); }

static LLVMValueRef iconst(CG *g, const Type *t, int64_t v)
{
    return LLVMConstInt(prim_t(g, t), (unsigned long long)v, ty_is_signed(t));
}

/* Numeric conversion that cannot fail (promotion, x % T, unsafe_trunc). */
static LLVMValueRef conv_wrap(CG *g, LLVMValueRef v, const Type *from, const Type *to)
{
    if (from == to)
        return v;
    LLVMTypeRef tt = prim_t(g, to);
    if (ty_is_float(from) && ty_is_float(to))
        return from->bits < to->bits ? LLVMBuildFPExt(g->b, v, tt, "") : LLVMBuildFPTrunc(g->b, v, tt, "");
    if (ty_is_float(to))
        return ty_is_signed(from) ? LLVMBuildSIToFP(g->b, v, tt, "") : LLVMBuildUIToFP(g->b, v, tt, "");
    if (ty_is_float(from)) {
        if (to->kind == TY_BOOL)
            return LLVMBuildFCmp(g->b, LLVMRealUNE, v, LLVMConstReal(LLVMTypeOf(v), 0), "");
        LLVMValueRef r = ty_is_signed(to) ? LLVMBuildFPToSI(g->b, v, tt, "") : LLVMBuildFPToUI(g->b, v, tt, "");
        return LLVMBuildFreeze(g->b, r, "");
    }
    /* integer to integer */
    if (to->kind == TY_BOOL)
        return LLVMBuildTrunc(g->b, v, tt, "");
    unsigned fb = LLVMGetIntTypeWidth(LLVMTypeOf(v)), tb = (unsigned)to->bits;
    if (fb == tb)
        return v;
    if (fb > tb)
        return LLVMBuildTrunc(g->b, v, tt, "");
    return ty_is_signed(from) ? LLVMBuildSExt(g->b, v, tt, "") : LLVMBuildZExt(g->b, v, tt, "");
}

static LLVMValueRef val(CG *g, int v) { return g->vals[v]; }
static const Type *vty(CG *g, int v) { return g->f->insts[v].type; }
static LLVMValueRef arg(CG *g, IrInst *in, int k) { return val(g, in->args[k + 1]); }
static const Type *aty(CG *g, IrInst *in, int k) { return vty(g, in->args[k + 1]); }
static LLVMValueRef arg_as(CG *g, IrInst *in, int k, const Type *t) { return conv_wrap(g, arg(g, in, k), aty(g, in, k), t); }

/* ---- exceptions ----
 * Every check branches (unlikely, by branch weights) to one cold block per
 * function whose phis carry what the record needs; the block claims the
 * exception buffer, writes the record (runtime/abi.h) and ends the
 * work-item (on AMDGPU its wave). The branch is per work-item: a
 * wave-uniform branch on a ballot was measured (bench/bounds_check.md) and
 * made diffusion2d's hot path longer, as the structurizer still wraps it
 * in flow blocks inside the kernel's divergent `if`. */

static LLVMTypeRef exc_record_t(CG *g)
{
    LLVMTypeRef f[12] = {i32(g), i32(g), i32(g), i32(g), i32(g), i32(g),
                         LLVMArrayType2(i64(g), JUKE_EXC_MAXDIMS), LLVMArrayType2(i64(g), JUKE_EXC_MAXDIMS),
                         LLVMArrayType2(i32(g), 3), LLVMArrayType2(i32(g), 3)};
    return LLVMStructTypeInContext(g->ctx, f, 10, 0);
}

static void build_throw_block(CG *g)
{
    LLVMBasicBlockRef saved = LLVMGetInsertBlock(g->b);
    g->throw_bb = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "throw");
    LLVMPositionBuilderAtEnd(g->b, g->throw_bb);
    for (int i = 0; i < PHI_COUNT; i++) {
        LLVMTypeRef t = (i >= PHI_IDX0 && i < PHI_AUX) ? i64(g) : i32(g);
        g->throw_phi[i] = LLVMBuildPhi(g->b, t, "");
    }
    LLVMTypeRef rt = exc_record_t(g);
    LLVMValueRef exc = g->tc->cur_exc;
    LLVMBasicBlockRef won = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "throw.record");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "throw.exit");
    LLVMValueRef flag = LLVMBuildStructGEP2(g->b, rt, exc, 0, "");
    LLVMValueRef cx = LLVMBuildAtomicCmpXchg(g->b, flag, ci32(g, 0), ci32(g, 1), LLVMAtomicOrderingMonotonic,
                                             LLVMAtomicOrderingMonotonic, 0);
    LLVMBuildCondBr(g->b, LLVMBuildExtractValue(g->b, cx, 1, ""), won, done);
    LLVMPositionBuilderAtEnd(g->b, won);
    for (unsigned k = 1; k <= 5; k++) {
        static const int phis[] = {0, PHI_KIND, PHI_LINE, PHI_COL, PHI_NDIMS, PHI_AUX};
        LLVMBuildStore(g->b, g->throw_phi[phis[k]], LLVMBuildStructGEP2(g->b, rt, exc, k, ""));
    }
    for (int k = 0; k < JUKE_EXC_MAXDIMS; k++) {
        LLVMValueRef ix[2] = {ci32(g, 0), ci32(g, k)};
        LLVMBuildStore(g->b, g->throw_phi[PHI_IDX0 + k],
                       LLVMBuildGEP2(g->b, LLVMArrayType2(i64(g), JUKE_EXC_MAXDIMS), LLVMBuildStructGEP2(g->b, rt, exc, 6, ""), ix, 2, ""));
        LLVMBuildStore(g->b, g->throw_phi[PHI_DIM0 + k],
                       LLVMBuildGEP2(g->b, LLVMArrayType2(i64(g), JUKE_EXC_MAXDIMS), LLVMBuildStructGEP2(g->b, rt, exc, 7, ""), ix, 2, ""));
    }
    for (int d = 0; d < 3; d++) {
        LLVMValueRef ix[2] = {ci32(g, 0), ci32(g, d)};
        LLVMValueRef gid = LLVMBuildAdd(g->b, g->ops->workgroup_id(g->tc, g->b, d), ci32(g, 1), "");
        LLVMValueRef iid = LLVMBuildAdd(g->b, g->ops->workitem_id(g->tc, g->b, d), ci32(g, 1), "");
        LLVMBuildStore(g->b, gid, LLVMBuildGEP2(g->b, LLVMArrayType2(i32(g), 3), LLVMBuildStructGEP2(g->b, rt, exc, 8, ""), ix, 2, ""));
        LLVMBuildStore(g->b, iid, LLVMBuildGEP2(g->b, LLVMArrayType2(i32(g), 3), LLVMBuildStructGEP2(g->b, rt, exc, 9, ""), ix, 2, ""));
    }
    LLVMBuildFence(g->b, LLVMAtomicOrderingRelease, 0, "");
    LLVMValueRef st = LLVMBuildStore(g->b, ci32(g, 2), flag);
    LLVMSetOrdering(st, LLVMAtomicOrderingRelease);
    LLVMSetAlignment(st, 4);
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, done);
    g->ops->exit_item(g->tc, g->b);
    LLVMBuildUnreachable(g->b);
    if (saved)
        LLVMPositionBuilderAtEnd(g->b, saved);
}

/* Branch weights on a conditional branch whose true edge is (almost) never
 * taken: as llvm.expect would give, but present at every -O level. */
static void mark_unlikely(CG *g, LLVMValueRef br)
{
    LLVMMetadataRef w[3] = {LLVMMDStringInContext2(g->ctx, "branch_weights", 14),
                            LLVMValueAsMetadata(ci32(g, 1)), LLVMValueAsMetadata(ci32(g, 1 << 20))};
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(g->ctx, "prof", 4),
                    LLVMMetadataAsValue(g->ctx, LLVMMDNodeInContext2(g->ctx, w, 3)));
}

/* Branch to the exception block when `fail` is true; vals: the record's fields. */
static void check(CG *g, LLVMValueRef fail, int kind, SrcLoc loc, int ndims, LLVMValueRef *idx, LLVMValueRef *dims,
                  int aux)
{
    if (!g->throw_bb)
        build_throw_block(g);
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "ok");
    LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
    LLVMValueRef br = LLVMBuildCondBr(g->b, fail, g->throw_bb, ok);
    mark_unlikely(g, br);
    LLVMValueRef in[PHI_COUNT];
    in[PHI_KIND] = ci32(g, kind);
    in[PHI_LINE] = ci32(g, loc.line);
    in[PHI_COL] = ci32(g, loc.col);
    in[PHI_NDIMS] = ci32(g, ndims > JUKE_EXC_MAXDIMS ? JUKE_EXC_MAXDIMS : ndims);
    in[PHI_AUX] = ci32(g, aux);
    for (int k = 0; k < JUKE_EXC_MAXDIMS; k++) {
        in[PHI_IDX0 + k] = idx && k < ndims ? idx[k] : ci64(g, 0);
        in[PHI_DIM0 + k] = dims && k < ndims ? dims[k] : ci64(g, 0);
    }
    for (int i = 0; i < PHI_COUNT; i++)
        LLVMAddIncoming(g->throw_phi[i], &in[i], &here, 1);
    LLVMPositionBuilderAtEnd(g->b, ok);
}

static int type_code(const Type *t)
{
    static const int codes[] = {
        [TY_BOOL] = JUKE_T_BOOL, [TY_INT8] = JUKE_T_INT8, [TY_INT16] = JUKE_T_INT16, [TY_INT32] = JUKE_T_INT32,
        [TY_INT64] = JUKE_T_INT64, [TY_UINT8] = JUKE_T_UINT8, [TY_UINT16] = JUKE_T_UINT16,
        [TY_UINT32] = JUKE_T_UINT32, [TY_UINT64] = JUKE_T_UINT64, [TY_FLOAT16] = JUKE_T_FLOAT16,
        [TY_FLOAT32] = JUKE_T_FLOAT32, [TY_FLOAT64] = JUKE_T_FLOAT64,
    };
    return ty_is_prim(t) ? codes[t->kind] : 0;
}

/* The value's bits as an i64, for the InexactError record. */
static LLVMValueRef bits64(CG *g, LLVMValueRef v, const Type *t)
{
    if (ty_is_float(t))
        v = LLVMBuildBitCast(g->b, v, LLVMIntTypeInContext(g->ctx, (unsigned)t->bits), "");
    return LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64 ? v
           : ty_is_signed(t) ? LLVMBuildSExt(g->b, v, i64(g), "") : LLVMBuildZExt(g->b, v, i64(g), "");
}

/* Julia's convert(to, v): InexactError unless the value is represented exactly. */
static LLVMValueRef conv_checked(CG *g, LLVMValueRef v, const Type *from, const Type *to, SrcLoc loc)
{
    if (from == to || ty_is_float(to))
        return conv_wrap(g, v, from, to);
    LLVMValueRef fail;
    if (ty_is_float(from)) {
        /* exact: integral and inside [typemin, typemax] */
        LLVMValueRef tr = intr1(g, "llvm.trunc", v);
        LLVMValueRef integral = LLVMBuildFCmp(g->b, LLVMRealOEQ, tr, v, "");
        double lo, hi; /* lo <= x < hi */
        if (to->kind == TY_BOOL) {
            lo = 0;
            hi = 2;
        } else if (ty_is_signed(to)) {
            lo = -ldexp(1, to->bits - 1);
            hi = ldexp(1, to->bits - 1);
        } else {
            lo = 0;
            hi = ldexp(1, to->bits);
        }
        LLVMValueRef inr = LLVMBuildAnd(g->b, LLVMBuildFCmp(g->b, LLVMRealOGE, v, LLVMConstReal(LLVMTypeOf(v), lo), ""),
                                        LLVMBuildFCmp(g->b, LLVMRealOLT, v, LLVMConstReal(LLVMTypeOf(v), hi), ""), "");
        fail = LLVMBuildNot(g->b, LLVMBuildAnd(g->b, integral, inr, ""), "");
        check(g, fail, JUKE_EXC_INEXACT, loc, 1, (LLVMValueRef[]){bits64(g, v, from)},
              (LLVMValueRef[]){ci64(g, type_code(from))}, type_code(to));
        if (to->kind == TY_BOOL)
            return LLVMBuildFCmp(g->b, LLVMRealONE, v, LLVMConstReal(LLVMTypeOf(v), 0), "");
        return ty_is_signed(to) ? LLVMBuildFPToSI(g->b, v, prim_t(g, to), "") : LLVMBuildFPToUI(g->b, v, prim_t(g, to), "");
    }
    if (from->kind == TY_BOOL)
        return LLVMBuildZExt(g->b, v, prim_t(g, to), "");
    if (to->kind == TY_BOOL) {
        fail = LLVMBuildICmp(g->b, LLVMIntUGT, v, LLVMConstInt(LLVMTypeOf(v), 1, 0), "");
    } else {
        LLVMValueRef r = conv_wrap(g, v, from, to);
        LLVMValueRef back = conv_wrap(g, r, to, from);
        fail = LLVMBuildICmp(g->b, LLVMIntNE, back, v, "");
        if (ty_is_signed(from) != ty_is_signed(to)) {
            /* a sign change: the value must be non-negative in both views */
            LLVMValueRef neg_from = ty_is_signed(from) ? LLVMBuildICmp(g->b, LLVMIntSLT, v, LLVMConstInt(LLVMTypeOf(v), 0, 0), "")
                                                       : LLVMConstInt(i1(g), 0, 0);
            LLVMValueRef neg_to = ty_is_signed(to) ? LLVMBuildICmp(g->b, LLVMIntSLT, r, LLVMConstInt(LLVMTypeOf(r), 0, 0), "")
                                                   : LLVMConstInt(i1(g), 0, 0);
            fail = LLVMBuildOr(g->b, fail, LLVMBuildOr(g->b, neg_from, neg_to, ""), "");
        }
    }
    check(g, fail, JUKE_EXC_INEXACT, loc, 1, (LLVMValueRef[]){bits64(g, v, from)},
          (LLVMValueRef[]){ci64(g, type_code(from))}, type_code(to));
    if (to->kind == TY_BOOL)
        return LLVMBuildTrunc(g->b, v, i1(g), "");
    return conv_wrap(g, v, from, to);
}

/* ---- arrays ---- */

static LLVMValueRef arr_ptr(CG *g, LLVMValueRef a) { return LLVMBuildExtractValue(g->b, a, 0, ""); }
static LLVMValueRef arr_len(CG *g, LLVMValueRef a) { return LLVMBuildExtractValue(g->b, a, 2, ""); }
static LLVMValueRef arr_dim(CG *g, LLVMValueRef a, int d)
{
    LLVMValueRef dims = LLVMBuildExtractValue(g->b, a, 1, "");
    return LLVMBuildExtractValue(g->b, dims, (unsigned)d, "");
}

/* nuw nsw on an index computation known to stay within [0, length): a
 * checked access after its check, or one under @inbounds (whose promise
 * Julia also lets the compiler assume). Constants pass through. */
static LLVMValueRef no_wrap(LLVMValueRef v)
{
    if (LLVMIsAInstruction(v)) {
        LLVMSetNUW(v, 1);
        LLVMSetNSW(v, 1);
    }
    return v;
}

/* The element pointer of A[idx...] (1-based, column-major), bounds-checked unless inbounds. */
static LLVMValueRef elem_ptr(CG *g, IrInst *in, const Type *at, LLVMValueRef a, int first, int nidx, bool inbounds)
{
    LLVMValueRef idx[16];
    const Type *i64t = ty_prim(g->types, TY_INT64);
    for (int k = 0; k < nidx && k < 16; k++)
        idx[k] = conv_wrap(g, arg(g, in, first + k), aty(g, in, first + k), i64t);
    LLVMValueRef lin;
    if (nidx == 1) {
        lin = LLVMBuildSub(g->b, idx[0], ci64(g, 1), "");
        if (inbounds)
            no_wrap(lin);
        else {
            LLVMValueRef len = arr_len(g, a);
            /* one unsigned compare covers i < 1 and i > length */
            LLVMValueRef fail = LLVMBuildICmp(g->b, LLVMIntUGE, lin, len, "");
            LLVMValueRef dims[JUKE_EXC_MAXDIMS];
            int nd = at->ndims < JUKE_EXC_MAXDIMS ? at->ndims : JUKE_EXC_MAXDIMS;
            for (int k = 0; k < nd; k++)
                dims[k] = arr_dim(g, a, k);
            /* a linear index into an N-d array reports the length as Julia does */
            if (at->ndims != 1) {
                dims[0] = len;
                nd = 1;
            }
            check(g, fail, JUKE_EXC_BOUNDS, in->loc, nd, idx, dims, at->kind == TY_LOCALARRAY);
        }
    } else {
        LLVMValueRef dims[16];
        for (int k = 0; k < nidx; k++)
            dims[k] = arr_dim(g, a, k);
        if (!inbounds) {
            LLVMValueRef fail = LLVMConstInt(i1(g), 0, 0);
            for (int k = 0; k < nidx; k++)
                fail = LLVMBuildOr(g->b, fail,
                                   LLVMBuildICmp(g->b, LLVMIntUGE, LLVMBuildSub(g->b, idx[k], ci64(g, 1), ""), dims[k], ""), "");
            check(g, fail, JUKE_EXC_BOUNDS, in->loc, nidx, idx, dims, at->kind == TY_LOCALARRAY);
        }
        /* checked or promised in bounds: every step stays in [0, length) */
        lin = no_wrap(LLVMBuildSub(g->b, idx[nidx - 1], ci64(g, 1), ""));
        for (int k = nidx - 2; k >= 0; k--)
            lin = no_wrap(LLVMBuildAdd(g->b, no_wrap(LLVMBuildMul(g->b, lin, dims[k], "")),
                                       no_wrap(LLVMBuildSub(g->b, idx[k], ci64(g, 1), "")), ""));
    }
    return LLVMBuildInBoundsGEP2(g->b, mem_t(g, at->elem), arr_ptr(g, a), &lin, 1, "");
}

static unsigned elem_align(const Type *elem) { return (unsigned)(elem->bits >= 8 ? elem->bits / 8 : 1); }

/* A local array descriptor: { ptr, dims, length }. */
static LLVMValueRef make_array(CG *g, const Type *at, LLVMValueRef ptr, LLVMValueRef *dims, int nd)
{
    LLVMValueRef v = LLVMGetUndef(array_t(g, at));
    v = LLVMBuildInsertValue(g->b, v, ptr, 0, "");
    LLVMValueRef len = ci64(g, 1);
    LLVMValueRef darr = LLVMGetUndef(LLVMArrayType2(i64(g), (uint64_t)nd));
    for (int k = 0; k < nd; k++) {
        darr = LLVMBuildInsertValue(g->b, darr, dims[k], (unsigned)k, "");
        len = LLVMBuildMul(g->b, len, dims[k], "");
    }
    v = LLVMBuildInsertValue(g->b, v, darr, 1, "");
    return LLVMBuildInsertValue(g->b, v, len, 2, "");
}

static LLVMValueRef linear_item_and_size(CG *g, LLVMValueRef *size)
{
    LLVMValueRef id = ci32(g, 0), sz = ci32(g, 1);
    for (int d = 2; d >= 0; d--) {
        LLVMValueRef dim = g->ops->workgroup_dim(g->tc, g->b, d);
        id = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, id, dim, ""), g->ops->workitem_id(g->tc, g->b, d), "");
        sz = LLVMBuildMul(g->b, sz, dim, "");
    }
    *size = LLVMBuildZExt(g->b, sz, i64(g), "");
    return LLVMBuildZExt(g->b, id, i64(g), "");
}

/* zeroinit: the group's work-items clear the array together, then meet at a barrier. */
static void zero_fill(CG *g, LLVMValueRef ptr, const Type *elem, LLVMValueRef len)
{
    LLVMValueRef step;
    LLVMValueRef start = linear_item_and_size(g, &step);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "zero.loop");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "zero.body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "zero.done");
    LLVMBuildBr(g->b, loop);
    LLVMPositionBuilderAtEnd(g->b, loop);
    LLVMValueRef k = LLVMBuildPhi(g->b, i64(g), "");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, k, len, ""), body, done);
    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, mem_t(g, elem), ptr, &k, 1, "");
    LLVMSetAlignment(LLVMBuildStore(g->b, LLVMConstNull(mem_t(g, elem)), p), elem_align(elem));
    LLVMValueRef next = LLVMBuildAdd(g->b, k, step, "");
    LLVMBuildBr(g->b, loop);
    LLVMAddIncoming(k, &start, &pre, 1);
    LLVMAddIncoming(k, &next, &body, 1);
    LLVMPositionBuilderAtEnd(g->b, done);
    g->ops->barrier(g->tc, g->b);
    g->tc->uses_barrier = true;
}

static LLVMValueRef emit_local_array(CG *g, IrInst *in)
{
    const Type *at = in->type, *elem = at->elem;
    LLVMValueRef dims[8];
    LLVMValueRef ptr;
    int nd = at->ndims;
    LLVMValueRef zi = arg(g, in, 2);
    bool zeroinit = !LLVMIsAConstantInt(zi) || LLVMConstIntGetZExtValue(zi) != 0;
    if (in->builtin == BI_STATIC_LOCAL) {
        int64_t cd[8];
        infer_const_dims(g->f, in->args[2], cd, 8);
        uint64_t count = 1;
        for (int k = 0; k < nd; k++) {
            dims[k] = ci64(g, cd[k]);
            count *= (uint64_t)cd[k];
        }
        unsigned align = elem_align(elem) < 16 ? 16 : elem_align(elem);
        ptr = g->ops->static_local(g->tc, g->b, "local", count * elem_align(elem), align);
    } else {
        const Type *dt = aty(g, in, 1);
        const Type *i64t = ty_prim(g->types, TY_INT64);
        if (dt->kind == TY_TUPLE) {
            for (int k = 0; k < nd; k++)
                dims[k] = conv_wrap(g, LLVMBuildExtractValue(g->b, arg(g, in, 1), (unsigned)k, ""), dt->fields[k], i64t);
        } else {
            dims[0] = conv_wrap(g, arg(g, in, 1), dt, i64t);
        }
        ptr = g->ops->dynamic_local(g->tc, g->b);
        g->tc->uses_dynamic_lds = true;
    }
    LLVMValueRef a = make_array(g, at, ptr, dims, nd);
    if (zeroinit)
        zero_fill(g, ptr, elem, arr_len(g, a));
    return a;
}

/* ---- atomics ----
 * LLVM-C 19 cannot set an atomic's sync scope, so each atomic is a tiny
 * always-inline helper parsed from IR text with syncscope("agent") on GPUs. */
static LLVMValueRef emit_atomic(CG *g, IrInst *in)
{
    const Type *at = aty(g, in, 0), *elem = at->elem;
    int n = in->nargs - 1;
    LLVMValueRef a = arg(g, in, 0);
    LLVMValueRef p = elem_ptr(g, in, at, a, 1, n - 2, (in->flags & IRF_INBOUNDS) != 0);
    LLVMValueRef v = conv_checked(g, arg(g, in, n - 1), aty(g, in, n - 1), elem, in->loc);
    bool fl = ty_is_float(elem), sg = ty_is_signed(elem);
    const char *op;
    switch (in->builtin) {
    case BI_ATOMIC_ADD: op = fl ? "fadd" : "add"; break;
    case BI_ATOMIC_SUB: op = fl ? "fsub" : "sub"; break;
    case BI_ATOMIC_AND: op = "and"; break;
    case BI_ATOMIC_OR: op = "or"; break;
    case BI_ATOMIC_XOR: op = "xor"; break;
    case BI_ATOMIC_MAX: op = fl ? "fmax" : sg ? "max" : "umax"; break;
    case BI_ATOMIC_MIN: op = fl ? "fmin" : sg ? "min" : "umin"; break;
    default: op = "xchg"; break;
    }
    unsigned as = at->kind == TY_ARRAY ? g->ops->as_global : g->ops->as_local;
    char *tyname = LLVMPrintTypeToString(mem_t(g, elem));
    char name[128], text[1024];
    snprintf(name, sizeof name, "__juke_atomic_%s_%s_as%u", op, tyname, as);
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (!fn) {
        bool gpu = g->ops->needs_state_param == false;
        snprintf(text, sizeof text,
                 "define hidden %s @%s(ptr addrspace(%u) %%p, %s %%v) alwaysinline {\n"
                 "  %%o = atomicrmw %s ptr addrspace(%u) %%p, %s %%v %s monotonic, align %u\n"
                 "  ret %s %%o\n}\n",
                 tyname, name, as, tyname, op, as, tyname, gpu ? "syncscope(\"agent\")" : "", elem_align(elem), tyname);
        LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "atomic");
        LLVMModuleRef m2 = NULL;
        char *msg = NULL;
        if (LLVMParseIRInContext(g->ctx, buf, &m2, &msg)) {
            diag_plain(g->d, DIAG_INTERNAL, "atomic helper: %s", msg ? msg : "parse error");
            LLVMDisposeMessage(msg);
            LLVMDisposeMessage(tyname);
            g->failed = true;
            return LLVMGetUndef(prim_t(g, elem));
        }
        LLVMSetDataLayout(m2, LLVMGetDataLayoutStr(g->mod));
        LLVMSetTarget(m2, LLVMGetTarget(g->mod));
        LLVMLinkModules2(g->mod, m2);
        fn = LLVMGetNamedFunction(g->mod, name);
        if (fn)
            LLVMSetLinkage(fn, LLVMInternalLinkage);
    }
    LLVMDisposeMessage(tyname);
    LLVMTypeRef pt[2] = {LLVMPointerTypeInContext(g->ctx, as), mem_t(g, elem)};
    LLVMTypeRef fty = LLVMFunctionType(mem_t(g, elem), pt, 2, 0);
    LLVMValueRef cargs[2] = {p, to_mem(g, v, elem)};
    LLVMValueRef old = from_mem(g, LLVMBuildCall2(g->b, fty, fn, cargs, 2, ""), elem);
    /* the value after the update */
    switch (in->builtin) {
    case BI_ATOMIC_ADD: return fl ? LLVMBuildFAdd(g->b, old, v, "") : LLVMBuildAdd(g->b, old, v, "");
    case BI_ATOMIC_SUB: return fl ? LLVMBuildFSub(g->b, old, v, "") : LLVMBuildSub(g->b, old, v, "");
    case BI_ATOMIC_AND: return LLVMBuildAnd(g->b, old, v, "");
    case BI_ATOMIC_OR: return LLVMBuildOr(g->b, old, v, "");
    case BI_ATOMIC_XOR: return LLVMBuildXor(g->b, old, v, "");
    case BI_ATOMIC_MAX:
        return fl ? intr2(g, "llvm.maxnum", old, v)
                  : LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, sg ? LLVMIntSGT : LLVMIntUGT, old, v, ""), old, v, "");
    case BI_ATOMIC_MIN:
        return fl ? intr2(g, "llvm.minnum", old, v)
                  : LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, sg ? LLVMIntSLT : LLVMIntULT, old, v, ""), old, v, "");
    default: return v;
    }
}

/* ---- integer division family (Julia semantics, DivideError checks) ---- */

static LLVMValueRef emit_intdiv(CG *g, IrInst *in, const Type *t, LLVMValueRef x, LLVMValueRef y)
{
    bool sg = ty_is_signed(t);
    LLVMTypeRef lty = LLVMTypeOf(x);
    LLVMValueRef zero = LLVMConstInt(lty, 0, 0), one = LLVMConstInt(lty, 1, 0);
    LLVMValueRef fail = LLVMBuildICmp(g->b, LLVMIntEQ, y, zero, "");
    LLVMValueRef minus1 = sg ? LLVMBuildICmp(g->b, LLVMIntEQ, y, LLVMConstAllOnes(lty), "") : NULL;
    if (t->kind == TY_BOOL) {
        /* Bool ÷ Bool: y must be true */
        check(g, fail, JUKE_EXC_DIVIDE, in->loc, 0, NULL, NULL, 0);
        return in->builtin == BI_REM || in->builtin == BI_MOD ? LLVMConstInt(lty, 0, 0) : x;
    }
    if (sg && (in->builtin == BI_DIV || in->builtin == BI_FLD || in->builtin == BI_CLD)) {
        LLVMValueRef minv = LLVMConstInt(lty, 1ULL << (t->bits - 1), 0);
        fail = LLVMBuildOr(g->b, fail, LLVMBuildAnd(g->b, minus1, LLVMBuildICmp(g->b, LLVMIntEQ, x, minv, ""), ""), "");
    }
    check(g, fail, JUKE_EXC_DIVIDE, in->loc, 0, NULL, NULL, 0);
    /* y == -1 is safe from here on except for rem/mod of typemin: use a divisor of 1 there (result 0 / -x) */
    LLVMValueRef ysafe = sg ? LLVMBuildSelect(g->b, minus1, one, y, "") : y;
    LLVMValueRef q = sg ? LLVMBuildSDiv(g->b, x, ysafe, "") : LLVMBuildUDiv(g->b, x, ysafe, "");
    if (sg)
        q = LLVMBuildSelect(g->b, minus1, LLVMBuildNeg(g->b, x, ""), q, "");
    LLVMValueRef r = sg ? LLVMBuildSRem(g->b, x, ysafe, "") : LLVMBuildURem(g->b, x, ysafe, "");
    if (sg)
        r = LLVMBuildSelect(g->b, minus1, zero, r, "");
    LLVMValueRef rnz = LLVMBuildICmp(g->b, LLVMIntNE, r, zero, "");
    switch (in->builtin) {
    case BI_DIV: return q;
    case BI_REM: return r;
    case BI_MOD:
        if (!sg)
            return r;
        /* r + y when r and y have opposite signs */
        return LLVMBuildSelect(g->b, LLVMBuildAnd(g->b, rnz, LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildXor(g->b, r, y, ""), zero, ""), ""),
                               LLVMBuildAdd(g->b, r, y, ""), r, "");
    case BI_FLD:
        if (!sg)
            return q;
        return LLVMBuildSelect(g->b, LLVMBuildAnd(g->b, rnz, LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildXor(g->b, x, y, ""), zero, ""), ""),
                               LLVMBuildSub(g->b, q, one, ""), q, "");
    case BI_CLD:
        if (!sg)
            return LLVMBuildAdd(g->b, q, LLVMBuildZExt(g->b, rnz, lty, ""), "");
        return LLVMBuildSelect(g->b, LLVMBuildAnd(g->b, rnz, LLVMBuildICmp(g->b, LLVMIntSGE, LLVMBuildXor(g->b, x, y, ""), zero, ""), ""),
                               LLVMBuildAdd(g->b, q, one, ""), q, "");
    default: return q;
    }
}

static LLVMValueRef emit_floatdiv(CG *g, IrInst *in, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef r = LLVMBuildFRem(g->b, x, y, "");
    LLVMValueRef zero = LLVMConstReal(LLVMTypeOf(x), 0);
    switch (in->builtin) {
    case BI_REM: return r;
    case BI_DIV: return intr1(g, "llvm.trunc", LLVMBuildFDiv(g->b, LLVMBuildFSub(g->b, x, r, ""), y, ""));
    case BI_MOD: {
        /* r == 0 ? copysign(0, y) : (r > 0) == (y > 0) ? r : r + y */
        LLVMValueRef same = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildFCmp(g->b, LLVMRealOGT, r, zero, ""),
                                          LLVMBuildFCmp(g->b, LLVMRealOGT, y, zero, ""), "");
        LLVMValueRef m = LLVMBuildSelect(g->b, same, r, LLVMBuildFAdd(g->b, r, y, ""), "");
        return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOEQ, r, zero, ""), intr2(g, "llvm.copysign", zero, y), m, "");
    }
    case BI_FLD: return intr1(g, "llvm.floor", LLVMBuildFDiv(g->b, LLVMBuildFSub(g->b, x, emit_floatdiv(g, &(IrInst){.builtin = BI_MOD}, x, y), ""), y, ""));
    case BI_CLD: return LLVMBuildFNeg(g->b, intr1(g, "llvm.floor", LLVMBuildFDiv(g->b, LLVMBuildFNeg(g->b, x, ""), y, "")), "");
    default: return LLVMBuildFDiv(g->b, x, y, "");
    }
}

/* Julia's shifts: any shift count; counts past the width give 0 (or -1 for >> of negatives);
 * a negative count shifts the other way. */
static LLVMValueRef emit_shift(CG *g, BuiltinId op, const Type *t, LLVMValueRef x, LLVMValueRef n, const Type *nt)
{
    LLVMTypeRef lty = LLVMTypeOf(x);
    unsigned bits = LLVMGetIntTypeWidth(lty);
    LLVMValueRef n64 = conv_wrap(g, n, nt, ty_prim(g->types, ty_is_signed(nt) ? TY_INT64 : TY_UINT64));
    LLVMValueRef neg = ty_is_signed(nt) ? LLVMBuildICmp(g->b, LLVMIntSLT, n64, ci64(g, 0), "") : LLVMConstInt(i1(g), 0, 0);
    LLVMValueRef mag = LLVMBuildSelect(g->b, neg, LLVMBuildNeg(g->b, n64, ""), n64, "");
    LLVMValueRef big = LLVMBuildICmp(g->b, LLVMIntUGE, mag, ci64(g, bits), "");
    LLVMValueRef amt = LLVMBuildTrunc(g->b, LLVMBuildSelect(g->b, big, ci64(g, bits - 1), mag, ""), lty, "");
    if (bits == 64)
        amt = LLVMBuildSelect(g->b, big, LLVMConstInt(lty, 63, 0), mag, "");
    LLVMValueRef zero = LLVMConstInt(lty, 0, 0);
    LLVMValueRef left = LLVMBuildSelect(g->b, big, zero, LLVMBuildShl(g->b, x, amt, ""), "");
    LLVMValueRef lright = LLVMBuildSelect(g->b, big, zero, LLVMBuildLShr(g->b, x, amt, ""), "");
    LLVMValueRef right = op == BI_LSHR || !ty_is_signed(t) ? lright : LLVMBuildAShr(g->b, x, amt, "");
    if (op == BI_SHL)
        return LLVMBuildSelect(g->b, neg, right, left, "");
    return LLVMBuildSelect(g->b, neg, left, right, "");
}

/* ---- math ---- */

static LLVMValueRef call_math(CG *g, const char *name, const Type *t, LLVMValueRef *args, int n)
{
    /* Float16 math is done in Float32 and rounded, as Julia does */
    if (t->kind == TY_FLOAT16 && strcmp(name, "powi") != 0) {
        const Type *f32 = ty_prim(g->types, TY_FLOAT32);
        LLVMValueRef wide[3];
        for (int i = 0; i < n; i++)
            wide[i] = conv_wrap(g, args[i], t, f32);
        return conv_wrap(g, call_math(g, name, f32, wide, n), f32, t);
    }
    LLVMTypeRef fty = NULL;
    LLVMValueRef fn = g->ops->math_fn(g->tc, name, prim_t(g, t), &fty);
    if (!fn) {
        if (!g->d->nerrors) /* the target has said why (a missing library): no second, internal error */
            diag_plain(g->d, DIAG_INTERNAL, "no math function %s for Float%d on this target", name, t->bits);
        g->failed = true;
        return LLVMGetUndef(prim_t(g, t));
    }
    return LLVMBuildCall2(g->b, fty, fn, args, (unsigned)n, "");
}

static LLVMValueRef float_min_max(CG *g, bool is_max, LLVMValueRef x, LLVMValueRef y)
{
    /* Julia: NaN wins, and -0.0 < 0.0 */
    LLVMValueRef diff = LLVMBuildFSub(g->b, x, y, "");
    LLVMTypeRef it = LLVMIntTypeInContext(g->ctx, LLVMGetIntTypeWidth(LLVMTypeOf(x)) ? 0 : 0);
    (void)it;
    LLVMValueRef sb;
    {
        LLVMTypeRef ft = LLVMTypeOf(x);
        unsigned bits = LLVMGetTypeKind(ft) == LLVMHalfTypeKind ? 16 : LLVMGetTypeKind(ft) == LLVMFloatTypeKind ? 32 : 64;
        LLVMTypeRef ity = LLVMIntTypeInContext(g->ctx, bits);
        sb = LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildBitCast(g->b, diff, ity, ""), LLVMConstInt(ity, 0, 0), "");
    }
    LLVMValueRef pick = is_max ? LLVMBuildSelect(g->b, sb, y, x, "") : LLVMBuildSelect(g->b, sb, x, y, "");
    LLVMValueRef anynan = LLVMBuildFCmp(g->b, LLVMRealUNO, x, y, "");
    return LLVMBuildSelect(g->b, anynan, diff, pick, "");
}

static LLVMValueRef emit_minmax(CG *g, bool is_max, const Type *t, LLVMValueRef x, LLVMValueRef y)
{
    if (ty_is_float(t))
        return float_min_max(g, is_max, x, y);
    LLVMIntPredicate p = is_max ? (ty_is_signed(t) ? LLVMIntSGT : LLVMIntUGT) : (ty_is_signed(t) ? LLVMIntSLT : LLVMIntULT);
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, p, x, y, ""), x, y, "");
}

static LLVMValueRef emit_cmp(CG *g, BuiltinId op, const Type *t, LLVMValueRef x, LLVMValueRef y)
{
    if (ty_is_float(t)) {
        if (op == BI_EGAL || op == BI_NEGAL) {
            unsigned bits = (unsigned)t->bits;
            LLVMTypeRef ity = LLVMIntTypeInContext(g->ctx, bits);
            LLVMValueRef nx = LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, ""), ny = LLVMBuildFCmp(g->b, LLVMRealUNO, y, y, "");
            LLVMValueRef same = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildBitCast(g->b, x, ity, ""), LLVMBuildBitCast(g->b, y, ity, ""), "");
            same = LLVMBuildOr(g->b, same, LLVMBuildAnd(g->b, nx, ny, ""), "");
            return op == BI_EGAL ? same : LLVMBuildNot(g->b, same, "");
        }
        static const LLVMRealPredicate fp[] = {[BI_EQ] = LLVMRealOEQ, [BI_NE] = LLVMRealUNE, [BI_LT] = LLVMRealOLT,
                                               [BI_LE] = LLVMRealOLE, [BI_GT] = LLVMRealOGT, [BI_GE] = LLVMRealOGE};
        return LLVMBuildFCmp(g->b, fp[op], x, y, "");
    }
    bool sg = ty_is_signed(t);
    LLVMIntPredicate p;
    switch (op) {
    case BI_EQ: case BI_EGAL: p = LLVMIntEQ; break;
    case BI_NE: case BI_NEGAL: p = LLVMIntNE; break;
    case BI_LT: p = sg ? LLVMIntSLT : LLVMIntULT; break;
    case BI_LE: p = sg ? LLVMIntSLE : LLVMIntULE; break;
    case BI_GT: p = sg ? LLVMIntSGT : LLVMIntUGT; break;
    default: p = sg ? LLVMIntSGE : LLVMIntUGE; break;
    }
    return LLVMBuildICmp(g->b, p, x, y, "");
}

/* Integer comparison of mixed signedness is exact in Julia (-1 < 0x01 is true). */
static LLVMValueRef emit_compare(CG *g, IrInst *in)
{
    const Type *a = aty(g, in, 0), *b = aty(g, in, 1), *t = in->optype;
    BuiltinId op = in->builtin;
    if (!t)
        return LLVMConstInt(i1(g), (op == BI_EGAL || op == BI_EQ) ? a == b : a != b, 0);
    if (ty_is_int(a) && ty_is_int(b) && a->kind != TY_BOOL && b->kind != TY_BOOL && ty_is_signed(a) != ty_is_signed(b) &&
        !ty_is_float(t)) {
        /* widen both to a signed type one step wider where possible; for 64-bit compare with sign tests */
        const Type *s = ty_is_signed(a) ? a : b;
        LLVMValueRef sv = ty_is_signed(a) ? arg(g, in, 0) : arg(g, in, 1);
        LLVMValueRef uv = ty_is_signed(a) ? arg(g, in, 1) : arg(g, in, 0);
        const Type *u = ty_is_signed(a) ? b : a;
        unsigned w = (unsigned)(s->bits > u->bits ? s->bits : u->bits);
        LLVMTypeRef wt = LLVMIntTypeInContext(g->ctx, w);
        LLVMValueRef sw = s->bits < (int)w ? LLVMBuildSExt(g->b, sv, wt, "") : sv;
        LLVMValueRef uw = u->bits < (int)w ? LLVMBuildZExt(g->b, uv, wt, "") : uv;
        LLVMValueRef neg = LLVMBuildICmp(g->b, LLVMIntSLT, sw, LLVMConstInt(wt, 0, 0), "");
        LLVMValueRef x = ty_is_signed(a) ? sw : uw, y = ty_is_signed(a) ? uw : sw;
        const Type *ut = ty_prim(g->types, w == 8 ? TY_UINT8 : w == 16 ? TY_UINT16 : w == 32 ? TY_UINT32 : TY_UINT64);
        LLVMValueRef ucmp = emit_cmp(g, op, ut, x, y);
        /* a negative signed value: it is less than every unsigned one */
        bool s_is_left = ty_is_signed(a);
        LLVMValueRef when_neg;
        switch (op) {
        case BI_EQ: case BI_EGAL: when_neg = LLVMConstInt(i1(g), 0, 0); break;
        case BI_NE: case BI_NEGAL: when_neg = LLVMConstInt(i1(g), 1, 0); break;
        case BI_LT: case BI_LE: when_neg = LLVMConstInt(i1(g), s_is_left, 0); break;
        default: when_neg = LLVMConstInt(i1(g), !s_is_left, 0); break;
        }
        return LLVMBuildSelect(g->b, neg, when_neg, ucmp, "");
    }
    return emit_cmp(g, op, t, arg_as(g, in, 0, t), arg_as(g, in, 1, t));
}

/* ---- ranges ---- */

static LLVMValueRef make_range(CG *g, LLVMValueRef start, LLVMValueRef step, LLVMValueRef stop)
{
    LLVMValueRef r = LLVMGetUndef(lt(g, ty_range(g->types, 0)));
    r = LLVMBuildInsertValue(g->b, r, start, 0, "");
    r = LLVMBuildInsertValue(g->b, r, step, 1, "");
    return LLVMBuildInsertValue(g->b, r, stop, 2, "");
}

static LLVMValueRef unit_range(CG *g, LLVMValueRef a, LLVMValueRef b)
{
    /* stop = b >= a ? b : a - 1 */
    LLVMValueRef stop = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, b, a, ""), b, LLVMBuildSub(g->b, a, ci64(g, 1), ""), "");
    return make_range(g, a, ci64(g, 1), stop);
}

static LLVMValueRef range_nonempty(CG *g, LLVMValueRef r)
{
    LLVMValueRef start = LLVMBuildExtractValue(g->b, r, 0, ""), step = LLVMBuildExtractValue(g->b, r, 1, "");
    LLVMValueRef stop = LLVMBuildExtractValue(g->b, r, 2, "");
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, step, ci64(g, 0), ""),
                           LLVMBuildICmp(g->b, LLVMIntSLE, start, stop, ""), LLVMBuildICmp(g->b, LLVMIntSGE, start, stop, ""), "");
}

/* ---- built-in calls ---- */

static LLVMValueRef dim3(CG *g, LLVMValueRef (*hook)(TargetCtx *, LLVMBuilderRef, int), int plus, bool times_dim)
{
    LLVMValueRef r = LLVMGetUndef(lt(g, ty_prim(g->types, TY_DIM3)));
    for (int d = 0; d < 3; d++) {
        LLVMValueRef v = LLVMBuildZExt(g->b, hook(g->tc, g->b, d), i64(g), "");
        if (times_dim)
            v = LLVMBuildMul(g->b, v, LLVMBuildZExt(g->b, g->ops->workgroup_dim(g->tc, g->b, d), i64(g), ""), "");
        if (plus)
            v = LLVMBuildAdd(g->b, v, ci64(g, plus), "");
        r = LLVMBuildInsertValue(g->b, r, v, (unsigned)d, "");
    }
    return r;
}

static LLVMValueRef typeval(CG *g, BuiltinId id, const Type *t)
{
    if (ty_is_float(t)) {
        switch (id) {
        case BI_ZERO: return fconst(g, t, 0);
        case BI_ONE: return fconst(g, t, 1);
        case BI_TYPEMIN: return fconst(g, t, -INFINITY);
        case BI_TYPEMAX: return fconst(g, t, INFINITY);
        default: return fconst(g, t, t->bits == 16 ? ldexp(1, -10) : t->bits == 32 ? (double)ldexpf(1, -23) : ldexp(1, -52));
        }
    }
    if (t->kind == TY_BOOL)
        return LLVMConstInt(i1(g), id == BI_ONE || id == BI_TYPEMAX, 0);
    switch (id) {
    case BI_ZERO: return iconst(g, t, 0);
    case BI_ONE: return iconst(g, t, 1);
    case BI_TYPEMIN: return ty_is_signed(t) ? LLVMConstInt(prim_t(g, t), 1ULL << (t->bits - 1), 0) : iconst(g, t, 0);
    default: return ty_is_signed(t) ? LLVMConstInt(prim_t(g, t), (t->bits == 64 ? ~0ULL : (1ULL << t->bits) - 1) >> 1, 0)
                                    : LLVMConstAllOnes(prim_t(g, t));
    }
}

static LLVMValueRef emit_pow(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    if (in->builtin == BI_LITERAL_POW) {
        int64_t k = g->f->insts[in->args[2]].ival;
        LLVMValueRef x = arg_as(g, in, 0, t);
        bool fl = ty_is_float(t);
        LLVMValueRef one = fl ? fconst(g, t, 1) : iconst(g, t, 1);
        LLVMValueRef r = one;
        int64_t m = k < 0 ? -k : k;
        if (m >= 1)
            r = x;
        for (int64_t i = 1; i < m; i++)
            r = fl ? LLVMBuildFMul(g->b, r, x, "") : LLVMBuildMul(g->b, r, x, "");
        if (k < 0)
            r = LLVMBuildFDiv(g->b, one, r, "");
        return r;
    }
    const Type *bt = aty(g, in, 0), *et = aty(g, in, 1);
    if (ty_is_float(t) && ty_is_int(et) && bt == t) {
        LLVMValueRef args[2] = {arg(g, in, 0), conv_wrap(g, arg(g, in, 1), et, ty_prim(g->types, TY_INT32))};
        return call_math(g, "powi", t, args, 2);
    }
    if (ty_is_float(t)) {
        LLVMValueRef args[2] = {arg_as(g, in, 0, t), arg_as(g, in, 1, t)};
        return call_math(g, "pow", t, args, 2);
    }
    /* integer power by squaring: loop in IR */
    LLVMValueRef x = arg(g, in, 0), n = conv_wrap(g, arg(g, in, 1), et, ty_prim(g->types, TY_INT64));
    LLVMTypeRef lty = LLVMTypeOf(x);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "ipow");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "ipow.done");
    LLVMBuildBr(g->b, loop);
    LLVMPositionBuilderAtEnd(g->b, loop);
    LLVMValueRef acc = LLVMBuildPhi(g->b, lty, ""), base = LLVMBuildPhi(g->b, lty, ""), e = LLVMBuildPhi(g->b, i64(g), "");
    LLVMValueRef odd = LLVMBuildTrunc(g->b, e, i1(g), "");
    LLVMValueRef acc2 = LLVMBuildSelect(g->b, odd, LLVMBuildMul(g->b, acc, base, ""), acc, "");
    LLVMValueRef base2 = LLVMBuildMul(g->b, base, base, "");
    LLVMValueRef e2 = LLVMBuildLShr(g->b, e, ci64(g, 1), "");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, e2, ci64(g, 0), ""), loop, done);
    LLVMValueRef one = LLVMConstInt(lty, 1, 0);
    LLVMAddIncoming(acc, (LLVMValueRef[]){one, acc2}, (LLVMBasicBlockRef[]){pre, loop}, 2);
    LLVMAddIncoming(base, (LLVMValueRef[]){x, base2}, (LLVMBasicBlockRef[]){pre, loop}, 2);
    LLVMAddIncoming(e, (LLVMValueRef[]){n, e2}, (LLVMBasicBlockRef[]){pre, loop}, 2);
    LLVMPositionBuilderAtEnd(g->b, done);
    /* n <= 0: x^0 == 1 (negative powers of integers are a DomainError in Julia; 1 here) */
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, n, ci64(g, 0), ""), acc2, one, "");
}

static LLVMValueRef emit_builtin(CG *g, IrInst *in)
{
    const Type *t = in->optype, *rt = in->type;
    int n = in->nargs - 1;
    bool inb = (in->flags & IRF_INBOUNDS) != 0;
    switch (in->builtin) {
    case BI_ADD: case BI_SUB: case BI_MUL: {
        LLVMValueRef r = arg_as(g, in, 0, t);
        for (int k = 1; k < n; k++) {
            LLVMValueRef y = arg_as(g, in, k, t);
            if (ty_is_float(t))
                r = in->builtin == BI_ADD ? LLVMBuildFAdd(g->b, r, y, "") : in->builtin == BI_SUB ? LLVMBuildFSub(g->b, r, y, "")
                                                                                                   : LLVMBuildFMul(g->b, r, y, "");
            else
                r = in->builtin == BI_ADD ? LLVMBuildAdd(g->b, r, y, "") : in->builtin == BI_SUB ? LLVMBuildSub(g->b, r, y, "")
                                                                                                  : LLVMBuildMul(g->b, r, y, "");
        }
        return r;
    }
    case BI_NEG:
        return ty_is_float(t) ? LLVMBuildFNeg(g->b, arg_as(g, in, 0, t), "") : LLVMBuildNeg(g->b, arg_as(g, in, 0, t), "");
    case BI_UPLUS:
        return t ? arg_as(g, in, 0, t) : arg(g, in, 0);
    case BI_FDIV:
        return LLVMBuildFDiv(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
    case BI_DIV: case BI_REM: case BI_MOD: case BI_FLD: case BI_CLD:
        if (ty_is_float(t))
            return emit_floatdiv(g, in, arg_as(g, in, 0, t), arg_as(g, in, 1, t));
        return emit_intdiv(g, in, t, arg_as(g, in, 0, t), arg_as(g, in, 1, t));
    case BI_POW: case BI_LITERAL_POW:
        return emit_pow(g, in);
    case BI_EQ: case BI_NE: case BI_LT: case BI_LE: case BI_GT: case BI_GE: case BI_EGAL: case BI_NEGAL:
        return emit_compare(g, in);
    case BI_NOT:
        return LLVMBuildNot(g->b, arg(g, in, 0), "");
    case BI_BNOT:
        return LLVMBuildNot(g->b, arg(g, in, 0), "");
    case BI_AND: return LLVMBuildAnd(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
    case BI_OR: return LLVMBuildOr(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
    case BI_XOR: return LLVMBuildXor(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
    case BI_SHL: case BI_SHR: case BI_LSHR:
        return emit_shift(g, in->builtin, t, arg(g, in, 0), arg(g, in, 1), aty(g, in, 1));
    case BI_IFELSE:
        return LLVMBuildSelect(g->b, arg(g, in, 0), arg(g, in, 1), arg(g, in, 2), "");
    case BI_CONVERT:
        return conv_checked(g, arg(g, in, n - 1), aty(g, in, n - 1), t, in->loc);
    case BI_MODTYPE:
        return conv_wrap(g, arg(g, in, 0), aty(g, in, 0), t);
    case BI_UNSAFE_TRUNC:
        return conv_wrap(g, arg(g, in, 1), aty(g, in, 1), t);
    case BI_TRUNC: case BI_ROUND: case BI_FLOOR: case BI_CEIL: {
        static const char *names[] = {[BI_TRUNC] = "llvm.trunc", [BI_ROUND] = "llvm.roundeven", [BI_FLOOR] = "llvm.floor",
                                      [BI_CEIL] = "llvm.ceil"};
        LLVMValueRef x = arg(g, in, n - 1);
        const Type *xt = aty(g, in, n - 1);
        if (ty_is_float(xt))
            x = intr1(g, names[in->builtin], x);
        return t ? conv_checked(g, x, xt, t, in->loc) : x;
    }
    case BI_ABS: {
        LLVMValueRef x = arg(g, in, 0);
        if (ty_is_float(rt))
            return intr1(g, "llvm.fabs", x);
        if (!ty_is_signed(rt))
            return x;
        return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, x, LLVMConstInt(LLVMTypeOf(x), 0, 0), ""),
                               LLVMBuildNeg(g->b, x, ""), x, "");
    }
    case BI_SIGN: {
        LLVMValueRef x = arg(g, in, 0);
        LLVMTypeRef lty = LLVMTypeOf(x);
        if (ty_is_float(rt)) {
            LLVMValueRef zero = LLVMConstReal(lty, 0);
            LLVMValueRef keep = LLVMBuildFCmp(g->b, LLVMRealUEQ, x, zero, ""); /* 0, -0 or NaN: itself */
            return LLVMBuildSelect(g->b, keep, x, intr2(g, "llvm.copysign", LLVMConstReal(lty, 1), x), "");
        }
        if (rt->kind == TY_BOOL)
            return x;
        LLVMValueRef zero = LLVMConstInt(lty, 0, 0);
        LLVMValueRef pos = LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, ty_is_signed(rt) ? LLVMIntSGT : LLVMIntUGT, x, zero, ""), lty, "");
        if (!ty_is_signed(rt))
            return pos;
        return LLVMBuildSub(g->b, pos, LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, x, zero, ""), lty, ""), "");
    }
    case BI_MIN: case BI_MAX: {
        LLVMValueRef r = arg_as(g, in, 0, t);
        for (int k = 1; k < n; k++)
            r = emit_minmax(g, in->builtin == BI_MAX, t, r, arg_as(g, in, k, t));
        return r;
    }
    case BI_CLAMP: {
        LLVMValueRef x = arg_as(g, in, 0, t), lo = arg_as(g, in, 1, t), hi = arg_as(g, in, 2, t);
        LLVMValueRef gt = emit_cmp(g, BI_GT, t, x, hi), ltv = emit_cmp(g, BI_LT, t, x, lo);
        return LLVMBuildSelect(g->b, gt, hi, LLVMBuildSelect(g->b, ltv, lo, x, ""), "");
    }
    case BI_ISEVEN: case BI_ISODD: {
        LLVMValueRef bit = LLVMBuildTrunc(g->b, arg(g, in, 0), i1(g), "");
        return in->builtin == BI_ISODD ? bit : LLVMBuildNot(g->b, bit, "");
    }
    case BI_COPYSIGN: {
        LLVMValueRef x = arg(g, in, 0);
        if (ty_is_float(t)) {
            const Type *yt = aty(g, in, 1);
            LLVMValueRef y = ty_is_float(yt) ? conv_wrap(g, arg(g, in, 1), yt, t)
                                             : LLVMBuildSIToFP(g->b, arg(g, in, 1), prim_t(g, t), "");
            return intr2(g, "llvm.copysign", x, y);
        }
        if (!ty_is_signed(t))
            return x;
        const Type *yt = aty(g, in, 1);
        LLVMValueRef yneg = ty_is_float(yt) ? LLVMBuildFCmp(g->b, LLVMRealOLT, arg(g, in, 1), LLVMConstReal(LLVMTypeOf(arg(g, in, 1)), 0), "")
                            : ty_is_signed(yt) ? LLVMBuildICmp(g->b, LLVMIntSLT, arg(g, in, 1), LLVMConstInt(LLVMTypeOf(arg(g, in, 1)), 0, 0), "")
                                               : LLVMConstInt(i1(g), 0, 0);
        LLVMValueRef xneg = LLVMBuildICmp(g->b, LLVMIntSLT, x, LLVMConstInt(LLVMTypeOf(x), 0, 0), "");
        return LLVMBuildSelect(g->b, LLVMBuildXor(g->b, xneg, yneg, ""), LLVMBuildNeg(g->b, x, ""), x, "");
    }
    case BI_SIGNBIT: case BI_ISNAN: case BI_ISINF: case BI_ISFINITE: {
        const Type *xt = aty(g, in, 0);
        LLVMValueRef x = arg(g, in, 0);
        if (!ty_is_float(xt)) {
            if (in->builtin == BI_SIGNBIT)
                return ty_is_signed(xt) ? LLVMBuildICmp(g->b, LLVMIntSLT, x, LLVMConstInt(LLVMTypeOf(x), 0, 0), "")
                                        : LLVMConstInt(i1(g), 0, 0);
            return LLVMConstInt(i1(g), in->builtin == BI_ISFINITE, 0);
        }
        if (in->builtin == BI_SIGNBIT) {
            LLVMTypeRef ity = LLVMIntTypeInContext(g->ctx, (unsigned)xt->bits);
            return LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildBitCast(g->b, x, ity, ""), LLVMConstInt(ity, 0, 0), "");
        }
        if (in->builtin == BI_ISNAN)
            return LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, "");
        LLVMValueRef ax = intr1(g, "llvm.fabs", x), inf = LLVMConstReal(LLVMTypeOf(x), INFINITY);
        return in->builtin == BI_ISINF ? LLVMBuildFCmp(g->b, LLVMRealOEQ, ax, inf, "") : LLVMBuildFCmp(g->b, LLVMRealOLT, ax, inf, "");
    }
    case BI_SQRT: return intr1(g, "llvm.sqrt", arg_as(g, in, 0, t));
    case BI_FMA: return intrinsic(g, "llvm.fma", (LLVMTypeRef[]){prim_t(g, t)}, 1,
                                  (LLVMValueRef[]){arg_as(g, in, 0, t), arg_as(g, in, 1, t), arg_as(g, in, 2, t)}, 3);
    case BI_MULADD:
        if (ty_is_float(t))
            return intrinsic(g, "llvm.fmuladd", (LLVMTypeRef[]){prim_t(g, t)}, 1,
                             (LLVMValueRef[]){arg_as(g, in, 0, t), arg_as(g, in, 1, t), arg_as(g, in, 2, t)}, 3);
        return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), ""), arg_as(g, in, 2, t), "");
    case BI_CBRT: case BI_EXP: case BI_EXP2: case BI_EXP10: case BI_EXPM1: case BI_LOG: case BI_LOG2: case BI_LOG10:
    case BI_LOG1P: case BI_SIN: case BI_COS: case BI_TAN: case BI_ASIN: case BI_ACOS: case BI_ATAN: case BI_SINH:
    case BI_COSH: case BI_TANH: {
        LLVMValueRef x = arg_as(g, in, 0, t);
        return call_math(g, builtin_name(in->builtin), t, &x, 1);
    }
    case BI_ATAN2: case BI_HYPOT: {
        LLVMValueRef xy[2] = {arg_as(g, in, 0, t), arg_as(g, in, 1, t)};
        return call_math(g, in->builtin == BI_ATAN2 ? "atan2" : "hypot", t, xy, 2);
    }
    case BI_ZERO: case BI_ONE: case BI_TYPEMIN: case BI_TYPEMAX: case BI_EPS:
        return typeval(g, in->builtin, t);
    case BI_GETINDEX: {
        const Type *at = aty(g, in, 0);
        LLVMValueRef p = elem_ptr(g, in, at, arg(g, in, 0), 1, n - 1, inb);
        LLVMValueRef v = LLVMBuildLoad2(g->b, mem_t(g, at->elem), p, "");
        LLVMSetAlignment(v, elem_align(at->elem));
        return from_mem(g, v, at->elem);
    }
    case BI_SETINDEX: {
        const Type *at = aty(g, in, 0);
        LLVMValueRef v = conv_checked(g, arg(g, in, 1), aty(g, in, 1), at->elem, in->loc);
        LLVMValueRef p = elem_ptr(g, in, at, arg(g, in, 0), 2, n - 2, inb);
        LLVMSetAlignment(LLVMBuildStore(g->b, to_mem(g, v, at->elem), p), elem_align(at->elem));
        return unit_v(g);
    }
    case BI_LENGTH: {
        const Type *at = aty(g, in, 0);
        if (at->kind == TY_RANGE) {
            LLVMValueRef r = arg(g, in, 0);
            LLVMValueRef start = LLVMBuildExtractValue(g->b, r, 0, ""), step = LLVMBuildExtractValue(g->b, r, 1, "");
            LLVMValueRef stop = LLVMBuildExtractValue(g->b, r, 2, "");
            LLVMValueRef len = LLVMBuildAdd(g->b, LLVMBuildSDiv(g->b, LLVMBuildSub(g->b, stop, start, ""), step, ""), ci64(g, 1), "");
            return LLVMBuildSelect(g->b, range_nonempty(g, r), len, ci64(g, 0), "");
        }
        return arr_len(g, arg(g, in, 0));
    }
    case BI_SIZE: {
        LLVMValueRef r = LLVMGetUndef(lt(g, rt));
        for (int d = 0; d < rt->nfields; d++)
            r = LLVMBuildInsertValue(g->b, r, arr_dim(g, arg(g, in, 0), d), (unsigned)d, "");
        return r;
    }
    case BI_SIZE_D: case BI_AXES_D: {
        const Type *at = aty(g, in, 0);
        LLVMValueRef sz;
        if (n == 1) { /* eachindex(A) */
            sz = arr_len(g, arg(g, in, 0));
        } else {
            LLVMValueRef d = conv_wrap(g, arg(g, in, 1), aty(g, in, 1), ty_prim(g->types, TY_INT64));
            sz = ci64(g, 1); /* size(A, d) for d > ndims is 1 */
            for (int k = at->ndims - 1; k >= 0; k--)
                sz = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, d, ci64(g, k + 1), ""), arr_dim(g, arg(g, in, 0), k), sz, "");
        }
        return in->builtin == BI_SIZE_D ? sz : unit_range(g, ci64(g, 1), sz);
    }
    case BI_AXES: {
        LLVMValueRef r = LLVMGetUndef(lt(g, rt));
        for (int d = 0; d < rt->nfields; d++)
            r = LLVMBuildInsertValue(g->b, r, unit_range(g, ci64(g, 1), arr_dim(g, arg(g, in, 0), d)), (unsigned)d, "");
        return r;
    }
    case BI_ELTYPE:
        return unit_v(g);
    case BI_NDIMS:
        return ci64(g, aty(g, in, 0)->ndims);
    case BI_TUPLE_GETINDEX: {
        int64_t k;
        const Type *tt = aty(g, in, 0);
        if (infer_const_int(g->f, in->args[2], &k, 0))
            return LLVMBuildExtractValue(g->b, arg(g, in, 0), (unsigned)(k - 1), "");
        /* a homogeneous tuple with a run-time index: pick with selects (bounds-checked) */
        LLVMValueRef idx = conv_wrap(g, arg(g, in, 1), aty(g, in, 1), ty_prim(g->types, TY_INT64));
        int nf = tt->kind == TY_DIM3 ? 3 : tt->nfields;
        if (!inb)
            check(g, LLVMBuildICmp(g->b, LLVMIntUGE, LLVMBuildSub(g->b, idx, ci64(g, 1), ""), ci64(g, nf), ""), JUKE_EXC_BOUNDS,
                  in->loc, 1, &idx, (LLVMValueRef[]){ci64(g, nf)}, 0);
        LLVMValueRef r = LLVMBuildExtractValue(g->b, arg(g, in, 0), 0, "");
        for (int f = 1; f < nf; f++)
            r = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, idx, ci64(g, f + 1), ""),
                                LLVMBuildExtractValue(g->b, arg(g, in, 0), (unsigned)f, ""), r, "");
        return r;
    }
    case BI_TUPLE_LENGTH:
        return ci64(g, aty(g, in, 0)->nfields);
    case BI_RANGE:
        return unit_range(g, arg_as(g, in, 0, ty_prim(g->types, TY_INT64)), arg_as(g, in, 1, ty_prim(g->types, TY_INT64)));
    case BI_STEPRANGE: {
        const Type *i64t = ty_prim(g->types, TY_INT64);
        LLVMValueRef a = arg_as(g, in, 0, i64t), s = arg_as(g, in, 1, i64t), b = arg_as(g, in, 2, i64t);
        /* Julia's steprange_last: the last element actually reached, or start - step when empty */
        LLVMValueRef s0 = LLVMBuildICmp(g->b, LLVMIntEQ, s, ci64(g, 0), "");
        check(g, s0, JUKE_EXC_DIVIDE, in->loc, 0, NULL, NULL, 0);
        LLVMValueRef empty = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, s, ci64(g, 0), ""),
                                             LLVMBuildICmp(g->b, LLVMIntSLT, b, a, ""), LLVMBuildICmp(g->b, LLVMIntSGT, b, a, ""), "");
        LLVMValueRef last = LLVMBuildSub(g->b, b, LLVMBuildSRem(g->b, LLVMBuildSub(g->b, b, a, ""), s, ""), "");
        return make_range(g, a, s, LLVMBuildSelect(g->b, empty, LLVMBuildSub(g->b, a, s, ""), last, ""));
    }
    case BI_FIRST: return LLVMBuildExtractValue(g->b, arg(g, in, 0), 0, "");
    case BI_STEP: return LLVMBuildExtractValue(g->b, arg(g, in, 0), 1, "");
    case BI_LAST: return LLVMBuildExtractValue(g->b, arg(g, in, 0), 2, "");
    case BI_IN: {
        if (n == 1)
            return range_nonempty(g, arg(g, in, 0));
        LLVMValueRef x = arg_as(g, in, 0, ty_prim(g->types, TY_INT64)), r = arg(g, in, 1);
        LLVMValueRef start = LLVMBuildExtractValue(g->b, r, 0, ""), step = LLVMBuildExtractValue(g->b, r, 1, "");
        LLVMValueRef stop = LLVMBuildExtractValue(g->b, r, 2, "");
        LLVMValueRef up = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, x, start, ""), LLVMBuildICmp(g->b, LLVMIntSLE, x, stop, ""), "");
        LLVMValueRef down = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSLE, x, start, ""), LLVMBuildICmp(g->b, LLVMIntSGE, x, stop, ""), "");
        LLVMValueRef inr = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, step, ci64(g, 0), ""), up, down, "");
        if (aty(g, in, 1)->step) {
            LLVMValueRef ss = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, step, ci64(g, 0), ""), ci64(g, 1), step, "");
            inr = LLVMBuildAnd(g->b, inr, LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildSRem(g->b, LLVMBuildSub(g->b, x, start, ""), ss, ""), ci64(g, 0), ""), "");
        }
        return inr;
    }
    case BI_WORKITEMIDX: return dim3(g, g->ops->workitem_id, 1, false);
    case BI_WORKGROUPIDX: return dim3(g, g->ops->workgroup_id, 1, false);
    case BI_WORKGROUPDIM: return dim3(g, g->ops->workgroup_dim, 0, false);
    case BI_GRIDGROUPDIM: return dim3(g, g->ops->grid_groups, 0, false);
    case BI_GRIDITEMDIM: return dim3(g, g->ops->grid_groups, 0, true);
    case BI_WAVEFRONTSIZE: return ci64(g, g->tc->wavefront_size);
    case BI_SYNC_WORKGROUP:
        g->ops->barrier(g->tc, g->b);
        g->tc->uses_barrier = true;
        return unit_v(g);
    case BI_STATIC_LOCAL: case BI_DYNAMIC_LOCAL:
        return emit_local_array(g, in);
    case BI_ATOMIC_ADD: case BI_ATOMIC_SUB: case BI_ATOMIC_AND: case BI_ATOMIC_OR: case BI_ATOMIC_XOR:
    case BI_ATOMIC_MAX: case BI_ATOMIC_MIN: case BI_ATOMIC_XCHG:
        return emit_atomic(g, in);
    default:
        diag_kind_error(g->d, DIAG_INTERNAL, in->loc, "code generation for built-in %s is missing", builtin_name(in->builtin));
        g->failed = true;
        return LLVMGetUndef(lt(g, rt));
    }
}

/* ---- functions ---- */

static LLVMValueRef emit_const(CG *g, IrInst *in)
{
    const Type *t = in->type;
    if (in->lit == LIT_NONE)
        return t->kind == TY_BOOL ? LLVMConstInt(i1(g), in->name && strcmp(in->name, "true") == 0, 0) : unit_v(g);
    if (ty_is_float(t))
        return LLVMConstReal(prim_t(g, t), in->fval);
    return LLVMConstInt(prim_t(g, t), in->uval, 0);
}

static LLVMValueRef emit_name(CG *g, IrInst *in)
{
    const Type *t = in->type;
    if (ty_is_float(t)) {
        bool nan = strncmp(in->name, "NaN", 3) == 0;
        return LLVMConstReal(prim_t(g, t), nan ? NAN : INFINITY);
    }
    return unit_v(g);
}

static LLVMBasicBlockRef new_block(CG *g, const char *name) { return LLVMAppendBasicBlockInContext(g->ctx, g->fn, name); }

static bool terminated(CG *g) { return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g->b)) != NULL; }

static bool returns_value(const Type *t) { return !is_unit(t); }

static LLVMTypeRef fn_type(CG *g, Spec *s, bool kernel)
{
    LLVMTypeRef params[72];
    int np = 0;
    for (int i = 0; i < s->nargs && np < 64; i++)
        params[np++] = kernel ? mem_t(g, s->argtypes[i]) : lt(g, s->argtypes[i]);
    params[np++] = LLVMPointerTypeInContext(g->ctx, g->ops->as_global);
    if (g->ops->needs_state_param)
        params[np++] = LLVMPointerTypeInContext(g->ctx, 0);
    LLVMTypeRef ret = !kernel && returns_value(s->rettype) ? lt(g, s->rettype) : LLVMVoidTypeInContext(g->ctx);
    return LLVMFunctionType(ret, params, (unsigned)np, 0);
}

static void add_attr(CG *g, LLVMValueRef fn, const char *name)
{
    unsigned k = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->ctx, k, 0));
}

static void emit_function(CG *g, Spec *s, bool kernel)
{
    IrFunc *f = s->typed;
    g->spec = s;
    g->f = f;
    g->fn = g->fns[s->index];
    g->throw_bb = NULL;
    g->vals = calloc((size_t)f->ninsts + 1, sizeof(LLVMValueRef));
    g->slots = calloc((size_t)f->nslots + 1, sizeof(LLVMValueRef));
    g->labels = calloc((size_t)f->nlabels + 1, sizeof(LLVMBasicBlockRef));
    if (!g->vals || !g->slots || !g->labels) {
        diag_plain(g->d, DIAG_INTERNAL, "out of memory");
        g->failed = true;
        goto out;
    }
    int np = s->nargs;
    g->tc->cur_exc = LLVMGetParam(g->fn, (unsigned)np);
    g->tc->cur_state = g->ops->needs_state_param ? LLVMGetParam(g->fn, (unsigned)np + 1) : NULL;
    g->entry = new_block(g, "top");
    LLVMPositionBuilderAtEnd(g->b, g->entry);
    /* parameters keep the Julia names (%c, %a); their slots are %c.addr, as clang names them */
    for (int i = 0; i < np; i++)
        LLVMSetValueName2(LLVMGetParam(g->fn, (unsigned)i), f->slots[i].name, strlen(f->slots[i].name));
    for (int i = 0; i < f->nslots; i++)
        if (f->slots[i].type && !is_unit(f->slots[i].type)) {
            char name[256];
            snprintf(name, sizeof name, "%s%s", f->slots[i].name, i < np ? ".addr" : "");
            g->slots[i] = LLVMBuildAlloca(g->b, lt(g, f->slots[i].type), name);
        }
    for (int i = 0; i < np; i++) {
        if (!g->slots[i])
            continue;
        LLVMValueRef p = LLVMGetParam(g->fn, (unsigned)i);
        if (kernel)
            p = from_mem(g, p, s->argtypes[i]);
        LLVMBuildStore(g->b, p, g->slots[i]);
    }
    for (int i = 0; i < f->nlabels; i++)
        g->labels[i] = new_block(g, "L");
    for (int i = 0; i < f->ninsts && !g->failed; i++) {
        IrInst *in = &f->insts[i];
        if (in->op == IR_LABEL) {
            if (!terminated(g))
                LLVMBuildBr(g->b, g->labels[in->label]);
            LLVMPositionBuilderAtEnd(g->b, g->labels[in->label]);
            continue;
        }
        if (in->flags & IRF_DEAD)
            continue;
        if (terminated(g)) /* code after a jump that no label reaches */
            LLVMPositionBuilderAtEnd(g->b, new_block(g, "dead"));
        LLVMValueRef v = NULL;
        switch (in->op) {
        case IR_CONST: v = emit_const(g, in); break;
        case IR_NAME: v = emit_name(g, in); break;
        case IR_SLOT:
            v = g->slots[in->slot] ? LLVMBuildLoad2(g->b, lt(g, in->type), g->slots[in->slot], "") : LLVMGetUndef(lt(g, in->type));
            break;
        case IR_ASSIGN:
            if (g->slots[in->slot] && !is_unit(f->slots[in->slot].type))
                LLVMBuildStore(g->b, val(g, in->args[0]), g->slots[in->slot]);
            break;
        case IR_CALL:
            if (in->callee) {
                Spec *c = in->callee;
                LLVMValueRef cargs[72];
                int na = 0;
                for (int k = 1; k < in->nargs && na < 64; k++)
                    cargs[na++] = val(g, in->args[k]);
                cargs[na++] = g->tc->cur_exc;
                if (g->ops->needs_state_param)
                    cargs[na++] = g->tc->cur_state;
                LLVMValueRef r = LLVMBuildCall2(g->b, fn_type(g, c, false), g->fns[c->index], cargs, (unsigned)na, "");
                v = returns_value(c->rettype) ? r : LLVMGetUndef(lt(g, in->type));
            } else {
                v = emit_builtin(g, in);
            }
            break;
        case IR_GETFIELD: {
            unsigned k = in->name[0] == 'x' ? 0 : in->name[0] == 'y' ? 1 : 2;
            v = LLVMBuildExtractValue(g->b, val(g, in->args[0]), k, "");
            break;
        }
        case IR_TUPLE: {
            v = LLVMGetUndef(lt(g, in->type));
            for (int k = 0; k < in->nargs; k++)
                v = LLVMBuildInsertValue(g->b, v, val(g, in->args[k]), (unsigned)k, "");
            break;
        }
        case IR_GOTO:
            LLVMBuildBr(g->b, g->labels[in->label]);
            break;
        case IR_GOTOIFNOT: {
            LLVMBasicBlockRef next = new_block(g, "");
            LLVMBuildCondBr(g->b, val(g, in->args[0]), next, g->labels[in->label]);
            LLVMPositionBuilderAtEnd(g->b, next);
            break;
        }
        case IR_RETURN:
            if (!kernel && returns_value(s->rettype))
                LLVMBuildRet(g->b, val(g, in->args[0]));
            else
                LLVMBuildRetVoid(g->b);
            break;
        default:
            break;
        }
        g->vals[i] = v;
    }
    if (!terminated(g))
        LLVMBuildUnreachable(g->b);
    /* blocks left open (labels no code falls into) end in unreachable */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        if (!LLVMGetBasicBlockTerminator(bb)) {
            LLVMPositionBuilderAtEnd(g->b, bb);
            LLVMBuildUnreachable(g->b);
        }
out:
    free(g->vals);
    free(g->slots);
    free(g->labels);
    g->vals = NULL;
    g->slots = NULL;
    g->labels = NULL;
}

/* The kernel's symbol: its name with characters outside [A-Za-z0-9_] as _XX (hex),
 * so "vadd!" is "vadd_21"; valid in ELF, PTX and C. */
static char *kernel_symbol(const char *name)
{
    size_t n = strlen(name);
    char *s = malloc(n * 3 + 1), *p = s;
    if (!s)
        return NULL;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_')
            *p++ = (char)*c;
        else
            p += sprintf(p, "_%02X", *c);
    }
    *p = 0;
    return s;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const TargetOps *ops_for(TargetKind k)
{
    switch (k) {
    case TARGET_AMDGPU: return &target_amdgpu_ops;
    case TARGET_CPU: return &target_cpu_ops;
    case TARGET_NVPTX: return &target_nvptx_ops;
    default: return NULL;
    }
}

bool cg_compile(Diags *d, TypeTable *types, Spec **specs, int nspecs, const TargetOptions *opts, CodeObject *out)
{
    memset(out, 0, sizeof *out);
    out->kind = opts->kind;
    const TargetOps *ops = ops_for(opts->kind);
    if (!ops) {
        diag_plain(d, DIAG_USER, "unknown target kind");
        return false;
    }
    double t0 = now_ms();
    TargetCtx tc = {0};
    tc.llctx = LLVMContextCreate();
    tc.opts = opts;
    tc.ops = ops;
    tc.diags = d;
    char modname[256];
    snprintf(modname, sizeof modname, "%s", specs[0]->method->name);
    tc.mod = LLVMModuleCreateWithNameInContext(modname, tc.llctx);
    bool ok = false;
    CG g = {.tc = &tc, .ops = ops, .ctx = tc.llctx, .mod = tc.mod, .types = types, .d = d, .specs = specs, .nspecs = nspecs};
    g.b = LLVMCreateBuilderInContext(tc.llctx);
    g.fns = calloc((size_t)nspecs + 1, sizeof(LLVMValueRef));
    out->kernel_symbol = kernel_symbol(specs[0]->method->name);
    if (!g.fns || !out->kernel_symbol) {
        diag_plain(d, DIAG_INTERNAL, "out of memory");
        goto done;
    }
    if (!ops->init(&tc))
        goto done;
    out->proc = strdup(tc.proc ? tc.proc : "");
    /* declare every function first: calls may go forward */
    for (int i = 0; i < nspecs; i++) {
        Spec *s = specs[i];
        bool kernel = i == 0;
        const char *name = kernel ? out->kernel_symbol : s->llvm_name;
        g.fns[i] = LLVMAddFunction(tc.mod, name, fn_type(&g, s, kernel));
        if (!kernel) {
            LLVMSetLinkage(g.fns[i], LLVMInternalLinkage);
            add_attr(&g, g.fns[i], (s->method->flags & FN_NOINLINE) ? "noinline" : "alwaysinline");
        }
    }
    for (int i = 0; i < nspecs && !g.failed; i++)
        emit_function(&g, specs[i], i == 0);
    if (g.failed)
        goto done;
    ops->finish_kernel(&tc, g.fns[0], out->kernel_symbol);
    out->static_lds_bytes = tc.static_lds_bytes;
    out->uses_barrier = tc.uses_barrier;
    out->uses_dynamic_lds = tc.uses_dynamic_lds;
    out->llvm_unopt = llvm_module_text(tc.mod);
    if (!llvm_verify(&tc))
        goto done;
    double t1 = now_ms();
    out->ms_codegen = t1 - t0;
    if (!ops->link_libraries(&tc))
        goto done;
    if (!llvm_optimize(&tc, opts->opt_level))
        goto done;
    /* again after library linking and the passes: every module handed to
     * the back end has been verified */
    if (!llvm_verify(&tc))
        goto done;
    double t2 = now_ms();
    out->ms_optimize = t2 - t1;
    out->llvm_opt = llvm_module_text(tc.mod);
    LLVMValueRef kfn = LLVMGetNamedFunction(tc.mod, out->kernel_symbol);
    out->llvm_opt_kernel = kfn ? llvm_function_text(kfn) : strdup("");
    if (!ops->emit(&tc, out))
        goto done;
    out->ms_emit = now_ms() - t2;
    ok = true;
done:
    if (ops->fini)
        ops->fini(&tc);
    LLVMDisposeBuilder(g.b);
    if (tc.mod)
        LLVMDisposeModule(tc.mod);
    LLVMContextDispose(tc.llctx);
    free(g.fns);
    return ok;
}

void code_object_free(CodeObject *co)
{
    if (!co)
        return;
    free(co->proc);
    free(co->data);
    free(co->kernel_symbol);
    free(co->llvm_unopt);
    free(co->llvm_opt);
    free(co->llvm_opt_kernel);
    free(co->asm_text);
    free(co->resources);
    memset(co, 0, sizeof *co);
}
