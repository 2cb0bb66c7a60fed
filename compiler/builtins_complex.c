/* builtins_complex.c: typing rules of complex numbers, and the complex twins of the other rules: a call
 * with a complex argument runs its row's complex typing rule instead (rows in builtins.def).
 *
 * Complex{T} values follow base/complex.jl: arithmetic with reals works on the parts (so Bool parts keep
 * Julia's strong zero: Inf * im is 0.0 + Inf*im), the result's part type is the promotion of the parts
 * (Bool arithmetic other than * gives Int64), division follows Julia's algorithms per part type. */
#include "builtins_type.h"

static bool is_number(const Type *t)
{
    return ty_is_prim(t) || (t->kind == TY_COMPLEX && t->elem);
}
static const Type *part_type(const Type *t)
{
    return t->kind == TY_COMPLEX ? t->elem : t;
}

/* The promoted part type of numbers (real or complex); NULL if one is not a number. */
static const Type *promote_parts(Infer *I, const Type **a, int n)
{
    const Type *p = NULL;
    for (int i = 0; i < n; i++) {
        if (!is_number(a[i]))
            return NULL;
        p = p ? ty_promote(T(I), p, part_type(a[i])) : part_type(a[i]);
    }
    return p;
}

/* (contract in builtins_type.h) */
const Type *builtin_type_complex_ctor(Infer *I, IrInst *in, const Type *target, const Type **a, int n)
{
    if (n < 1 || n > 2 || !is_number(a[0]) || (n == 2 && (!ty_is_prim(a[0]) || !ty_is_prim(a[1]))))
        return NULL;
    const Type *e = target ? target : promote_parts(I, a, n);
    if (!e || !ty_is_prim(e))
        return NULL;
    in->builtin = BI_COMPLEX;
    in->optype = complex_of(I, e);
    return in->optype;
}

/* complex(re[, im]) of reals: Complex of their promoted type. */
const Type *type_complex(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n >= 1) {
        const Type *r = builtin_type_complex_ctor(I, in, NULL, a, n);
        if (r)
            return r;
    }
    return infer_no_method(I, in, name, a, n);
}

/* real imag conj reim angle of a real x (x, zero(x), x, (x, zero(x)), atan(0, x)). */
const Type *type_complex_part(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    /* real(x) = x, imag(x) = zero(x), conj(x) = x, reim(x) = (x, zero(x)), angle(x) = atan(0, x) */
    if (n == 1 && ty_is_prim(a[0])) {
        if (row->id == BI_REIM) {
            const Type *f[2] = { a[0], a[0] };
            return ty_tuple(T(I), f, 2);
        }
        in->optype = row->id == BI_ANGLE ? float_of(I, a[0]) : a[0];
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* cis(x) = Complex(cos(x), sin(x)). */
const Type *type_cis(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && ty_is_prim(a[0])) {
        in->optype = complex_of(I, float_of(I, a[0]));
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* Complex{T} used as a value: a Type. */
const Type *type_complextype(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1 && a[0]->kind == TY_TYPE && ty_is_prim(a[0]->elem))
        return ty_typeof_type(T(I), complex_of(I, a[0]->elem));
    return infer_no_method(I, in, name, a, n);
}

/* + - * with a complex operand: Complex of the promoted part type. */
const Type *type_cx_arith(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    const Type *e = promote_parts(I, a, n);
    if (!e || n < 1 || (n == 1 && row->id == BI_MUL) || (n > 2 && row->id == BI_SUB))
        return infer_no_method(I, in, name, a, n);
    if (n == 1)
        in->builtin = row->id == BI_SUB ? BI_NEG : BI_UPLUS;
    /* Bool parts: only * of a Bool part with a Bool stays Bool (im * true) */
    if (e->kind == TY_BOOL && !(row->id == BI_MUL && n == 2 && (a[0]->kind != TY_COMPLEX || a[1]->kind != TY_COMPLEX)))
        e = prim(I, TY_INT64);
    in->optype = complex_of(I, e);
    return in->optype;
}

/* / with a complex operand: Complex of the promoted float part type. */
const Type *type_cx_fdiv(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    const Type *e = promote_parts(I, a, n);
    (void)row;
    if (!e || n != 2)
        return infer_no_method(I, in, name, a, n);
    /* complex / real divides the parts (integer parts give Float64); real / complex is
     * a * inv(z) in the promoted type; complex / complex of integers uses Float64 */
    in->optype = complex_of(I, ty_is_float(e) ? e : prim(I, TY_FLOAT64));
    return in->optype;
}

/* z^n of a complex z and a literal n from -2 to 3. */
const Type *type_cx_pow(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    const Type *e = promote_parts(I, a, n);
    (void)row;
    const int *args = in->args + 1;
    int64_t k;
    if (n == 2 && a[0]->kind == TY_COMPLEX && ty_is_int(a[1]) && I->f->insts[args[1]].op == IR_CONST &&
        is_const_int(I, args[1], &k) && k >= -2 && k <= 3) {
        in->builtin = BI_LITERAL_POW;
        e = a[0]->elem;
        if (k < 0 && !ty_is_float(e))
            e = prim(I, TY_FLOAT64);
        else if (k >= 2 && e->kind == TY_BOOL)
            e = prim(I, TY_INT64);
        in->optype = complex_of(I, e);
        return in->optype;
    }
    if (n == 2) {
        infer_err(I, in->loc, "z^n of a complex number is supported for a literal n from -2 to 3 (z^2 is z*z)");
        return NULL;
    }
    return infer_no_method(I, in, name, a, n);
}

/* == != === !== with a complex operand (ordering has no method). */
const Type *type_cx_cmp(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    const Type *e = promote_parts(I, a, n);
    if (n == 2 && (row->id == BI_EGAL || row->id == BI_NEGAL) && a[0] != a[1]) {
        in->optype = NULL;
        return prim(I, TY_BOOL);
    }
    if (n == 2 && e && row->id != BI_LT && row->id != BI_LE && row->id != BI_GT && row->id != BI_GE) {
        in->optype = complex_of(I, e);
        return prim(I, TY_BOOL);
    }
    return infer_no_method(I, in, name, a, n);
}

/* abs(z) = hypot(real(z), imag(z)). */
const Type *type_cx_same1(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 1 && row->id == BI_ABS) {
        in->optype = float_of(I, a[0]->elem);
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* abs2(z) = real(z)^2 + imag(z)^2. */
const Type *type_cx_abs2(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1) {
        in->optype = a[0]->elem->kind == TY_BOOL ? prim(I, TY_INT64) : a[0]->elem;
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* inv(z): Complex of the float part type. */
const Type *type_cx_inv(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1) {
        in->optype = complex_of(I, float_of(I, a[0]->elem));
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* isnan isinf isfinite of a complex number. */
const Type *type_cx_fpred(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 1 && row->id != BI_SIGNBIT)
        return prim(I, TY_BOOL);
    return infer_no_method(I, in, name, a, n);
}

/* exp(z): Complex of the float part type (the other math functions have no complex method). */
const Type *type_cx_math1(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 1 && row->id == BI_EXP) {
        in->optype = complex_of(I, float_of(I, a[0]->elem));
        return in->optype;
    }
    return infer_no_method(I, in, name, a, n);
}

/* zero(z), one(z). */
const Type *type_cx_typeval(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n == 1 && (row->id == BI_ZERO || row->id == BI_ONE)) {
        in->optype = a[0];
        return a[0];
    }
    return infer_no_method(I, in, name, a, n);
}

/* ifelse(c, a, b) of complex values of one type. */
const Type *type_cx_ifelse(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 3 && a[0]->kind == TY_BOOL && a[1] == a[2])
        return a[1];
    return infer_no_method(I, in, name, a, n);
}

/* complex(z) = z. */
const Type *type_cx_complex(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 1) {
        in->optype = a[0];
        return a[0];
    }
    return infer_no_method(I, in, name, a, n);
}

/* convert(Complex{T}, z). */
const Type *type_cx_convert(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 2 && a[0]->kind == TY_TYPE && a[0]->elem->kind == TY_COMPLEX) {
        const Type *r = builtin_type_complex_ctor(I, in, a[0]->elem->elem, a + 1, 1);
        if (r)
            return r;
    }
    return infer_no_method(I, in, name, a, n);
}

/* real imag conj reim angle of a complex number. */
const Type *type_cx_complex_part(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n != 1)
        return infer_no_method(I, in, name, a, n);
    if (row->id == BI_CONJ) { /* -imag(z) of a Bool part is an Int64 */
        in->optype = a[0]->elem->kind == TY_BOOL ? complex_of(I, prim(I, TY_INT64)) : a[0];
        return in->optype;
    }
    if (row->id == BI_REIM) {
        const Type *f[2] = { a[0]->elem, a[0]->elem };
        return ty_tuple(T(I), f, 2);
    }
    if (row->id == BI_ANGLE) {
        in->optype = float_of(I, a[0]->elem);
        return in->optype;
    }
    return a[0]->elem;
}

/* z::T: z itself when it is a T (resolves to unary +). */
const Type *type_cx_typeassert(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    in->builtin = BI_NONE;
    if (n == 2 && a[1]->kind == TY_TYPE && ty_subtype(a[0], a[1]->elem)) {
        in->builtin = BI_UPLUS;
        in->optype = NULL;
        return a[0];
    }
    return infer_no_method(I, in, name, a, n);
}

/* storing a complex number into memory: into an array of complex numbers (A[i] = z converts z to the element
 * type), or unsafe_store! of the pointee's own type; any other is an error that says so. */
const Type *type_cx_store(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    if (n >= 2 && (ty_is_array(a[0]) || a[0]->kind == TY_PTR) && a[0]->elem && a[0]->elem->kind == TY_COMPLEX &&
        (row->id == BI_SETINDEX || (row->id == BI_UNSAFE_STORE && a[1] == a[0]->elem)))
        return row->type(I, in, row, name, a, n);
    if (n >= 2 && (ty_is_array(a[0]) || a[0]->kind == TY_PTR)) {
        infer_err(I, in->loc,
                  "cannot store a %s into memory of %s: arrays of complex numbers are not supported in "
                  "kernels (store real(z) and imag(z))",
                  infer_tname(I, a[1]->kind == TY_COMPLEX ? a[1] : a[n - 1]), infer_tname(I, a[0]->elem));
        return NULL;
    }
    return infer_no_method(I, in, name, a, n);
}
