/* builtins_atomic.c: typing rules of atomics (rows in builtins.def). */
#include "builtins_type.h"
#include <string.h>

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

/* The name in a prelude AtomicOrdering{:name} or SyncScope{:name} value's type (without the colon), or NULL. */
const char *atomic_tag(const Type *t, const char *kind)
{
    if (t->kind != TY_STRUCT || !t->name || strcmp(t->name, kind) != 0 || t->nparams != 1 ||
        t->params[0]->kind != TY_VAL || !t->params[0]->name || t->params[0]->name[0] != ':')
        return NULL;
    return t->params[0]->name + 1;
}

/* UnsafeAtomics.fence(order, scope) (the prelude gives fence() and fence(order) the system scope): nothing. A
 * fence orders acquire, release, acq_rel or seq_cst, as LLVM's fence instruction. */
const Type *type_fence(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    const char *o = n == 2 ? atomic_tag(a[0], "AtomicOrdering") : NULL;
    if (!o || !atomic_tag(a[1], "SyncScope"))
        return infer_no_method(I, in, name, a, n);
    if (strcmp(o, "acquire") != 0 && strcmp(o, "release") != 0 && strcmp(o, "acq_rel") != 0 &&
        strcmp(o, "seq_cst") != 0) {
        infer_err(I, in->loc,
                  "fence: the ordering %s orders nothing; a fence takes acquire, release, acq_rel or seq_cst", o);
        return NULL;
    }
    return prim(I, TY_NOTHING);
}

/* UnsafeAtomics.load(ptr[, order]) and UnsafeAtomics.store!(ptr, x[, order]) (seq_cst without one): the element
 * (a load) or nothing (a store). LLVM loads take unordered, monotonic, acquire or seq_cst, stores unordered,
 * monotonic, release or seq_cst, as UnsafeAtomics allows them. */
const Type *type_atomic_load(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    bool store = row->id == BI_ATOMIC_STORE;
    int nv = store ? 2 : 1; /* the arguments before the ordering */
    const char *o = n == nv ? "seq_cst" : n == nv + 1 ? atomic_tag(a[n - 1], "AtomicOrdering") : NULL;
    if (!o || a[0]->kind != TY_PTR || !ty_is_prim(a[0]->elem) || (store && !ty_is_prim(a[1])))
        return infer_no_method(I, in, store ? "UnsafeAtomics.store!" : "UnsafeAtomics.load", a, n);
    if (strcmp(o, "unordered") != 0 && strcmp(o, "monotonic") != 0 && strcmp(o, "seq_cst") != 0 &&
        strcmp(o, store ? "release" : "acquire") != 0) {
        infer_err(I, in->loc, "UnsafeAtomics.%s: an atomic %s takes unordered, monotonic, %s or seq_cst, not %s",
                  store ? "store!" : "load", store ? "store" : "load", store ? "release" : "acquire", o);
        return NULL;
    }
    (void)name;
    in->optype = a[0]->elem;
    return store ? prim(I, TY_NOTHING) : a[0]->elem;
}
