/* builtins_struct_emit.c: emit rules (LLVM IR) of struct values (rows in builtins.def). A struct is an
 * LLVM struct of its fields' types, in declaration order (docs/abi.md: its memory layout is the C layout
 * LLVM gives that struct, which is Julia's). */
#include <string.h>

#include "codegen_impl.h"

/* A field value of type from stored into a field of type to: Julia's convert (InexactError when not exact). */
static LLVMValueRef field_value(CG *g, IrInst *in, int k, const Type *to)
{
    const Type *from = vty(g, in->args[k]);
    LLVMValueRef v = val(g, in->args[k]);
    return from == to ? v : conv_checked(g, v, from, to, in->loc);
}

/* The LLVM value of `P(args...)` (the default constructor) or `#new(P, args...)`. */
LLVMValueRef emit_new(CG *g, IrInst *in)
{
    const Type *S = in->optype;
    int k0 = vty(g, in->args[0])->kind == TY_TYPE ? 1 : 2; /* P(x...) or #new(P, x...) */
    LLVMValueRef v = LLVMGetUndef(lt(g, S));
    for (int i = 0; i < S->nfields; i++)
        v = LLVMBuildInsertValue(g->b, v, field_value(g, in, k0 + i, S->fields[i]), (unsigned)i, "");
    return v;
}

/* The LLVM value of `#setfield(x, :f, v)`: x with field f replaced. */
LLVMValueRef emit_setfield(CG *g, IrInst *in)
{
    const Type *S = aty(g, in, 0);
    int fi = ty_field_index(S, aty(g, in, 1)->name);
    return LLVMBuildInsertValue(g->b, arg(g, in, 0), field_value(g, in, 3, S->fields[fi]), (unsigned)fi, "");
}

/* The LLVM value of `getfield(x, i)`: the field type_getfield chose. */
LLVMValueRef emit_getfield(CG *g, IrInst *in)
{
    return LLVMBuildExtractValue(g->b, arg(g, in, 0), (unsigned)in->ival, "");
}

/* The LLVM value of a call whose result is a type (or another value without bits). */
LLVMValueRef emit_ghost(CG *g, IrInst *in)
{
    (void)in;
    return unit_v(g);
}
