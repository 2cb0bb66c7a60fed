/* builtins_memory_emit.c: emit rules (LLVM IR) of memory built-ins (rows in builtins.def): sizeof, memcpy!,
 * memset!, reshape and view. reshape and view make array values over the parent's memory (codegen.c's
 * layout: { ptr, [N x i64] dims, i64 length[, i64 allocated] }); their dims are checked when they are made,
 * and indexing them checks against those dims as for any array. */
#include "codegen_impl.h"

/* The bytes of a value of type t: Julia's sizeof. */
static int64_t size_of(const Type *t)
{
    if (ty_is_prim(t))
        return t->bits / 8;
    if (t->kind == TY_COMPLEX)
        return 2 * (t->elem->bits / 8);
    if (t->kind == TY_NOTHING)
        return 0;
    if (t->kind == TY_PTR)
        return 8;
    return ty_arg_size(t);
}

/* sizeof(T), sizeof(x): a constant; for an array, length(A) * sizeof(eltype(A)). */
LLVMValueRef emit_sizeof(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    if (ty_is_array(t))
        return LLVMBuildMul(g->b, arr_len(g, arg(g, in, 0)), ci64(g, size_of(t->elem)), "");
    return ci64(g, size_of(t));
}

/* memcpy!(dst, src, nbytes), memset!(dst, value, nbytes): LLVM's memcpy / memset, unchecked as AMDGPU.jl's. */
LLVMValueRef emit_memcpy(CG *g, IrInst *in)
{
    LLVMValueRef n = conv_wrap(g, arg(g, in, 2), aty(g, in, 2), ty_prim(g->types, TY_INT64));
    if (in->builtin == BI_MEMCPY)
        LLVMBuildMemCpy(g->b, arg(g, in, 0), 1, arg(g, in, 1), 1, n);
    else
        LLVMBuildMemSet(g->b, arg(g, in, 0), arg(g, in, 1), n, 1);
    return unit_v(g);
}

/* An array value of type at over ptr with these dims; allocated: the elements a dynamic local array may
 * reach from ptr (local arrays only). */
static LLVMValueRef array_value(CG *g, const Type *at, LLVMValueRef ptr, LLVMValueRef *dims, int nd,
                                LLVMValueRef allocated)
{
    LLVMValueRef v = LLVMGetUndef(array_t(g, at)), len = ci64(g, 1);
    LLVMValueRef darr = LLVMGetUndef(LLVMArrayType2(i64(g), (uint64_t)nd));
    for (int k = 0; k < nd; k++) {
        darr = LLVMBuildInsertValue(g->b, darr, dims[k], (unsigned)k, "");
        len = LLVMBuildMul(g->b, len, dims[k], "");
    }
    v = LLVMBuildInsertValue(g->b, v, ptr, 0, "");
    v = LLVMBuildInsertValue(g->b, v, darr, 1, "");
    v = LLVMBuildInsertValue(g->b, v, len, 2, "");
    if (at->kind == TY_LOCALARRAY)
        v = LLVMBuildInsertValue(g->b, v, allocated, 3, "");
    return v;
}

/* reshape(A, dims...): DimensionMismatch unless every dim is >= 0 and their product is length(A). */
LLVMValueRef emit_reshape(CG *g, IrInst *in)
{
    const Type *at = aty(g, in, 0), *rt = in->type, *i64t = ty_prim(g->types, TY_INT64);
    LLVMValueRef a = arg(g, in, 0), dims[JUKE_EXC_MAXDIMS];
    int nd = rt->ndims;
    const Type *tt = aty(g, in, 1);
    for (int k = 0; k < nd; k++)
        dims[k] = tt->kind == TY_TUPLE
                      ? conv_wrap(g, LLVMBuildExtractValue(g->b, arg(g, in, 1), (unsigned)k, ""), tt->fields[k], i64t)
                      : conv_wrap(g, arg(g, in, k + 1), aty(g, in, k + 1), i64t);
    LLVMValueRef prod = ci64(g, 1), neg = LLVMConstInt(i1(g), 0, 0), len = arr_len(g, a);
    for (int k = 0; k < nd; k++) {
        prod = LLVMBuildMul(g->b, prod, dims[k], "");
        neg = LLVMBuildOr(g->b, neg, LLVMBuildICmp(g->b, LLVMIntSLT, dims[k], ci64(g, 0), ""), "");
    }
    LLVMValueRef bad = LLVMBuildOr(g->b, neg, LLVMBuildICmp(g->b, LLVMIntNE, prod, len, ""), "");
    check(g, bad, JUKE_EXC_DIMENSION, in->loc, nd, dims, 1, &len, 0);
    return array_value(g, rt, arr_ptr(g, a), dims, nd, at->kind == TY_LOCALARRAY ? arr_cap(g, a) : NULL);
}

/* view(A, I...): BoundsError unless every index lies within its dimension (an empty range anywhere in
 * 1:size(A, d) + 1, as Julia allows). */
LLVMValueRef emit_view(CG *g, IrInst *in)
{
    const Type *at = aty(g, in, 0), *rt = in->type, *i64t = ty_prim(g->types, TY_INT64);
    LLVMValueRef a = arg(g, in, 0), dims[JUKE_EXC_MAXDIMS], idx[JUKE_EXC_MAXDIMS], pdims[JUKE_EXC_MAXDIMS];
    LLVMValueRef off = ci64(g, 0), stride = ci64(g, 1), bad = LLVMConstInt(i1(g), 0, 0);
    int nd = 0, n = at->ndims;
    for (int d = 0; d < n && d < JUKE_EXC_MAXDIMS; d++) {
        const Type *it = aty(g, in, d + 1);
        LLVMValueRef dim = arr_dim(g, a, d);
        pdims[d] = dim;
        if (it->kind == TY_FUNCTION) { /* `:` */
            dims[nd++] = dim;
            idx[d] = dim;
        } else if (it->kind == TY_RANGE) {
            LLVMValueRef r = arg(g, in, d + 1);
            LLVMValueRef start = LLVMBuildExtractValue(g->b, r, 0, ""), stop = LLVMBuildExtractValue(g->b, r, 2, "");
            LLVMValueRef count = LLVMBuildAdd(g->b, LLVMBuildSub(g->b, stop, start, ""), ci64(g, 1), "");
            LLVMValueRef empty = LLVMBuildICmp(g->b, LLVMIntSLT, count, ci64(g, 1), "");
            count = LLVMBuildSelect(g->b, empty, ci64(g, 0), count, "");
            /* non-empty: 1 <= start and stop <= dim; empty: 1 <= start <= dim + 1 */
            LLVMValueRef lo = LLVMBuildICmp(g->b, LLVMIntSLT, start, ci64(g, 1), "");
            LLVMValueRef hi = LLVMBuildSelect(
                g->b, empty, LLVMBuildICmp(g->b, LLVMIntSGT, start, LLVMBuildAdd(g->b, dim, ci64(g, 1), ""), ""),
                LLVMBuildICmp(g->b, LLVMIntSGT, stop, dim, ""), "");
            bad = LLVMBuildOr(g->b, bad, LLVMBuildOr(g->b, lo, hi, ""), "");
            idx[d] = LLVMBuildSelect(g->b, lo, start, stop, "");
            dims[nd++] = count;
            off =
                LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, LLVMBuildSub(g->b, start, ci64(g, 1), ""), stride, ""), "");
        } else {
            LLVMValueRef k = conv_wrap(g, arg(g, in, d + 1), it, i64t);
            bad = LLVMBuildOr(g->b, bad,
                              LLVMBuildOr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, k, ci64(g, 1), ""),
                                          LLVMBuildICmp(g->b, LLVMIntSGT, k, dim, ""), ""),
                              "");
            idx[d] = k;
            off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, LLVMBuildSub(g->b, k, ci64(g, 1), ""), stride, ""), "");
        }
        stride = LLVMBuildMul(g->b, stride, dim, "");
    }
    check(g, bad, JUKE_EXC_BOUNDS, in->loc, n, idx, n, pdims, bounds_aux(at));
    LLVMValueRef p = LLVMBuildGEP2(g->b, mem_t(g, at->elem), arr_ptr(g, a), &off, 1, "");
    LLVMValueRef allocated = at->kind == TY_LOCALARRAY ? LLVMBuildSub(g->b, arr_cap(g, a), off, "") : NULL;
    (void)rt;
    return array_value(g, rt, p, dims, nd, allocated);
}

/* get_global_pointer(Val(:name), T): the LLVM global `name` (the name AMDGPU.jl gives it, so a host finds it
 * by that name), of mem_t(T), in the target's global address space, zero-initialised and external. */
LLVMValueRef emit_global_pointer(CG *g, IrInst *in)
{
    const char *name = aty(g, in, 0)->params[0]->name + 1;
    LLVMTypeRef t = mem_t(g, in->optype);
    LLVMValueRef gv = LLVMGetNamedGlobal(g->mod, name);
    if (!gv && LLVMGetNamedFunction(g->mod, name)) {
        diag_error(g->d, in->loc, "get_global_pointer: `%s` is already the name of a function in the code object",
                   name);
        g->failed = true;
        return LLVMConstNull(lt(g, in->type));
    }
    if (gv && LLVMGlobalGetValueType(gv) != t) {
        diag_error(g->d, in->loc, "get_global_pointer: the device global `%s` has another type elsewhere in the kernel",
                   name);
        g->failed = true;
        return LLVMConstNull(lt(g, in->type));
    }
    if (!gv) {
        gv = LLVMAddGlobalInAddressSpace(g->mod, t, name, g->ops->as_global);
        LLVMSetInitializer(gv, LLVMConstNull(t));
        LLVMSetLinkage(gv, LLVMExternalLinkage);
        LLVMSetAlignment(gv, elem_align(in->optype));
    }
    return gv;
}
