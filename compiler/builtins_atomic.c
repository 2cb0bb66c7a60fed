/* builtins_atomic.c: typing rules of atomics (rows in builtins.def). */
#include "builtins_type.h"

/* AMDGPU.@atomic A[i...] op= v (the new value) and atomic_op!(ptr, v) (the old value). */
const Type *type_atomic(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    bool wrap = row->id == BI_ATOMIC_INC || row->id == BI_ATOMIC_DEC; /* pointer API only */
    /* the pointer API (AMDGPU.atomic_add!(pointer(A, i), v)): returns the old value */
    if (n == 2 && a[0]->kind == TY_PTR && ty_is_prim(a[1])) {
        if (ty_is_float(a[0]->elem) && row->id != BI_ATOMIC_ADD && row->id != BI_ATOMIC_SUB &&
            row->id != BI_ATOMIC_MAX && row->id != BI_ATOMIC_MIN && row->id != BI_ATOMIC_XCHG) {
            infer_err(I, in->loc, "%s: bitwise operations need an integer pointer, not %s", name, infer_tname(I, a[0]));
            return NULL;
        }
        in->optype = a[0]->elem;
        return a[0]->elem;
    }
    if (n >= 3 && !wrap && ty_is_array(a[0]) && ty_is_prim(a[n - 1])) {
        for (int i = 1; i < n - 1; i++)
            if (!ty_is_int(a[i]))
                return infer_no_method(I, in, name, a, n);
        if (n - 2 != 1 && n - 2 != a[0]->ndims)
            return infer_no_method(I, in, name, a, n);
        if (ty_is_float(a[0]->elem) && row->id != BI_ATOMIC_ADD && row->id != BI_ATOMIC_SUB &&
            row->id != BI_ATOMIC_MAX && row->id != BI_ATOMIC_MIN && row->id != BI_ATOMIC_XCHG) {
            infer_err(I, in->loc, "AMDGPU.@atomic: bitwise operations need an integer array, not %s",
                      infer_tname(I, a[0]));
            return NULL;
        }
        in->optype = a[0]->elem;
        return a[0]->elem;
    }
    return infer_no_method(I, in, name, a, n);
}

/* atomic_cas!(ptr, cmp, new): the old value. */
const Type *type_atomic_cas(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 3 && a[0]->kind == TY_PTR && ty_is_prim(a[1]) && ty_is_prim(a[2])) {
        in->optype = a[0]->elem;
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}
