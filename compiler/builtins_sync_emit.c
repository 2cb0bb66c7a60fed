/* builtins_sync_emit.c: emit rules (LLVM IR) of barriers and local memory (rows in builtins.def). */
#include "codegen_impl.h"

static LLVMValueRef linear_item_and_size(CG *g, LLVMValueRef *size)
{
    LLVMValueRef id = ci32(g, 0), sz = ci32(g, 1);
    for (int d = 2; d >= 0; d--) {
        LLVMValueRef dim = g->ops->workgroup_dim(g->tc, g->b, d);
        id = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, id, dim, ""), g->ops->workitem_id(g->tc, g->b, d), "");
        sz = LLVMBuildMul(g->b, sz, dim, "");
    }
    *size = LLVMBuildZExt(g->b, sz, i64(g), "");
    return LLVMBuildZExt(g->b, id, i64(g), "");
}

/* zeroinit: the group's work-items clear the array together, then meet at a barrier. */
static void zero_fill(CG *g, LLVMValueRef ptr, const Type *elem, LLVMValueRef len, SrcLoc loc)
{
    LLVMValueRef step;
    LLVMValueRef start = linear_item_and_size(g, &step);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "zero.loop");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "zero.body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "zero.done");
    LLVMBuildBr(g->b, loop);
    LLVMPositionBuilderAtEnd(g->b, loop);
    LLVMValueRef k = LLVMBuildPhi(g->b, i64(g), "");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, k, len, ""), body, done);
    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, mem_t(g, elem), ptr, &k, 1, "");
    LLVMSetAlignment(LLVMBuildStore(g->b, LLVMConstNull(mem_t(g, elem)), p), elem_align(elem));
    LLVMValueRef next = LLVMBuildAdd(g->b, k, step, "");
    LLVMBuildBr(g->b, loop);
    LLVMAddIncoming(k, &start, &pre, 1);
    LLVMAddIncoming(k, &next, &body, 1);
    LLVMPositionBuilderAtEnd(g->b, done);
    g->ops->barrier(g->tc, g->b, loc);
    g->tc->uses_barrier = true;
}

LLVMValueRef emit_local(CG *g, IrInst *in)
{
    const Type *at = in->type, *elem = at->elem;
    LLVMValueRef dims[8];
    LLVMValueRef ptr, cap = NULL;
    int nd = at->ndims;
    LLVMValueRef zi = arg(g, in, 2);
    bool zeroinit = !LLVMIsAConstantInt(zi) || LLVMConstIntGetZExtValue(zi) != 0;
    if (in->builtin == BI_STATIC_LOCAL) {
        int64_t cd[8];
        infer_const_dims(g->f, in->args[2], cd, 8);
        uint64_t count = 1;
        for (int k = 0; k < nd; k++) {
            dims[k] = ci64(g, cd[k]);
            count *= (uint64_t)cd[k];
        }
        unsigned align = elem_align(elem) < 16 ? 16 : elem_align(elem);
        ptr = g->ops->static_local(g->tc, g->b, "local", count * elem_align(elem), align);
    } else {
        const Type *dt = aty(g, in, 1);
        const Type *i64t = ty_prim(g->types, TY_INT64);
        if (dt->kind == TY_TUPLE) {
            for (int k = 0; k < nd; k++)
                dims[k] =
                    conv_wrap(g, LLVMBuildExtractValue(g->b, arg(g, in, 1), (unsigned)k, ""), dt->fields[k], i64t);
        } else {
            dims[0] = conv_wrap(g, arg(g, in, 1), dt, i64t);
        }
        /* a negative extent is an empty one, as Base.OneTo(n) makes it */
        for (int k = 0; k < nd; k++)
            dims[k] = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, dims[k], ci64(g, 0), ""), ci64(g, 0),
                                      dims[k], "");
        ptr = g->ops->dynamic_local(g->tc, g->b);
        cap = LLVMBuildUDiv(g->b, g->ops->dynamic_local_bytes(g->tc, g->b), ci64(g, elem_align(elem)), "");
        g->tc->uses_dynamic_lds = true;
    }
    LLVMValueRef a = make_array(g, at, ptr, dims, nd, cap);
    if (zeroinit) {
        /* only what the launch allocated, however much the array declares */
        LLVMValueRef len = arr_len(g, a), n = cap ? arr_cap(g, a) : len;
        if (cap)
            n = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, len, n, ""), len, n, "");
        zero_fill(g, ptr, elem, n, in->loc);
    }
    return a;
}

/* The LLVM value of `sync_workgroup`. */
LLVMValueRef emit_sync(CG *g, IrInst *in)
{
    g->ops->barrier(g->tc, g->b, in->loc);
    g->tc->uses_barrier = true;
    return unit_v(g);
}

/* @private T dims: an array of the work-item's own, in an alloca of the function's entry block (so a
 * loop does not grow the stack), not initialised (as KernelAbstractions' MArray). */
LLVMValueRef emit_private(CG *g, IrInst *in)
{
    const Type *at = in->type, *elem = at->elem;
    int64_t cd[8];
    LLVMValueRef dims[8];
    int nd = infer_const_dims(g->f, in->args[2], cd, 8);
    uint64_t count = 1;
    for (int k = 0; k < nd && k < at->ndims; k++) {
        dims[k] = ci64(g, cd[k]);
        count *= (uint64_t)cd[k];
    }
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(g->ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(g->entry);
    if (first)
        LLVMPositionBuilderBefore(eb, first);
    else
        LLVMPositionBuilderAtEnd(eb, g->entry);
    LLVMValueRef mem = LLVMBuildAlloca(eb, LLVMArrayType2(mem_t(g, elem), count ? count : 1), "private");
    LLVMSetAlignment(mem, elem_align(elem) < 16 ? 16 : elem_align(elem));
    LLVMDisposeBuilder(eb);
    LLVMTypeRef want = LLVMPointerTypeInContext(g->ctx, g->ops->as_private);
    if (LLVMTypeOf(mem) != want)
        mem = LLVMBuildAddrSpaceCast(g->b, mem, want, "");
    return make_array(g, at, mem, dims, at->ndims, ci64(g, (int64_t)count));
}
