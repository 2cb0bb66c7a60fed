/* builtins_complex_emit.c: emit rules (LLVM IR) of complex numbers: a call with a complex argument or result runs its
 * row's complex emit rule (rows in builtins.def). */
#include "codegen_impl.h"

/* The LLVM value of `#complextype` with a complex argument or result. */
LLVMValueRef emit_cx_complextype(CG *g, IrInst *in)
{
    (void)in;
    return unit_v(g);
}

/* The LLVM value of `unary +` with a complex argument or result. */
LLVMValueRef emit_cx_uplus(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    if (!ct)
        return arg(g, in, 0);
    return emit_cx_neg(g, in); /* which converts and stops there for unary + */
}

/* The LLVM value of `unary -` with a complex argument or result. */
LLVMValueRef emit_cx_neg(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    LLVMValueRef z = cx_conv(g, arg(g, in, 0), aty(g, in, 0), e);
    if (in->builtin == BI_UPLUS)
        return z;
    return cx_make(g, ct, part_neg(g, e, cx_re(g, z)), part_neg(g, e, cx_im(g, z)));
}

/* The LLVM value of `+`, `-` and `*` with a complex argument or result. */
LLVMValueRef emit_cx_arith(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    int n = in->nargs - 1;
    const Type *xt;
    LLVMValueRef xi, xr = cx_arg_parts(g, in, 0, &xi, &xt);
    LLVMValueRef acc = NULL;
    for (int k = 1; k < n; k++) {
        const Type *yt;
        LLVMValueRef yi, yr = cx_arg_parts(g, in, k, &yi, &yt);
        LLVMValueRef re, im;
        if (in->builtin == BI_MUL) {
            if (xi && yi) {
                LLVMValueRef z = cx_mul(g, e, cx_make(g, ty_complex(g->types, xt), xr, xi), xt,
                                        cx_make(g, ty_complex(g->types, yt), yr, yi), yt);
                re = cx_re(g, z);
                im = cx_im(g, z);
            } else if (xi) { /* z * x = Complex(x * real(z), x * imag(z)) */
                re = part_mul(g, e, yr, yt, xr, xt);
                im = part_mul(g, e, yr, yt, xi, xt);
            } else {
                re = part_mul(g, e, xr, xt, yr, yt);
                im = part_mul(g, e, xr, xt, yi, yt);
            }
        } else {
            LLVMValueRef a = conv_wrap(g, xr, xt, e), c = conv_wrap(g, yr, yt, e);
            re = in->builtin == BI_ADD ? part_add(g, e, a, c) : part_sub(g, e, a, c);
            if (xi && yi) {
                LLVMValueRef b = conv_wrap(g, xi, xt, e), d = conv_wrap(g, yi, yt, e);
                im = in->builtin == BI_ADD ? part_add(g, e, b, d) : part_sub(g, e, b, d);
            } else if (xi) {
                im = conv_wrap(g, xi, xt, e);
            } else {
                im = conv_wrap(g, yi, yt, e);
                if (in->builtin == BI_SUB)
                    im = part_neg(g, e, im);
            }
        }
        xr = re;
        xi = im;
        xt = e;
        acc = cx_make(g, ct, re, im);
    }
    return acc;
}

/* The LLVM value of `/` with a complex argument or result. */
LLVMValueRef emit_cx_fdiv(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    const Type *f64 = ty_prim(g->types, TY_FLOAT64);
    const Type *at = aty(g, in, 0), *bt = aty(g, in, 1);
    if (at->kind == TY_COMPLEX && bt->kind == TY_COMPLEX) {
        const Type *p = ty_promote(g->types, at->elem, bt->elem);
        LLVMValueRef z = cx_conv(g, arg(g, in, 0), at, p), w = cx_conv(g, arg(g, in, 1), bt, p);
        return ty_is_float(p) ? cx_div(g, z, w, p) : cx_div_smith(g, z, w, p);
    }
    if (at->kind == TY_COMPLEX) { /* Complex(real(z) / x, imag(z) / x) */
        LLVMValueRef z = arg(g, in, 0), x = conv_wrap(g, arg(g, in, 1), bt, e);
        return cx_make(g, ct, part_div(g, conv_wrap(g, cx_re(g, z), at->elem, e), x),
                       part_div(g, conv_wrap(g, cx_im(g, z), at->elem, e), x));
    }
    /* a / z = a * inv(T(z)), T the promoted complex type (integers: inv(float(z))) */
    const Type *p = ty_promote(g->types, at, bt->elem);
    if (!ty_is_float(p))
        p = f64;
    LLVMValueRef w = cx_inv(g, cx_conv(g, arg(g, in, 1), bt, p), p);
    return cx_make(g, ct, part_mul(g, e, arg(g, in, 0), at, cx_re(g, w), p),
                   part_mul(g, e, arg(g, in, 0), at, cx_im(g, w), p));
}

/* The LLVM value of `inv` with a complex argument or result. */
LLVMValueRef emit_cx_inv(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    const Type *zt = aty(g, in, 0);
    return cx_inv(g, cx_conv(g, arg(g, in, 0), zt, e), e);
}

/* The LLVM value of `x^n for a literal n` with a complex argument or result. */
LLVMValueRef emit_cx_literal_pow(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    int64_t k = g->f->insts[in->args[2]].ival;
    const Type *zt = aty(g, in, 0);
    LLVMValueRef z = arg(g, in, 0);
    if (k == 0)
        return cx_make(g, ct, iconst_or_f(g, e, 1), zero_of(g, e));
    if (k == 1)
        return cx_conv(g, z, zt, e);
    if (k < 0) {
        LLVMValueRef i = cx_inv(g, cx_conv(g, z, zt, e), e);
        return k == -1 ? i : cx_mul(g, e, i, e, i, e);
    }
    LLVMValueRef r = cx_mul(g, e, z, zt->elem, z, zt->elem);
    return k == 2 ? r : cx_mul(g, e, r, e, z, zt->elem);
}

/* The LLVM value of `==`, `!=`, `===` and `!==` with a complex argument or result. */
LLVMValueRef emit_cx_equality(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    if (!ct)
        return emit_compare(g, in);
    LLVMValueRef xi, yi;
    const Type *xt, *yt;
    LLVMValueRef xr = cx_arg_parts(g, in, 0, &xi, &xt), yr = cx_arg_parts(g, in, 1, &yi, &yt);
    BuiltinId op = in->builtin == BI_EGAL || in->builtin == BI_NEGAL ? BI_EGAL : BI_EQ;
    LLVMValueRef re = emit_cmp(g, op, e, conv_wrap(g, xr, xt, e), conv_wrap(g, yr, yt, e));
    LLVMValueRef im =
        emit_cmp(g, op, e, xi ? conv_wrap(g, xi, xt, e) : zero_of(g, e), yi ? conv_wrap(g, yi, yt, e) : zero_of(g, e));
    LLVMValueRef eq = LLVMBuildAnd(g->b, re, im, "");
    return in->builtin == BI_EQ || in->builtin == BI_EGAL ? eq : LLVMBuildNot(g->b, eq, "");
}

/* The LLVM value of `abs` with a complex argument or result. */
LLVMValueRef emit_cx_abs(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *zt = aty(g, in, 0);
    LLVMValueRef xy[2] = { conv_wrap(g, cx_re(g, arg(g, in, 0)), zt->elem, ct),
                           conv_wrap(g, cx_im(g, arg(g, in, 0)), zt->elem, ct) };
    return call_math(g, "hypot", ct, xy, 2);
}

/* The LLVM value of `abs2` with a complex argument or result. */
LLVMValueRef emit_cx_abs2(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *pt = aty(g, in, 0)->elem;
    LLVMValueRef z = arg(g, in, 0);
    return part_add(g, ct, part_mul(g, ct, cx_re(g, z), pt, cx_re(g, z), pt),
                    part_mul(g, ct, cx_im(g, z), pt, cx_im(g, z), pt));
}

/* The LLVM value of `isnan`, `isinf` and `isfinite` with a complex argument or result. */
LLVMValueRef emit_cx_fpred(CG *g, IrInst *in)
{
    const Type *pt = aty(g, in, 0)->elem;
    LLVMValueRef z = arg(g, in, 0), r = cx_re(g, z), i = cx_im(g, z);
    if (!ty_is_float(pt))
        return LLVMConstInt(i1(g), in->builtin == BI_ISFINITE, 0);
    LLVMValueRef inf = fconst(g, pt, INFINITY);
    if (in->builtin == BI_ISNAN)
        return LLVMBuildOr(g->b, fcmp(g, LLVMRealUNO, r, r), fcmp(g, LLVMRealUNO, i, i), "");
    if (in->builtin == BI_ISINF)
        return LLVMBuildOr(g->b, fcmp(g, LLVMRealOEQ, fabs_(g, r), inf), fcmp(g, LLVMRealOEQ, fabs_(g, i), inf), "");
    return LLVMBuildAnd(g->b, fcmp(g, LLVMRealOLT, fabs_(g, r), inf), fcmp(g, LLVMRealOLT, fabs_(g, i), inf), "");
}

/* The LLVM value of `exp` with a complex argument or result. */
LLVMValueRef emit_cx_exp(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    return cx_exp(g, cx_conv(g, arg(g, in, 0), aty(g, in, 0), e), e);
}

/* The LLVM value of `zero` and `one` with a complex argument or result. */
LLVMValueRef emit_cx_typeval(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    return cx_make(g, ct, iconst_or_f(g, e, in->builtin == BI_ONE), zero_of(g, e));
}

/* The LLVM value of `ifelse` with a complex argument or result. */
LLVMValueRef emit_cx_ifelse(CG *g, IrInst *in)
{
    return LLVMBuildSelect(g->b, arg(g, in, 0), arg(g, in, 1), arg(g, in, 2), "");
}

/* The LLVM value of `complex` with a complex argument or result. */
LLVMValueRef emit_cx_complex(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    int n = in->nargs - 1;
    int k0 = aty(g, in, 0)->kind == TY_TYPE ? 1 : 0; /* convert(Complex{T}, x) */
    const Type *at = aty(g, in, k0);
    if (at->kind == TY_COMPLEX)
        return cx_make(g, ct, conv_checked(g, cx_re(g, arg(g, in, k0)), at->elem, e, in->loc),
                       conv_checked(g, cx_im(g, arg(g, in, k0)), at->elem, e, in->loc));
    LLVMValueRef re = conv_checked(g, arg(g, in, k0), at, e, in->loc);
    LLVMValueRef im = n - k0 == 2 ? conv_checked(g, arg(g, in, k0 + 1), aty(g, in, k0 + 1), e, in->loc) : zero_of(g, e);
    return cx_make(g, ct, re, im);
}

/* The LLVM value of `real`, `imag`, `conj`, `reim` and `angle` with a complex argument or result. */
LLVMValueRef emit_cx_part(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *rt = in->type;
    const Type *at = aty(g, in, 0);
    LLVMValueRef v = arg(g, in, 0);
    LLVMValueRef re = at->kind == TY_COMPLEX ? cx_re(g, v) : v;
    LLVMValueRef im = at->kind == TY_COMPLEX ? cx_im(g, v) : zero_of(g, at);
    const Type *pt = part_type_cg(at);
    switch (in->builtin) {
    case BI_REAL: return re;
    case BI_IMAG: return im;
    case BI_CONJ:
        if (at->kind != TY_COMPLEX)
            return v;
        return cx_make(g, ct, conv_wrap(g, re, pt, ct->elem), part_neg(g, ct->elem, conv_wrap(g, im, pt, ct->elem)));
    case BI_REIM: {
        LLVMValueRef r = LLVMGetUndef(lt(g, rt));
        r = LLVMBuildInsertValue(g->b, r, re, 0, "");
        return LLVMBuildInsertValue(g->b, r, im, 1, "");
    }
    default: { /* atan(imag(z), real(z)) */
        LLVMValueRef xy[2] = { conv_wrap(g, im, pt, ct), conv_wrap(g, re, pt, ct) };
        return call_math(g, "atan2", ct, xy, 2);
    }
    }
}

/* The LLVM value of `cis` with a complex argument or result. */
LLVMValueRef emit_cx_cis(CG *g, IrInst *in)
{
    const Type *ct = in->optype;
    const Type *e = ct && ct->kind == TY_COMPLEX ? ct->elem : ct;
    LLVMValueRef x = arg_as(g, in, 0, e);
    return cx_make(g, ct, call_math(g, "cos", e, &x, 1), call_math(g, "sin", e, &x, 1));
}
