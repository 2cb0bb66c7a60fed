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
 *   Complex{T}  { T re, T im };  Core.LLVMPtr{T, AS}  ptr addrspace(G or L)
 *   Nothing, functions, types, values of no single type  {} (nothing at run time)
 * Every generated function takes, after its Julia arguments, the exception
 * buffer pointer and (CPU) the JukeCpuState pointer. */
#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "addr32.h"
#include "codegen_impl.h"

/* Checks per exception block. A phi with n incoming edges makes LLVM
 * quadratic: IPSCCP revisits all n on each new feasible edge, and
 * SimplifyCFG removes dead edges one linear search at a time, so a
 * 10,000-statement kernel (40,000 checks) spent most of its -O3 time there
 * (bench/RESULTS.md, "Large kernels"). Past this many checks a function
 * gets another block; kernels with fewer keep exactly one. */
enum { THROW_FANIN_MAX = 128 };

/* ---- types ---- */

LLVMTypeRef i1(CG *g)
{
    return LLVMInt1TypeInContext(g->ctx);
}
LLVMTypeRef i8(CG *g)
{
    return LLVMInt8TypeInContext(g->ctx);
}
LLVMTypeRef i32(CG *g)
{
    return LLVMInt32TypeInContext(g->ctx);
}
LLVMTypeRef i64(CG *g)
{
    return LLVMInt64TypeInContext(g->ctx);
}
LLVMTypeRef unit_t(CG *g)
{
    return LLVMStructTypeInContext(g->ctx, NULL, 0, 0);
}
LLVMValueRef unit_v(CG *g)
{
    return LLVMGetUndef(unit_t(g));
}
LLVMValueRef ci64(CG *g, int64_t v)
{
    return LLVMConstInt(i64(g), (unsigned long long)v, 1);
}
/* An exception record's line for loc (runtime/abi.h): JUKE_EXC_LINE_BASE marks the Base prelude's. */
LLVMValueRef exc_line(CG *g, SrcLoc loc)
{
    bool base = loc.file && loc.file->name == fe_base_name;
    return LLVMConstInt(i32(g), (unsigned)loc.line | (base ? JUKE_EXC_LINE_BASE : 0u), 0);
}

LLVMValueRef ci32(CG *g, int64_t v)
{
    return LLVMConstInt(i32(g), (unsigned long long)v, 1);
}

bool is_unit(const Type *t)
{
    return t->kind == TY_NOTHING || t->kind == TY_FUNCTION || t->kind == TY_TYPE || t->kind == TY_ANY ||
           t->kind == TY_SYMBOL || t->kind == TY_VAL || !ty_is_concrete(t);
}

LLVMTypeRef prim_t(CG *g, const Type *t)
{
    switch (t->kind) {
    case TY_BOOL: return i1(g);
    case TY_FLOAT16: return LLVMHalfTypeInContext(g->ctx);
    case TY_FLOAT32: return LLVMFloatTypeInContext(g->ctx);
    case TY_FLOAT64: return LLVMDoubleTypeInContext(g->ctx);
    default: return LLVMIntTypeInContext(g->ctx, (unsigned)t->bits);
    }
}

LLVMTypeRef lt(CG *g, const Type *t);

/* { ptr, dims, length } for device arrays; local arrays add the elements
 * their memory really holds (a dynamic one may declare more than the launch
 * allocated: checked accesses stop at this). */
LLVMTypeRef array_t(CG *g, const Type *t)
{
    unsigned as = t->kind == TY_ARRAY ? g->ops->as_global : t->step ? g->ops->as_private : g->ops->as_local;
    LLVMTypeRef f[4] = { LLVMPointerTypeInContext(g->ctx, as), LLVMArrayType2(i64(g), (uint64_t)t->ndims), i64(g),
                         i64(g) };
    return LLVMStructTypeInContext(g->ctx, f, t->kind == TY_LOCALARRAY ? 4 : 3, 0);
}

/* The LLVM struct of a tuple or struct type, each field's type by field_t (lt or mem_t); a tuple may have up
 * to TY_MAX_FIELDS fields, so the list is on the heap. */
static LLVMTypeRef struct_t(CG *g, const Type *t, LLVMTypeRef (*field_t)(CG *, const Type *))
{
    LLVMTypeRef *f = malloc(sizeof(LLVMTypeRef) * (size_t)(t->nfields + 1));
    if (!f) {
        diag_plain(g->d, DIAG_NOMEM, "out of memory");
        g->failed = true;
        return LLVMStructTypeInContext(g->ctx, NULL, 0, 0);
    }
    for (int i = 0; i < t->nfields; i++)
        f[i] = field_t(g, t->fields[i]);
    LLVMTypeRef r = LLVMStructTypeInContext(g->ctx, f, (unsigned)t->nfields, 0);
    free(f);
    return r;
}

LLVMTypeRef lt(CG *g, const Type *t)
{
    if (ty_is_prim(t))
        return prim_t(g, t);
    switch (t->kind) {
    case TY_ARRAY:
    case TY_LOCALARRAY: return array_t(g, t);
    case TY_TUPLE:
    case TY_STRUCT: return struct_t(g, t, lt);
    case TY_DIM3:
    case TY_RANGE: {
        LLVMTypeRef f[3] = { i64(g), i64(g), i64(g) };
        return LLVMStructTypeInContext(g->ctx, f, 3, 0);
    }
    case TY_PTR: return LLVMPointerTypeInContext(g->ctx, t->step ? g->ops->as_local : g->ops->as_global);
    case TY_COMPLEX: {
        LLVMTypeRef f[2] = { prim_t(g, t->elem), prim_t(g, t->elem) };
        return LLVMStructTypeInContext(g->ctx, f, 2, 0);
    }
    case TY_UNION: { /* Union{Nothing, T}: the selector byte (1: a T) and the payload */
        LLVMTypeRef f[2] = { i8(g), lt(g, t->elem) };
        return LLVMStructTypeInContext(g->ctx, f, 2, 0);
    }
    default: return unit_t(g);
    }
}

/* Does a value of t hold a Bool (an i1 in registers, a byte in memory)? */
static bool has_bool(const Type *t)
{
    if (t->kind == TY_BOOL)
        return true;
    if (t->kind == TY_TUPLE || t->kind == TY_STRUCT)
        for (int i = 0; i < t->nfields; i++)
            if (has_bool(t->fields[i]))
                return true;
    return false;
}

/* Memory and kernel-argument type: Bool is a byte there, in tuples and structs too (the C layout of
 * docs/abi.md). */
LLVMTypeRef mem_t(CG *g, const Type *t)
{
    if (t->kind == TY_BOOL)
        return i8(g);
    if ((t->kind == TY_TUPLE || t->kind == TY_STRUCT) && has_bool(t))
        return struct_t(g, t, mem_t);
    return lt(g, t);
}

/* v (of lt(t)) as mem_t(t), or back: Bools widened to bytes or tested, field by field in aggregates. */
static LLVMValueRef mem_convert(CG *g, LLVMValueRef v, const Type *t, bool to)
{
    if (t->kind == TY_BOOL)
        return to ? LLVMBuildZExt(g->b, v, i8(g), "")
                  : LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstInt(i8(g), 0, 0), "");
    if ((t->kind == TY_TUPLE || t->kind == TY_STRUCT) && has_bool(t)) {
        LLVMValueRef r = LLVMGetUndef(to ? mem_t(g, t) : lt(g, t));
        for (int i = 0; i < t->nfields; i++)
            r = LLVMBuildInsertValue(g->b, r,
                                     mem_convert(g, LLVMBuildExtractValue(g->b, v, (unsigned)i, ""), t->fields[i], to),
                                     (unsigned)i, "");
        return r;
    }
    return v;
}

LLVMValueRef to_mem(CG *g, LLVMValueRef v, const Type *t)
{
    return mem_convert(g, v, t, true);
}

LLVMValueRef from_mem(CG *g, LLVMValueRef v, const Type *t)
{
    return mem_convert(g, v, t, false);
}

/* ---- intrinsics and helpers ---- */

LLVMValueRef intrinsic(CG *g, const char *name, LLVMTypeRef *over, int nover, LLVMValueRef *args, int nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, over, (size_t)nover);
    LLVMTypeRef fty = LLVMIntrinsicGetType(g->ctx, id, over, (size_t)nover);
    return LLVMBuildCall2(g->b, fty, fn, args, (unsigned)nargs, "");
}

LLVMValueRef intr1(CG *g, const char *name, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    return intrinsic(g, name, &t, 1, &x, 1);
}

LLVMValueRef intr2(CG *g, const char *name, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef a[2] = { x, y };
    return intrinsic(g, name, &t, 1, a, 2);
}

LLVMValueRef fconst(CG *g, const Type *t, double v)
{
    return LLVMConstReal(prim_t(g, t), v);
}

LLVMValueRef iconst(CG *g, const Type *t, int64_t v)
{
    return LLVMConstInt(prim_t(g, t), (unsigned long long)v, ty_is_signed(t));
}

/* Numeric conversion that cannot fail (promotion, x % T, unsafe_trunc). */
LLVMValueRef conv_wrap(CG *g, LLVMValueRef v, const Type *from, const Type *to)
{
    if (from == to)
        return v;
    LLVMTypeRef tt = prim_t(g, to);
    if (ty_is_float(from) && ty_is_float(to))
        return from->bits < to->bits ? LLVMBuildFPExt(g->b, v, tt, "") : LLVMBuildFPTrunc(g->b, v, tt, "");
    if (ty_is_float(to) && from->bits == 128 && g->tc->opts->kind == TARGET_NVPTX) {
        /* NVPTX has no library for 128-bit conversions (LLVM would call __floattidf): the high half times
         * 2^64 plus the unsigned low half, each converted (may differ from Julia's in the last bit past 2^64) */
        LLVMTypeRef i64t = i64(g);
        LLVMValueRef hi =
            LLVMBuildTrunc(g->b,
                           ty_is_signed(from) ? LLVMBuildAShr(g->b, v, LLVMConstInt(LLVMTypeOf(v), 64, 0), "")
                                              : LLVMBuildLShr(g->b, v, LLVMConstInt(LLVMTypeOf(v), 64, 0), ""),
                           i64t, "");
        LLVMValueRef lo = LLVMBuildTrunc(g->b, v, i64t, "");
        LLVMTypeRef dt = LLVMDoubleTypeInContext(g->ctx);
        LLVMValueRef hf = ty_is_signed(from) ? LLVMBuildSIToFP(g->b, hi, dt, "") : LLVMBuildUIToFP(g->b, hi, dt, "");
        LLVMValueRef r = LLVMBuildFAdd(g->b, LLVMBuildFMul(g->b, hf, LLVMConstReal(dt, 18446744073709551616.0), ""),
                                       LLVMBuildUIToFP(g->b, lo, dt, ""), "");
        return to->bits == 64 ? r : LLVMBuildFPTrunc(g->b, r, tt, "");
    }
    if (ty_is_float(to))
        return ty_is_signed(from) ? LLVMBuildSIToFP(g->b, v, tt, "") : LLVMBuildUIToFP(g->b, v, tt, "");
    if (ty_is_float(from) && to->bits == 128 && g->tc->opts->kind == TARGET_NVPTX) {
        /* NVPTX has no library for 128-bit conversions (LLVM would call __fixdfti): the magnitude split in
         * halves of 64 bits, each exact, and the sign applied after */
        LLVMTypeRef dt = LLVMDoubleTypeInContext(g->ctx), it = LLVMTypeOf(LLVMConstInt(tt, 0, 0));
        LLVMValueRef x = from->bits == 64 ? v : LLVMBuildFPExt(g->b, v, dt, "");
        LLVMValueRef mag = intr1(g, "llvm.fabs", intr1(g, "llvm.trunc", x));
        LLVMValueRef hf = intr1(g, "llvm.floor", LLVMBuildFMul(g->b, mag, LLVMConstReal(dt, 0x1p-64), ""));
        LLVMValueRef lf = LLVMBuildFSub(g->b, mag, LLVMBuildFMul(g->b, hf, LLVMConstReal(dt, 0x1p64), ""), "");
        LLVMValueRef hi = LLVMBuildZExt(g->b, LLVMBuildFPToUI(g->b, hf, i64(g), ""), it, "");
        LLVMValueRef lo = LLVMBuildZExt(g->b, LLVMBuildFPToUI(g->b, lf, i64(g), ""), it, "");
        LLVMValueRef r = LLVMBuildOr(g->b, LLVMBuildShl(g->b, hi, LLVMConstInt(it, 64, 0), ""), lo, "");
        LLVMValueRef neg = LLVMBuildFCmp(g->b, LLVMRealOLT, x, LLVMConstReal(dt, 0), "");
        return LLVMBuildFreeze(g->b, LLVMBuildSelect(g->b, neg, LLVMBuildNeg(g->b, r, ""), r, ""), "");
    }
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

LLVMValueRef val(CG *g, int v)
{
    return g->vals[v];
}
const Type *vty(CG *g, int v)
{
    return g->f->insts[v].type;
}
LLVMValueRef arg(CG *g, IrInst *in, int k)
{
    return val(g, in->args[k + 1]);
}
const Type *aty(CG *g, IrInst *in, int k)
{
    return vty(g, in->args[k + 1]);
}
LLVMValueRef arg_as(CG *g, IrInst *in, int k, const Type *t)
{
    return conv_wrap(g, arg(g, in, k), aty(g, in, k), t);
}

/* ---- exceptions ----
 * Every check branches (unlikely, by branch weights) to one cold block per
 * function whose phis carry what the record needs; the block claims the
 * exception buffer, writes the record (runtime/abi.h) and ends the
 * work-item (on AMDGPU its wave). The branch is per work-item: a
 * wave-uniform branch on a ballot was measured (bench/bounds_check.md) and
 * made diffusion2d's hot path longer, as the structurizer still wraps it
 * in flow blocks inside the kernel's divergent `if`. */

/* The LLVM struct below mirrors JukeExceptionRecord field by field: its
 * members 0-5 are the six uint32 fields, 6 and 7 index[] and dims[], 8 and 9
 * group[] and item[]. With natural alignment both have the same layout;
 * these asserts fail the build if abi.h changes without this code. */
_Static_assert(offsetof(JukeExceptionRecord, flag) == 0 && offsetof(JukeExceptionRecord, kind) == 4 &&
                   offsetof(JukeExceptionRecord, line) == 8 && offsetof(JukeExceptionRecord, col) == 12 &&
                   offsetof(JukeExceptionRecord, ndims) == 16 && offsetof(JukeExceptionRecord, aux) == 20,
               "the exception record's uint32 header is what exc_record_t's members 0-5 write");
_Static_assert(offsetof(JukeExceptionRecord, index) == 24 &&
                   offsetof(JukeExceptionRecord, dims) == 24 + 8 * JUKE_EXC_MAXDIMS &&
                   offsetof(JukeExceptionRecord, group) == 24 + 16 * JUKE_EXC_MAXDIMS &&
                   offsetof(JukeExceptionRecord, item) == 36 + 16 * JUKE_EXC_MAXDIMS &&
                   sizeof(JukeExceptionRecord) == 48 + 16 * JUKE_EXC_MAXDIMS,
               "index, dims, group and item are exc_record_t's members 6-9, in this order, unpadded");

LLVMTypeRef exc_record_t(CG *g)
{
    LLVMTypeRef f[12] = { i32(g),
                          i32(g),
                          i32(g),
                          i32(g),
                          i32(g),
                          i32(g),
                          LLVMArrayType2(i64(g), JUKE_EXC_MAXDIMS),
                          LLVMArrayType2(i64(g), JUKE_EXC_MAXDIMS),
                          LLVMArrayType2(i32(g), 3),
                          LLVMArrayType2(i32(g), 3) };
    return LLVMStructTypeInContext(g->ctx, f, 10, 0);
}

/* Claims the exception record (the protocol of docs/abi.md: flag 0 -> 1
 * by compare-and-swap) and leaves the builder in the block of the winner;
 * the loser goes to the returned block. */
LLVMBasicBlockRef exc_claim(CG *g)
{
    LLVMValueRef flag = LLVMBuildStructGEP2(g->b, exc_record_t(g), g->tc->cur_exc, 0, "");
    LLVMBasicBlockRef won = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "exc.record");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "exc.exit");
    LLVMValueRef cx = LLVMBuildAtomicCmpXchg(g->b, flag, ci32(g, 0), ci32(g, 1), LLVMAtomicOrderingMonotonic,
                                             LLVMAtomicOrderingMonotonic, 0);
    LLVMBuildCondBr(g->b, LLVMBuildExtractValue(g->b, cx, 1, ""), won, done);
    LLVMPositionBuilderAtEnd(g->b, won);
    return done;
}

/* The winner writes the record: head[] is kind, line, col, ndims and aux,
 * index[] and dims[] have JUKE_EXC_MAXDIMS i64 values; the workgroup and
 * work-item come from the target. The flag becomes 2 (release) and every
 * work-item that got here ends. */
void exc_fill_and_exit(CG *g, LLVMBasicBlockRef done, LLVMValueRef head[5], LLVMValueRef *index, LLVMValueRef *dims)
{
    LLVMTypeRef rt = exc_record_t(g);
    LLVMValueRef exc = g->tc->cur_exc;
    for (unsigned k = 1; k <= 5; k++)
        LLVMBuildStore(g->b, head[k - 1], LLVMBuildStructGEP2(g->b, rt, exc, k, ""));
    LLVMTypeRef dimsarr = LLVMArrayType2(i64(g), JUKE_EXC_MAXDIMS);
    for (int k = 0; k < JUKE_EXC_MAXDIMS; k++) {
        LLVMValueRef ix[2] = { ci32(g, 0), ci32(g, k) };
        LLVMBuildStore(g->b, index[k],
                       LLVMBuildGEP2(g->b, dimsarr, LLVMBuildStructGEP2(g->b, rt, exc, 6, ""), ix, 2, ""));
        LLVMBuildStore(g->b, dims[k],
                       LLVMBuildGEP2(g->b, dimsarr, LLVMBuildStructGEP2(g->b, rt, exc, 7, ""), ix, 2, ""));
    }
    LLVMTypeRef idarr = LLVMArrayType2(i32(g), 3);
    for (int d = 0; d < 3; d++) {
        LLVMValueRef ix[2] = { ci32(g, 0), ci32(g, d) };
        LLVMValueRef gid = LLVMBuildAdd(g->b, class_group_id(g, d), ci32(g, 1), "");
        LLVMValueRef iid = LLVMBuildAdd(g->b, class_item_id(g, d), ci32(g, 1), "");
        LLVMBuildStore(g->b, gid, LLVMBuildGEP2(g->b, idarr, LLVMBuildStructGEP2(g->b, rt, exc, 8, ""), ix, 2, ""));
        LLVMBuildStore(g->b, iid, LLVMBuildGEP2(g->b, idarr, LLVMBuildStructGEP2(g->b, rt, exc, 9, ""), ix, 2, ""));
    }
    LLVMBuildFence(g->b, LLVMAtomicOrderingRelease, 0, "");
    LLVMValueRef st = LLVMBuildStore(g->b, ci32(g, 2), LLVMBuildStructGEP2(g->b, rt, exc, 0, ""));
    LLVMSetOrdering(st, LLVMAtomicOrderingRelease);
    LLVMSetAlignment(st, 4);
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, done);
    g->ops->exit_item(g->tc, g->b);
    LLVMBuildUnreachable(g->b);
}

/* The throw block and its record's blocks, laid out after g->throw_after. */
void build_throw_block(CG *g)
{
    LLVMBasicBlockRef saved = LLVMGetInsertBlock(g->b);
    g->throw_bb = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "throw");
    LLVMPositionBuilderAtEnd(g->b, g->throw_bb);
    for (int i = 0; i < PHI_COUNT; i++) {
        LLVMTypeRef t = (i >= PHI_IDX0 && i < PHI_AUX) ? i64(g) : i32(g);
        g->throw_phi[i] = LLVMBuildPhi(g->b, t, "");
    }
    LLVMBasicBlockRef done = exc_claim(g);
    LLVMValueRef head[5] = { g->throw_phi[PHI_KIND], g->throw_phi[PHI_LINE], g->throw_phi[PHI_COL],
                             g->throw_phi[PHI_NDIMS], g->throw_phi[PHI_AUX] };
    exc_fill_and_exit(g, done, head, &g->throw_phi[PHI_IDX0], &g->throw_phi[PHI_DIM0]);
    for (LLVMBasicBlockRef bb = g->throw_bb, after = g->throw_after, next; bb; after = bb, bb = next) {
        next = LLVMGetNextBasicBlock(bb);
        LLVMMoveBasicBlockAfter(bb, after);
    }
    if (saved)
        LLVMPositionBuilderAtEnd(g->b, saved);
}

/* Branch weights on a conditional branch whose true edge is (almost) never
 * taken: as llvm.expect would give, but present at every -O level. */
void mark_unlikely(CG *g, LLVMValueRef br)
{
    LLVMMetadataRef w[3] = { LLVMMDStringInContext2(g->ctx, "branch_weights", 14), LLVMValueAsMetadata(ci32(g, 1)),
                             LLVMValueAsMetadata(ci32(g, 1 << 20)) };
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(g->ctx, "prof", 4),
                    LLVMMetadataAsValue(g->ctx, LLVMMDNodeInContext2(g->ctx, w, 3)));
}

/* Does bb hold only loads of local slots (allocas), which SROA removes? */
static bool only_slot_reads(LLVMBasicBlockRef bb)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (!LLVMIsALoadInst(i) || !LLVMIsAAllocaInst(LLVMGetOperand(i, 0)))
            return false;
    return true;
}

/* Branch to the exception block when `fail` is true. The record gets nidx
 * values from idx (the indices; the value for InexactError) and ndim from
 * dims (the array's dims; the source type for InexactError); aux as
 * runtime/abi.h describes it for each kind. */
void check(CG *g, LLVMValueRef fail, int kind, SrcLoc loc, int nidx, LLVMValueRef *idx, int ndim, LLVMValueRef *dims,
           int aux)
{
    if (!g->throw_after || g->throw_fanin == THROW_FANIN_MAX) {
        g->throw_after = LLVMGetLastBasicBlock(g->fn);
        g->throw_bb = NULL;
        g->throw_fanin = 0;
    }
    g->throw_fanin++;
    /* A check that cannot fail (a division by a constant) builds no exception block and jumps straight to its
     * ok block. -O3 deleted such a branch anyway, but the code it makes depends on the blocks' order, so the
     * blocks stay where -O3 used to leave them: the ok block and its place among the throw blocks, and the ok
     * block's place for what `here` holds when SROA will leave it empty (simplifycfg then removed `here` and
     * kept the ok block; merging them now would keep `here` instead). bench/RESULTS.md §25b */
    bool never = LLVMIsAConstantInt(fail) && !LLVMConstIntGetZExtValue(fail);
    if (!never && !g->throw_bb)
        build_throw_block(g);
    LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b), last = LLVMGetLastBasicBlock(g->fn);
    if (never && here != g->entry && here != last && only_slot_reads(here))
        LLVMMoveBasicBlockAfter(here, last);
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "ok");
    if (never) {
        LLVMBuildBr(g->b, ok);
        LLVMPositionBuilderAtEnd(g->b, ok);
        return;
    }
    LLVMValueRef br = LLVMBuildCondBr(g->b, fail, g->throw_bb, ok);
    mark_unlikely(g, br);
    LLVMValueRef in[PHI_COUNT];
    in[PHI_KIND] = ci32(g, kind);
    in[PHI_LINE] = exc_line(g, loc);
    in[PHI_COL] = ci32(g, loc.col);
    in[PHI_NDIMS] = ci32(g, nidx > JUKE_EXC_MAXDIMS ? JUKE_EXC_MAXDIMS : nidx);
    in[PHI_AUX] = ci32(g, aux);
    for (int k = 0; k < JUKE_EXC_MAXDIMS; k++) {
        in[PHI_IDX0 + k] = idx && k < nidx ? idx[k] : ci64(g, 0);
        in[PHI_DIM0 + k] = dims && k < ndim ? dims[k] : ci64(g, 0);
    }
    for (int i = 0; i < PHI_COUNT; i++)
        LLVMAddIncoming(g->throw_phi[i], &in[i], &here, 1);
    LLVMPositionBuilderAtEnd(g->b, ok);
}

int type_code(const Type *t)
{
    static const int codes[] = {
        [TY_BOOL] = JUKE_T_BOOL,       [TY_INT8] = JUKE_T_INT8,       [TY_INT16] = JUKE_T_INT16,
        [TY_INT32] = JUKE_T_INT32,     [TY_INT64] = JUKE_T_INT64,     [TY_UINT8] = JUKE_T_UINT8,
        [TY_UINT16] = JUKE_T_UINT16,   [TY_UINT32] = JUKE_T_UINT32,   [TY_UINT64] = JUKE_T_UINT64,
        [TY_FLOAT16] = JUKE_T_FLOAT16, [TY_FLOAT32] = JUKE_T_FLOAT32, [TY_FLOAT64] = JUKE_T_FLOAT64,
    };
    return ty_is_prim(t) && t->kind < (int)JK_ARRAY_LEN(codes) ? codes[t->kind] : 0; /* 128-bit: none */
}

/* What a BoundsError record says of the array (runtime/abi.h): its element
 * type, its number of dims and whether it is in local memory. */
int bounds_aux(const Type *at)
{
    return type_code(at->elem) | (at->ndims & 0xf) << 8 | (at->kind == TY_LOCALARRAY ? JUKE_BOUNDS_LOCAL : 0);
}

/* The value's bits as an i64, for the InexactError record. */
LLVMValueRef bits64(CG *g, LLVMValueRef v, const Type *t)
{
    if (ty_is_float(t))
        v = LLVMBuildBitCast(g->b, v, LLVMIntTypeInContext(g->ctx, (unsigned)t->bits), "");
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (w > 64) /* a 128-bit value: its low half (its type code is 0: the message does not show it) */
        return LLVMBuildTrunc(g->b, v, i64(g), "");
    return w == 64 ? v : ty_is_signed(t) ? LLVMBuildSExt(g->b, v, i64(g), "") : LLVMBuildZExt(g->b, v, i64(g), "");
}

/* Julia's convert(to, v): InexactError unless the value is represented exactly. */
LLVMValueRef conv_checked(CG *g, LLVMValueRef v, const Type *from, const Type *to, SrcLoc loc)
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
        check(g, fail, JUKE_EXC_INEXACT, loc, 1, (LLVMValueRef[]){ bits64(g, v, from) }, 1,
              (LLVMValueRef[]){ ci64(g, type_code(from)) }, type_code(to));
        if (to->kind == TY_BOOL)
            return LLVMBuildFCmp(g->b, LLVMRealONE, v, LLVMConstReal(LLVMTypeOf(v), 0), "");
        return conv_wrap(g, v, from, to);
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
            LLVMValueRef neg_from = ty_is_signed(from)
                                        ? LLVMBuildICmp(g->b, LLVMIntSLT, v, LLVMConstInt(LLVMTypeOf(v), 0, 0), "")
                                        : LLVMConstInt(i1(g), 0, 0);
            LLVMValueRef neg_to = ty_is_signed(to)
                                      ? LLVMBuildICmp(g->b, LLVMIntSLT, r, LLVMConstInt(LLVMTypeOf(r), 0, 0), "")
                                      : LLVMConstInt(i1(g), 0, 0);
            fail = LLVMBuildOr(g->b, fail, LLVMBuildOr(g->b, neg_from, neg_to, ""), "");
        }
    }
    check(g, fail, JUKE_EXC_INEXACT, loc, 1, (LLVMValueRef[]){ bits64(g, v, from) }, 1,
          (LLVMValueRef[]){ ci64(g, type_code(from)) }, type_code(to));
    if (to->kind == TY_BOOL)
        return LLVMBuildTrunc(g->b, v, i1(g), "");
    return conv_wrap(g, v, from, to);
}

/* ---- arrays ---- */

LLVMValueRef arr_ptr(CG *g, LLVMValueRef a)
{
    return LLVMBuildExtractValue(g->b, a, 0, "");
}
LLVMValueRef arr_len(CG *g, LLVMValueRef a)
{
    return LLVMBuildExtractValue(g->b, a, 2, "");
}
LLVMValueRef arr_cap(CG *g, LLVMValueRef a)
{
    return LLVMBuildExtractValue(g->b, a, 3, "");
}
LLVMValueRef arr_dim(CG *g, LLVMValueRef a, int d)
{
    LLVMValueRef dims = LLVMBuildExtractValue(g->b, a, 1, "");
    return LLVMBuildExtractValue(g->b, dims, (unsigned)d, "");
}

/* nuw nsw on an index computation known to stay within [0, length): a
 * checked access after its check, or one under @inbounds (whose promise
 * Julia also lets the compiler assume). Constants pass through. */
LLVMValueRef no_wrap(LLVMValueRef v)
{
    if (LLVMIsAInstruction(v)) {
        LLVMSetNUW(v, 1);
        LLVMSetNSW(v, 1);
    }
    return v;
}

/* A local array's element lin (0-based, within its dims) must also lie in
 * the memory the launch allocated: a dynamic array may declare more than
 * shmem holds. The record (JUKE_BOUNDS_ALLOC) gives the linear index, the
 * elements allocated and those declared. For a static array the capacity is
 * its length and the check folds away. */
void check_allocated(CG *g, IrInst *in, const Type *at, LLVMValueRef a, LLVMValueRef lin)
{
    LLVMValueRef cap = arr_cap(g, a);
    LLVMValueRef fail = LLVMBuildICmp(g->b, LLVMIntUGE, lin, cap, "");
    LLVMValueRef idx = LLVMBuildAdd(g->b, lin, ci64(g, 1), "");
    LLVMValueRef dims[2] = { cap, arr_len(g, a) };
    check(g, fail, JUKE_EXC_BOUNDS, in->loc, 1, &idx, 2, dims,
          type_code(at->elem) | (at->ndims & 0xf) << 8 | JUKE_BOUNDS_LOCAL | JUKE_BOUNDS_ALLOC);
}

/* Whether A's linear index is computed in 32 bits: a device array of a
 * kernel compiled for launches whose arrays all have fewer than 2^31
 * elements (TargetOptions.index32). A checked or @inbounds access has
 * 0 <= index < length, so the narrow result is the wide one. */
static bool narrow_index(CG *g, const Type *at)
{
    return g->tc->opts->index32 && at->kind == TY_ARRAY;
}

/* A 32-bit index known non-negative, as an i64 for a GEP. */
static LLVMValueRef zext_nneg(CG *g, LLVMValueRef v)
{
    LLVMValueRef z = LLVMBuildZExt(g->b, v, i64(g), "");
    if (LLVMIsAZExtInst(z))
        LLVMSetNNeg(z, 1);
    return z;
}

/* The element pointer of A[idx...] (1-based, column-major), bounds-checked unless inbounds. */
LLVMValueRef elem_ptr(CG *g, IrInst *in, const Type *at, LLVMValueRef a, int first, int nidx, bool inbounds)
{
    LLVMValueRef idx[16];
    const Type *i64t = ty_prim(g->types, TY_INT64);
    /* a tuple index (a CartesianIndex of KernelAbstractions, ka.c) is its fields */
    int nargs = nidx;
    nidx = 0;
    for (int k = 0; k < nargs; k++) {
        const Type *t = aty(g, in, first + k);
        LLVMValueRef v = arg(g, in, first + k);
        if (t->kind == TY_TUPLE) {
            for (int f = 0; f < t->nfields && nidx < 16; f++)
                idx[nidx++] = conv_wrap(g, LLVMBuildExtractValue(g->b, v, (unsigned)f, ""), t->fields[f], i64t);
        } else if (nidx < 16) {
            idx[nidx++] = conv_wrap(g, v, t, i64t);
        }
    }
    LLVMValueRef lin;
    if (nidx == 1) {
        lin = LLVMBuildSub(g->b, idx[0], ci64(g, 1), "");
        if (inbounds)
            no_wrap(lin);
        else {
            LLVMValueRef len = arr_len(g, a);
            /* one unsigned compare covers i < 1 and i > length */
            LLVMValueRef fail = LLVMBuildICmp(g->b, LLVMIntUGE, lin, len, "");
            /* a linear index into an N-d array reports the array's dims, as Julia does */
            LLVMValueRef dims[JUKE_EXC_MAXDIMS];
            int nd = at->ndims < JUKE_EXC_MAXDIMS ? at->ndims : JUKE_EXC_MAXDIMS;
            for (int k = 0; k < nd; k++)
                dims[k] = arr_dim(g, a, k);
            check(g, fail, JUKE_EXC_BOUNDS, in->loc, 1, idx, nd, dims, bounds_aux(at));
        }
    } else {
        /* indices past the array's dimensions index trailing dimensions of size 1 (Julia's A[i, j, 1] of a
         * matrix): checked as such, and they add nothing to the linear index */
        LLVMValueRef dims[16];
        for (int k = 0; k < nidx; k++)
            dims[k] = k < at->ndims ? arr_dim(g, a, k) : ci64(g, 1);
        if (!inbounds) {
            LLVMValueRef fail = LLVMConstInt(i1(g), 0, 0);
            for (int k = 0; k < nidx; k++)
                fail = LLVMBuildOr(
                    g->b, fail,
                    LLVMBuildICmp(g->b, LLVMIntUGE, LLVMBuildSub(g->b, idx[k], ci64(g, 1), ""), dims[k], ""), "");
            check(g, fail, JUKE_EXC_BOUNDS, in->loc, nidx, idx, nidx, dims, bounds_aux(at));
        }
        /* checked or promised in bounds: every step stays in [0, length) */
        if (narrow_index(g, at)) {
            /* and length < 2^31 (the launch's class): every partial product
             * fits in 31 bits, so each multiply is a 32-bit one; the adds
             * stay 64-bit, where constant offsets fold into the address */
            lin = no_wrap(LLVMBuildSub(g->b, idx[nidx - 1], ci64(g, 1), ""));
            for (int k = nidx - 2; k >= 0; k--) {
                LLVMValueRef l32 = LLVMBuildTrunc(g->b, lin, i32(g), "");
                LLVMValueRef d32 = LLVMBuildTrunc(g->b, dims[k], i32(g), "");
                LLVMValueRef prod = zext_nneg(g, no_wrap(LLVMBuildMul(g->b, l32, d32, "")));
                lin = no_wrap(LLVMBuildAdd(g->b, prod, no_wrap(LLVMBuildSub(g->b, idx[k], ci64(g, 1), "")), ""));
            }
        } else {
            lin = no_wrap(LLVMBuildSub(g->b, idx[nidx - 1], ci64(g, 1), ""));
            for (int k = nidx - 2; k >= 0; k--)
                lin = no_wrap(LLVMBuildAdd(g->b, no_wrap(LLVMBuildMul(g->b, lin, dims[k], "")),
                                           no_wrap(LLVMBuildSub(g->b, idx[k], ci64(g, 1), "")), ""));
        }
    }
    if (at->kind == TY_LOCALARRAY && !inbounds)
        check_allocated(g, in, at, a, lin);
    return LLVMBuildInBoundsGEP2(g->b, mem_t(g, at->elem), arr_ptr(g, a), &lin, 1, "");
}

/* A device array argument of the same-shape variant: the launch guarantees that every one has the first's
 * dims, so each takes the first's dims and length (the same values, one SSA value each): a guard or a check
 * on one array's size then implies the same on the others, and LLVM drops the checks the guard covers. */
static LLVMValueRef same_shape_arg(CG *g, LLVMValueRef p, const Type *at, LLVMValueRef *first)
{
    if (!*first) {
        *first = p;
        return p;
    }
    if (LLVMGetArrayLength2(LLVMStructGetTypeAtIndex(LLVMTypeOf(*first), 1)) != (uint64_t)at->ndims)
        return p; /* not the class's promise: left alone */
    p = LLVMBuildInsertValue(g->b, p, LLVMBuildExtractValue(g->b, *first, 1, ""), 1, "");
    return LLVMBuildInsertValue(g->b, p, arr_len(g, *first), 2, "");
}

/* The 32-bit class's facts about a device array argument, as assumptions: every dim and the length are below
 * 2^31 (the launch checked it). narrow.c reads them to narrow the compares against them. Not on NVPTX
 * (TargetOps.narrow_guards): a kernel's arguments are its parameters there, which narrow.c knows itself,
 * and given to LLVM the facts made the guards unsigned, which cost the H200's diffusion2d 1 %. */
static void index32_facts(CG *g, LLVMValueRef p, const Type *at)
{
    LLVMValueRef lim = ci64(g, (int64_t)1 << 31);
    for (int k = 0; k <= at->ndims; k++) {
        LLVMValueRef v = k < at->ndims ? arr_dim(g, p, k) : arr_len(g, p);
        LLVMValueRef c = LLVMBuildICmp(g->b, LLVMIntULT, v, lim, "");
        LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), (LLVMTypeRef[]){ i1(g) }, 1, 0);
        unsigned id = LLVMLookupIntrinsicID("llvm.assume", 11);
        LLVMBuildCall2(g->b, ft, LLVMGetIntrinsicDeclaration(g->mod, id, NULL, 0), &c, 1, "");
    }
}

/* Tells addr32.c that kernel parameter k is a device array of the 32-bit class (every element index of it in
 * [0, length) < 2^31 where the kernel reads or writes it), and its element size. Arrays of two or more
 * dimensions only: a vector's index is one add, and its 64-bit form (the base in uniform registers) measured
 * faster on the H200 (memcopy Float32 789 us against 800: bench/RESULTS.md §17). */
static void addr32_param(CG *g, unsigned k, const Type *at)
{
    char size[24];
    int n = snprintf(size, sizeof size, "%llu",
                     (unsigned long long)LLVMABISizeOfType(LLVMGetModuleDataLayout(g->mod), mem_t(g, at->elem)));
    LLVMAddAttributeAtIndex(g->fn, k + 1,
                            LLVMCreateStringAttribute(g->ctx, ADDR32_ATTR, sizeof ADDR32_ATTR - 1, size, (unsigned)n));
}

/* A raw pointer into a device array (pointer(A)) may be offset anywhere: addr32.c leaves the module alone. */
void addr32_raw_pointer(CG *g)
{
    if (g->ops->addr32)
        LLVMAddNamedMetadataOperand(g->mod, ADDR32_RAW,
                                    LLVMMetadataAsValue(g->ctx, LLVMMDNodeInContext2(g->ctx, NULL, 0)));
}

unsigned elem_align(const Type *elem)
{
    /* docs/abi.md: a scalar's size, a tuple's or struct's largest field's, a complex number's part's (Julia's
     * alignment: ComplexF32 is 4, so its loads are 8-byte vectors on every target, not bytes) */
    int a = ty_arg_align(elem);
    return (unsigned)(a >= 1 ? a : 1);
}

/* A local array descriptor: { ptr, dims, length, capacity }; cap NULL: the
 * length (a static array's memory holds exactly its elements). */
LLVMValueRef make_array(CG *g, const Type *at, LLVMValueRef ptr, LLVMValueRef *dims, int nd, LLVMValueRef cap)
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
    v = LLVMBuildInsertValue(g->b, v, len, 2, "");
    return LLVMBuildInsertValue(g->b, v, cap ? cap : len, 3, "");
}

/* ---- pointers ---- */

unsigned ptr_as(CG *g, const Type *pt)
{
    return pt->step ? g->ops->as_local : g->ops->as_global;
}

/* The pointer p + (i - 1) elements (unsafe_load(p, i), pointer(A, i)): unchecked. */
LLVMValueRef ptr_offset(CG *g, const Type *elem, LLVMValueRef p, LLVMValueRef i, const Type *it)
{
    LLVMValueRef k = LLVMBuildSub(g->b, conv_wrap(g, i, it, ty_prim(g->types, TY_INT64)), ci64(g, 1), "");
    return LLVMBuildGEP2(g->b, mem_t(g, elem), p, &k, 1, "");
}

/* ---- math ---- */

LLVMValueRef call_math(CG *g, const char *name, const Type *t, LLVMValueRef *args, int n)
{
    /* Float16 math is done in Float32 and rounded, as Julia does (x^n too:
     * Float16(Float32(x)^n)); the targets' math_fn sees float and double only */
    if (t->kind == TY_FLOAT16) {
        const Type *f32 = ty_prim(g->types, TY_FLOAT32);
        LLVMValueRef wide[3];
        for (int i = 0; i < n; i++) /* powi's exponent stays the i32 it is */
            wide[i] = strcmp(name, "powi") == 0 && i == 1 ? args[i] : conv_wrap(g, args[i], t, f32);
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

/* signbit(x) of any primitive as an i1. */
LLVMValueRef signbit_of(CG *g, LLVMValueRef x, const Type *xt)
{
    if (ty_is_float(xt)) {
        LLVMTypeRef ity = LLVMIntTypeInContext(g->ctx, (unsigned)xt->bits);
        return LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildBitCast(g->b, x, ity, ""), LLVMConstInt(ity, 0, 0), "");
    }
    if (ty_is_signed(xt))
        return LLVMBuildICmp(g->b, LLVMIntSLT, x, LLVMConstInt(LLVMTypeOf(x), 0, 0), "");
    return LLVMConstInt(i1(g), 0, 0);
}

LLVMValueRef float_min_max(CG *g, bool is_max, const Type *t, LLVMValueRef x, LLVMValueRef y)
{
    /* Julia: NaN wins, and -0.0 < 0.0 */
    LLVMValueRef diff = LLVMBuildFSub(g->b, x, y, "");
    LLVMValueRef sb = signbit_of(g, diff, t);
    LLVMValueRef pick = is_max ? LLVMBuildSelect(g->b, sb, y, x, "") : LLVMBuildSelect(g->b, sb, x, y, "");
    LLVMValueRef anynan = LLVMBuildFCmp(g->b, LLVMRealUNO, x, y, "");
    return LLVMBuildSelect(g->b, anynan, diff, pick, "");
}

LLVMValueRef emit_minmax(CG *g, bool is_max, const Type *t, LLVMValueRef x, LLVMValueRef y)
{
    if (ty_is_float(t))
        return float_min_max(g, is_max, t, x, y);
    LLVMIntPredicate p =
        is_max ? (ty_is_signed(t) ? LLVMIntSGT : LLVMIntUGT) : (ty_is_signed(t) ? LLVMIntSLT : LLVMIntULT);
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, p, x, y, ""), x, y, "");
}

LLVMValueRef emit_cmp(CG *g, BuiltinId op, const Type *t, LLVMValueRef x, LLVMValueRef y)
{
    if (ty_is_float(t)) {
        if (op == BI_EGAL || op == BI_NEGAL) {
            unsigned bits = (unsigned)t->bits;
            LLVMTypeRef ity = LLVMIntTypeInContext(g->ctx, bits);
            LLVMValueRef nx = LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, ""),
                         ny = LLVMBuildFCmp(g->b, LLVMRealUNO, y, y, "");
            LLVMValueRef same = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildBitCast(g->b, x, ity, ""),
                                              LLVMBuildBitCast(g->b, y, ity, ""), "");
            same = LLVMBuildOr(g->b, same, LLVMBuildAnd(g->b, nx, ny, ""), "");
            return op == BI_EGAL ? same : LLVMBuildNot(g->b, same, "");
        }
        static const LLVMRealPredicate fp[] = { [BI_EQ] = LLVMRealOEQ, [BI_NE] = LLVMRealUNE, [BI_LT] = LLVMRealOLT,
                                                [BI_LE] = LLVMRealOLE, [BI_GT] = LLVMRealOGT, [BI_GE] = LLVMRealOGE };
        return LLVMBuildFCmp(g->b, fp[op], x, y, "");
    }
    bool sg = ty_is_signed(t);
    LLVMIntPredicate p;
    switch (op) {
    case BI_EQ:
    case BI_EGAL: p = LLVMIntEQ; break;
    case BI_NE:
    case BI_NEGAL: p = LLVMIntNE; break;
    case BI_LT: p = sg ? LLVMIntSLT : LLVMIntULT; break;
    case BI_LE: p = sg ? LLVMIntSLE : LLVMIntULE; break;
    case BI_GT: p = sg ? LLVMIntSGT : LLVMIntUGT; break;
    default: p = sg ? LLVMIntSGE : LLVMIntUGE; break;
    }
    return LLVMBuildICmp(g->b, p, x, y, "");
}

/* x == y (op BI_EQ) or x === y (BI_EGAL) of two values of type t, field by field: tuples and named tuples
 * compare their elements with ==, structs (whose == is === in Julia) and === compare bits (NaN === NaN). */
static LLVMValueRef equal_fields(CG *g, BuiltinId op, const Type *t, LLVMValueRef x, LLVMValueRef y)
{
    if (ty_is_ghost(t))
        return LLVMConstInt(i1(g), 1, 0);
    if (ty_is_prim(t))
        return emit_cmp(g, op, t, x, y);
    if (t->kind == TY_STRUCT && !(t->flags & TF_NAMEDTUPLE))
        op = BI_EGAL;
    LLVMValueRef r = LLVMConstInt(i1(g), 1, 0);
    int n = t->kind == TY_COMPLEX ? 2 : t->nfields;
    for (int i = 0; i < n; i++) {
        const Type *ft = t->kind == TY_COMPLEX ? t->elem : t->fields[i];
        LLVMValueRef e = equal_fields(g, op, ft, LLVMBuildExtractValue(g->b, x, (unsigned)i, ""),
                                      LLVMBuildExtractValue(g->b, y, (unsigned)i, ""));
        r = LLVMBuildAnd(g->b, r, e, "");
    }
    return r;
}

/* Integer comparison of mixed signedness is exact in Julia (-1 < 0x01 is true). */
LLVMValueRef emit_compare(CG *g, IrInst *in)
{
    const Type *a = aty(g, in, 0), *b = aty(g, in, 1), *t = in->optype;
    BuiltinId op = in->builtin;
    if (!t)
        return LLVMConstInt(i1(g), (op == BI_EGAL || op == BI_EQ) ? a == b : a != b, 0);
    if (t->kind == TY_PTR) { /* by address */
        const Type *u = ty_prim(g->types, TY_UINT64);
        return emit_cmp(g, op, u, LLVMBuildPtrToInt(g->b, arg(g, in, 0), i64(g), ""),
                        LLVMBuildPtrToInt(g->b, arg(g, in, 1), i64(g), ""));
    }
    if (t->kind == TY_TUPLE || t->kind == TY_STRUCT) {
        bool eq = op == BI_EQ || op == BI_EGAL;
        LLVMValueRef r = equal_fields(g, op == BI_EQ || op == BI_NE ? BI_EQ : BI_EGAL, t, arg(g, in, 0), arg(g, in, 1));
        return eq ? r : LLVMBuildNot(g->b, r, "");
    }
    if (ty_is_int(a) && ty_is_int(b) && a->kind != TY_BOOL && b->kind != TY_BOOL &&
        ty_is_signed(a) != ty_is_signed(b) && !ty_is_float(t)) {
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
        case BI_EQ:
        case BI_EGAL: when_neg = LLVMConstInt(i1(g), 0, 0); break;
        case BI_NE:
        case BI_NEGAL: when_neg = LLVMConstInt(i1(g), 1, 0); break;
        case BI_LT:
        case BI_LE: when_neg = LLVMConstInt(i1(g), s_is_left, 0); break;
        default: when_neg = LLVMConstInt(i1(g), !s_is_left, 0); break;
        }
        return LLVMBuildSelect(g->b, neg, when_neg, ucmp, "");
    }
    return emit_cmp(g, op, t, arg_as(g, in, 0, t), arg_as(g, in, 1, t));
}

/* ---- ranges ---- */

LLVMValueRef make_range(CG *g, LLVMValueRef start, LLVMValueRef step, LLVMValueRef stop)
{
    LLVMValueRef r = LLVMGetUndef(lt(g, ty_range(g->types, 0)));
    r = LLVMBuildInsertValue(g->b, r, start, 0, "");
    r = LLVMBuildInsertValue(g->b, r, step, 1, "");
    return LLVMBuildInsertValue(g->b, r, stop, 2, "");
}

LLVMValueRef unit_range(CG *g, LLVMValueRef a, LLVMValueRef b)
{
    /* stop = b >= a ? b : a - 1 */
    LLVMValueRef stop =
        LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, b, a, ""), b, LLVMBuildSub(g->b, a, ci64(g, 1), ""), "");
    return make_range(g, a, ci64(g, 1), stop);
}

LLVMValueRef range_nonempty(CG *g, LLVMValueRef r)
{
    LLVMValueRef start = LLVMBuildExtractValue(g->b, r, 0, ""), step = LLVMBuildExtractValue(g->b, r, 1, "");
    LLVMValueRef stop = LLVMBuildExtractValue(g->b, r, 2, "");
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, step, ci64(g, 0), ""),
                           LLVMBuildICmp(g->b, LLVMIntSLE, start, stop, ""),
                           LLVMBuildICmp(g->b, LLVMIntSGE, start, stop, ""), "");
}

/* ---- complex numbers ----
 * A Complex{T} is { T re, T im }. Each operation follows base/complex.jl
 * part by part (z + x adds x to the real part only, so a -0.0 imaginary part
 * stays -0.0); a Bool part multiplies as Julia's strong zero (false * Inf is
 * 0.0). Division follows Julia per part type: Float64 by the robust
 * scaled algorithm (arXiv 1210.4539), Float32 / Float16 by widening
 * (z * inv(w) one size up, rounded back), integers by Smith's algorithm
 * in Float64. */

LLVMValueRef iconst_or_f(CG *g, const Type *t, int v)
{
    return ty_is_float(t) ? fconst(g, t, v) : iconst(g, t, v);
}
const Type *part_type_cg(const Type *t)
{
    return t->kind == TY_COMPLEX ? t->elem : t;
}
LLVMValueRef zero_of(CG *g, const Type *t)
{
    return ty_is_float(t) ? fconst(g, t, 0) : iconst(g, t, 0);
}
LLVMValueRef cx_re(CG *g, LLVMValueRef z)
{
    return LLVMBuildExtractValue(g->b, z, 0, "");
}
LLVMValueRef cx_im(CG *g, LLVMValueRef z)
{
    return LLVMBuildExtractValue(g->b, z, 1, "");
}

LLVMValueRef cx_make(CG *g, const Type *ct, LLVMValueRef re, LLVMValueRef im)
{
    LLVMValueRef z = LLVMGetUndef(lt(g, ct));
    z = LLVMBuildInsertValue(g->b, z, re, 0, "");
    return LLVMBuildInsertValue(g->b, z, im, 1, "");
}

/* A complex value converted part by part to Complex{e}. */
LLVMValueRef cx_conv(CG *g, LLVMValueRef z, const Type *from, const Type *e)
{
    if (from->elem == e)
        return z;
    return cx_make(g, ty_complex(g->types, e), conv_wrap(g, cx_re(g, z), from->elem, e),
                   conv_wrap(g, cx_im(g, z), from->elem, e));
}

LLVMValueRef part_add(CG *g, const Type *e, LLVMValueRef x, LLVMValueRef y)
{
    return ty_is_float(e) ? LLVMBuildFAdd(g->b, x, y, "") : LLVMBuildAdd(g->b, x, y, "");
}
LLVMValueRef part_sub(CG *g, const Type *e, LLVMValueRef x, LLVMValueRef y)
{
    return ty_is_float(e) ? LLVMBuildFSub(g->b, x, y, "") : LLVMBuildSub(g->b, x, y, "");
}
LLVMValueRef part_neg(CG *g, const Type *e, LLVMValueRef x)
{
    return ty_is_float(e) ? LLVMBuildFNeg(g->b, x, "") : LLVMBuildNeg(g->b, x, "");
}
LLVMValueRef part_div(CG *g, LLVMValueRef x, LLVMValueRef y)
{
    return LLVMBuildFDiv(g->b, x, y, "");
}

/* x * y in part type e, x of type xt and y of type yt: a Bool times a
 * number is Julia's strong zero (ifelse(b, y, copysign(zero(y), y))). */
LLVMValueRef part_mul(CG *g, const Type *e, LLVMValueRef x, const Type *xt, LLVMValueRef y, const Type *yt)
{
    if (xt->kind == TY_BOOL && yt->kind == TY_BOOL)
        return conv_wrap(g, LLVMBuildAnd(g->b, x, y, ""), xt, e);
    if (yt->kind == TY_BOOL) {
        LLVMValueRef t = x;
        const Type *tt = xt;
        x = y, xt = yt, y = t, yt = tt;
    }
    if (xt->kind == TY_BOOL) {
        LLVMValueRef v = conv_wrap(g, y, yt, e);
        LLVMValueRef z = ty_is_float(e) ? intr2(g, "llvm.copysign", fconst(g, e, 0), v) : iconst(g, e, 0);
        return LLVMBuildSelect(g->b, x, v, z, "");
    }
    x = conv_wrap(g, x, xt, e);
    y = conv_wrap(g, y, yt, e);
    return ty_is_float(e) ? LLVMBuildFMul(g->b, x, y, "") : LLVMBuildMul(g->b, x, y, "");
}

/* z * w for complex values of part types zt, wt; the result in part type e. */
LLVMValueRef cx_mul(CG *g, const Type *e, LLVMValueRef z, const Type *zt, LLVMValueRef w, const Type *wt)
{
    LLVMValueRef a = cx_re(g, z), b = cx_im(g, z), c = cx_re(g, w), d = cx_im(g, w);
    LLVMValueRef re = part_sub(g, e, part_mul(g, e, a, zt, c, wt), part_mul(g, e, b, zt, d, wt));
    LLVMValueRef im = part_add(g, e, part_mul(g, e, a, zt, d, wt), part_mul(g, e, b, zt, c, wt));
    return cx_make(g, ty_complex(g->types, e), re, im);
}

LLVMValueRef f64c(CG *g, double v)
{
    return LLVMConstReal(LLVMDoubleTypeInContext(g->ctx), v);
}
LLVMValueRef fabs_(CG *g, LLVMValueRef x)
{
    return intr1(g, "llvm.fabs", x);
}
LLVMValueRef sel(CG *g, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(g->b, c, a, b, "");
}
LLVMValueRef fcmp(CG *g, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFCmp(g->b, p, a, b, "");
}
LLVMValueRef cfmul(CG *g, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFMul(g->b, a, b, "");
}

/* inv(w::ComplexF64), base/complex.jl. */
LLVMValueRef cx_inv_f64(CG *g, LLVMValueRef w)
{
    const Type *f64 = ty_prim(g->types, TY_FLOAT64);
    LLVMValueRef c = cx_re(g, w), d = cx_im(g, w);
    double eps = ldexp(1, -52), bs = 2.0 / (eps * eps);
    LLVMValueRef cd = float_min_max(g, true, f64, fabs_(g, c), fabs_(g, d));
    LLVMValueRef down = fcmp(g, LLVMRealOGE, cd, f64c(g, 0.5 * DBL_MAX));
    LLVMValueRef up = fcmp(g, LLVMRealOLE, cd, f64c(g, DBL_MIN * 2.0 / eps));
    LLVMValueRef f = sel(g, down, f64c(g, 0.5), sel(g, up, f64c(g, bs), f64c(g, 1)));
    c = cfmul(g, c, f);
    d = cfmul(g, d, f);
    LLVMValueRef s = f;
    LLVMValueRef small_d = fcmp(g, LLVMRealOLE, fabs_(g, d), fabs_(g, c));
    LLVMValueRef C = sel(g, small_d, c, d), D = sel(g, small_d, d, c);
    LLVMValueRef r = part_div(g, D, C);
    LLVMValueRef t = part_div(g, f64c(g, 1), LLVMBuildFAdd(g->b, C, cfmul(g, D, r), ""));
    LLVMValueRef p = sel(g, small_d, t, cfmul(g, r, t));
    LLVMValueRef q = sel(g, small_d, cfmul(g, LLVMBuildFNeg(g->b, r, ""), t), LLVMBuildFNeg(g->b, t, ""));
    LLVMValueRef res = cx_make(g, ty_complex(g->types, f64), cfmul(g, p, s), cfmul(g, q, s));
    /* an infinite part: complex(copysign(0.0, c), flipsign(-0.0, d)) from the unscaled parts */
    LLVMValueRef c0 = cx_re(g, w), d0 = cx_im(g, w), inf = f64c(g, INFINITY);
    LLVMValueRef isinf =
        LLVMBuildOr(g->b, fcmp(g, LLVMRealOEQ, fabs_(g, c0), inf), fcmp(g, LLVMRealOEQ, fabs_(g, d0), inf), "");
    LLVMValueRef zi = sel(g, signbit_of(g, d0, f64), f64c(g, 0.0), f64c(g, -0.0));
    LLVMValueRef zres = cx_make(g, ty_complex(g->types, f64), intr2(g, "llvm.copysign", f64c(g, 0), c0), zi);
    return sel(g, isinf, zres, res);
}

/* robust_cdiv2 of base/complex.jl. */
LLVMValueRef robust_cdiv2(CG *g, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, LLVMValueRef d, LLVMValueRef r,
                          LLVMValueRef t)
{
    LLVMValueRef zero = f64c(g, 0);
    LLVMValueRef br = cfmul(g, b, r);
    LLVMValueRef nz = LLVMBuildFAdd(g->b, cfmul(g, a, t), cfmul(g, cfmul(g, b, t), r), "");
    LLVMValueRef rnz = sel(g, fcmp(g, LLVMRealUNE, br, zero), cfmul(g, LLVMBuildFAdd(g->b, a, br, ""), t), nz);
    LLVMValueRef rz = cfmul(g, LLVMBuildFAdd(g->b, a, cfmul(g, d, part_div(g, b, c)), ""), t);
    return sel(g, fcmp(g, LLVMRealUNE, r, zero), rnz, rz);
}

/* z / w for ComplexF64: the robust algorithm, scaled (a no-op scale of 1.0 when not needed). */
LLVMValueRef cx_div_f64(CG *g, LLVMValueRef z, LLVMValueRef w)
{
    const Type *f64 = ty_prim(g->types, TY_FLOAT64);
    LLVMValueRef a = cx_re(g, z), b = cx_im(g, z), c = cx_re(g, w), d = cx_im(g, w);
    LLVMValueRef absa = fabs_(g, a), absb = fabs_(g, b), absc = fabs_(g, c), absd = fabs_(g, d);
    LLVMValueRef ab = sel(g, fcmp(g, LLVMRealOGE, absa, absb), absa, absb);
    LLVMValueRef cd = sel(g, fcmp(g, LLVMRealOGE, absc, absd), absc, absd);
    double eps = ldexp(1, -52), halfov = 0.5 * DBL_MAX, twoun = DBL_MIN * 2.0 / eps, bs = 2.0 / (eps * eps);
    LLVMValueRef abdown = fcmp(g, LLVMRealOGE, ab, f64c(g, halfov)), abup = fcmp(g, LLVMRealOLE, ab, f64c(g, twoun));
    LLVMValueRef cddown = fcmp(g, LLVMRealOGE, cd, f64c(g, halfov)), cdup = fcmp(g, LLVMRealOLE, cd, f64c(g, twoun));
    LLVMValueRef fab = sel(g, abdown, f64c(g, 0.5), sel(g, abup, f64c(g, bs), f64c(g, 1)));
    LLVMValueRef fcd = sel(g, cddown, f64c(g, 0.5), sel(g, cdup, f64c(g, bs), f64c(g, 1)));
    /* s: 2.0 or 1/bs from a, b, then times 0.5 or bs from c, d (in this order, as Julia does) */
    LLVMValueRef s = sel(g, abdown, f64c(g, 2.0), sel(g, abup, part_div(g, f64c(g, 1), f64c(g, bs)), f64c(g, 1)));
    s = cfmul(g, s, sel(g, cddown, f64c(g, 0.5), sel(g, cdup, f64c(g, bs), f64c(g, 1))));
    a = cfmul(g, a, fab);
    b = cfmul(g, b, fab);
    c = cfmul(g, c, fcd);
    d = cfmul(g, d, fcd);
    /* cdiv: robust_cdiv1(a, b, c, d), or robust_cdiv1(b, a, d, c) with q negated */
    LLVMValueRef dsmall = fcmp(g, LLVMRealOLE, fabs_(g, d), fabs_(g, c));
    LLVMValueRef A = sel(g, dsmall, a, b), B = sel(g, dsmall, b, a), C = sel(g, dsmall, c, d), D = sel(g, dsmall, d, c);
    LLVMValueRef r = part_div(g, D, C);
    LLVMValueRef t = part_div(g, f64c(g, 1), LLVMBuildFAdd(g->b, C, cfmul(g, D, r), ""));
    LLVMValueRef p = robust_cdiv2(g, A, B, C, D, r, t);
    LLVMValueRef q = robust_cdiv2(g, B, LLVMBuildFNeg(g->b, A, ""), C, D, r, t);
    q = sel(g, dsmall, q, LLVMBuildFNeg(g->b, q, ""));
    return cx_make(g, ty_complex(g->types, f64), cfmul(g, p, s), cfmul(g, q, s));
}

/* inv(z) for a complex float part type e (Float32/Float16 widen one size, as Julia does). */
LLVMValueRef cx_inv(CG *g, LLVMValueRef z, const Type *e)
{
    if (e->kind == TY_FLOAT64)
        return cx_inv_f64(g, z);
    const Type *w = ty_prim(g->types, e->kind == TY_FLOAT16 ? TY_FLOAT32 : TY_FLOAT64);
    return cx_conv(g, cx_inv(g, cx_conv(g, z, ty_complex(g->types, e), w), w), ty_complex(g->types, w), e);
}

/* z / w with both parts already of type e (a float type), Julia's method for e. */
LLVMValueRef cx_div(CG *g, LLVMValueRef z, LLVMValueRef w, const Type *e)
{
    if (e->kind == TY_FLOAT64)
        return cx_div_f64(g, z, w);
    const Type *wt = ty_prim(g->types, e->kind == TY_FLOAT16 ? TY_FLOAT32 : TY_FLOAT64);
    const Type *ce = ty_complex(g->types, e);
    LLVMValueRef zw = cx_conv(g, z, ce, wt), ww = cx_conv(g, w, ce, wt);
    return cx_conv(g, cx_mul(g, wt, zw, wt, cx_inv(g, ww, wt), wt), ty_complex(g->types, wt), e);
}

/* The generic /(a::Complex{T}, b::Complex{T}) (Smith's algorithm) for integer parts, in Float64. */
LLVMValueRef cx_div_smith(CG *g, LLVMValueRef z, LLVMValueRef w, const Type *e)
{
    const Type *f64 = ty_prim(g->types, TY_FLOAT64);
    LLVMValueRef are = conv_wrap(g, cx_re(g, z), e, f64), aim = conv_wrap(g, cx_im(g, z), e, f64);
    LLVMValueRef bre = conv_wrap(g, cx_re(g, w), e, f64), bim = conv_wrap(g, cx_im(g, w), e, f64);
    LLVMValueRef first = fcmp(g, LLVMRealOLE, fabs_(g, bre), fabs_(g, bim));
    LLVMValueRef r1 = part_div(g, bre, bim), den1 = LLVMBuildFAdd(g->b, bim, cfmul(g, r1, bre), "");
    LLVMValueRef re1 = part_div(g, LLVMBuildFAdd(g->b, cfmul(g, are, r1), aim, ""), den1);
    LLVMValueRef im1 = part_div(g, LLVMBuildFSub(g->b, cfmul(g, aim, r1), are, ""), den1);
    LLVMValueRef r2 = part_div(g, bim, bre), den2 = LLVMBuildFAdd(g->b, bre, cfmul(g, r2, bim), "");
    LLVMValueRef re2 = part_div(g, LLVMBuildFAdd(g->b, are, cfmul(g, aim, r2), ""), den2);
    LLVMValueRef im2 = part_div(g, LLVMBuildFSub(g->b, aim, cfmul(g, are, r2), ""), den2);
    return cx_make(g, ty_complex(g->types, f64), sel(g, first, re1, re2), sel(g, first, im1, im2));
}

/* exp(z), base/complex.jl, for a float part type e. */
LLVMValueRef cx_exp(CG *g, LLVMValueRef z, const Type *e)
{
    LLVMValueRef zr = cx_re(g, z), zi = cx_im(g, z);
    LLVMValueRef zero = fconst(g, e, 0), nan = fconst(g, e, NAN), inf = fconst(g, e, INFINITY);
    LLVMValueRef er = call_math(g, "exp", e, &zr, 1);
    LLVMValueRef s = call_math(g, "sin", e, &zi, 1), c = call_math(g, "cos", e, &zi, 1);
    LLVMValueRef zi0 = fcmp(g, LLVMRealOEQ, zi, zero);
    LLVMValueRef fin_re = sel(g, zi0, er, cfmul(g, er, c)), fin_im = sel(g, zi0, zi, cfmul(g, er, s));
    /* zi not finite */
    LLVMValueRef pinf = fcmp(g, LLVMRealOEQ, zr, inf), ninf = fcmp(g, LLVMRealOEQ, zr, LLVMBuildFNeg(g->b, inf, ""));
    LLVMValueRef nf_re = sel(g, pinf, LLVMBuildFNeg(g->b, zr, ""), sel(g, ninf, fconst(g, e, -0.0), nan));
    LLVMValueRef nf_im = sel(g, pinf, nan, sel(g, ninf, intr2(g, "llvm.copysign", zero, zi), nan));
    LLVMValueRef zifin = fcmp(g, LLVMRealOLT, fabs_(g, zi), inf);
    LLVMValueRef re = sel(g, zifin, fin_re, nf_re), im = sel(g, zifin, fin_im, nf_im);
    /* zr NaN */
    LLVMValueRef zrnan = fcmp(g, LLVMRealUNO, zr, zr);
    re = sel(g, zrnan, zr, re);
    im = sel(g, zrnan, sel(g, zi0, zi, zr), im);
    return cx_make(g, ty_complex(g->types, e), re, im);
}

static bool complex_call(CG *g, IrInst *in)
{
    switch (in->builtin) {
    case BI_COMPLEX:
    case BI_REAL:
    case BI_IMAG:
    case BI_CONJ:
    case BI_REIM:
    case BI_CIS:
    case BI_ANGLE:
    case BI_COMPLEXTYPE: return true;
    case BI_TUPLE_GETINDEX:
    case BI_TUPLE_LENGTH: return false;
    default:
        for (int k = 1; k < in->nargs; k++)
            if (vty(g, in->args[k])->kind == TY_COMPLEX)
                return true;
        return in->optype && in->optype->kind == TY_COMPLEX;
    }
}

/* The parts of argument k: a real has none (*im = NULL). */
LLVMValueRef cx_arg_parts(CG *g, IrInst *in, int k, LLVMValueRef *im, const Type **pt)
{
    const Type *t = aty(g, in, k);
    LLVMValueRef v = arg(g, in, k);
    if (t->kind == TY_COMPLEX) {
        *pt = t->elem;
        *im = cx_im(g, v);
        return cx_re(g, v);
    }
    *pt = t;
    *im = NULL;
    return v;
}

/* A built-in call: its row's emit rule (builtins.def; the rules are in builtins_<family>_emit.c), the
 * complex one when an argument or the result is complex. */
static LLVMValueRef emit_builtin(CG *g, IrInst *in)
{
    static BuiltinEmitRule *const rules[BI__COUNT] = {
#define B(id, printed, names, type, type_cx, flags, math, arity, emit, emit_cx) [id] = emit,
#include "builtins.def"
#undef B
    };
    static BuiltinEmitRule *const complex_rules[BI__COUNT] = {
#define B(id, printed, names, type, type_cx, flags, math, arity, emit, emit_cx) [id] = emit_cx,
#include "builtins.def"
#undef B
    };
    return (complex_call(g, in) ? complex_rules : rules)[in->builtin](g, in);
}

/* The emit rule of a row that never reaches code generation: an internal error. */
LLVMValueRef emit_none(CG *g, IrInst *in)
{
    diag_kind_error(g->d, DIAG_INTERNAL, in->loc, "code generation for built-in %s is missing",
                    builtin_name(in->builtin));
    g->failed = true;
    return LLVMGetUndef(lt(g, in->type));
}

/* The complex emit rule of a row without one: an internal error. */
LLVMValueRef emit_cx_none(CG *g, IrInst *in)
{
    diag_kind_error(g->d, DIAG_INTERNAL, in->loc, "code generation for built-in %s on complex numbers is missing",
                    builtin_name(in->builtin));
    g->failed = true;
    return LLVMGetUndef(lt(g, in->type));
}

/* ---- functions ---- */

static LLVMValueRef emit_const(CG *g, IrInst *in)
{
    const Type *t = in->type;
    if (in->lit == LIT_NONE)
        return t->kind == TY_BOOL ? LLVMConstInt(i1(g), in->ival == IR_TRUE, 0) : unit_v(g);
    if (ty_is_float(t))
        return LLVMConstReal(prim_t(g, t), in->fval);
    return LLVMConstInt(prim_t(g, t), in->uval, 0);
}

static LLVMValueRef emit_name(CG *g, IrInst *in)
{
    const Type *t = in->type;
    if (in->flags & IRF_CHARVAL) { /* a where-parameter that is a Char (TX of Val{'N'}) */
        LLVMValueRef code = LLVMConstInt(prim_t(g, t->fields[0]), (uint64_t)in->ival, 0);
        return LLVMBuildInsertValue(g->b, LLVMGetUndef(lt(g, t)), code, 0, "");
    }
    if (t->kind == TY_COMPLEX) /* im */
        return cx_make(g, t, LLVMConstInt(i1(g), 0, 0), LLVMConstInt(i1(g), 1, 0));
    if (ty_is_float(t)) {
        bool nan = strncmp(in->name, "NaN", 3) == 0;
        return LLVMConstReal(prim_t(g, t), nan ? NAN : INFINITY);
    }
    return unit_v(g);
}

static LLVMBasicBlockRef new_block(CG *g, const char *name)
{
    return LLVMAppendBasicBlockInContext(g->ctx, g->fn, name);
}

static bool terminated(CG *g)
{
    return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g->b)) != NULL;
}

static bool returns_value(const Type *t)
{
    return !is_unit(t);
}

static LLVMTypeRef fn_type(CG *g, Spec *s, bool kernel)
{
    /* the arguments (up to TY_MAX_FIELDS) and the seed, exception, state and stream pointers after them */
    LLVMTypeRef *params = malloc(sizeof(LLVMTypeRef) * (size_t)(s->nargs + 4));
    if (!params) {
        diag_plain(g->d, DIAG_NOMEM, "out of memory");
        g->failed = true;
        return LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), NULL, 0, 0);
    }
    int np = 0;
    for (int i = 0; i < s->nargs; i++)
        if (!kernel || !ty_is_ghost(s->argtypes[i])) /* a kernel takes no ghost argument (docs/abi.md) */
            params[np++] = kernel ? mem_t(g, s->argtypes[i]) : lt(g, s->argtypes[i]);
    if (kernel && g->uses_rng)
        params[np++] = i64(g); /* __juke_seed */
    params[np++] = LLVMPointerTypeInContext(g->ctx, g->ops->as_global);
    if (g->ops->needs_state_param)
        params[np++] = LLVMPointerTypeInContext(g->ctx, 0);
    if (!kernel && g->uses_rng) /* the stream state, in the kernel's frame */
        params[np++] = LLVMPointerTypeInContext(g->ctx, 0);
    LLVMTypeRef ret = !kernel && returns_value(s->rettype) ? lt(g, s->rettype) : LLVMVoidTypeInContext(g->ctx);
    LLVMTypeRef ft = LLVMFunctionType(ret, params, (unsigned)np, 0);
    free(params);
    return ft;
}

/* Does some function draw random numbers (or seed the stream)? Then the kernel takes a seed (docs/abi.md). */
static bool uses_random_numbers(Spec **specs, int nspecs)
{
    for (int i = 0; i < nspecs; i++)
        for (int k = 0; specs[i]->typed && k < specs[i]->typed->ninsts; k++) {
            const IrInst *in = &specs[i]->typed->insts[k];
            if (in->op == IR_CALL && !in->callee &&
                (in->builtin == BI_RAND || in->builtin == BI_RANDN || in->builtin == BI_RANDEXP ||
                 in->builtin == BI_SEED))
                return true;
        }
    return false;
}

static void add_attr(CG *g, LLVMValueRef fn, const char *name)
{
    unsigned k = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->ctx, k, 0));
}

/* At a loop's back-edge: raise JUKE_EXC_TIMEOUT when the runtime asked the
 * launch to stop (CPU only: one relaxed load and a branch per iteration). */
static void check_cancel(CG *g, SrcLoc loc)
{
    if (g->ops->cancel_requested)
        check(g, g->ops->cancel_requested(g->tc, g->b), JUKE_EXC_TIMEOUT, loc, 0, NULL, 0, NULL, 0);
}

/* The DIFile of src, made once per file; NULL when the table is full (the
 * function then gets no line information). */
static LLVMMetadataRef di_file(CG *g, const SrcFile *src)
{
    TargetCtx *tc = g->tc;
    for (int i = 0; i < tc->ndebug_files; i++)
        if (tc->debug_files[i] == src)
            return g->di_file[i];
    if (tc->ndebug_files == JUKE_MAX_DEBUG_FILES)
        return NULL;
    const char *name = src && src->name ? src->name : "<unknown>";
    /* no directory: the dumps name files as the user named them */
    LLVMMetadataRef f = LLVMDIBuilderCreateFile(g->dib, name, strlen(name), "", 0);
    tc->debug_files[tc->ndebug_files] = src;
    g->di_file[tc->ndebug_files++] = f;
    return f;
}

/* Start line information for the module: one Julia compile unit, named
 * after the kernel's file, line tables only. */
static void di_begin(CG *g, const SrcFile *src)
{
    g->dib = LLVMCreateDIBuilder(g->mod);
    LLVMMetadataRef file = di_file(g, src);
    static const char producer[] = "juke";
    g->di_cu =
        LLVMDIBuilderCreateCompileUnit(g->dib, LLVMDWARFSourceLanguageJulia, file, producer, sizeof producer - 1, 1, "",
                                       0, 0, "", 0, LLVMDWARFEmissionLineTablesOnly, 0, 0, 0, "", 0, "", 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
    LLVMAddModuleFlag(g->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(LLVMConstInt(i32, LLVMDebugMetadataVersion(), 0)));
    LLVMAddModuleFlag(g->mod, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
                      LLVMValueAsMetadata(LLVMConstInt(i32, 4, 0)));
}

/* Give g->fn its DISubprogram (the method's name, file and line) and point
 * the builder there; no-op without line information. */
static void di_function(CG *g, const Method *m, LLVMDIFlags flags)
{
    g->di_sp = NULL;
    if (!g->dib)
        return;
    LLVMMetadataRef file = di_file(g, m->loc.file);
    if (!file)
        return;
    LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(g->dib, file, NULL, 0, LLVMDIFlagZero);
    size_t ln;
    const char *linkage = LLVMGetValueName2(g->fn, &ln);
    g->di_sp = LLVMDIBuilderCreateFunction(g->dib, file, m->name, strlen(m->name), linkage, ln, file,
                                           (unsigned)m->loc.line, ty, LLVMGetLinkage(g->fn) == LLVMInternalLinkage, 1,
                                           (unsigned)m->loc.line, flags, 1);
    LLVMSetSubprogram(g->fn, g->di_sp);
    LLVMSetCurrentDebugLocation2(
        g->b, LLVMDIBuilderCreateDebugLocation(g->ctx, (unsigned)m->loc.line, (unsigned)m->loc.col, g->di_sp, NULL));
}

/* Functions a target added around the kernel (the CPU's entry wrapper)
 * take the kernel's subprogram name and line: the kernel inlined into a
 * function without a subprogram would lose its lines. */
static void di_wrappers(CG *g, const Method *kernel)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(g->mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetSubprogram(fn))
            continue;
        g->fn = fn;
        di_function(g, kernel, LLVMDIFlagArtificial); /* the printer shows the kernel's own frames only */
        if (!g->di_sp)
            continue;
        LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(g->ctx, (unsigned)kernel->loc.line,
                                                               (unsigned)kernel->loc.col, g->di_sp, NULL);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
                LLVMInstructionSetDebugLoc(in, loc);
    }
    LLVMSetCurrentDebugLocation2(g->b, NULL);
    g->di_sp = NULL;
}

/* Attribute what the builder emits next to loc (kept when loc has no line). */
static void di_at(CG *g, SrcLoc loc)
{
    if (g->di_sp && loc.line > 0)
        LLVMSetCurrentDebugLocation2(g->b, LLVMDIBuilderCreateDebugLocation(g->ctx, (unsigned)loc.line,
                                                                            (unsigned)(loc.col > 0 ? loc.col : 0),
                                                                            g->di_sp, NULL));
}

static void emit_function(CG *g, Spec *s, bool kernel)
{
    IrFunc *f = s->typed;
    g->spec = s;
    g->f = f;
    g->fn = g->fns[s->index];
    g->throw_bb = g->throw_after = NULL;
    g->throw_fanin = 0;
    g->vals = calloc((size_t)f->ninsts + 1, sizeof(LLVMValueRef));
    g->slots = calloc((size_t)f->nslots + 1, sizeof(LLVMValueRef));
    g->labels = calloc((size_t)f->nlabels + 1, sizeof(LLVMBasicBlockRef));
    /* labels already emitted: a jump to one is a loop's back-edge */
    bool *placed = calloc((size_t)f->nlabels + 1, sizeof(bool));
    int np = s->nargs;
    /* the LLVM parameter of each argument: a kernel has none for a ghost argument (-1) */
    int *pidx = calloc((size_t)np + 1, sizeof(int)), nreal = 0;
    if (!g->vals || !g->slots || !g->labels || !placed || !pidx) {
        diag_plain(g->d, DIAG_NOMEM, "out of memory");
        g->failed = true;
        goto out;
    }
    for (int i = 0; i < np; i++)
        pidx[i] = kernel && ty_is_ghost(s->argtypes[i]) ? -1 : nreal++;
    int seeded = kernel && g->uses_rng; /* the kernel's __juke_seed comes before the exception pointer */
    g->tc->cur_exc = LLVMGetParam(g->fn, (unsigned)(nreal + seeded));
    g->tc->cur_state = g->ops->needs_state_param ? LLVMGetParam(g->fn, (unsigned)(nreal + seeded) + 1) : NULL;
    g->entry = new_block(g, "top");
    LLVMPositionBuilderAtEnd(g->b, g->entry);
    di_function(g, s->method, LLVMDIFlagZero);
    g->rng_state = NULL;
    if (seeded) {
        LLVMValueRef seed = LLVMGetParam(g->fn, (unsigned)nreal);
        LLVMSetValueName2(seed, "__juke_seed", 11);
        rng_init(g, seed);
    } else if (g->uses_rng) {
        g->rng_state = LLVMGetParam(g->fn, LLVMCountParams(g->fn) - 1);
    }
    /* parameters keep the Julia names (%c, %a); their slots are %c.addr, as clang names them */
    for (int i = 0; i < np; i++)
        if (pidx[i] >= 0)
            LLVMSetValueName2(LLVMGetParam(g->fn, (unsigned)pidx[i]), f->slots[i].name, strlen(f->slots[i].name));
    for (int i = 0; i < f->nslots; i++)
        if (f->slots[i].type && !is_unit(f->slots[i].type)) {
            char name[256];
            snprintf(name, sizeof name, "%s%s", f->slots[i].name, i < np ? ".addr" : "");
            g->slots[i] = LLVMBuildAlloca(g->b, lt(g, f->slots[i].type), name);
        }
    LLVMValueRef shape = NULL; /* the same-shape variant: the first device array argument */
    for (int i = 0; i < np; i++) {
        if (!g->slots[i])
            continue;
        LLVMValueRef p = pidx[i] >= 0 ? LLVMGetParam(g->fn, (unsigned)pidx[i]) : LLVMGetUndef(lt(g, s->argtypes[i]));
        if (kernel && pidx[i] >= 0)
            p = from_mem(g, p, s->argtypes[i]);
        if (kernel && pidx[i] >= 0 && g->tc->opts->same_shape && s->argtypes[i]->kind == TY_ARRAY)
            p = same_shape_arg(g, p, s->argtypes[i], &shape);
        if (kernel && pidx[i] >= 0 && g->tc->opts->index32 && s->argtypes[i]->kind == TY_ARRAY && g->ops->narrow_guards)
            index32_facts(g, p, s->argtypes[i]);
        if (kernel && pidx[i] >= 0 && narrow_index(g, s->argtypes[i]) && s->argtypes[i]->ndims >= 2 && g->ops->addr32)
            addr32_param(g, (unsigned)pidx[i], s->argtypes[i]);
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
            placed[in->label] = true;
            continue;
        }
        if (in->flags & IRF_DEAD)
            continue;
        di_at(g, in->loc);
        if (terminated(g)) /* code after a jump that no label reaches */
            LLVMPositionBuilderAtEnd(g->b, new_block(g, "dead"));
        LLVMValueRef v = NULL;
        switch (in->op) {
        case IR_CONST: v = emit_const(g, in); break;
        case IR_NAME: v = emit_name(g, in); break;
        case IR_SLOT:
            v = g->slots[in->slot] ? LLVMBuildLoad2(g->b, lt(g, in->type), g->slots[in->slot], "")
                                   : LLVMGetUndef(lt(g, in->type));
            break;
        case IR_ASSIGN:
            if (g->slots[in->slot] && !is_unit(f->slots[in->slot].type))
                LLVMBuildStore(g->b, union_coerce(g, val(g, in->args[0]), vty(g, in->args[0]), f->slots[in->slot].type),
                               g->slots[in->slot]);
            break;
        case IR_CALL:
            if (in->callee) {
                Spec *c = in->callee;
                LLVMValueRef *cargs = malloc(sizeof(LLVMValueRef) * (size_t)(in->nargs + 3));
                if (!cargs) {
                    diag_plain(g->d, DIAG_NOMEM, "out of memory");
                    g->failed = true;
                    goto out;
                }
                int na = 0;
                for (int k = in->flags & IRF_SELFCALL ? 0 : 1; k < in->nargs; k++)
                    cargs[na++] = val(g, in->args[k]);
                cargs[na++] = g->tc->cur_exc;
                if (g->ops->needs_state_param)
                    cargs[na++] = g->tc->cur_state;
                if (g->uses_rng) /* a generic pointer: the kernel's alloca may live in another address space */
                    cargs[na++] = LLVMBuildPointerCast(g->b, g->rng_state, LLVMPointerTypeInContext(g->ctx, 0), "");
                LLVMValueRef r = LLVMBuildCall2(g->b, fn_type(g, c, false), g->fns[c->index], cargs, (unsigned)na, "");
                free(cargs);
                v = returns_value(c->rettype) ? r : LLVMGetUndef(lt(g, in->type));
            } else {
                v = emit_builtin(g, in);
            }
            break;
        case IR_GETFIELD: {
            v = in->ival == IR_FIELD_SELF ? val(g, in->args[0])
                                          : LLVMBuildExtractValue(g->b, val(g, in->args[0]), (unsigned)in->ival, "");
            break;
        }
        case IR_TUPLE: {
            v = LLVMGetUndef(lt(g, in->type));
            for (int k = 0; k < in->nargs; k++)
                v = LLVMBuildInsertValue(g->b, v, val(g, in->args[k]), (unsigned)k, "");
            break;
        }
        case IR_GOTO:
            if (placed[in->label])
                check_cancel(g, in->loc);
            LLVMBuildBr(g->b, g->labels[in->label]);
            break;
        case IR_GOTOIFNOT: {
            if (placed[in->label])
                check_cancel(g, in->loc);
            LLVMBasicBlockRef next = new_block(g, "");
            LLVMBuildCondBr(g->b, val(g, in->args[0]), next, g->labels[in->label]);
            LLVMPositionBuilderAtEnd(g->b, next);
            break;
        }
        case IR_RETURN:
            if (!kernel && returns_value(s->rettype))
                LLVMBuildRet(g->b, in->nargs ? union_coerce(g, val(g, in->args[0]), vty(g, in->args[0]), s->rettype)
                                             : union_coerce(g, unit_v(g), ty_prim(g->types, TY_NOTHING), s->rettype));
            else
                LLVMBuildRetVoid(g->b);
            break;
        default: break;
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
    /* the next function, or a target's wrapper, must not inherit this scope */
    LLVMSetCurrentDebugLocation2(g->b, NULL);
    g->di_sp = NULL;
    free(placed);
    free(pidx);
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

bool cg_compile(Diags *d, TypeTable *types, Spec **specs, int nspecs, const TargetOptions *opts, CodeObject *out)
{
    memset(out, 0, sizeof *out);
    out->kind = opts->kind;
    const TargetInfo *info = target_by_kind(opts->kind);
    const TargetOps *ops = info ? info->ops : NULL;
    if (!ops) {
        diag_plain(d, DIAG_USER, "unknown target kind");
        return false;
    }
    double t0 = now_ms();
    TargetCtx tc = { 0 };
    tc.llctx = LLVMContextCreate();
    tc.opts = opts;
    tc.ops = ops;
    tc.diags = d;
    char modname[256];
    snprintf(modname, sizeof modname, "%s", specs[0]->method->name);
    tc.mod = LLVMModuleCreateWithNameInContext(modname, tc.llctx);
    bool ok = false;
    CG g = {
        .tc = &tc, .ops = ops, .ctx = tc.llctx, .mod = tc.mod, .types = types, .d = d, .specs = specs, .nspecs = nspecs
    };
    g.b = LLVMCreateBuilderInContext(tc.llctx);
    g.fns = calloc((size_t)nspecs + 1, sizeof(LLVMValueRef));
    out->kernel_symbol = kernel_symbol(specs[0]->method->name);
    if (!g.fns || !out->kernel_symbol) {
        diag_plain(d, DIAG_NOMEM, "out of memory");
        goto done;
    }
    if (!ops->init(&tc))
        goto done;
    out->proc = strdup(tc.proc ? tc.proc : "");
    if (opts->debug_lines)
        di_begin(&g, specs[0]->method->loc.file);
    g.uses_rng = uses_random_numbers(specs, nspecs);
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
    if (g.dib) {
        di_wrappers(&g, specs[0]->method);
        LLVMDIBuilderFinalize(g.dib);
    }
    out->static_lds_bytes = tc.static_lds_bytes;
    out->uses_barrier = tc.uses_barrier;
    out->uses_grid_sync = tc.uses_grid_sync;
    out->uses_dynamic_lds = tc.uses_dynamic_lds;
    out->uses_rng = g.uses_rng;
    if (!opts->skip_llvm_text)
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
    if (!opts->skip_llvm_text) {
        out->llvm_opt = llvm_module_text(tc.mod);
        LLVMValueRef kfn = LLVMGetNamedFunction(tc.mod, out->kernel_symbol);
        out->llvm_opt_kernel = kfn ? llvm_function_text(kfn, out->llvm_opt) : strdup("");
    }
    if (!ops->emit(&tc, out))
        goto done;
    out->ms_emit = now_ms() - t2;
    out->ms_link = tc.ms_link;
    ok = true;
done:
    if (ops->fini)
        ops->fini(&tc);
    LLVMDisposeBuilder(g.b);
    if (g.dib)
        LLVMDisposeDIBuilder(g.dib);
    if (tc.mod)
        LLVMDisposeModule(tc.mod);
    LLVMContextDispose(tc.llctx);
    free(g.fns);
    return ok;
}
