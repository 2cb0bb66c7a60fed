/* builtins_iter.c: typing rules of the iterate protocol's helpers, which lowering calls by id for
 * `for x in itr` (Julia's lowering: next = iterate(itr); while next !== nothing ... end). The value
 * iterate returns is Union{Nothing, Tuple{V, S}} (TY_UNION), nothing or the tuple alone. */
#include "builtins.h"
#include "builtins_type.h"

/* #notnothing(next): Bool, `next !== nothing`. */
const Type *type_notnothing(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1)
        return prim(I, TY_BOOL);
    return infer_no_method(I, in, name, a, n);
}

/* x isa T: Bool; optype = T (emit_isa and infer.c's branch folding decide it from the types). */
const Type *type_isa(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && a[1]->kind == TY_TYPE && a[1]->elem) {
        in->optype = a[1]->elem;
        return prim(I, TY_BOOL);
    }
    return infer_no_method(I, in, name, a, n);
}

/* A <: B of two types: Bool, decided by the types (emit_subtype, and infer.c's branches) */
const Type *type_subtype(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && a[0]->kind == TY_TYPE && a[0]->elem && a[1]->kind == TY_TYPE && a[1]->elem)
        return prim(I, TY_BOOL);
    return infer_no_method(I, in, name, a, n);
}

/* #something(next): next as its non-nothing type, where `next !== nothing` holds. A result that is
 * always nothing (iterating an empty tuple) is reached by no loop body: typed Nothing. */
const Type *type_something(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1)
        return a[0]->kind == TY_UNION ? a[0]->elem : a[0];
    return infer_no_method(I, in, name, a, n);
}

/* #splat(x): x (splat.c expands the calls and tuples that use it into x's fields). */
const Type *type_splat(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1)
        return a[0];
    return infer_no_method(I, in, name, a, n);
}
