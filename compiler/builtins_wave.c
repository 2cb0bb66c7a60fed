/* builtins_wave.c: typing rules of the wavefront operations and the synchronisations that reduce over a
 * workgroup or span the grid (rows in builtins.def). The types are AMDGPU.jl's: wavefrontsize() and
 * activelane() are Cuint, ballot() a UInt64, the shuffles and reductions return their value's type. */
#include "builtins_type.h"

#include <string.h>

/* A value a lane can hand to another: a primitive number or Bool. */
static bool wave_value(const Type *t)
{
    return ty_is_prim(t);
}

/* wavefrontsize(), activelane(): Cuint; activemask(): UInt64; sync_wavefront(), sync_grid(): nothing. */
const Type *type_wave_query(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n != 0)
        return infer_no_method(I, in, name, a, n);
    switch (row->id) {
    case BI_ACTIVEMASK: return prim(I, TY_UINT64);
    case BI_SYNC_WAVEFRONT:
    case BI_SYNC_GRID: return prim(I, TY_NOTHING);
    default: return prim(I, TY_UINT32);
    }
}

/* readfirstlane(x): x of the lowest active lane. */
const Type *type_readfirstlane(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && wave_value(a[0]))
        return a[0];
    return infer_no_method(I, in, name, a, n);
}

/* ballot(pred::Bool): UInt64, bit k set when lane k is active and its pred is true; ballot_sync(mask::UInt64,
 * pred): the same and-ed with mask; any_sync / all_sync(mask, pred): Bool. */
const Type *type_ballot(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (row->id == BI_BALLOT) {
        if (n == 1 && a[0]->kind == TY_BOOL)
            return prim(I, TY_UINT64);
    } else if (n == 2 && a[0]->kind == TY_UINT64 && a[1]->kind == TY_BOOL) {
        return prim(I, row->id == BI_BALLOT_SYNC ? TY_UINT64 : TY_BOOL);
    }
    return infer_no_method(I, in, name, a, n);
}

/* wfany(x), wfall(x), wfsame(x) of an integer (AMDGPU.jl: Cint) or Bool: Bool. */
const Type *type_wfvote(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_int(a[0]))
        return prim(I, TY_BOOL);
    return infer_no_method(I, in, name, a, n);
}

/* shfl(val, lane[, width]) and shfl_up/down/xor(val, delta-or-mask[, width]); bpermute(addr, val::Int32) and
 * permute(addr, val::Int32). */
const Type *type_shfl(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (row->id == BI_BPERMUTE || row->id == BI_PERMUTE) {
        if (n == 2 && ty_is_int(a[0]) && a[1]->kind == TY_INT32)
            return a[1];
        return infer_no_method(I, in, name, a, n);
    }
    /* shfl_sync(mask::UInt64, val, lane[, width]) and the others */
    bool sync = row->id == BI_SHFL_SYNC || row->id == BI_SHFL_UP_SYNC || row->id == BI_SHFL_DOWN_SYNC ||
                row->id == BI_SHFL_XOR_SYNC;
    if (sync) {
        if (n < 1 || a[0]->kind != TY_UINT64)
            return infer_no_method(I, in, name, a, n);
        a++, n--;
    }
    if ((n == 2 || n == 3) && wave_value(a[0]) && ty_is_int(a[1]) && (n == 2 || ty_is_int(a[2])))
        return a[0];
    return infer_no_method(I, in, name, sync ? a - 1 : a, sync ? n + 1 : n);
}

/* The reduction operator a wfred/wfscan call of values of type x names (its first argument's function), or
 * BI_NONE: the built-in op(x, x) calls, as a call would dispatch (methods of the operator for other types, the
 * prelude's or a file's extending Base, leave it the built-in on numbers). */
static BuiltinId wave_reduce_op(FeCompilation *c, const Type *f, const Type *x)
{
    const Type *xx[2] = { x, x };
    if (f->kind != TY_FUNCTION || infer_dispatch_generic(c, f->name, xx, 2))
        return BI_NONE;
    const BuiltinRow *r = builtin_lookup(f->name);
    if (!r)
        return BI_NONE;
    switch (r->id) {
    case BI_ADD:
    case BI_MUL:
    case BI_MAX:
    case BI_MIN:
    case BI_AND:
    case BI_OR:
    case BI_XOR: return r->id;
    default: return BI_NONE;
    }
}

/* wfred(op, x), wfscan(op, x[, inclusive::Bool]): x's type; op one of + * max min & | ⊻, the bitwise ones
 * on integers only. */
const Type *type_wfreduce(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    bool scan = row->id == BI_WFSCAN;
    if (n < 2 || n > (scan ? 3 : 2) || (n == 3 && a[2]->kind != TY_BOOL))
        return infer_no_method(I, in, name, a, n);
    BuiltinId op = wave_reduce_op(I->c, a[0], a[1]);
    if (op == BI_NONE) {
        if (a[0]->kind != TY_FUNCTION)
            return infer_no_method(I, in, name, a, n);
        infer_err(I, in->loc, "%s reduces with +, *, max, min, &, | or ⊻, not %s", name, a[0]->name);
        return NULL;
    }
    bool bitwise = op == BI_AND || op == BI_OR || op == BI_XOR;
    const Type *t = a[1];
    if (!ty_is_prim(t) || t->kind == TY_BOOL || (bitwise && !ty_is_int(t)))
        return infer_no_method(I, in, name, a, n);
    in->optype = t;
    return t;
}

/* sync_workgroup_count(pred), sync_workgroup_and(pred), sync_workgroup_or(pred) of an integer (AMDGPU.jl:
 * Cint) or Bool: Cint. */
const Type *type_sync_reduce(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_int(a[0]))
        return prim(I, TY_INT32);
    return infer_no_method(I, in, name, a, n);
}
