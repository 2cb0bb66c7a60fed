/* builtins_array_emit.c: emit rules (LLVM IR) of arrays, tuples as collections and pointers (rows in builtins.def). */
#include "codegen_impl.h"

/* The LLVM value of `getindex`. */
LLVMValueRef emit_getindex(CG *g, IrInst *in)
{
    int n = in->nargs - 1;
    bool inb = (in->flags & IRF_INBOUNDS) != 0;
    const Type *at = aty(g, in, 0);
    LLVMValueRef p = elem_ptr(g, in, at, arg(g, in, 0), 1, n - 1, inb);
    LLVMValueRef v = LLVMBuildLoad2(g->b, mem_t(g, at->elem), p, "");
    LLVMSetAlignment(v, elem_align(at->elem));
    return from_mem(g, v, at->elem);
}

/* The LLVM value of `setindex!`. */
/* v (a number of type from) as the complex number type to, as Julia's convert: a real number gets a zero
 * imaginary part; each part converts as its float type does. */
static LLVMValueRef conv_complex(CG *g, LLVMValueRef v, const Type *from, const Type *to, SrcLoc loc)
{
    LLVMValueRef re = from->kind == TY_COMPLEX ? LLVMBuildExtractValue(g->b, v, 0, "") : v;
    LLVMValueRef im = from->kind == TY_COMPLEX ? LLVMBuildExtractValue(g->b, v, 1, "") : NULL;
    const Type *part = from->kind == TY_COMPLEX ? from->elem : from;
    re = part == to->elem ? re : conv_checked(g, re, part, to->elem, loc);
    im = !im ? LLVMConstNull(prim_t(g, to->elem)) : part == to->elem ? im : conv_checked(g, im, part, to->elem, loc);
    LLVMValueRef z = LLVMBuildInsertValue(g->b, LLVMGetUndef(lt(g, to)), re, 0, "");
    return LLVMBuildInsertValue(g->b, z, im, 1, "");
}

LLVMValueRef emit_setindex(CG *g, IrInst *in)
{
    int n = in->nargs - 1;
    bool inb = (in->flags & IRF_INBOUNDS) != 0;
    const Type *at = aty(g, in, 0), *vt = aty(g, in, 1);
    LLVMValueRef x = arg(g, in, 1);
    if (vt->kind == TY_PTR) { /* a pointer into an integer element: T(UInt(p)) (type_setindex) */
        vt = ty_prim(g->types, TY_UINT64);
        x = LLVMBuildPtrToInt(g->b, x, i64(g), "");
    }
    LLVMValueRef v = vt == at->elem                 ? x
                     : at->elem->kind == TY_COMPLEX ? conv_complex(g, x, vt, at->elem, in->loc)
                                                    : conv_checked(g, x, vt, at->elem, in->loc);
    LLVMValueRef p = elem_ptr(g, in, at, arg(g, in, 0), 2, n - 2, inb);
    LLVMSetAlignment(LLVMBuildStore(g->b, to_mem(g, v, at->elem), p), elem_align(at->elem));
    return unit_v(g);
}

/* The LLVM value of `length`. */
LLVMValueRef emit_length(CG *g, IrInst *in)
{
    const Type *at = aty(g, in, 0);
    if (at->kind == TY_RANGE) {
        LLVMValueRef r = arg(g, in, 0);
        LLVMValueRef start = LLVMBuildExtractValue(g->b, r, 0, ""), step = LLVMBuildExtractValue(g->b, r, 1, "");
        LLVMValueRef stop = LLVMBuildExtractValue(g->b, r, 2, "");
        LLVMValueRef len =
            LLVMBuildAdd(g->b, LLVMBuildSDiv(g->b, LLVMBuildSub(g->b, stop, start, ""), step, ""), ci64(g, 1), "");
        return LLVMBuildSelect(g->b, range_nonempty(g, r), len, ci64(g, 0), "");
    }
    return arr_len(g, arg(g, in, 0));
}

/* The LLVM value of `size`. */
LLVMValueRef emit_size(CG *g, IrInst *in)
{
    const Type *rt = in->type;
    LLVMValueRef r = LLVMGetUndef(lt(g, rt));
    for (int d = 0; d < rt->nfields; d++)
        r = LLVMBuildInsertValue(g->b, r, arr_dim(g, arg(g, in, 0), d), (unsigned)d, "");
    return r;
}

/* The LLVM value of `size(A, d)` and `axes(A, d) and eachindex(A)`. */
LLVMValueRef emit_size_axes_d(CG *g, IrInst *in)
{
    int n = in->nargs - 1;
    const Type *at = aty(g, in, 0);
    LLVMValueRef sz;
    if (n == 1) { /* eachindex(A) */
        sz = arr_len(g, arg(g, in, 0));
    } else {
        LLVMValueRef d = conv_wrap(g, arg(g, in, 1), aty(g, in, 1), ty_prim(g->types, TY_INT64));
        sz = ci64(g, 1); /* size(A, d) for d > ndims is 1 */
        for (int k = at->ndims - 1; k >= 0; k--)
            sz = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, d, ci64(g, k + 1), ""),
                                 arr_dim(g, arg(g, in, 0), k), sz, "");
    }
    return in->builtin == BI_SIZE_D ? sz : unit_range(g, ci64(g, 1), sz);
}

/* The LLVM value of `axes`. */
LLVMValueRef emit_axes(CG *g, IrInst *in)
{
    const Type *rt = in->type;
    LLVMValueRef r = LLVMGetUndef(lt(g, rt));
    for (int d = 0; d < rt->nfields; d++)
        r = LLVMBuildInsertValue(g->b, r, unit_range(g, ci64(g, 1), arr_dim(g, arg(g, in, 0), d)), (unsigned)d, "");
    return r;
}

/* The LLVM value of `eltype`. */
LLVMValueRef emit_eltype(CG *g, IrInst *in)
{
    (void)in;
    return unit_v(g);
}

/* The LLVM value of `ndims`. */
LLVMValueRef emit_ndims(CG *g, IrInst *in)
{
    const Type *t = aty(g, in, 0);
    return ci64(g, (t->kind == TY_TYPE ? t->elem : t)->ndims);
}

/* The LLVM value of `t[i] of a tuple`. */
LLVMValueRef emit_tuple_getindex(CG *g, IrInst *in)
{
    bool inb = (in->flags & IRF_INBOUNDS) != 0;
    int64_t k;
    const Type *tt = aty(g, in, 0);
    if (infer_const_int(g->f, in->args[2], &k, 0))
        return LLVMBuildExtractValue(g->b, arg(g, in, 0), (unsigned)(k - 1), "");
    /* a homogeneous tuple with a run-time index: pick with selects (bounds-checked) */
    LLVMValueRef idx = conv_wrap(g, arg(g, in, 1), aty(g, in, 1), ty_prim(g->types, TY_INT64));
    int nf = tt->kind == TY_DIM3 ? 3 : tt->nfields;
    if (!inb)
        check(g, LLVMBuildICmp(g->b, LLVMIntUGE, LLVMBuildSub(g->b, idx, ci64(g, 1), ""), ci64(g, nf), ""),
              JUKE_EXC_BOUNDS, in->loc, 1, &idx, 1, (LLVMValueRef[]){ ci64(g, nf) },
              JUKE_BOUNDS_TUPLE | (tt->kind == TY_DIM3 ? JUKE_T_INT64
                                   : nf                ? type_code(tt->fields[0])
                                                       : 0));
    /* a tuple of T and nothing fields gives Union{Nothing, T}: each field with its tag (type_getindex) */
    const Type *ft0 = tt->kind == TY_DIM3 ? NULL : nf ? tt->fields[0] : NULL;
    LLVMValueRef r = LLVMBuildExtractValue(g->b, arg(g, in, 0), 0, "");
    if (ft0)
        r = union_coerce(g, r, ft0, in->type);
    for (int f = 1; f < nf; f++) {
        LLVMValueRef x = LLVMBuildExtractValue(g->b, arg(g, in, 0), (unsigned)f, "");
        if (tt->kind != TY_DIM3)
            x = union_coerce(g, x, tt->fields[f], in->type);
        r = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, idx, ci64(g, f + 1), ""), x, r, "");
    }
    return r;
}

/* The LLVM value of `t[lo:hi]`, the range's bounds constant (type_getindex). */
LLVMValueRef emit_tuple_slice(CG *g, IrInst *in)
{
    int64_t lo = 1, hi = 0;
    infer_const_range(g->f, in->args[2], &lo, &hi);
    LLVMValueRef r = LLVMGetUndef(lt(g, in->type));
    for (int64_t k = lo; k <= hi; k++)
        r = LLVMBuildInsertValue(g->b, r, LLVMBuildExtractValue(g->b, arg(g, in, 0), (unsigned)(k - 1), ""),
                                 (unsigned)(k - lo), "");
    return r;
}

/* The LLVM value of `length of a tuple`. */
LLVMValueRef emit_tuple_length(CG *g, IrInst *in)
{
    return ci64(g, aty(g, in, 0)->nfields);
}

/* The LLVM value of `sum`, `prod`, `maximum` and `minimum`. */
LLVMValueRef emit_tuple_reduce(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    const Type *tt = aty(g, in, 0);
    if (tt->nfields == 0)
        return iconst(g, t, 1); /* prod(()) */
    LLVMValueRef r = NULL;
    for (int f = 0; f < tt->nfields; f++) {
        LLVMValueRef x = conv_wrap(g, LLVMBuildExtractValue(g->b, arg(g, in, 0), (unsigned)f, ""), tt->fields[f], t);
        if (!r)
            r = x;
        else if (in->builtin == BI_SUM)
            r = ty_is_float(t) ? LLVMBuildFAdd(g->b, r, x, "") : LLVMBuildAdd(g->b, r, x, "");
        else if (in->builtin == BI_PROD)
            r = ty_is_float(t)       ? LLVMBuildFMul(g->b, r, x, "")
                : t->kind == TY_BOOL ? LLVMBuildAnd(g->b, r, x, "")
                                     : LLVMBuildMul(g->b, r, x, "");
        else
            r = emit_minmax(g, in->builtin == BI_MAXIMUM, t, r, x);
    }
    return r;
}

/* The LLVM value of `pointer`. */
LLVMValueRef emit_pointer(CG *g, IrInst *in)
{
    int n = in->nargs - 1;
    const Type *at = aty(g, in, 0);
    LLVMValueRef p = arr_ptr(g, arg(g, in, 0));
    addr32_raw_pointer(g);
    return n == 1 ? p : ptr_offset(g, at->elem, p, arg(g, in, 1), aty(g, in, 1));
}

/* The LLVM value of `unsafe_load` and `unsafe_store!`. */
LLVMValueRef emit_unsafe_load_store(CG *g, IrInst *in)
{
    int n = in->nargs - 1;
    const Type *pt = aty(g, in, 0), *elem = pt->elem;
    LLVMValueRef p = arg(g, in, 0);
    int ik = in->builtin == BI_UNSAFE_LOAD ? 1 : 2;
    if (n > ik)
        p = ptr_offset(g, elem, p, arg(g, in, ik), aty(g, in, ik));
    if (in->builtin == BI_UNSAFE_LOAD) {
        LLVMValueRef v = LLVMBuildLoad2(g->b, mem_t(g, elem), p, "");
        LLVMSetAlignment(v, elem_align(elem));
        return from_mem(g, v, elem);
    }
    LLVMValueRef v = conv_checked(g, arg(g, in, 1), aty(g, in, 1), elem, in->loc);
    LLVMSetAlignment(LLVMBuildStore(g->b, to_mem(g, v, elem), p), elem_align(elem));
    return arg(g, in, 0);
}
