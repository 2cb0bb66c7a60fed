/* builtins_array.c: typing rules of arrays, tuples as collections and pointers (rows in builtins.def). */
#include <string.h>

#include "builtins_type.h"

/* A[i...] of an array (1 or ndims indices), t[i] of a tuple or a Dim3. */
/* The number of indices in a[first..n): integers, and tuples of integers
 * (KernelAbstractions' CartesianIndex, ka.c) counting their fields; -1 if
 * another type is among them. */
static int index_count(const Type **a, int first, int n)
{
    int count = 0;
    for (int i = first; i < n; i++) {
        if (a[i]->kind == TY_TUPLE) {
            for (int f = 0; f < a[i]->nfields; f++)
                if (!ty_is_int(a[i]->fields[f]) || a[i]->fields[f]->kind == TY_BOOL)
                    return -1;
            count += a[i]->nfields;
        } else if (!ty_is_int(a[i]) || a[i]->kind == TY_BOOL) {
            return -1;
        } else {
            count++;
        }
    }
    return count;
}

/* May an array of at's dimensions take ni indices? One (linear), or one per dimension and any more after them,
 * which Julia lets through when they are 1 (trailing dimensions of size 1: R[i, j, 1] of a matrix; elem_ptr
 * checks them); fewer, which Julia reads as the last one spanning the dimensions left, juke does not do. */
static bool index_count_ok(Infer *I, const IrInst *in, const Type *at, int ni)
{
    if (ni == 1 || ni >= at->ndims)
        return true;
    infer_err(I, in->loc,
              "indexing a %d-dimensional array with %d indices is not supported (use 1, or %d and any "
              "trailing indices of 1)",
              at->ndims, ni, at->ndims);
    return false;
}

const Type *type_getindex(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    const int *args = in->args + 1;
    for (int i = 1; n >= 2 && ty_is_array(a[0]) && i < n; i++)
        if (a[i]->kind == TY_FUNCTION && a[i]->name && strcmp(a[i]->name, ":") == 0) {
            /* B[:, j]: Julia copies the column into a new array; juke gives the view of it, which reads the
             * same while B is not written (no allocation on the device) */
            in->builtin = BI_VIEW;
            return type_view(I, in, row, "getindex", a, n);
        }
    if (n >= 1 && ty_is_array(a[0])) {
        if (n == 1 && a[0]->ndims == 0)
            return a[0]->elem;
        int ni = index_count(a, 1, n);
        if (ni < 0)
            return infer_no_method(I, in, "getindex", a, n);
        if (!index_count_ok(I, in, a[0], ni))
            return NULL;
        return a[0]->elem;
    }
    if (n == 2 && (a[0]->kind == TY_TUPLE || (a[0]->kind == TY_STRUCT && (a[0]->flags & TF_NAMEDTUPLE))) &&
        ty_is_int(a[1])) {
        in->builtin = BI_TUPLE_GETINDEX;
        int64_t k;
        if (is_const_int(I, args[1], &k)) {
            if (k < 1 || k > a[0]->nfields) {
                infer_err(I, in->loc, "BoundsError: attempt to access %s at index [%lld]", infer_tname(I, a[0]),
                          (long long)k);
                return NULL;
            }
            return a[0]->fields[k - 1];
        }
        /* a run-time index: the join of the field types, as Julia's tuple getindex infers it; juke keeps
         * one type or Union{Nothing, T} ((A, nothing, B) of Oceananigans' fields, tested with isnothing) */
        const Type *j = a[0]->nfields > 0 ? a[0]->fields[0] : NULL;
        for (int i = 1; j && i < a[0]->nfields; i++)
            j = ty_join(T(I), j, a[0]->fields[i]);
        if (!j && a[0]->nfields > 0) {
            infer_err(I, in->loc,
                      "indexing the heterogeneous %s needs a constant index (a run-time one works when the fields "
                      "are of one type, or of one type and nothing)",
                      infer_tname(I, a[0]));
            return NULL;
        }
        if (j)
            return j;
    }
    int64_t lo, hi;
    if (n == 2 && a[0]->kind == TY_TUPLE && a[1]->kind == TY_RANGE && infer_const_range(I->f, args[1], &lo, &hi)) {
        if (hi >= lo && (lo < 1 || hi > a[0]->nfields)) {
            infer_err(I, in->loc, "BoundsError: attempt to access %s at index [%lld:%lld]", infer_tname(I, a[0]),
                      (long long)lo, (long long)hi);
            return NULL;
        }
        in->builtin = BI_TUPLE_SLICE;
        return ty_tuple(T(I), hi >= lo ? a[0]->fields + lo - 1 : NULL, hi >= lo ? (int)(hi - lo + 1) : 0);
    }
    if (n == 2 && a[0]->kind == TY_DIM3 && ty_is_int(a[1])) {
        in->builtin = BI_TUPLE_GETINDEX;
        return prim(I, TY_INT64);
    }
    return infer_no_method(I, in, name, a, n);
}

/* A[i...] = v of an array: nothing; optype is the element type. */
const Type *type_setindex(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n >= 2 && ty_is_array(a[0])) {
        int ni = index_count(a, 2, n);
        if (ni < 0)
            return infer_no_method(I, in, "setindex!", a, n);
        if (!index_count_ok(I, in, a[0], ni))
            return NULL;
        bool cx = a[0]->elem->kind == TY_COMPLEX && (ty_is_prim(a[1]) || a[1]->kind == TY_COMPLEX);
        if (cx) { /* a complex element: a number converts to it, as Julia's convert(ComplexF32, x) */
            in->optype = a[0]->elem;
            return prim(I, TY_NOTHING);
        }
        if (a[1]->kind == TY_PTR && ty_is_int(a[0]->elem) && a[0]->elem->kind != TY_BOOL) {
            /* a pointer stored as an integer: its address, as older AMDGPU.jl's DevicePtr converted
             * (convert(::Type{T<:Integer}, p::DevicePtr) = T(UInt(p)); what its malloc returned) */
            in->optype = a[0]->elem;
            return prim(I, TY_NOTHING);
        }
        if (!ty_is_prim(a[1]) && a[1] != a[0]->elem) { /* a struct element: of the element type itself */
            infer_err(I, in->loc, "MethodError: cannot convert a value of type %s to %s", infer_tname(I, a[1]),
                      infer_tname(I, a[0]->elem));
            return NULL;
        }
        if (ty_is_prim(a[1]) && !ty_is_prim(a[0]->elem)) {
            infer_err(I, in->loc, "MethodError: cannot convert a value of type %s to %s", infer_tname(I, a[1]),
                      infer_tname(I, a[0]->elem));
            return NULL;
        }
        in->optype = a[0]->elem;
        return prim(I, TY_NOTHING);
    }
    return infer_no_method(I, in, name, a, n);
}

/* length of an array, a range or a tuple. */
const Type *type_length(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && (ty_is_array(a[0]) || a[0]->kind == TY_RANGE)) {
        return prim(I, TY_INT64);
    }
    if (n == 1 && a[0]->kind == TY_TUPLE) {
        in->builtin = BI_TUPLE_LENGTH;
        return prim(I, TY_INT64);
    }
    return infer_no_method(I, in, name, a, n);
}

/* size(A) (a tuple) and size(A, d). */
const Type *type_size(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_array(a[0])) {
        const Type *f[8];
        for (int i = 0; i < a[0]->ndims && i < 8; i++)
            f[i] = prim(I, TY_INT64);
        return ty_tuple(T(I), f, a[0]->ndims);
    }
    if (n == 2 && ty_is_array(a[0]) && ty_is_int(a[1])) {
        in->builtin = BI_SIZE_D;
        return prim(I, TY_INT64);
    }
    return infer_no_method(I, in, name, a, n);
}

/* axes(A) (a tuple of ranges) and axes(A, d). */
const Type *type_axes(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_array(a[0])) {
        const Type *f[8];
        for (int i = 0; i < a[0]->ndims && i < 8; i++)
            f[i] = ty_range(T(I), 0);
        return ty_tuple(T(I), f, a[0]->ndims);
    }
    if (n == 2 && ty_is_array(a[0]) && ty_is_int(a[1])) {
        in->builtin = BI_AXES_D;
        return ty_range(T(I), 0);
    }
    return infer_no_method(I, in, name, a, n);
}

/* eltype of an array or a range, or of an array or range type (eltype(typeof(A)), as a generated kernel's
 * $(eltype(A)) asks): a Type. */
const Type *type_eltype(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && a[0]->kind == TY_TYPE && a[0]->elem && (ty_is_array(a[0]->elem) || a[0]->elem->kind == TY_RANGE))
        return ty_typeof_type(T(I), a[0]->elem->elem);
    if (n == 1 && ty_is_array(a[0]))
        return ty_typeof_type(T(I), a[0]->elem);
    if (n == 1 && a[0]->kind == TY_RANGE)
        return ty_typeof_type(T(I), a[0]->elem);
    return infer_no_method(I, in, name, a, n);
}

/* ndims(A) and ndims of an array type: Int64. */
const Type *type_ndims(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && (ty_is_array(a[0]) || (a[0]->kind == TY_TYPE && a[0]->elem && ty_is_array(a[0]->elem))))
        return prim(I, TY_INT64);
    return infer_no_method(I, in, name, a, n);
}

/* eachindex(A) == 1:length(A) (resolves to axes with no dimension). */
const Type *type_eachindex(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    in->builtin = BI_RANGE;
    if (n == 1 && ty_is_array(a[0])) {
        in->builtin = BI_AXES_D; /* eachindex(A) == 1:length(A) (codegen: axes_d with no dim) */
        return ty_range(T(I), 0);
    }
    return infer_no_method(I, in, name, a, n);
}

/* firstindex of an array, tuple or range: 1 (resolves to one). */
const Type *type_firstindex(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    in->builtin = BI_ONE;
    if ((n == 1 && (ty_is_array(a[0]) || a[0]->kind == TY_TUPLE || a[0]->kind == TY_RANGE)) ||
        (n == 2 && ty_is_array(a[0]) && ty_is_int(a[1]))) {
        in->optype = prim(I, TY_INT64);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* lastindex(A), lastindex(t), lastindex(A, d) (resolve to length, tuple length, size). */
const Type *type_lastindex(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    in->builtin = BI_LENGTH;
    if (n == 1 && ty_is_array(a[0]))
        return prim(I, TY_INT64);
    if (n == 1 && a[0]->kind == TY_TUPLE) {
        in->builtin = BI_TUPLE_LENGTH;
        return prim(I, TY_INT64);
    }
    if (n == 2 && ty_is_array(a[0]) && ty_is_int(a[1])) {
        in->builtin = BI_SIZE_D;
        return prim(I, TY_INT64);
    }
    return infer_no_method(I, in, name, a, n);
}

/* sum prod maximum minimum of a tuple of numbers: the promoted type. */
const Type *type_tuple_reduce(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    /* sum(t) is +(t...) and prod(t) is *(t...) (base/tuple.jl); maximum/minimum fold max/min */
    if (n == 1 && a[0]->kind == TY_TUPLE && all_prim(a[0]->fields, a[0]->nfields)) {
        int nf = a[0]->nfields;
        if (nf == 0 && row->id == BI_PROD) {
            in->optype = prim(I, TY_INT64);
            return in->optype;
        }
        if (nf == 0) {
            infer_err(I, in->loc,
                      "MethodError: reducing over an empty collection is not allowed (%s of an empty tuple)", name);
            return NULL;
        }
        const Type *p = unify_prim_args(I, a[0]->fields, nf);
        if (p->kind == TY_BOOL && row->id == BI_SUM)
            p = prim(I, TY_INT64);
        in->optype = p;
        return p;
    }
    return infer_no_method(I, in, name, a, n);
}

/* pointer(A[, i]): Core.LLVMPtr{T, AS} to element i, unchecked as in Julia. */
const Type *type_pointer(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    /* pointer(A[, i]): Core.LLVMPtr{T, AS} to element i (1 by default), unchecked as in Julia */
    if ((n == 1 || (n == 2 && ty_is_int(a[1]) && a[1]->kind != TY_BOOL)) && ty_is_array(a[0]))
        return a[0]->step ? infer_no_method(I, in, name, a, n) /* no pointer type for private memory */
                          : ty_ptr(T(I), a[0]->elem, a[0]->kind == TY_LOCALARRAY);
    return infer_no_method(I, in, name, a, n);
}

/* unsafe_load(p[, i]): the element type. */
const Type *type_unsafe_load(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (a[0]->kind == TY_PTR && (n == 1 || (n == 2 && ty_is_int(a[1]) && a[1]->kind != TY_BOOL)))
        return a[0]->elem;
    return infer_no_method(I, in, name, a, n);
}

/* unsafe_store!(p, v[, i]) converts v and returns p. */
const Type *type_unsafe_store(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n >= 2 && a[0]->kind == TY_PTR && ty_is_prim(a[1]) &&
        (n == 2 || (n == 3 && ty_is_int(a[2]) && a[2]->kind != TY_BOOL))) {
        in->optype = a[0]->elem;
        return a[0];
    }
    return infer_no_method(I, in, name, a, n);
}

/* typeof(x): Type{T} for any x (a value known at compile time). */
const Type *type_typeof(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1)
        return ty_typeof_type(T(I), a[0]);
    return infer_no_method(I, in, name, a, n);
}
