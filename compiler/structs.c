/* structs.c: user `struct`, `mutable struct` and `abstract type` definitions:
 * collecting them from a source, building the type of P{params...} (its
 * fields' concrete types, laid out as docs/abi.md says), the default
 * constructor, and the names that host type strings may use. */
#include <string.h>

#include "frontend.h"

StructDef *fe_find_struct(const FeModule *m, const char *name)
{
    return namemap_get(&m->struct_map, name);
}

/* Is n a field declaration: x, x::T, or either with a default? */
static Node *field_decl(Node *n, Node **deflt)
{
    *deflt = NULL;
    if (n->kind == AST_ASSIGN) {
        *deflt = n->kids[1];
        n = n->kids[0];
    }
    return n;
}

/* A field declared without a type (`struct Cell grid; idx end`) is Any in Julia: a box that keeps the concrete
 * type of the value stored. A kernel has no boxes, and an immutable field never takes another value, so such a
 * field of a struct built by its default constructor gets a hidden type parameter (named `#field`, after the
 * declared ones) that the constructor's argument binds: Cell(grid, 3) is a Cell{G, Int64}. A struct with inner
 * constructors keeps Any (its `new` calls name their parameters), and the field then fails as an abstract one. */
static bool struct_hide_any_fields(Arena *a, StructDef *sd)
{
    int hidden = 0;
    for (int i = 0; i < sd->nfields; i++)
        hidden += !sd->ftypes[i];
    if (!hidden || sd->has_inner || (sd->flags & STRUCT_ABSTRACT))
        return true;
    const char **tv = arena_alloc(a, sizeof(char *) * (size_t)(sd->ntvars + hidden + 1));
    Node **tb = arena_alloc(a, sizeof(Node *) * (size_t)(sd->ntvars + hidden + 1));
    if (!tv || !tb)
        return false;
    memcpy(tv, sd->tvars, sizeof(char *) * (size_t)sd->ntvars);
    memcpy(tb, sd->tvar_bounds, sizeof(Node *) * (size_t)sd->ntvars);
    int nt = sd->ntvars;
    for (int i = 0; i < sd->nfields; i++) {
        if (sd->ftypes[i])
            continue;
        tv[nt] = arena_printf(a, "#%s", sd->fnames[i]);
        tb[nt] = NULL;
        if (!tv[nt] || !(sd->ftypes[i] = ast_ident(a, sd->loc, tv[nt])))
            return false;
        nt++;
    }
    sd->tvars = tv;
    sd->tvar_bounds = tb;
    sd->ntvars = nt;
    return true;
}

bool struct_collect(FeModule *mod, Node *n, Diags *d, bool (*add_method)(FeModule *, Node *, StructDef *, Diags *))
{
    Arena *a = &mod->arena;
    StructDef *old = fe_find_struct(mod, n->name);
    if (old) {
        diag_error(d, n->loc, "invalid redefinition of type %s", n->name);
        diag_note(d, old->loc, "%s was first defined here", n->name);
        return false;
    }
    if (fe_find_const(mod, n->name) || fe_find_func(mod, n->name)) {
        diag_error(d, n->loc, "invalid redefinition of %s: it already names a %s", n->name,
                   fe_find_const(mod, n->name) ? "constant" : "function");
        return false;
    }
    StructDef *sd = arena_alloc(a, sizeof(StructDef));
    if (!sd)
        return false;
    sd->name = n->name;
    sd->loc = n->loc;
    sd->def = n;
    sd->flags = n->flags;
    sd->super = n->kids[1];
    Node *tps = n->kids[0];
    int nt = tps ? tps->nkids : 0;
    Node *fs = n->kids[2];
    int nf = fs ? fs->nkids : 0;
    sd->tvars = arena_alloc(a, sizeof(char *) * (size_t)(nt + 1));
    sd->tvar_bounds = arena_alloc(a, sizeof(Node *) * (size_t)(nt + 1));
    sd->fnames = arena_alloc(a, sizeof(char *) * (size_t)(nf + 1));
    sd->ftypes = arena_alloc(a, sizeof(Node *) * (size_t)(nf + 1));
    sd->fdefaults = arena_alloc(a, sizeof(Node *) * (size_t)(nf + 1));
    if (!sd->tvars || !sd->tvar_bounds || !sd->fnames || !sd->ftypes || !sd->fdefaults)
        return false;
    for (int i = 0; i < nt; i++) {
        Node *w = tps->kids[i];
        bool sub = w->kind == AST_SUBTYPE;
        sd->tvars[i] = sub ? w->kids[0]->name : w->name;
        sd->tvar_bounds[i] = sub ? w->kids[1] : NULL;
    }
    sd->ntvars = nt;
    for (int i = 0; i < nf; i++) {
        Node *deflt, *f = field_decl(fs->kids[i], &deflt);
        const char *fname = f->kind == AST_TYPED ? f->kids[0]->name : f->name;
        for (int k = 0; k < i; k++)
            if (strcmp(sd->fnames[k], fname) == 0) {
                diag_error(d, f->loc, "duplicate field name: \"%s\" is not unique in struct %s", fname, sd->name);
                return false;
            }
        sd->fnames[i] = fname;
        sd->ftypes[i] = f->kind == AST_TYPED ? f->kids[1] : NULL;
        sd->fdefaults[i] = deflt;
    }
    sd->nfields = nf;
    StructDef **structs = arena_grow(a, mod->structs, mod->nstructs, &mod->structs_cap, sizeof(StructDef *), 8);
    if (!structs)
        return false;
    mod->structs = structs;
    mod->structs[mod->nstructs++] = sd;
    if (!namemap_put(a, &mod->struct_map, sd->name, sd))
        return false;
    Node *ctors = n->kids[3];
    for (int i = 0; ctors && i < ctors->nkids; i++) {
        Node *fn = ctors->kids[i];
        if (strcmp(fn->name, sd->name) != 0) {
            diag_error(d, fn->loc, "inner constructor `%s` must be named after its struct %s", fn->name, sd->name);
            continue;
        }
        sd->has_inner = true;
        if (!add_method(mod, fn, sd, d))
            return false;
    }
    return struct_hide_any_fields(a, sd);
}

const Type *struct_type(FeCompilation *c, const StructDef *sd, const Type **params, int np, SrcLoc loc, bool quiet)
{
    TypeTable *t = c->types;
    int flags = (sd->flags & STRUCT_MUTABLE ? TF_MUTABLE : 0) | (sd->flags & STRUCT_ABSTRACT ? TF_ABSTRACT : 0);
    const Type *super = NULL;
    if (sd->super) {
        /* struct Unary{D <: AbstractDimension, T} <: AbstractOperator{D}: the supertype of Unary{D2, T2} is
         * AbstractOperator{D2}; of the UnionAll Unary, the UnionAll AbstractOperator */
        bool bound = np == sd->ntvars;
        super = infer_type_expr(c, sd->super, bound ? sd->tvars : NULL, bound ? params : NULL, bound ? np : 0, true);
        if (!super && sd->super->kind == AST_CURLY)
            super = infer_type_expr(c, sd->super->kids[0], NULL, NULL, 0, true);
        if (!super)
            super = infer_type_expr(c, sd->super, NULL, NULL, 0, quiet);
        if (!super)
            return NULL;
    }
    if (sd->flags & STRUCT_ABSTRACT) /* AbstractDimension{2} keeps its parameters, AbstractDimension has none */
        return ty_struct(t, sd->name, np == sd->ntvars ? params : NULL, np == sd->ntvars ? np : 0, NULL, NULL, 0, flags,
                         super);
    if (np == 0 && sd->ntvars > 0)
        return ty_struct(t, sd->name, NULL, 0, NULL, NULL, 0, flags | TF_UNIONALL, super);
    if (np != sd->ntvars) {
        if (!quiet)
            diag_error(c->diags, loc, "too %s parameters for type %s (it has %d)", np > sd->ntvars ? "many" : "few",
                       sd->name, sd->ntvars);
        return NULL;
    }
    for (int i = 0; i < np; i++)
        if (sd->tvar_bounds[i]) {
            const Type *b = infer_type_expr(c, sd->tvar_bounds[i], sd->tvars, params, np, true);
            if (b && params[i]->kind != TY_VAL && !ty_subtype(params[i], b)) {
                if (!quiet)
                    diag_error(c->diags, loc, "TypeError: in %s, in %s, expected %s<:%s, got Type{%s}", sd->name,
                               sd->tvars[i], sd->tvars[i], ty_name(&c->arena, b), ty_name(&c->arena, params[i]));
                return NULL;
            }
        }
    if (++c->struct_depth > TY_MAX_DEPTH) {
        c->struct_depth--;
        if (!quiet)
            diag_error(c->diags, loc, "struct %s contains itself (a kernel value must have a finite size)", sd->name);
        return NULL;
    }
    const Type **fields = arena_alloc(&c->arena, sizeof(Type *) * (size_t)(sd->nfields + 1));
    const Type *r = NULL;
    if (!fields)
        goto out;
    if (sd->nfields > TY_MAX_FIELDS) {
        if (!quiet)
            diag_error(c->diags, loc, "struct %s has %d fields (limit %d)", sd->name, sd->nfields, TY_MAX_FIELDS);
        goto out;
    }
    for (int i = 0; i < sd->nfields; i++) {
        fields[i] = sd->ftypes[i] ? infer_type_expr(c, sd->ftypes[i], sd->tvars, params, np, quiet) : NULL;
        if (sd->ftypes[i] && !fields[i])
            goto out;
        if (!fields[i] || !ty_is_concrete(fields[i])) {
            if (!quiet)
                diag_error(c->diags, sd->ftypes[i] ? sd->ftypes[i]->loc : sd->loc,
                           "field `%s` of %s has the abstract type %s; a kernel struct needs concrete field types "
                           "(a type parameter: struct %s{T} %s::T end)",
                           sd->fnames[i], sd->name, fields[i] ? ty_name(&c->arena, fields[i]) : "Any", sd->name,
                           sd->fnames[i]);
            goto out;
        }
    }
    StrBuf why = { 0 };
    if (!ty_tuple_fits(fields, sd->nfields, &why)) {
        if (!quiet)
            diag_error(c->diags, loc, "struct %s: %s", sd->name, why.data ? why.data : "too large");
        sb_free(&why);
        goto out;
    }
    r = ty_struct(t, sd->name, params, np, fields, sd->fnames, sd->nfields, flags, super);
out:
    c->struct_depth--;
    return r;
}

/* Can a value of type from be stored in a field of type to (Julia's convert)? */
static bool convertible(const Type *from, const Type *to)
{
    return from == to || (ty_is_prim(from) && ty_is_prim(to));
}

const Type *struct_default_ctor(FeCompilation *c, const Type *callee, const Type **a, int n)
{
    if (callee->kind != TY_STRUCT || (callee->flags & TF_ABSTRACT))
        return NULL;
    if (strcmp(callee->name, "Val") == 0)
        return n == 0 && !(callee->flags & TF_UNIONALL) ? callee : NULL;
    StructDef *sd = fe_find_struct(c->mod, callee->name);
    if (!sd || n != sd->nfields)
        return NULL;
    const Type *S = callee;
    if (callee->flags & TF_UNIONALL) {
        /* P(x, y) of P{T}: T from the arguments, as Julia's default outer constructor finds it */
        const Type *vals[32] = { 0 };
        if (sd->ntvars > 32)
            return NULL;
        for (int i = 0; i < n; i++)
            if (sd->ftypes[i] &&
                !infer_match_type(c, sd->ftypes[i], a[i], sd->tvars, vals, sd->tvar_bounds, sd->ntvars))
                return NULL;
        for (int i = 0; i < sd->ntvars; i++)
            if (!vals[i])
                return NULL;
        S = struct_type(c, sd, vals, sd->ntvars, sd->loc, true);
        if (!S)
            return NULL;
    }
    for (int i = 0; i < n; i++)
        if (!convertible(a[i], S->fields[i]))
            return NULL;
    return S;
}

/* ty_parse's names for a compilation: the module's structs. */
static const Type *resolve_struct(void *ud, TypeTable *t, const char *name, const Type **params, int np, StrBuf *err)
{
    (void)t;
    FeCompilation *c = ud;
    StructDef *sd = fe_find_struct(c->mod, name);
    if (!sd)
        return NULL;
    const Type *S = struct_type(c, sd, params, np, sd->loc, true);
    if (!S) {
        /* again, with the reason: the first error's message, without its place */
        Diags d = { 0 }, *saved = c->diags;
        c->diags = &d;
        struct_type(c, sd, params, np, sd->loc, false);
        c->diags = saved;
        const char *msg = d.text.data ? strstr(d.text.data, "error: ") : NULL;
        const char *nl = msg ? strchr(msg, '\n') : NULL;
        if (msg && nl)
            sb_printf(err, "%.*s", (int)(nl - msg - 7), msg + 7);
        else
            sb_printf(err, "%s cannot be built", name);
        diag_reset(&d);
    } else if (!ty_is_concrete(S)) {
        sb_printf(err, "%s is %s; a host argument needs a concrete type", name,
                  S->flags & TF_ABSTRACT ? "an abstract type" : "a parametric type without its parameters");
        for (int i = 0; (S->flags & TF_UNIONALL) && i < sd->ntvars; i++)
            sb_printf(err, "%s%s", i ? ", " : " (give them: {", sd->tvars[i]);
        if (S->flags & TF_UNIONALL)
            sb_printf(err, "} after %s)", name);
    } else
        return S;
    return NULL;
}

void struct_install_resolver(FeCompilation *c)
{
    ty_set_resolver(c->types, resolve_struct, c);
}
