/* builtins_iter_emit.c: emit rules of the iterate protocol's helpers (builtins_iter.c). A
 * Union{Nothing, T} is { i8 tag, T payload }: tag 1 holds a T, tag 0 is nothing (payload undefined),
 * as Julia keeps a small isbits union beside its selector byte. */
#include "codegen_impl.h"

/* x !== nothing for the call's argument that is a union or nothing (x !== nothing, nothing !== x,
 * #notnothing(x)); any other value is not nothing. */
static LLVMValueRef not_nothing(CG *g, IrInst *in)
{
    for (int k = 0; k < in->nargs - 1; k++) {
        const Type *t = aty(g, in, k);
        if (t->kind == TY_UNION) {
            LLVMValueRef tag = LLVMBuildExtractValue(g->b, arg(g, in, k), 0, "tag");
            return LLVMBuildICmp(g->b, LLVMIntNE, tag, LLVMConstInt(i8(g), 0, 0), "");
        }
    }
    return LLVMConstInt(i1(g), aty(g, in, 0)->kind != TY_NOTHING, 0);
}

/* The LLVM value of `#notnothing(next)` (and of x !== nothing). */
LLVMValueRef emit_notnothing(CG *g, IrInst *in)
{
    return not_nothing(g, in);
}

/* The LLVM value of `isnothing(x)` (and of x === nothing). */
LLVMValueRef emit_isnothing(CG *g, IrInst *in)
{
    return LLVMBuildNot(g->b, not_nothing(g, in), "");
}

/* The LLVM value of `x isa T`: a constant of x's type, but for a Union{Nothing, S} that only one of its
 * members satisfies, whose tag decides. */
LLVMValueRef emit_isa(CG *g, IrInst *in)
{
    const Type *t = aty(g, in, 0), *want = in->optype;
    if (t->kind != TY_UNION)
        return LLVMConstInt(i1(g), ty_subtype(t, want), 0);
    bool nothing = ty_subtype(ty_prim(g->types, TY_NOTHING), want), some = ty_subtype(t->elem, want);
    if (nothing == some)
        return LLVMConstInt(i1(g), nothing, 0);
    LLVMValueRef is_some = not_nothing(g, in);
    return some ? is_some : LLVMBuildNot(g->b, is_some, "");
}

/* The LLVM value of `A <: B`: a constant. */
LLVMValueRef emit_subtype(CG *g, IrInst *in)
{
    return LLVMConstInt(i1(g), ty_subtype(aty(g, in, 0)->elem, aty(g, in, 1)->elem), 0);
}

/* The LLVM value of `#something(next)`. */
LLVMValueRef emit_something(CG *g, IrInst *in)
{
    const Type *t = aty(g, in, 0);
    if (t->kind == TY_UNION)
        return LLVMBuildExtractValue(g->b, arg(g, in, 0), 1, "");
    return t->kind == TY_NOTHING ? unit_v(g) : arg(g, in, 0);
}

/* v, of type `from`, as a value of type `to` (a variable's or a function's result type): a T or
 * nothing into Union{Nothing, T} gets its tag; any other value is already of that type, but for a
 * throw's value (typed Nothing, never reached). */
LLVMValueRef union_coerce(CG *g, LLVMValueRef v, const Type *from, const Type *to)
{
    if (from->kind == TY_NOTHING && to->kind != TY_UNION && !is_unit(to))
        return LLVMGetUndef(lt(g, to)); /* the value of a throw(...), which never arrives */
    if (to->kind != TY_UNION || from == to)
        return v;
    LLVMValueRef u = LLVMGetUndef(lt(g, to));
    u = LLVMBuildInsertValue(g->b, u, LLVMConstInt(i8(g), from->kind != TY_NOTHING, 0), 0, "");
    if (from->kind != TY_NOTHING)
        u = LLVMBuildInsertValue(g->b, u, v, 1, "");
    return u;
}

/* The LLVM value of `#splat(x)`: x (its users read x's fields, splat.c). */
LLVMValueRef emit_splat(CG *g, IrInst *in)
{
    return arg(g, in, 0);
}
