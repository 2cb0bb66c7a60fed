/* builtins_math.c: typing rules of the math functions (rows in builtins.def). */
#include "builtins_type.h"

/* sqrt sin exp and the other one-argument math functions (and atan(y, x)): the float type. */
const Type *type_math1(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 1 && ty_is_prim(a[0])) {
        in->optype = float_of(I, a[0]);
        return in->optype;
    }
    if (n == 2 && row->id == BI_ATAN && all_prim(a, 2)) {
        in->builtin = BI_ATAN2;
        in->optype = float_of(I, unify_prim_args(I, a, 2));
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* hypot(x, y): the promoted float type. */
const Type *type_math2(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && all_prim(a, 2)) {
        in->optype = float_of(I, unify_prim_args(I, a, 2));
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* fma (a float) and muladd (the promoted type) of three numbers. */
const Type *type_math3(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 3 && all_prim(a, 3)) {
        const Type *p = unify_prim_args(I, a, 3);
        in->optype = row->id == BI_FMA ? float_of(I, p) : p;
        if (in->optype->kind == TY_BOOL)
            in->optype = prim(I, TY_INT64);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* sincos(x): a tuple of two floats. */
const Type *type_sincos(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_prim(a[0])) {
        in->optype = float_of(I, a[0]);
        const Type *f[2] = { in->optype, in->optype };
        return ty_tuple(T(I), f, 2);
    }
    return infer_no_method(I, in, name, a, n);
}

/* ldexp(x::AbstractFloat, n::Integer): x's type. */
const Type *type_ldexp(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && ty_is_float(a[0]) && ty_is_int(a[1])) {
        in->optype = a[0];
        return a[0];
    }
    return infer_no_method(I, in, name, a, n);
}
