/* builtins_arith_emit.c: emit rules (LLVM IR) of arithmetic, comparisons, bit operations, conversions and numeric
 * predicates (rows in builtins.def). */
#include "codegen_impl.h"

/* typemin and typemax of a signed integer type of up to 128 bits, as LLVM constants. */
static LLVMValueRef signed_min(CG *g, const Type *t)
{
    uint64_t w[2] = { t->bits < 64    ? 1ULL << (t->bits - 1)
                      : t->bits == 64 ? 1ULL << 63
                                      : 0,
                      t->bits == 128 ? 1ULL << 63 : 0 };
    return LLVMConstIntOfArbitraryPrecision(prim_t(g, t), 2, w);
}
static LLVMValueRef signed_max(CG *g, const Type *t)
{
    uint64_t w[2] = { t->bits < 64    ? (1ULL << (t->bits - 1)) - 1
                      : t->bits == 64 ? ~0ULL >> 1
                                      : ~0ULL,
                      t->bits == 128 ? ~0ULL >> 1 : 0 };
    return LLVMConstIntOfArbitraryPrecision(prim_t(g, t), 2, w);
}


/* The integer division family (Julia semantics, DivideError checks). */
static LLVMValueRef emit_intdiv(CG *g, IrInst *in, const Type *t, LLVMValueRef x, LLVMValueRef y)
{
    bool sg = ty_is_signed(t);
    LLVMTypeRef lty = LLVMTypeOf(x);
    LLVMValueRef zero = LLVMConstInt(lty, 0, 0), one = LLVMConstInt(lty, 1, 0);
    LLVMValueRef fail = LLVMBuildICmp(g->b, LLVMIntEQ, y, zero, "");
    LLVMValueRef minus1 = sg ? LLVMBuildICmp(g->b, LLVMIntEQ, y, LLVMConstAllOnes(lty), "") : NULL;
    if (t->kind == TY_BOOL) {
        /* Bool ÷ Bool: y must be true */
        check(g, fail, JUKE_EXC_DIVIDE, in->loc, 0, NULL, 0, NULL, 0);
        return in->builtin == BI_REM || in->builtin == BI_MOD ? LLVMConstInt(lty, 0, 0) : x;
    }
    /* y may be -1 unless it is a constant other than -1 (d ÷ 2): LLVM-C's builder folds only instructions whose
     * operands are all constant, so the -1 selects and the typemin check were -O3's to delete */
    bool m1 = sg && !(LLVMIsAConstantInt(minus1) && !LLVMConstIntGetZExtValue(minus1));
    if (m1 && (in->builtin == BI_DIV || in->builtin == BI_FLD || in->builtin == BI_CLD)) {
        LLVMValueRef minv = signed_min(g, t);
        fail = LLVMBuildOr(g->b, fail, LLVMBuildAnd(g->b, minus1, LLVMBuildICmp(g->b, LLVMIntEQ, x, minv, ""), ""), "");
    }
    check(g, fail, JUKE_EXC_DIVIDE, in->loc, 0, NULL, 0, NULL, 0);
    /* y == -1 is safe from here on except for rem/mod of typemin: use a divisor of 1 there (result 0 / -x) */
    LLVMValueRef ysafe = m1 ? LLVMBuildSelect(g->b, minus1, one, y, "") : y;
    LLVMValueRef q = sg ? LLVMBuildSDiv(g->b, x, ysafe, "") : LLVMBuildUDiv(g->b, x, ysafe, "");
    if (m1)
        q = LLVMBuildSelect(g->b, minus1, LLVMBuildNeg(g->b, x, ""), q, "");
    LLVMValueRef r = sg ? LLVMBuildSRem(g->b, x, ysafe, "") : LLVMBuildURem(g->b, x, ysafe, "");
    if (m1)
        r = LLVMBuildSelect(g->b, minus1, zero, r, "");
    LLVMValueRef rnz = LLVMBuildICmp(g->b, LLVMIntNE, r, zero, "");
    switch (in->builtin) {
    case BI_DIV: return q;
    case BI_REM: return r;
    case BI_MOD:
        if (!sg)
            return r;
        /* r + y when r and y have opposite signs */
        return LLVMBuildSelect(
            g->b, LLVMBuildAnd(g->b, rnz, LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildXor(g->b, r, y, ""), zero, ""), ""),
            LLVMBuildAdd(g->b, r, y, ""), r, "");
    case BI_FLD:
        if (!sg)
            return q;
        return LLVMBuildSelect(
            g->b, LLVMBuildAnd(g->b, rnz, LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildXor(g->b, x, y, ""), zero, ""), ""),
            LLVMBuildSub(g->b, q, one, ""), q, "");
    case BI_CLD:
        if (!sg)
            return LLVMBuildAdd(g->b, q, LLVMBuildZExt(g->b, rnz, lty, ""), "");
        return LLVMBuildSelect(
            g->b, LLVMBuildAnd(g->b, rnz, LLVMBuildICmp(g->b, LLVMIntSGE, LLVMBuildXor(g->b, x, y, ""), zero, ""), ""),
            LLVMBuildAdd(g->b, q, one, ""), q, "");
    default: return q;
    }
}

static LLVMValueRef emit_floatdiv(CG *g, IrInst *in, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef r = LLVMBuildFRem(g->b, x, y, "");
    LLVMValueRef zero = LLVMConstReal(LLVMTypeOf(x), 0);
    switch (in->builtin) {
    case BI_REM: return r;
    case BI_DIV: return intr1(g, "llvm.trunc", LLVMBuildFDiv(g->b, LLVMBuildFSub(g->b, x, r, ""), y, ""));
    case BI_MOD: {
        /* r == 0 ? copysign(0, y) : (r > 0) == (y > 0) ? r : r + y */
        LLVMValueRef same = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildFCmp(g->b, LLVMRealOGT, r, zero, ""),
                                          LLVMBuildFCmp(g->b, LLVMRealOGT, y, zero, ""), "");
        LLVMValueRef m = LLVMBuildSelect(g->b, same, r, LLVMBuildFAdd(g->b, r, y, ""), "");
        return LLVMBuildSelect(g->b, LLVMBuildFCmp(g->b, LLVMRealOEQ, r, zero, ""), intr2(g, "llvm.copysign", zero, y),
                               m, "");
    }
    case BI_FLD:
        return intr1(g, "llvm.floor",
                     LLVMBuildFDiv(g->b,
                                   LLVMBuildFSub(g->b, x, emit_floatdiv(g, &(IrInst){ .builtin = BI_MOD }, x, y), ""),
                                   y, ""));
    case BI_CLD:
        return LLVMBuildFNeg(g->b, intr1(g, "llvm.floor", LLVMBuildFDiv(g->b, LLVMBuildFNeg(g->b, x, ""), y, "")), "");
    default: return LLVMBuildFDiv(g->b, x, y, "");
    }
}

/* Julia's shifts: any shift count; counts past the width give 0 (or -1 for >> of negatives);
 * a negative count shifts the other way. */
static LLVMValueRef emit_shift(CG *g, BuiltinId op, const Type *t, LLVMValueRef x, LLVMValueRef n, const Type *nt)
{
    LLVMTypeRef lty = LLVMTypeOf(x);
    unsigned bits = LLVMGetIntTypeWidth(lty);
    LLVMValueRef n64 = conv_wrap(g, n, nt, ty_prim(g->types, ty_is_signed(nt) ? TY_INT64 : TY_UINT64));
    LLVMValueRef neg =
        ty_is_signed(nt) ? LLVMBuildICmp(g->b, LLVMIntSLT, n64, ci64(g, 0), "") : LLVMConstInt(i1(g), 0, 0);
    LLVMValueRef mag = LLVMBuildSelect(g->b, neg, LLVMBuildNeg(g->b, n64, ""), n64, "");
    LLVMValueRef big = LLVMBuildICmp(g->b, LLVMIntUGE, mag, ci64(g, bits), "");
    LLVMValueRef amt64 = LLVMBuildSelect(g->b, big, ci64(g, bits - 1), mag, "");
    LLVMValueRef amt = bits < 64    ? LLVMBuildTrunc(g->b, amt64, lty, "")
                       : bits == 64 ? amt64
                                    : LLVMBuildZExt(g->b, amt64, lty, ""); /* a 128-bit value */
    LLVMValueRef zero = LLVMConstInt(lty, 0, 0);
    LLVMValueRef left = LLVMBuildSelect(g->b, big, zero, LLVMBuildShl(g->b, x, amt, ""), "");
    LLVMValueRef lright = LLVMBuildSelect(g->b, big, zero, LLVMBuildLShr(g->b, x, amt, ""), "");
    LLVMValueRef right = op == BI_LSHR || !ty_is_signed(t) ? lright : LLVMBuildAShr(g->b, x, amt, "");
    if (op == BI_SHL)
        return LLVMBuildSelect(g->b, neg, right, left, "");
    return LLVMBuildSelect(g->b, neg, left, right, "");
}

LLVMValueRef emit_power(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    if (in->builtin == BI_LITERAL_POW) {
        int64_t k = g->f->insts[in->args[2]].ival;
        LLVMValueRef x = arg_as(g, in, 0, t);
        bool fl = ty_is_float(t);
        LLVMValueRef one = fl ? fconst(g, t, 1) : iconst(g, t, 1);
        LLVMValueRef r = one;
        int64_t m = k < 0 ? -k : k;
        if (m >= 1)
            r = x;
        for (int64_t i = 1; i < m; i++)
            r = fl ? LLVMBuildFMul(g->b, r, x, "") : LLVMBuildMul(g->b, r, x, "");
        if (k < 0)
            r = LLVMBuildFDiv(g->b, one, r, "");
        return r;
    }
    const Type *bt = aty(g, in, 0), *et = aty(g, in, 1);
    if (ty_is_float(t) && ty_is_int(et) && bt == t) {
        LLVMValueRef args[2] = { arg(g, in, 0), conv_wrap(g, arg(g, in, 1), et, ty_prim(g->types, TY_INT32)) };
        return call_math(g, "powi", t, args, 2);
    }
    if (ty_is_float(t)) {
        LLVMValueRef args[2] = { arg_as(g, in, 0, t), arg_as(g, in, 1, t) };
        return call_math(g, "pow", t, args, 2);
    }
    /* integer power by squaring: loop in IR */
    LLVMValueRef x = arg(g, in, 0), n = conv_wrap(g, arg(g, in, 1), et, ty_prim(g->types, TY_INT64));
    LLVMTypeRef lty = LLVMTypeOf(x);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "ipow");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "ipow.done");
    LLVMBuildBr(g->b, loop);
    LLVMPositionBuilderAtEnd(g->b, loop);
    LLVMValueRef acc = LLVMBuildPhi(g->b, lty, ""), base = LLVMBuildPhi(g->b, lty, ""),
                 e = LLVMBuildPhi(g->b, i64(g), "");
    LLVMValueRef odd = LLVMBuildTrunc(g->b, e, i1(g), "");
    LLVMValueRef acc2 = LLVMBuildSelect(g->b, odd, LLVMBuildMul(g->b, acc, base, ""), acc, "");
    LLVMValueRef base2 = LLVMBuildMul(g->b, base, base, "");
    LLVMValueRef e2 = LLVMBuildLShr(g->b, e, ci64(g, 1), "");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, e2, ci64(g, 0), ""), loop, done);
    LLVMValueRef one = LLVMConstInt(lty, 1, 0);
    LLVMAddIncoming(acc, (LLVMValueRef[]){ one, acc2 }, (LLVMBasicBlockRef[]){ pre, loop }, 2);
    LLVMAddIncoming(base, (LLVMValueRef[]){ x, base2 }, (LLVMBasicBlockRef[]){ pre, loop }, 2);
    LLVMAddIncoming(e, (LLVMValueRef[]){ n, e2 }, (LLVMBasicBlockRef[]){ pre, loop }, 2);
    LLVMPositionBuilderAtEnd(g->b, done);
    /* n <= 0: x^0 == 1 (negative powers of integers are a DomainError in Julia; 1 here) */
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, n, ci64(g, 0), ""), acc2, one, "");
}

/* nextfloat / prevfloat (base/float.jl's nextfloat(x, ±1)) on the bits:
 * NaN stays, ±Inf saturate (nextfloat(-Inf) is -floatmax), ±0 step to the
 * smallest subnormal of the direction's sign. */
static LLVMValueRef emit_nextfloat(CG *g, const Type *t, LLVMValueRef x, bool up)
{
    LLVMTypeRef ity = LLVMIntTypeInContext(g->ctx, (unsigned)t->bits);
    unsigned long long sign = 1ULL << (t->bits - 1);
    LLVMValueRef bits = LLVMBuildBitCast(g->b, x, ity, "");
    LLVMValueRef mag = LLVMBuildAnd(g->b, bits, LLVMConstInt(ity, sign - 1, 0), "");
    LLVMValueRef neg = LLVMBuildICmp(g->b, LLVMIntSLT, bits, LLVMConstInt(ity, 0, 0), "");
    LLVMValueRef inf = LLVMBuildBitCast(g->b, LLVMConstReal(prim_t(g, t), INFINITY), ity, "");
    LLVMValueRef one = LLVMConstInt(ity, 1, 0);
    /* moving away from zero: magnitude + 1 unless infinite; towards zero: magnitude - 1, and from
     * zero to the other sign's smallest subnormal */
    LLVMValueRef away = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, mag, inf, ""), bits,
                                        LLVMBuildAdd(g->b, bits, one, ""), "");
    LLVMValueRef zero_to = LLVMConstInt(ity, up ? 1 : sign | 1, 0);
    LLVMValueRef toward = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, mag, LLVMConstInt(ity, 0, 0), ""),
                                          zero_to, LLVMBuildSub(g->b, bits, one, ""), "");
    LLVMValueRef r = up ? LLVMBuildSelect(g->b, neg, toward, away, "") : LLVMBuildSelect(g->b, neg, away, toward, "");
    LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, "");
    return LLVMBuildSelect(g->b, nan, x, LLVMBuildBitCast(g->b, r, prim_t(g, t), ""), "");
}

static LLVMValueRef typeval(CG *g, BuiltinId id, const Type *t)
{
    if (ty_is_float(t)) {
        switch (id) {
        case BI_ZERO: return fconst(g, t, 0);
        case BI_ONE: return fconst(g, t, 1);
        case BI_TYPEMIN: return fconst(g, t, -INFINITY);
        case BI_TYPEMAX: return fconst(g, t, INFINITY);
        default:
            return fconst(g, t, t->bits == 16 ? ldexp(1, -10) : t->bits == 32 ? (double)ldexpf(1, -23) : ldexp(1, -52));
        }
    }
    if (t->kind == TY_BOOL)
        return LLVMConstInt(i1(g), id == BI_ONE || id == BI_TYPEMAX, 0);
    switch (id) {
    case BI_ZERO: return iconst(g, t, 0);
    case BI_ONE: return iconst(g, t, 1);
    case BI_TYPEMIN: return ty_is_signed(t) ? signed_min(g, t) : iconst(g, t, 0);
    default: return ty_is_signed(t) ? signed_max(g, t) : LLVMConstAllOnes(prim_t(g, t));
    }
}

/* The LLVM value of `+`, `-` and `*`. */
LLVMValueRef emit_arith(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    if (t->kind == TY_PTR) { /* p ± n bytes */
        int p = aty(g, in, 0)->kind == TY_PTR ? 0 : 1;
        LLVMValueRef off = conv_wrap(g, arg(g, in, 1 - p), aty(g, in, 1 - p), ty_prim(g->types, TY_INT64));
        if (in->builtin == BI_SUB)
            off = LLVMBuildNeg(g->b, off, "");
        return LLVMBuildGEP2(g->b, i8(g), arg(g, in, p), &off, 1, "");
    }
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

/* The LLVM value of `unary -`. */
LLVMValueRef emit_neg(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return ty_is_float(t) ? LLVMBuildFNeg(g->b, arg_as(g, in, 0, t), "") : LLVMBuildNeg(g->b, arg_as(g, in, 0, t), "");
}

/* The LLVM value of `unary +`. */
LLVMValueRef emit_uplus(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return t ? arg_as(g, in, 0, t) : arg(g, in, 0);
}

/* The LLVM value of `/`. */
LLVMValueRef emit_fdiv(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildFDiv(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
}

/* The LLVM value of `div`, `rem`, `mod`, `fld` and `cld`. */
LLVMValueRef emit_idiv(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    if (ty_is_float(t))
        return emit_floatdiv(g, in, arg_as(g, in, 0, t), arg_as(g, in, 1, t));
    return emit_intdiv(g, in, t, arg_as(g, in, 0, t), arg_as(g, in, 1, t));
}

/* The LLVM value of `==`, `!=`, `<`, `<=`, `>`, `>=`, `===` and `!==`. */
LLVMValueRef emit_comparison(CG *g, IrInst *in)
{
    return emit_compare(g, in);
}

/* The LLVM value of `!`. */
LLVMValueRef emit_not(CG *g, IrInst *in)
{
    return LLVMBuildNot(g->b, arg(g, in, 0), "");
}

/* The LLVM value of `~`. */
LLVMValueRef emit_bnot(CG *g, IrInst *in)
{
    return LLVMBuildNot(g->b, arg(g, in, 0), "");
}

/* The LLVM value of `&`. */
LLVMValueRef emit_and(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildAnd(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
}

/* The LLVM value of `|`. */
LLVMValueRef emit_or(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildOr(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
}

/* The LLVM value of `xor`. */
LLVMValueRef emit_xor(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildXor(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), "");
}

/* The LLVM value of `<<`, `>>` and `>>>`. */
LLVMValueRef emit_shifts(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return emit_shift(g, in->builtin, t, arg(g, in, 0), arg(g, in, 1), aty(g, in, 1));
}

/* The LLVM value of `ifelse`. */
LLVMValueRef emit_ifelse(CG *g, IrInst *in)
{
    return LLVMBuildSelect(g->b, arg(g, in, 0), arg(g, in, 1), arg(g, in, 2), "");
}

/* The LLVM value of `convert`. */
LLVMValueRef emit_convert(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    int n = in->nargs - 1;
    return conv_checked(g, arg(g, in, n - 1), aty(g, in, n - 1), t, in->loc);
}

/* The LLVM value of `x % T`. */
LLVMValueRef emit_modtype(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return conv_wrap(g, arg(g, in, 0), aty(g, in, 0), t);
}

/* The LLVM value of `unsafe_trunc`. */
LLVMValueRef emit_unsafe_trunc(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return conv_wrap(g, arg(g, in, 1), aty(g, in, 1), t);
}

/* The LLVM value of `trunc`, `round`, `floor` and `ceil`. */
LLVMValueRef emit_rounding(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    int n = in->nargs - 1;
    static const char *names[] = {
        [BI_TRUNC] = "llvm.trunc", [BI_ROUND] = "llvm.roundeven", [BI_FLOOR] = "llvm.floor", [BI_CEIL] = "llvm.ceil"
    };
    LLVMValueRef x = arg(g, in, n - 1);
    const Type *xt = aty(g, in, n - 1);
    if (ty_is_float(xt))
        x = intr1(g, names[in->builtin], x);
    return t ? conv_checked(g, x, xt, t, in->loc) : x;
}

/* The LLVM value of `abs`. */
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

/* The LLVM value of `sign`. */
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

/* The LLVM value of `min` and `max`. */
LLVMValueRef emit_min_max(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    int n = in->nargs - 1;
    LLVMValueRef r = arg_as(g, in, 0, t);
    for (int k = 1; k < n; k++)
        r = emit_minmax(g, in->builtin == BI_MAX, t, r, arg_as(g, in, k, t));
    return r;
}

/* The LLVM value of `clamp`. */
LLVMValueRef emit_clamp(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef x = arg_as(g, in, 0, t), lo = arg_as(g, in, 1, t), hi = arg_as(g, in, 2, t);
    LLVMValueRef gt = emit_cmp(g, BI_GT, t, x, hi), ltv = emit_cmp(g, BI_LT, t, x, lo);
    return LLVMBuildSelect(g->b, gt, hi, LLVMBuildSelect(g->b, ltv, lo, x, ""), "");
}

/* The LLVM value of `iseven` and `isodd`. */
LLVMValueRef emit_parity(CG *g, IrInst *in)
{
    LLVMValueRef bit = LLVMBuildTrunc(g->b, arg(g, in, 0), i1(g), "");
    return in->builtin == BI_ISODD ? bit : LLVMBuildNot(g->b, bit, "");
}

/* The LLVM value of `copysign`. */
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

/* The LLVM value of `signbit`, `isnan`, `isinf` and `isfinite`. */
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

/* The LLVM value of `zero`, `one`, `typemin`, `typemax` and `eps`. */
LLVMValueRef emit_typeval(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return typeval(g, in->builtin, t);
}

/* The LLVM value of `abs2`. */
LLVMValueRef emit_abs2(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef x = arg(g, in, 0);
    if (ty_is_float(t))
        return LLVMBuildFMul(g->b, x, x, "");
    return t->kind == TY_BOOL ? x : LLVMBuildMul(g->b, x, x, "");
}

/* The LLVM value of `inv`. */
LLVMValueRef emit_inv(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return LLVMBuildFDiv(g->b, fconst(g, t, 1), arg_as(g, in, 0, t), "");
}

/* The LLVM value of `flipsign`. */
LLVMValueRef emit_flipsign(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef x = arg_as(g, in, 0, t);
    LLVMValueRef nx = ty_is_float(t) ? LLVMBuildFNeg(g->b, x, "") : LLVMBuildNeg(g->b, x, "");
    return LLVMBuildSelect(g->b, signbit_of(g, arg(g, in, 1), aty(g, in, 1)), nx, x, "");
}

/* The LLVM value of `leading_zeros`, `trailing_zeros`, `count_ones` and `count_zeros`. */
LLVMValueRef emit_bitcount(CG *g, IrInst *in)
{
    LLVMValueRef x = arg(g, in, 0), r;
    LLVMTypeRef xt = LLVMTypeOf(x);
    if (in->builtin == BI_LEADING_ZEROS || in->builtin == BI_TRAILING_ZEROS)
        r = intrinsic(g, in->builtin == BI_LEADING_ZEROS ? "llvm.ctlz" : "llvm.cttz", &xt, 1,
                      (LLVMValueRef[]){ x, LLVMConstInt(i1(g), 0, 0) }, 2);
    else
        r = intr1(g, "llvm.ctpop", x);
    if (in->builtin == BI_COUNT_ZEROS)
        r = LLVMBuildSub(g->b, LLVMConstInt(xt, LLVMGetIntTypeWidth(xt), 0), r, "");
    return LLVMGetIntTypeWidth(xt) == 64 ? r : LLVMBuildZExt(g->b, r, i64(g), "");
}

/* The LLVM value of `bswap`. */
LLVMValueRef emit_bswap(CG *g, IrInst *in)
{
    const Type *rt = in->type;
    LLVMValueRef x = arg(g, in, 0);
    return rt->bits <= 8 ? x : intr1(g, "llvm.bswap", x);
}

/* The LLVM value of `reinterpret`. */
LLVMValueRef emit_reinterpret(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    const Type *xt = aty(g, in, 1);
    LLVMValueRef x = arg(g, in, 1);
    if (xt == t)
        return x;
    if (t->kind == TY_PTR && xt->kind == TY_PTR)
        return x;
    if (t->kind == TY_PTR)
        return LLVMBuildIntToPtr(g->b, x, lt(g, t), "");
    if (xt->kind == TY_PTR)
        return LLVMBuildPtrToInt(g->b, x, i64(g), "");
    if (xt->kind == TY_BOOL)
        x = LLVMBuildZExt(g->b, x, i8(g), "");
    return LLVMBuildBitCast(g->b, x, prim_t(g, t), "");
}

/* The LLVM value of `nextfloat` and `prevfloat`. */
LLVMValueRef emit_next_prev_float(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return emit_nextfloat(g, t, arg(g, in, 0), in->builtin == BI_NEXTFLOAT);
}
