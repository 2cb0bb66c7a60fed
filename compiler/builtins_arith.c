/* builtins_arith.c: typing rules of arithmetic, comparisons, bit operations, conversions and numeric
 * predicates (rows in builtins.def). */
#include "builtins_type.h"

/* The integer type of the other signedness and the same width (signed(UInt8) is Int8). */
static const Type *flip_signedness(Infer *I, const Type *t)
{
    static const TypeKind s[] = { TY_INT8, TY_INT16, TY_INT32, TY_INT64, TY_INT128 },
                          u[] = { TY_UINT8, TY_UINT16, TY_UINT32, TY_UINT64, TY_UINT128 };
    for (int i = 0; i < 5; i++) {
        if (t->kind == s[i])
            return prim(I, u[i]);
        if (t->kind == u[i])
            return prim(I, s[i]);
    }
    return NULL;
}

/* + - * of numbers (unary - and + too): the promoted type; Bool arithmetic gives Int64. */
const Type *type_arith(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    /* p + n, n + p, p - n: a pointer moved by n bytes, as Julia's Ptr and LLVMPtr arithmetic */
    if (n == 2 && (row->id == BI_ADD || row->id == BI_SUB)) {
        int p = a[0]->kind == TY_PTR ? 0 : a[1]->kind == TY_PTR && row->id == BI_ADD ? 1 : -1;
        if (p >= 0 && ty_is_int(a[1 - p]) && a[1 - p]->kind != TY_BOOL) {
            in->optype = a[p];
            return a[p];
        }
    }
    if (n == 1 && ty_is_prim(a[0]) && row->id != BI_MUL) {
        in->builtin = row->id == BI_SUB ? BI_NEG : BI_UPLUS;
        in->optype = a[0]->kind == TY_BOOL ? prim(I, TY_INT64) : a[0];
        return in->optype;
    }
    if (n >= 2 && all_prim(a, n)) {
        const Type *p = unify_prim_args(I, a, n);
        if (p->kind == TY_BOOL)
            p = prim(I, TY_INT64);
        if (n > 2 && row->id == BI_SUB)
            return infer_no_method(I, in, name, a, n);
        in->optype = p;
        return p;
    }
    return infer_no_method(I, in, name, a, n);
}

/* x / y: the promoted float type (integers divide as Float64). */
const Type *type_fdiv(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && all_prim(a, 2)) {
        const Type *p = unify_prim_args(I, a, 2);
        in->optype = ty_is_float(p) ? p : prim(I, TY_FLOAT64);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* div rem mod fld cld of numbers, and x % T for an integer type T (wraps). */
const Type *type_idiv(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 2 && ty_is_prim(a[0]) && a[1]->kind == TY_TYPE && row->id == BI_REM && ty_is_int(a[1]->elem) &&
        ty_is_int(a[0])) {
        in->builtin = BI_MODTYPE; /* x % T */
        in->optype = a[1]->elem;
        return in->optype;
    }
    if (n == 2 && all_prim(a, 2)) {
        const Type *p = unify_prim_args(I, a, 2);
        if (p->kind == TY_BOOL)
            p = a[0]->kind == TY_BOOL && a[1]->kind == TY_BOOL ? p : prim(I, TY_INT64);
        in->optype = p;
        return p;
    }
    return infer_no_method(I, in, name, a, n);
}

/* x^y: literal_pow for a literal exponent from -2 to 3, powi for an integer one, else the float type. */
const Type *type_pow(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    const int *args = in->args + 1;
    if (n == 2 && all_prim(a, 2)) {
        int64_t k;
        if (ty_is_int(a[1]) && is_const_int(I, args[1], &k) && I->f->insts[args[1]].op == IR_CONST && k >= -2 &&
            k <= 3) {
            /* Julia's literal_pow: x^-1 is inv(x), x^-2 inv(x)^2, so an integer base gives a Float64 */
            in->builtin = BI_LITERAL_POW;
            in->optype = a[0]->kind == TY_BOOL ? prim(I, TY_BOOL) : a[0];
            if (k < 0 && !ty_is_float(a[0]))
                in->optype = prim(I, TY_FLOAT64);
            return in->optype;
        }
        if (ty_is_int(a[1])) {
            in->optype = a[0];
            return a[0];
        }
        in->optype = unify_prim_args(I, a, 2);
        if (!ty_is_float(in->optype))
            in->optype = prim(I, TY_FLOAT64);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* comparisons: Bool; egal of values of different types is a constant. */
const Type *type_cmp(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 2 && (row->id == BI_EGAL || row->id == BI_NEGAL) &&
        ((a[0]->kind == TY_UNION && a[1]->kind == TY_NOTHING) ||
         (a[1]->kind == TY_UNION && a[0]->kind == TY_NOTHING))) {
        /* x === nothing of a Union{Nothing, T}: its tag (builtins_iter_emit.c) */
        in->builtin = row->id == BI_EGAL ? BI_ISNOTHING : BI_NOTNOTHING;
        in->optype = NULL;
        return prim(I, TY_BOOL);
    }
    if (n == 2 && a[0]->kind == TY_PTR && a[1]->kind == TY_PTR && a[0]->step == a[1]->step &&
        (row->id == BI_EQ || row->id == BI_NE || a[0] == a[1])) {
        /* pointers compare by address, as Julia's ==(x::Ptr, y::Ptr) (=== only within one type) */
        in->optype = a[0];
        return prim(I, TY_BOOL);
    }
    if (n == 2 && (row->id == BI_EGAL || row->id == BI_NEGAL) && a[0] != a[1]) {
        in->optype = NULL; /* values of different types are never egal (1 === 1.0 is false) */
        return prim(I, TY_BOOL);
    }
    if (n == 2 && all_prim(a, 2)) {
        in->optype = unify_prim_args(I, a, 2);
        return prim(I, TY_BOOL);
    }
    if (n == 2 && a[0] == a[1] && (a[0]->kind == TY_TUPLE || a[0]->kind == TY_STRUCT) && !ty_is_ghost(a[0]) &&
        row->id != BI_LT && row->id != BI_LE && row->id != BI_GT && row->id != BI_GE) {
        /* tuples and structs of one type: field by field (optype = the type; codegen.c's emit_compare) */
        if (!ty_bits_only(a[0]))
            return infer_no_method(I, in, name, a, n);
        in->optype = a[0];
        return prim(I, TY_BOOL);
    }
    if (n == 2 && (row->id == BI_EGAL || row->id == BI_NEGAL || row->id == BI_EQ || row->id == BI_NE) &&
        a[0]->kind != TY_UNION && a[1]->kind != TY_UNION) {
        /* comparing values of different kinds (x === nothing): a constant (a union's value decides at run time:
         * the call was split on it, splat.c) */
        in->optype = NULL;
        return prim(I, TY_BOOL);
    }
    return infer_no_method(I, in, name, a, n);
}

/* !x of a Bool (Julia 1.x has no ! on integers). */
const Type *type_not(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && a[0]->kind == TY_BOOL) /* Julia 1.x has no ! on integers (use ~) */
        return a[0];
    return infer_no_method(I, in, name, a, n);
}

/* ~x of an integer. */
const Type *type_bnot(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_int(a[0]))
        return a[0];
    return infer_no_method(I, in, name, a, n);
}

/* & | xor of integers: the promoted type. */
const Type *type_bitwise(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && all_int(a, 2)) {
        in->optype = unify_prim_args(I, a, 2);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* << >> >>> of integers: the left operand's type. */
const Type *type_shift(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && all_int(a, 2)) {
        in->optype = a[0];
        return a[0];
    }
    return infer_no_method(I, in, name, a, n);
}

/* ifelse(c, a, b) of a Bool condition and one value type. */
const Type *type_ifelse(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 3 && a[0]->kind == TY_BOOL) {
        if (a[1] == a[2])
            return a[1];
        infer_err(I, in->loc, "ifelse(cond, a, b) needs a and b of one type; got %s and %s", infer_tname(I, a[1]),
                  infer_tname(I, a[2]));
        return NULL;
    }
    return infer_no_method(I, in, name, a, n);
}

/* convert(T, x) of numbers: T, checked. */
const Type *type_convert(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && a[0]->kind == TY_TYPE && ty_is_prim(a[0]->elem) && ty_is_prim(a[1])) {
        in->optype = a[0]->elem;
        return in->optype;
    }
    if (n == 2 && a[0]->kind == TY_TYPE && a[0]->elem->kind == TY_COMPLEX) {
        const Type *r = builtin_type_complex_ctor(I, in, a[0]->elem->elem, a + 1, 1);
        if (r)
            return r;
    }
    return infer_no_method(I, in, name, a, n);
}

/* unsafe_trunc(T, x) to an integer type T. */
const Type *type_unsafe_trunc(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && a[0]->kind == TY_TYPE && ty_is_int(a[0]->elem) && ty_is_prim(a[1])) {
        in->optype = a[0]->elem;
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* trunc round floor ceil of x, or with a target type T (checked conversion). */
const Type *type_rounding(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_prim(a[0])) {
        in->optype = NULL;
        return a[0];
    }
    if (n == 2 && a[0]->kind == TY_TYPE && ty_is_prim(a[0]->elem) && ty_is_prim(a[1])) {
        in->optype = a[0]->elem;
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* abs(x), sign(x): x's type. */
const Type *type_same1(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_prim(a[0]))
        return a[0];
    return infer_no_method(I, in, name, a, n);
}

/* min and max of numbers: the promoted type. */
const Type *type_minmax(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n >= 2 && all_prim(a, n)) {
        in->optype = unify_prim_args(I, a, n);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* clamp(x, lo, hi): the promoted type. */
const Type *type_clamp(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 3 && all_prim(a, 3)) {
        in->optype = unify_prim_args(I, a, 3);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* iseven, isodd of an integer. */
const Type *type_intpred(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_int(a[0]))
        return prim(I, TY_BOOL);
    return infer_no_method(I, in, name, a, n);
}

/* copysign(x, y): x's type. */
const Type *type_copysign(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && all_prim(a, 2)) {
        in->optype = a[0];
        return a[0];
    }
    return infer_no_method(I, in, name, a, n);
}

/* signbit isnan isinf isfinite of a number: Bool. */
const Type *type_fpred(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_prim(a[0]))
        return prim(I, TY_BOOL);
    return infer_no_method(I, in, name, a, n);
}

/* abs2(x) = x * x. */
const Type *type_abs2(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_prim(a[0])) { /* x * x */
        in->optype = a[0];
        return a[0];
    }
    return infer_no_method(I, in, name, a, n);
}

/* inv(x) = one(x) / x: integers give Float64. */
const Type *type_inv(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_prim(a[0])) { /* one(x) / x: integers give Float64 */
        in->optype = float_of(I, a[0]);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* flipsign(x, y) in x's type (a Bool x negates to Int64). */
const Type *type_flipsign(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    /* ifelse(signbit(y), -x, x) in x's type (Bool x negates to Int64) */
    if (n == 2 && all_prim(a, 2)) {
        in->optype = a[0]->kind == TY_BOOL ? prim(I, TY_INT64) : a[0];
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* leading_zeros and friends of a non-Bool integer: Int64. */
const Type *type_bitcount(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_int(a[0]) && a[0]->kind != TY_BOOL)
        return prim(I, TY_INT64);
    return infer_no_method(I, in, name, a, n);
}

/* bswap(x) of an integer. */
const Type *type_bswap(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_int(a[0]))
        return a[0];
    return infer_no_method(I, in, name, a, n);
}

/* reinterpret(T, x) between primitives of one size. */
const Type *type_reinterpret(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && a[0]->kind == TY_TYPE && (a[0]->elem->kind == TY_PTR || a[1]->kind == TY_PTR)) {
        /* pointers: reinterpret(UInt64, p), reinterpret(Core.LLVMPtr{T,1}, p) (same memory), reinterpret(Ptr{T}, u) */
        const Type *to = a[0]->elem, *from = a[1];
        bool ok = to->kind == TY_PTR && from->kind == TY_PTR ? to->step == from->step
                  : to->kind == TY_PTR                       ? ty_is_int(from) && from->bits == 64 && !to->step
                                                             : ty_is_int(to) && to->bits == 64 && !from->step;
        if (ok) {
            in->optype = to;
            return to;
        }
    }
    if (n == 2 && a[0]->kind == TY_TYPE && ty_is_prim(a[0]->elem) && ty_is_prim(a[1])) {
        if (a[0]->elem->bits != a[1]->bits) {
            infer_err(I, in->loc, "bitcast: argument size does not match size of target type (reinterpret(%s, ::%s))",
                      infer_tname(I, a[0]->elem), infer_tname(I, a[1]));
            return NULL;
        }
        if (a[0]->elem->kind == TY_BOOL && a[1]->kind != TY_BOOL) {
            infer_err(I, in->loc, "reinterpret(Bool, x) is not supported in kernels (use x != 0)");
            return NULL;
        }
        in->optype = a[0]->elem;
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* signed(x) and unsigned(x): x reinterpreted with the other signedness (resolves to rem_type). */
const Type *type_signed(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    in->builtin = BI_MODTYPE;
    /* signed(x::Unsigned) and unsigned(x::Signed) reinterpret the bits (they wrap); the same
     * signedness is x itself */
    if (n == 1 && ty_is_int(a[0]) && a[0]->kind != TY_BOOL) {
        bool want_signed = row->id == BI_SIGNED;
        in->optype = ty_is_signed(a[0]) == want_signed ? a[0] : flip_signedness(I, a[0]);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* float(x): integers and Bool become Float64 (resolves to convert). */
const Type *type_float(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    in->builtin = BI_CONVERT;
    if (n == 1 && ty_is_prim(a[0])) { /* float(x): integers and Bool become Float64 */
        in->optype = float_of(I, a[0]);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* nextfloat(x), prevfloat(x) of a float. */
const Type *type_nextfloat(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_float(a[0])) {
        in->optype = a[0];
        return a[0];
    }
    return infer_no_method(I, in, name, a, n);
}

/* zero one typemin typemax of a value or a type. */
const Type *type_typeval(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 1) {
        const Type *t = a[0]->kind == TY_TYPE ? a[0]->elem : a[0];
        if (ty_is_prim(t) || (t->kind == TY_COMPLEX && t->elem && (row->id == BI_ZERO || row->id == BI_ONE))) {
            in->optype = t;
            return t;
        }
    }
    return infer_no_method(I, in, name, a, n);
}

/* eps(x) or eps(T) of a float. */
const Type *type_eps(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1) {
        const Type *t = a[0]->kind == TY_TYPE ? a[0]->elem : a[0];
        if (ty_is_float(t)) {
            in->optype = t;
            return t;
        }
    }
    return infer_no_method(I, in, name, a, n);
}

/* x::T: x itself when it is a T (resolves to unary +), else a TypeError. */
const Type *type_typeassert(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    in->builtin = BI_NONE;
    if (n == 2 && a[1]->kind == TY_TYPE) {
        if (ty_subtype(a[0], a[1]->elem)) {
            in->builtin = BI_UPLUS;
            in->optype = NULL;
            return a[0];
        }
        infer_err(I, in->loc, "TypeError: in typeassert, expected %s, got a value of type %s",
                  infer_tname(I, a[1]->elem), infer_tname(I, a[0]));
        return NULL;
    }
    return infer_no_method(I, in, name, a, n);
}
