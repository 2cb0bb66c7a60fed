/* builtins_arith_emit.c: emit rules (LLVM IR) of arithmetic, comparisons, bit operations, conversions and numeric
 * predicates (rows in builtins.def). */
#include "codegen_impl.h"

/* add, sub, mul. */
LLVMValueRef emit_arith(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    int n = in->nargs - 1;
    LLVMValueRef r = arg_as(g, in, 0, t);
    for (int k = 1; k < n; k++) {
        LLVMValueRef y = arg_as(g, in, k, t);
        if (ty_is_float(t))
            r = in->builtin == BI_ADD   ? LLVMBuildFAdd(g->b, r, y, "")
                : in->builtin == BI_SUB ? LLVMBuildFSub(g->b, r, y, "")
                                        : LLVMBuildFMul(g->b, r, y, "");
        else
            r = in->builtin == BI_ADD   ? LLVMBuildAdd(g->b, r, y, "")
                : in->builtin == BI_SUB ? LLVMBuildSub(g->b, r, y, "")
                                        : LLVMBuildMul(g->b, r, y, "");
    }
    return r;
}

/* neg. */
LLVMValueRef emit_neg(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return ty_is_float(t) ? LLVMBuildFNeg(g->b, arg_as(g, in, 0, t), "") : LLVMBuildNeg(g->b, arg_as(g, in, 0, t), "");
}

/* uplus. */
LLVMValueRef emit_uplus(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return t ? arg_as(g, in, 0, t) : arg(g, in, 0);
}

/* fdiv. */
LLVMValueRef emit_fdiv(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildFDiv(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
}

/* div, rem, mod, fld, cld. */
LLVMValueRef emit_idiv(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    if (ty_is_float(t))
        return emit_floatdiv(g, in, arg_as(g, in, 0, t), arg_as(g, in, 1, t));
    return emit_intdiv(g, in, t, arg_as(g, in, 0, t), arg_as(g, in, 1, t));
}

/* pow, literal_pow. */
LLVMValueRef emit_power(CG *g, IrInst *in)
{
    return emit_pow(g, in);
}

/* eq, ne, lt, le, gt, ge, egal, negal. */
LLVMValueRef emit_comparison(CG *g, IrInst *in)
{
    return emit_compare(g, in);
}

/* not. */
LLVMValueRef emit_not(CG *g, IrInst *in)
{
    return LLVMBuildNot(g->b, arg(g, in, 0), "");
}

/* bnot. */
LLVMValueRef emit_bnot(CG *g, IrInst *in)
{
    return LLVMBuildNot(g->b, arg(g, in, 0), "");
}

/* and. */
LLVMValueRef emit_and(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildAnd(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
}

/* or. */
LLVMValueRef emit_or(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildOr(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
}

/* xor. */
LLVMValueRef emit_xor(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildXor(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
}

/* shl, shr, lshr. */
LLVMValueRef emit_shifts(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return emit_shift(g, in->builtin, t, arg(g, in, 0), arg(g, in, 1), aty(g, in, 1));
}

/* ifelse. */
LLVMValueRef emit_ifelse(CG *g, IrInst *in)
{
    return LLVMBuildSelect(g->b, arg(g, in, 0), arg(g, in, 1), arg(g, in, 2), "");
}

/* convert. */
LLVMValueRef emit_convert(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    int n = in->nargs - 1;
    return conv_checked(g, arg(g, in, n - 1), aty(g, in, n - 1), t, in->loc);
}

/* modtype. */
LLVMValueRef emit_modtype(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return conv_wrap(g, arg(g, in, 0), aty(g, in, 0), t);
}

/* unsafe_trunc. */
LLVMValueRef emit_unsafe_trunc(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return conv_wrap(g, arg(g, in, 1), aty(g, in, 1), t);
}

/* trunc, round, floor, ceil. */
LLVMValueRef emit_rounding(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    int n = in->nargs - 1;
    static const char *names[] = {
        [BI_TRUNC] = "llvm.trunc", [BI_ROUND] = "llvm.roundeven", [BI_FLOOR] = "llvm.floor", [BI_CEIL] = "llvm.ceil"};
    LLVMValueRef x = arg(g, in, n - 1);
    const Type *xt = aty(g, in, n - 1);
    if (ty_is_float(xt))
        x = intr1(g, names[in->builtin], x);
    return t ? conv_checked(g, x, xt, t, in->loc) : x;
}

/* abs. */
LLVMValueRef emit_abs(CG *g, IrInst *in)
{
    const Type *rt = in->type;
    LLVMValueRef x = arg(g, in, 0);
    if (ty_is_float(rt))
        return intr1(g, "llvm.fabs", x);
    if (!ty_is_signed(rt))
        return x;
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, x, LLVMConstInt(LLVMTypeOf(x), 0, 0), ""),
                           LLVMBuildNeg(g->b, x, ""), x, "");
}

/* sign. */
LLVMValueRef emit_sign(CG *g, IrInst *in)
{
    const Type *rt = in->type;
    LLVMValueRef x = arg(g, in, 0);
    LLVMTypeRef lty = LLVMTypeOf(x);
    if (ty_is_float(rt)) {
        LLVMValueRef zero = LLVMConstReal(lty, 0);
        LLVMValueRef keep = LLVMBuildFCmp(g->b, LLVMRealUEQ, x, zero, ""); /* 0, -0 or NaN: itself */
        return LLVMBuildSelect(g->b, keep, x, intr2(g, "llvm.copysign", LLVMConstReal(lty, 1), x), "");
    }
    if (rt->kind == TY_BOOL)
        return x;
    LLVMValueRef zero = LLVMConstInt(lty, 0, 0);
    LLVMValueRef pos =
        LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, ty_is_signed(rt) ? LLVMIntSGT : LLVMIntUGT, x, zero, ""), lty, "");
    if (!ty_is_signed(rt))
        return pos;
    return LLVMBuildSub(g->b, pos, LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, x, zero, ""), lty, ""), "");
}

/* min, max. */
LLVMValueRef emit_min_max(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    int n = in->nargs - 1;
    LLVMValueRef r = arg_as(g, in, 0, t);
    for (int k = 1; k < n; k++)
        r = emit_minmax(g, in->builtin == BI_MAX, t, r, arg_as(g, in, k, t));
    return r;
}

/* clamp. */
LLVMValueRef emit_clamp(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef x = arg_as(g, in, 0, t), lo = arg_as(g, in, 1, t), hi = arg_as(g, in, 2, t);
    LLVMValueRef gt = emit_cmp(g, BI_GT, t, x, hi), ltv = emit_cmp(g, BI_LT, t, x, lo);
    return LLVMBuildSelect(g->b, gt, hi, LLVMBuildSelect(g->b, ltv, lo, x, ""), "");
}

/* iseven, isodd. */
LLVMValueRef emit_parity(CG *g, IrInst *in)
{
    LLVMValueRef bit = LLVMBuildTrunc(g->b, arg(g, in, 0), i1(g), "");
    return in->builtin == BI_ISODD ? bit : LLVMBuildNot(g->b, bit, "");
}

/* copysign. */
LLVMValueRef emit_copysign(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef x = arg(g, in, 0);
    if (ty_is_float(t)) {
        const Type *yt = aty(g, in, 1);
        LLVMValueRef y = ty_is_float(yt) ? conv_wrap(g, arg(g, in, 1), yt, t)
                                         : LLVMBuildSIToFP(g->b, arg(g, in, 1), prim_t(g, t), "");
        return intr2(g, "llvm.copysign", x, y);
    }
    if (!ty_is_signed(t))
        return x;
    const Type *yt = aty(g, in, 1);
    LLVMValueRef yneg =
        ty_is_float(yt)
            ? LLVMBuildFCmp(g->b, LLVMRealOLT, arg(g, in, 1), LLVMConstReal(LLVMTypeOf(arg(g, in, 1)), 0), "")
        : ty_is_signed(yt)
            ? LLVMBuildICmp(g->b, LLVMIntSLT, arg(g, in, 1), LLVMConstInt(LLVMTypeOf(arg(g, in, 1)), 0, 0), "")
            : LLVMConstInt(i1(g), 0, 0);
    LLVMValueRef xneg = LLVMBuildICmp(g->b, LLVMIntSLT, x, LLVMConstInt(LLVMTypeOf(x), 0, 0), "");
    return LLVMBuildSelect(g->b, LLVMBuildXor(g->b, xneg, yneg, ""), LLVMBuildNeg(g->b, x, ""), x, "");
}

/* signbit, isnan, isinf, isfinite. */
LLVMValueRef emit_fpred(CG *g, IrInst *in)
{
    const Type *xt = aty(g, in, 0);
    LLVMValueRef x = arg(g, in, 0);
    if (!ty_is_float(xt)) {
        if (in->builtin == BI_SIGNBIT)
            return signbit_of(g, x, xt);
        return LLVMConstInt(i1(g), in->builtin == BI_ISFINITE, 0);
    }
    if (in->builtin == BI_SIGNBIT)
        return signbit_of(g, x, xt);
    if (in->builtin == BI_ISNAN)
        return LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, "");
    LLVMValueRef ax = intr1(g, "llvm.fabs", x), inf = LLVMConstReal(LLVMTypeOf(x), INFINITY);
    return in->builtin == BI_ISINF ? LLVMBuildFCmp(g->b, LLVMRealOEQ, ax, inf, "")
                                   : LLVMBuildFCmp(g->b, LLVMRealOLT, ax, inf, "");
}

/* zero, one, typemin, typemax, eps. */
LLVMValueRef emit_typeval(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return typeval(g, in->builtin, t);
}

/* abs2. */
LLVMValueRef emit_abs2(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef x = arg(g, in, 0);
    if (ty_is_float(t))
        return LLVMBuildFMul(g->b, x, x, "");
    return t->kind == TY_BOOL ? x : LLVMBuildMul(g->b, x, x, "");
}

/* inv. */
LLVMValueRef emit_inv(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildFDiv(g->b, fconst(g, t, 1), arg_as(g, in, 0, t), "");
}

/* flipsign. */
LLVMValueRef emit_flipsign(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef x = arg_as(g, in, 0, t);
    LLVMValueRef nx = ty_is_float(t) ? LLVMBuildFNeg(g->b, x, "") : LLVMBuildNeg(g->b, x, "");
    return LLVMBuildSelect(g->b, signbit_of(g, arg(g, in, 1), aty(g, in, 1)), nx, x, "");
}

/* leading_zeros, trailing_zeros, count_ones, count_zeros. */
LLVMValueRef emit_bitcount(CG *g, IrInst *in)
{
    LLVMValueRef x = arg(g, in, 0), r;
    LLVMTypeRef xt = LLVMTypeOf(x);
    if (in->builtin == BI_LEADING_ZEROS || in->builtin == BI_TRAILING_ZEROS)
        r = intrinsic(g, in->builtin == BI_LEADING_ZEROS ? "llvm.ctlz" : "llvm.cttz", &xt, 1,
                      (LLVMValueRef[]){x, LLVMConstInt(i1(g), 0, 0)}, 2);
    else
        r = intr1(g, "llvm.ctpop", x);
    if (in->builtin == BI_COUNT_ZEROS)
        r = LLVMBuildSub(g->b, LLVMConstInt(xt, LLVMGetIntTypeWidth(xt), 0), r, "");
    return LLVMGetIntTypeWidth(xt) == 64 ? r : LLVMBuildZExt(g->b, r, i64(g), "");
}

/* bswap. */
LLVMValueRef emit_bswap(CG *g, IrInst *in)
{
    const Type *rt = in->type;
    LLVMValueRef x = arg(g, in, 0);
    return rt->bits <= 8 ? x : intr1(g, "llvm.bswap", x);
}

/* reinterpret. */
LLVMValueRef emit_reinterpret(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    const Type *xt = aty(g, in, 1);
    LLVMValueRef x = arg(g, in, 1);
    if (xt == t)
        return x;
    if (xt->kind == TY_BOOL)
        x = LLVMBuildZExt(g->b, x, i8(g), "");
    return LLVMBuildBitCast(g->b, x, prim_t(g, t), "");
}

/* nextfloat, prevfloat. */
LLVMValueRef emit_next_prev_float(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return emit_nextfloat(g, t, arg(g, in, 0), in->builtin == BI_NEXTFLOAT);
}
