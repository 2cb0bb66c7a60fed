/* builtins_index.c: typing rules of ranges, for-loop helpers and the work-item index intrinsics (rows in
 * builtins.def). */
#include "builtins_type.h"

/* a:b and a:s:b of integers: a range of their promoted type (Bool ends make Int64). */
const Type *type_range(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    /* a:b and a:s:b are ranges of promote_type(a, b) (Julia's (:)); Bool ends make Int64 */
    if ((n == 2 || n == 3) && all_int(a, n)) {
        const Type *e = ty_promote(T(I), a[0], a[n - 1]);
        if (e->kind == TY_BOOL)
            e = prim(I, TY_INT64);
        if (n == 3)
            in->builtin = BI_STEPRANGE;
        return ty_range_of(T(I), e, n == 3);
    }
    return infer_no_method(I, in, name, a, n);
}

/* first last step of a range: its element type. */
const Type *type_rangefn(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    /* first/last/step of a UnitRange{Int32} are Int32, as in Julia */
    if (n == 1 && a[0]->kind == TY_RANGE)
        return a[0]->elem && ty_is_int(a[0]->elem) ? a[0]->elem : prim(I, TY_INT64);
    return infer_no_method(I, in, name, a, n);
}

/* i in r of an integer and a range: Bool. */
const Type *type_in(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && ty_is_int(a[0]) && a[1]->kind == TY_RANGE)
        return prim(I, TY_BOOL);
    return infer_no_method(I, in, name, a, n);
}

/* lowering's test that a for loop's range is not empty (resolves to in). */
const Type *type_nonempty(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    in->builtin = BI_IN;
    if (n == 1 && a[0]->kind == TY_RANGE)
        return prim(I, TY_BOOL);
    if (n == 1) {
        infer_err(I, in->loc, "a for loop iterates over a range (a:b, a:s:b, axes(A, d), eachindex(A)); got %s",
                  infer_tname(I, a[0]));
        return NULL;
    }
    return infer_no_method(I, in, name, a, n);
}

/* lowering's loop variable: the Int64 counter as the range's element type (resolves to rem_type). */
const Type *type_iterval(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    in->builtin = BI_MODTYPE;
    /* the loop variable: the Int64 counter as the range's element type (exact) */
    if (n == 2 && a[1]->kind == TY_RANGE) {
        if (a[1]->elem == a[0]) {
            in->builtin = BI_UPLUS;
            in->optype = NULL;
        } else {
            in->optype = a[1]->elem;
        }
        return a[1]->elem;
    }
    return infer_no_method(I, in, name, a, n);
}

/* workitemIdx() and the other Dim3 intrinsics. */
const Type *type_index3(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 0)
        return prim(I, TY_DIM3);
    return infer_no_method(I, in, name, a, n);
}
