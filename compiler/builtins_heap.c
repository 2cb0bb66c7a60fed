/* builtins_heap.c: typing rules of the device heap (rows in builtins.def): AMDGPU.jl's malloc and free, and
 * ROCDeviceArray(dims, p), a device array over memory a pointer points to. */
#include "abi.h"
#include "builtins_type.h"

static bool is_count(const Type *t)
{
    return ty_is_int(t) && t->kind != TY_BOOL;
}

/* malloc(n::Integer): Ptr{Cvoid} (a global pointer to nothing in particular); free(p) of a global pointer:
 * nothing. */
const Type *type_malloc(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (row->id == BI_MALLOC && n == 1 && is_count(a[0]))
        return ty_ptr(T(I), prim(I, TY_NOTHING), false);
    if (row->id == BI_FREE && n == 1 && a[0]->kind == TY_PTR && !a[0]->step)
        return prim(I, TY_NOTHING);
    return infer_no_method(I, in, name, a, n);
}

/* ROCDeviceArray(len, p) or ROCDeviceArray((d1, d2, ...), p) with p a Core.LLVMPtr{T,1}: the
 * ROCDeviceArray{T,N,1} of those dims at p, bounds-checked against them. */
const Type *type_wrap_array(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n != 2 || a[1]->kind != TY_PTR)
        return infer_no_method(I, in, name, a, n);
    int nd = -1;
    if (is_count(a[0]))
        nd = 1;
    else if (a[0]->kind == TY_TUPLE) {
        nd = a[0]->nfields;
        for (int i = 0; i < a[0]->nfields; i++)
            if (!is_count(a[0]->fields[i]))
                nd = -1;
    }
    const Type *elem = a[1]->elem;
    if (nd < 1 || nd > JUKE_EXC_MAXDIMS || !(ty_is_prim(elem) || elem->kind == TY_COMPLEX)) {
        if (nd >= 1 && elem->kind == TY_NOTHING)
            infer_err(I, in->loc,
                      "ROCDeviceArray(dims, p): p points to nothing in particular (Ptr{Cvoid}); give it an element "
                      "type first: reinterpret(Core.LLVMPtr{T,1}, p)");
        else
            return infer_no_method(I, in, name, a, n);
        return NULL;
    }
    /* a pointer to local memory (alloc_local, alloc_special) wraps as a local array, as AMDGPU.jl's
     * ROCDeviceArray{T,N,AS.Local} */
    return a[1]->step ? ty_localarray(T(I), elem, nd) : ty_array(T(I), elem, nd);
}

/* #ptrtype(T[, AS]): the type Core.LLVMPtr{T, AS} (AS 1, global, or 3, local) or Ptr{T} (global). */
const Type *type_ptrtype(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    (void)name;
    int64_t as = 1;
    if (n < 1 || n > 2 || a[0]->kind != TY_TYPE || (n == 2 && !is_const_int(I, in->args[2], &as))) {
        infer_err(I, in->loc, "%s: the parameters must be a type and a constant address space",
                  n == 2 ? "Core.LLVMPtr{T, AS}" : "Ptr{T}");
        return NULL;
    }
    if (as != 1 && as != 3) {
        infer_err(I, in->loc, "Core.LLVMPtr{T, %lld}: juke has pointers to global (1) and local (3) memory only",
                  (long long)as);
        return NULL;
    }
    return ty_typeof_type(T(I), ty_ptr(T(I), a[0]->elem, as == 3));
}
