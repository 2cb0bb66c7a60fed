/* builtins_atomic_emit.c: emit rules (LLVM IR) of atomics (rows in builtins.def). */
#include "codegen_impl.h"

/* atomic_add, atomic_sub, atomic_and, atomic_or, atomic_xor, atomic_max, atomic_min, atomic_xchg. */
LLVMValueRef emit_atomic_rmw(CG *g, IrInst *in)
{
    return emit_atomic(g, in);
}

/* atomic_cas. */
LLVMValueRef emit_atomic_cas(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    const Type *pt = aty(g, in, 0);
    LLVMValueRef c = conv_checked(g, arg(g, in, 1), aty(g, in, 1), t, in->loc);
    LLVMValueRef nv = conv_checked(g, arg(g, in, 2), aty(g, in, 2), t, in->loc);
    return atomic_cas(g, t, ptr_as(g, pt), arg(g, in, 0), c, nv);
}
