/* builtins_memory.c: typing rules of memory built-ins (rows in builtins.def): sizeof, AMDGPU.jl's device
 * memcpy! and memset!, reshape and view of device arrays. */
#include <string.h>

#include "abi.h"
#include "builtins_type.h"

/* sizeof(T) or sizeof(x): an Int64 (a constant, except for an array: length times the element size). */
const Type *type_sizeof(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1) {
        const Type *t = a[0]->kind == TY_TYPE ? a[0]->elem : a[0];
        if (t && (ty_is_concrete(t) || ty_is_array(t)) && t->kind != TY_TYPE && t->kind != TY_FUNCTION) {
            in->optype = a[0]->kind == TY_TYPE && ty_is_array(t) ? NULL : t;
            if (in->optype)
                return prim(I, TY_INT64);
        }
    }
    return infer_no_method(I, in, name, a, n);
}

static bool is_index(const Type *t)
{
    return ty_is_int(t) && t->kind != TY_BOOL;
}

/* memcpy!(dst, src, nbytes) and memset!(dst, value::UInt8, nbytes) on device pointers (Core.LLVMPtr): the
 * bytes, as AMDGPU.Device's; nothing. */
const Type *type_memcpy(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 3 && a[0]->kind == TY_PTR && is_index(a[2]) &&
        (row->id == BI_MEMCPY ? a[1]->kind == TY_PTR : a[1]->kind == TY_UINT8))
        return prim(I, TY_NOTHING);
    return infer_no_method(I, in, name, a, n);
}

/* reshape(A, d1, d2, ...) or reshape(A, (d1, d2, ...)): the same memory with these dims (their product must
 * be length(A): a DimensionMismatch at run time otherwise). */
const Type *type_reshape(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    int nd = -1;
    if (n >= 2 && ty_is_array(a[0])) {
        if (n == 2 && a[1]->kind == TY_TUPLE) {
            nd = a[1]->nfields;
            for (int i = 0; i < nd; i++)
                if (!is_index(a[1]->fields[i]))
                    nd = -1;
        } else {
            nd = n - 1;
            for (int i = 1; i < n; i++)
                if (!is_index(a[i]))
                    nd = -1;
        }
    }
    if (nd < 1 || nd > JUKE_EXC_MAXDIMS)
        return infer_no_method(I, in, name, a, n);
    return ty_array_like(T(I), a[0], a[0]->elem, nd);
}

/* view(A, I...) / @view A[I...] with one index per dimension, each `:`, a unit range or an integer: an
 * array over the same memory, its dims checked against A's. Contiguous views only (column-major): `:` in the
 * first dimensions, then at most one range or integer, then integers (view(A, :, j), view(A, :, 2:3),
 * view(v, 2:5), view(A, 2:3, j)); an integer drops its dimension, as in Julia. */
const Type *type_view(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n < 2 || !ty_is_array(a[0]) || n - 1 != a[0]->ndims)
        return infer_no_method(I, in, name, a, n);
    int nd = 0;
    bool narrowed = false;
    for (int i = 1; i < n; i++) {
        bool colon = a[i]->kind == TY_FUNCTION && a[i]->name && strcmp(a[i]->name, ":") == 0;
        bool range = a[i]->kind == TY_RANGE && a[i]->step == 0;
        if (!colon && !range && !is_index(a[i]))
            return infer_no_method(I, in, name, a, n);
        if (narrowed && !is_index(a[i])) {
            infer_err(I, in->loc,
                      "view: index %d makes a strided view of a %d-dimensional array; juke's strided views "
                      "(SubArray, base/prelude.jl) have 1 to 3 dimensions: index the parent array instead",
                      i, a[0]->ndims);
            return NULL;
        }
        narrowed = narrowed || !colon;
        nd += !is_index(a[i]);
    }
    if (nd == 0) {
        infer_err(I, in->loc, "view: a view of a single element (every index an integer): index the array instead");
        return NULL;
    }
    return ty_array_like(T(I), a[0], a[0]->elem, nd);
}

/* AMDGPU.get_global_pointer(Val(:name), T): a pointer (Core.LLVMPtr{T,1}) to the device global `name` of type T,
 * a number, zero when the code object is loaded. */
const Type *type_global_pointer(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && a[0]->kind == TY_STRUCT && a[0]->name && strcmp(a[0]->name, "Val") == 0 && a[0]->nparams == 1 &&
        a[0]->params[0]->kind == TY_VAL && a[0]->params[0]->name && a[0]->params[0]->name[0] == ':' &&
        a[1]->kind == TY_TYPE && a[1]->elem) {
        const Type *t = a[1]->elem;
        if (!ty_is_prim(t)) {
            infer_err(
                I, in->loc,
                "get_global_pointer: a device global holds a number (Bool, Int8..UInt64, Float16..Float64), not %s",
                infer_tname(I, t));
            return NULL;
        }
        in->optype = t;
        return ty_ptr(T(I), t, false);
    }
    return infer_no_method(I, in, name, a, n);
}
