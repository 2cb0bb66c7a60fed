/* builtins_struct.c: typing rules of struct values (rows in builtins.def): constructors, `new`, field
 * updates of local mutable structs, named tuples, and parametric types used as values. */
#include <string.h>

#include "builtins_type.h"

/* Can a value of type from be stored in a field of type to (Julia's convert between numbers)? */
static bool field_convertible(const Type *from, const Type *to)
{
    return from == to || (ty_is_prim(from) && ty_is_prim(to));
}

/* "P(::Float32, ::Int64)" style MethodError for a constructor. */
static const Type *no_ctor(Infer *I, IrInst *in, const Type *S, const Type **a, int n)
{
    return infer_no_method(I, in, infer_tname(I, S), a, n);
}

const Type *builtin_type_construct(Infer *I, IrInst *in, const Type *S, const Type **a, int n)
{
    if (S->flags & TF_ABSTRACT) {
        infer_err(I, in->loc, "MethodError: no constructors have been defined for the abstract type %s",
                  infer_tname(I, S));
        return NULL;
    }
    if (strcmp(S->name, "Val") == 0 && (S->flags & TF_UNIONALL) && n == 1) {
        /* Val(x) of a constant: Val{x}() */
        const Type *p = NULL;
        int64_t k;
        int b;
        uint32_t c;
        if (a[0]->kind == TY_TYPE || a[0]->kind == TY_SYMBOL)
            p = a[0]->kind == TY_TYPE ? a[0]->elem
                                      : ty_val(T(I), a[0], 0, arena_printf(&I->c->arena, ":%s", a[0]->name));
        else if (a[0]->kind == TY_BOOL && (b = infer_const_bool(I->f, in->args[1])) >= 0)
            p = ty_val(T(I), a[0], b, b ? "true" : "false"); /* true, or Val(TX === 'S') the types decide */
        else if (ty_is_int(a[0]) && is_const_int(I, in->args[1], &k))
            p = ty_val(T(I), prim(I, TY_INT64), k, arena_printf(&I->c->arena, "%lld", (long long)k));
        else if (a[0]->kind == TY_STRUCT && infer_const_char(I->f, in->args[1], &c))
            p = ty_val_char(T(I), a[0], c); /* Val('N'), or Val(TX) of a Char where-parameter TX */
        if (!p) {
            infer_err(I, in->loc, "Val(x) needs a constant x (an integer, Bool, Char, Symbol or type) in a kernel");
            return NULL;
        }
        const Type *v = ty_struct(T(I), "Val", &p, 1, NULL, NULL, 0, 0, NULL);
        in->builtin = BI_NEW;
        in->optype = v;
        return v;
    }
    const Type *r = struct_default_ctor(I->c, S, a, n);
    if (!r) {
        StructDef *sd = fe_find_struct(I->c->mod, S->name);
        if (sd && sd->has_inner && !fe_find_func(I->c->mod, S->name))
            return no_ctor(I, in, S, a, n);
        return no_ctor(I, in, S, a, n);
    }
    in->builtin = BI_NEW;
    in->optype = r;
    return r;
}

/* #new(P, args...) in an inner constructor. */
const Type *type_new(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    (void)name;
    if (n < 1 || a[0]->kind != TY_TYPE || a[0]->elem->kind != TY_STRUCT) {
        infer_err(I, in->loc, "`new` must be called in an inner constructor of a struct");
        return NULL;
    }
    const Type *S = a[0]->elem;
    if (S->flags & TF_UNIONALL) /* new(x) in a parametric struct: the parameters from the fields */
        S = struct_default_ctor(I->c, S, a + 1, n - 1);
    if (!S || S->nfields != n - 1) {
        infer_err(I, in->loc, "MethodError: `new` of %s needs %d field value%s, got %d", infer_tname(I, a[0]->elem),
                  S ? S->nfields : 0, S && S->nfields == 1 ? "" : "s", n - 1);
        return NULL;
    }
    for (int i = 0; i < S->nfields; i++)
        if (!field_convertible(a[i + 1], S->fields[i])) {
            infer_err(I, in->loc, "MethodError: cannot convert a value of type %s to %s (field `%s` of %s)",
                      infer_tname(I, a[i + 1]), infer_tname(I, S->fields[i]), S->fnames[i], infer_tname(I, S));
            return NULL;
        }
    in->optype = S;
    return S;
}

/* #setfield(x, :f, v): x with field f set to v (x a mutable struct). */
const Type *type_setfield(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    (void)name;
    if (n != 3 || a[1]->kind != TY_SYMBOL)
        return infer_no_method(I, in, "setfield!", a, n);
    const Type *S = a[0];
    int fi = ty_field_index(S, a[1]->name);
    if (fi < 0 || (S->flags & TF_NAMEDTUPLE)) {
        infer_err(I, in->loc, "type %s has no field %s", infer_tname(I, S), a[1]->name);
        return NULL;
    }
    if (!(S->flags & TF_MUTABLE)) {
        infer_err(I, in->loc, "setfield!: immutable struct of type %s cannot be changed", infer_tname(I, S));
        return NULL;
    }
    const IrInst *x = &I->f->insts[in->args[1]];
    if (x->op == IR_SLOT && I->f->slots[x->slot].is_param) {
        /* the caller's object would not see the change: juke keeps mutable structs as values */
        infer_err(I, in->loc,
                  "setfield!: `%s` is an argument; a kernel may only change a mutable struct it constructed itself "
                  "(juke keeps mutable structs as values, so the caller would not see the change)",
                  I->f->slots[x->slot].name);
        return NULL;
    }
    if (!field_convertible(a[2], S->fields[fi])) {
        infer_err(I, in->loc, "MethodError: cannot convert a value of type %s to %s (field `%s` of %s)",
                  infer_tname(I, a[2]), infer_tname(I, S->fields[fi]), S->fnames[fi], infer_tname(I, S));
        return NULL;
    }
    return S;
}

/* getfield(x, i) / getfield(x, :f): the field's type, its 0-based index in in->ival. Julia's index must be a
 * constant here (as its inference needs for a struct of mixed field types: constant propagation, infer.c). */
const Type *type_getfield(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    (void)name;
    const Type *S = n == 2 ? a[0] : NULL;
    if (!S || !(S->kind == TY_STRUCT || S->kind == TY_TUPLE) || (S->flags & TF_UNIONALL) ||
        !(a[1]->kind == TY_SYMBOL || (ty_is_int(a[1]) && a[1]->kind != TY_BOOL)))
        return infer_no_method(I, in, "getfield", a, n);
    int64_t k = -1;
    if (a[1]->kind == TY_SYMBOL) {
        k = ty_field_index(S, a[1]->name);
        if (k < 0) {
            infer_err(I, in->loc, "type %s has no field %s", infer_tname(I, S), a[1]->name);
            return NULL;
        }
    } else if (!is_const_int(I, in->args[2], &k)) {
        infer_err(I, in->loc, "getfield(x, i) of %s needs a constant i in a kernel", infer_tname(I, S));
        return NULL;
    } else if (k < 1 || k > S->nfields) {
        infer_err(I, in->loc, "BoundsError: attempt to access %s at index [%lld]", infer_tname(I, S), (long long)k);
        return NULL;
    } else {
        k--;
    }
    in->ival = k;
    return S->fields[k];
}

/* #curly(P, params...): the type P{params...} (a type or constant each). */
const Type *type_curly(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    (void)name;
    if (n < 2 || n > 17 || a[0]->kind != TY_TYPE || a[0]->elem->kind != TY_STRUCT ||
        !(a[0]->elem->flags & TF_UNIONALL)) {
        infer_err(I, in->loc, "%s{...}: only a parametric struct, Val or Complex takes parameters in a kernel",
                  n >= 1 ? infer_tname(I, a[0]->kind == TY_TYPE ? a[0]->elem : a[0]) : "?");
        return NULL;
    }
    const Type *ps[16];
    for (int i = 1; i < n; i++) {
        int64_t k;
        const IrInst *x = &I->f->insts[in->args[i + 1]];
        if (a[i]->kind == TY_TYPE)
            ps[i - 1] = a[i]->elem;
        else if (a[i]->kind == TY_SYMBOL)
            ps[i - 1] = ty_val(T(I), a[i], 0, arena_printf(&I->c->arena, ":%s", a[i]->name));
        else if (a[i]->kind == TY_BOOL && x->op == IR_CONST && x->lit == LIT_NONE)
            ps[i - 1] = ty_val(T(I), a[i], x->ival == IR_TRUE, x->ival == IR_TRUE ? "true" : "false");
        else if (ty_is_int(a[i]) && is_const_int(I, in->args[i + 1], &k))
            ps[i - 1] = ty_val(T(I), prim(I, TY_INT64), k, arena_printf(&I->c->arena, "%lld", (long long)k));
        else {
            infer_err(I, x->loc, "a type parameter must be a type or a constant");
            return NULL;
        }
    }
    const Type *S = a[0]->elem;
    if (strcmp(S->name, "Val") == 0) {
        if (n != 2) {
            infer_err(I, in->loc, "Val takes one parameter");
            return NULL;
        }
        return ty_typeof_type(T(I), ty_struct(T(I), "Val", ps, 1, NULL, NULL, 0, 0, NULL));
    }
    StructDef *sd = fe_find_struct(I->c->mod, S->name);
    if (sd && n - 1 < sd->ntvars && !(sd->flags & STRUCT_ABSTRACT)) /* SVector{3}: the UnionAll of its leading
                                                                         parameters, for constructors to match */
        return ty_typeof_type(T(I), ty_struct(T(I), sd->name, ps, n - 1, NULL, NULL, 0,
                                              TF_UNIONALL | (sd->flags & STRUCT_MUTABLE ? TF_MUTABLE : 0), NULL));
    const Type *r = sd ? struct_type(I->c, sd, ps, n - 1, in->loc, !I->report) : NULL;
    if (!r) {
        I->failed = true;
        return NULL;
    }
    return ty_typeof_type(T(I), r);
}

const Type *builtin_type_namedtuple(Infer *I, IrInst *in, const Type **fields, int n)
{
    const char **names = arena_alloc(&I->c->arena, sizeof(char *) * (size_t)(n + 1));
    char *copy = arena_strdup(&I->c->arena, in->name);
    if (!copy || !names)
        return NULL;
    int k = 0;
    for (char *p = copy; k < n && p; k++) {
        names[k] = p;
        p = strchr(p, ',');
        if (p)
            *p++ = 0;
    }
    if (k != n) {
        infer_err(I, in->loc, "malformed named tuple");
        return NULL;
    }
    return ty_namedtuple(T(I), names, fields, n);
}

/* A type parameter given as a value: the type itself, or Val{x} of a constant integer, Bool or Symbol. */
static const Type *param_of_value(Infer *I, IrInst *in, const Type *a, int arg)
{
    int64_t k;
    const IrInst *x = &I->f->insts[in->args[arg]];
    if (a->kind == TY_TYPE)
        return a->elem;
    if (a->kind == TY_SYMBOL)
        return ty_val(T(I), a, 0, arena_printf(&I->c->arena, ":%s", a->name));
    if (a->kind == TY_BOOL && x->op == IR_CONST && x->lit == LIT_NONE)
        return ty_val(T(I), a, x->ival == IR_TRUE, x->ival == IR_TRUE ? "true" : "false");
    if (ty_is_int(a) && is_const_int(I, in->args[arg], &k))
        return ty_val(T(I), prim(I, TY_INT64), k, arena_printf(&I->c->arena, "%lld", (long long)k));
    return NULL;
}

/* #typeapply(params...): Tuple{...}, NTuple{N, T}, @NamedTuple{a::A, ...} or an alias A{T} of
 * `const A{T} = ...` as a value (x isa Tuple{Int64, Float32}): Type{the type}. */
const Type *type_typeapply(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    (void)name;
    const char *head = in->name ? in->name : "?";
    const Type **ps = arena_alloc(&I->c->arena, sizeof(Type *) * (size_t)(n + 1));
    if (!ps)
        return NULL;
    if (n > TY_MAX_FIELDS) {
        infer_err(I, in->loc, "%s{...}: too many parameters", head);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (!(ps[i] = param_of_value(I, in, a[i], i + 1))) {
            infer_err(I, in->loc, "%s{...}: parameter %d is a value of type %s, not a type or constant", head, i + 1,
                      infer_tname(I, a[i]));
            return NULL;
        }
    const Type *t = NULL;
    if (strcmp(head, "Tuple") == 0) {
        t = ty_tuple(T(I), ps, n);
    } else if (strcmp(head, "NTuple") == 0 && n == 2 && ps[0]->kind == TY_VAL && ps[0]->ival >= 0 &&
               ps[0]->ival <= TY_MAX_FIELDS) {
        const Type **fs = arena_alloc(&I->c->arena, sizeof(Type *) * (size_t)(ps[0]->ival + 1));
        if (!fs)
            return NULL;
        for (int i = 0; i < ps[0]->ival; i++)
            fs[i] = ps[1];
        t = ty_tuple(T(I), fs, (int)ps[0]->ival);
    } else if (strncmp(head, "NamedTuple:", 11) == 0) {
        const char **fnames = arena_alloc(&I->c->arena, sizeof(char *) * (size_t)(n + 1));
        const char *s = head + 11;
        if (!fnames)
            return NULL;
        for (int i = 0; i < n; i++) {
            const char *e = strchr(s, ',');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            fnames[i] = arena_printf(&I->c->arena, "%.*s", (int)len, s);
            s = e ? e + 1 : s + len;
        }
        t = ty_namedtuple(T(I), fnames, ps, n);
    } else {
        const ConstDef *alias = fe_find_const(I->c->mod, head);
        if (alias && alias->ntparams == n && n <= 16) {
            const char *tvars[16];
            for (int i = 0; i < n; i++)
                tvars[i] = alias->tparams[i]->name;
            t = infer_type_expr(I->c, alias->value, tvars, ps, n, false);
            if (!t)
                return NULL;
        }
    }
    if (!t) {
        infer_err(I, in->loc, "%s{...}: not a type juke can build in a kernel", head);
        return NULL;
    }
    return ty_typeof_type(T(I), t);
}
