/* builtins_random.c: typing rules of device random numbers (rows in builtins.def): rand, randn, randexp and
 * Random.seed!. The generator itself is in builtins_random_emit.c. */
#include "builtins_type.h"

/* rand() is a Float64; rand(T) a T for T a primitive number type; randn and randexp take float types only. */
const Type *type_rand(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    const Type *t = NULL;
    if (n == 0)
        t = prim(I, TY_FLOAT64);
    else if (n == 1 && a[0]->kind == TY_TYPE && a[0]->elem && ty_is_prim(a[0]->elem))
        t = a[0]->elem;
    if (!t || (row->id != BI_RAND && !ty_is_float(t)))
        return infer_no_method(I, in, name, a, n);
    in->optype = t;
    return t;
}

/* Random.seed!(seed::Integer): nothing; the work-item's stream restarts with that key. Random.seed!() takes a
 * fresh key from the device's clock (AMDGPU.jl's Random.make_seed() is memrealtime()): optype Nothing. */
const Type *type_seed(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 0) {
        in->optype = prim(I, TY_NOTHING);
        return prim(I, TY_NOTHING);
    }
    if (n == 1 && ty_is_int(a[0])) {
        in->optype = a[0];
        return prim(I, TY_NOTHING);
    }
    return infer_no_method(I, in, name, a, n);
}
