/* builtins_sync_emit.c: emit rules (LLVM IR) of barriers and local memory (rows in builtins.def). */
#include "codegen_impl.h"

/* sync_workgroup. */
LLVMValueRef emit_sync(CG *g, IrInst *in)
{
    g->ops->barrier(g->tc, g->b, in->loc);
    g->tc->uses_barrier = true;
    return unit_v(g);
}

/* static_local, dynamic_local. */
LLVMValueRef emit_local(CG *g, IrInst *in)
{
    return emit_local_array(g, in);
}
