/* builtins_index_emit.c: emit rules (LLVM IR) of ranges and the work-item index intrinsics (rows in builtins.def). */
#include "codegen_impl.h"

static LLVMValueRef dim3(CG *g, LLVMValueRef (*hook)(TargetCtx *, LLVMBuilderRef, int), int plus, bool times_dim)
{
    LLVMValueRef r = LLVMGetUndef(lt(g, ty_prim(g->types, TY_DIM3)));
    for (int d = 0; d < 3; d++) {
        LLVMValueRef v = LLVMBuildZExt(g->b, hook(g->tc, g->b, d), i64(g), "");
        if (times_dim)
            v = LLVMBuildMul(g->b, v, LLVMBuildZExt(g->b, g->ops->workgroup_dim(g->tc, g->b, d), i64(g), ""), "");
        if (plus)
            v = LLVMBuildAdd(g->b, v, ci64(g, plus), "");
        r = LLVMBuildInsertValue(g->b, r, v, (unsigned)d, "");
    }
    return r;
}

/* The LLVM value of `a:b`. */
LLVMValueRef emit_range(CG *g, IrInst *in)
{
    return unit_range(g, arg_as(g, in, 0, ty_prim(g->types, TY_INT64)), arg_as(g, in, 1, ty_prim(g->types, TY_INT64)));
}

/* The LLVM value of `a:s:b`. */
LLVMValueRef emit_steprange(CG *g, IrInst *in)
{
    const Type *i64t = ty_prim(g->types, TY_INT64);
    LLVMValueRef a = arg_as(g, in, 0, i64t), s = arg_as(g, in, 1, i64t), b = arg_as(g, in, 2, i64t);
    /* Julia's steprange_last: the last element actually reached, or start - step when empty */
    LLVMValueRef s0 = LLVMBuildICmp(g->b, LLVMIntEQ, s, ci64(g, 0), "");
    check(g, s0, JUKE_EXC_DIVIDE, in->loc, 0, NULL, 0, NULL, 0);
    LLVMValueRef empty =
        LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, s, ci64(g, 0), ""),
                        LLVMBuildICmp(g->b, LLVMIntSLT, b, a, ""), LLVMBuildICmp(g->b, LLVMIntSGT, b, a, ""), "");
    LLVMValueRef last = LLVMBuildSub(g->b, b, LLVMBuildSRem(g->b, LLVMBuildSub(g->b, b, a, ""), s, ""), "");
    return make_range(g, a, s, LLVMBuildSelect(g->b, empty, LLVMBuildSub(g->b, a, s, ""), last, ""));
}

/* The LLVM value of `first`, `step` and `last`. */
LLVMValueRef emit_rangefn(CG *g, IrInst *in)
{
    const Type *rt = in->type;
    /* ranges are stored as three Int64s; the result has the range's element type */
    unsigned field = in->builtin == BI_FIRST ? 0 : in->builtin == BI_STEP ? 1 : 2;
    return conv_wrap(g, LLVMBuildExtractValue(g->b, arg(g, in, 0), field, ""), ty_prim(g->types, TY_INT64), rt);
}

/* The LLVM value of `in`. */
LLVMValueRef emit_in(CG *g, IrInst *in)
{
    int n = in->nargs - 1;
    if (n == 1)
        return range_nonempty(g, arg(g, in, 0));
    LLVMValueRef x = arg_as(g, in, 0, ty_prim(g->types, TY_INT64)), r = arg(g, in, 1);
    LLVMValueRef start = LLVMBuildExtractValue(g->b, r, 0, ""), step = LLVMBuildExtractValue(g->b, r, 1, "");
    LLVMValueRef stop = LLVMBuildExtractValue(g->b, r, 2, "");
    LLVMValueRef up = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, x, start, ""),
                                   LLVMBuildICmp(g->b, LLVMIntSLE, x, stop, ""), "");
    LLVMValueRef down = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntSLE, x, start, ""),
                                     LLVMBuildICmp(g->b, LLVMIntSGE, x, stop, ""), "");
    LLVMValueRef inr = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, step, ci64(g, 0), ""), up, down, "");
    if (aty(g, in, 1)->step) {
        LLVMValueRef ss =
            LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, step, ci64(g, 0), ""), ci64(g, 1), step, "");
        inr = LLVMBuildAnd(g->b, inr,
                           LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildSRem(g->b, LLVMBuildSub(g->b, x, start, ""), ss, ""),
                                         ci64(g, 0), ""),
                           "");
    }
    return inr;
}

/* v (a target's call or load of an id or a size) with !range [lo, hi). */
static LLVMValueRef md_range(TargetCtx *tc, LLVMValueRef v, uint64_t lo, uint64_t hi)
{
    if (LLVMIsACallInst(v) || LLVMIsALoadInst(v)) {
        LLVMTypeRef t = LLVMTypeOf(v);
        LLVMMetadataRef r[2] = { LLVMValueAsMetadata(LLVMConstInt(t, lo, 0)),
                                 LLVMValueAsMetadata(LLVMConstInt(t, hi, 0)) };
        LLVMSetMetadata(v, LLVMGetMDKindIDInContext(tc->llctx, "range", 5),
                        LLVMMetadataAsValue(tc->llctx, LLVMMDNodeInContext2(tc->llctx, r, 2)));
    }
    return v;
}

/* The ids and sizes of the 32-bit class's variant with their ranges as metadata, which juke's own passes
 * read (checkopt.c, narrow.c: a target intrinsic's range attribute is out of the C API's reach): a
 * work-item id is below 1024, a group's size in [1, 1024], and, in the small-grid variant, a workgroup id
 * below 2^20 (the launch's class). */
static LLVMValueRef ranged_item_id(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    /* not on AMDGPU, whose backend bounds the id by the kernel's flat workgroup size itself: with the
     * metadata, the checked vadd's same-shape kernel took 40 instructions on gfx90a instead of 31 */
    LLVMValueRef v = tc->ops->workitem_id(tc, b, d);
    return tc->opts->kind == TARGET_AMDGPU ? v : md_range(tc, v, 0, 1024);
}
static LLVMValueRef ranged_group_dim(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    return md_range(tc, tc->ops->workgroup_dim(tc, b, d), 1, 1025);
}
static LLVMValueRef small_grid_id(TargetCtx *tc, LLVMBuilderRef b, int d)
{
    /* a GPU's id keeps the bound to juke's own pass (narrow.c knows its intrinsic): given to LLVM, it
     * narrows the index arithmetic, which moved diffusion2d's ctaid.x * ntid.x off the H200's uniform
     * datapath and cost its @inbounds kernel 1 % (bench/RESULTS.md §15) */
    LLVMValueRef v = tc->ops->workgroup_id(tc, b, d);
    return tc->ops->group_id_intrinsic ? v : md_range(tc, v, 0, SMALL_GRID_MAX);
}

/* Work-item d's workgroup id and id in its group (0-based, i32) as workgroupIdx and workitemIdx see them, with
 * the class's ranges: other uses (an exception's record) must carry the same, or LLVM's CSE of the two calls
 * drops the ranges. */
LLVMValueRef class_group_id(CG *g, int d)
{
    return (g->tc->opts->small_grid ? small_grid_id : g->ops->workgroup_id)(g->tc, g->b, d);
}
LLVMValueRef class_item_id(CG *g, int d)
{
    return (g->tc->opts->index32 ? ranged_item_id : g->ops->workitem_id)(g->tc, g->b, d);
}

/* The LLVM value of `workitemIdx`. */
LLVMValueRef emit_workitemidx(CG *g, IrInst *in)
{
    (void)in;
    return dim3(g, g->tc->opts->index32 ? ranged_item_id : g->ops->workitem_id, 1, false);
}

/* The LLVM value of `workgroupIdx`. */
LLVMValueRef emit_workgroupidx(CG *g, IrInst *in)
{
    (void)in;
    return dim3(g, g->tc->opts->small_grid ? small_grid_id : g->ops->workgroup_id, 1, false);
}

/* The LLVM value of `workgroupDim`. */
LLVMValueRef emit_workgroupdim(CG *g, IrInst *in)
{
    (void)in;
    return dim3(g, g->tc->opts->index32 ? ranged_group_dim : g->ops->workgroup_dim, 0, false);
}

/* The LLVM value of `gridGroupDim`. */
LLVMValueRef emit_gridgroupdim(CG *g, IrInst *in)
{
    (void)in;
    return dim3(g, g->ops->grid_groups, 0, false);
}

/* The LLVM value of `gridItemDim`. */
LLVMValueRef emit_griditemdim(CG *g, IrInst *in)
{
    (void)in;
    return dim3(g, g->ops->grid_groups, 0, true);
}
