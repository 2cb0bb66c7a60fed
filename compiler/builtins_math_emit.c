/* builtins_math_emit.c: emit rules (LLVM IR) of the math functions (rows in builtins.def). */
#include "codegen_impl.h"

/* ldexp(x, n) for Float32/Float64 as musl's scalbn: at most two exact
 * scalings bring n into the normal range, so only the last product rounds
 * (a subnormal result is rounded once, as Julia's ldexp rounds it). */
static LLVMValueRef emit_scalbn(CG *g, const Type *t, LLVMValueRef x, LLVMValueRef n64)
{
    bool d = t->bits == 64;
    int emax = d ? 1023 : 127, emin = d ? -1022 : -126, mant = d ? 53 : 24;
    LLVMTypeRef ft = prim_t(g, t);
    LLVMValueRef big = LLVMConstReal(ft, ldexp(1, emax)), small = LLVMConstReal(ft, ldexp(1, emin + mant));
    LLVMValueRef y = x, n = n64;
    for (int step = 0; step < 2; step++) {
        LLVMValueRef hi = LLVMBuildICmp(g->b, LLVMIntSGT, n, ci64(g, emax), "");
        LLVMValueRef lo = LLVMBuildICmp(g->b, LLVMIntSLT, n, ci64(g, emin), "");
        y = LLVMBuildSelect(g->b, hi, LLVMBuildFMul(g->b, y, big, ""),
                            LLVMBuildSelect(g->b, lo, LLVMBuildFMul(g->b, y, small, ""), y, ""), "");
        n = LLVMBuildSelect(g->b, hi, LLVMBuildSub(g->b, n, ci64(g, emax), ""),
                            LLVMBuildSelect(g->b, lo, LLVMBuildAdd(g->b, n, ci64(g, -emin - mant), ""), n, ""), "");
    }
    n = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGT, n, ci64(g, emax), ""), ci64(g, emax), n, "");
    n = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, n, ci64(g, emin), ""), ci64(g, emin), n, "");
    LLVMTypeRef ity = LLVMIntTypeInContext(g->ctx, (unsigned)t->bits);
    LLVMValueRef e = LLVMBuildShl(g->b, LLVMBuildTrunc(g->b, LLVMBuildAdd(g->b, n, ci64(g, emax), ""), ity, ""),
                                  LLVMConstInt(ity, (unsigned long long)(mant - 1), 0), "");
    return LLVMBuildFMul(g->b, y, LLVMBuildBitCast(g->b, e, ft, ""), "");
}

/* The LLVM value of `sqrt`. */
LLVMValueRef emit_sqrt(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return intr1(g, "llvm.sqrt", arg_as(g, in, 0, t));
}

/* The LLVM value of `fma`. */
LLVMValueRef emit_fma(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    return intrinsic(g, "llvm.fma", (LLVMTypeRef[]){ prim_t(g, t) }, 1,
                     (LLVMValueRef[]){ arg_as(g, in, 0, t), arg_as(g, in, 1, t), arg_as(g, in, 2, t) }, 3);
}

/* The LLVM value of `muladd`. */
LLVMValueRef emit_muladd(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    if (ty_is_float(t))
        return intrinsic(g, "llvm.fmuladd", (LLVMTypeRef[]){ prim_t(g, t) }, 1,
                         (LLVMValueRef[]){ arg_as(g, in, 0, t), arg_as(g, in, 1, t), arg_as(g, in, 2, t) }, 3);
    return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, arg_as(g, in, 0, t), arg_as(g, in, 1, t), ""), arg_as(g, in, 2, t),
                        "");
}

/* cbrt, exp, exp2, exp10, expm1, log, log2, log10, log1p, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh,
 * acosh, atanh. */
LLVMValueRef emit_math1(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef x = arg_as(g, in, 0, t);
    return call_math(g, builtin_rows[in->builtin].math, t, &x, 1);
}

/* The LLVM value of `atan(y, x)` and `hypot`. */
LLVMValueRef emit_math2(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef xy[2] = { arg_as(g, in, 0, t), arg_as(g, in, 1, t) };
    return call_math(g, builtin_rows[in->builtin].math, t, xy, 2);
}

/* The LLVM value of `sincos`. */
LLVMValueRef emit_sincos(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    const Type *rt = in->type;
    LLVMValueRef x = arg_as(g, in, 0, t);
    LLVMValueRef r = LLVMGetUndef(lt(g, rt));
    r = LLVMBuildInsertValue(g->b, r, call_math(g, "sin", t, &x, 1), 0, "");
    return LLVMBuildInsertValue(g->b, r, call_math(g, "cos", t, &x, 1), 1, "");
}

/* The LLVM value of `ldexp`. */
LLVMValueRef emit_ldexp(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef n64 = conv_wrap(g, arg(g, in, 1), aty(g, in, 1), ty_prim(g->types, TY_INT64));
    if (aty(g, in, 1)->kind == TY_UINT64) /* a huge unsigned count is a huge positive one */
        n64 = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, n64, ci64(g, 0), ""), ci64(g, 1 << 20), n64, "");
    if (t->kind == TY_FLOAT16) {
        const Type *f32 = ty_prim(g->types, TY_FLOAT32);
        return conv_wrap(g, emit_scalbn(g, f32, conv_wrap(g, arg(g, in, 0), t, f32), n64), f32, t);
    }
    return emit_scalbn(g, t, arg(g, in, 0), n64);
}
