/* infer.c: type inference of a method for concrete argument types.
 *
 * A specialisation starts as a copy of the method's lowered IR. Types flow
 * forward over the flat instruction list until nothing changes (loops need
 * more than one pass); every slot must keep one concrete type, as the device
 * cannot box a value. Calls resolve to a built-in (builtins.h) or, through
 * multiple dispatch, to the specialisation of a user method, inferred on
 * demand (a call back into a method still on the stack is recursion, an
 * error). Diagnostics are only emitted in a final pass, once types are
 * stable, so a half-known type never produces a spurious error. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtins_type.h"
#include "prelude.h"

enum { UNION_MAX = 4 }; /* the most member types of a union variable (union_split.c) */

/* (contracts of the infer_ functions the typing rules share: builtins_type.h) */
static void note_prelude_caller(FeCompilation *c, SrcLoc loc);

void infer_err(Infer *I, SrcLoc loc, const char *fmt, ...)
{
    I->failed = true;
    va_list ap;
    if (I->capture && !I->captured) {
        va_start(ap, fmt);
        StrBuf sb = { 0 };
        sb_vprintf(&sb, fmt, ap);
        va_end(ap);
        I->captured = arena_strdup(&I->c->arena, sb.data ? sb.data : "");
        sb_free(&sb);
        return;
    }
    if (!I->report || I->capture)
        return;
    va_start(ap, fmt);
    diag_verror(I->c->diags, DIAG_USER, loc, fmt, ap);
    va_end(ap);
    note_prelude_caller(I->c, loc);
}

const char *infer_tname(Infer *I, const Type *t)
{
    return ty_name(&I->c->arena, t);
}

/* A variable's source name: split slots print as x@_5 (see lower.c) but are `x` to the user. */
static const char *var_name(Infer *I, const char *slot_name)
{
    const char *at = strstr(slot_name, "@_");
    return at ? arena_strndup(&I->c->arena, slot_name, (size_t)(at - slot_name)) : slot_name;
}

/* "name(::T1, ::T2)" for MethodError messages. */
static const char *sig_text(Infer *I, const char *name, const Type **args, int n)
{
    StrBuf sb = { 0 };
    sb_printf(&sb, "%s(", name);
    for (int i = 0; i < n; i++) {
        sb_puts(&sb, i ? ", ::" : "::");
        ty_print(&sb, args[i]);
    }
    sb_puts(&sb, ")");
    char *s = arena_strdup(&I->c->arena, sb.data ? sb.data : name);
    sb_free(&sb);
    return s;
}

/* ---- type expressions ---- */

static const Type *array_family(FeCompilation *c, const char *name, const Type *elem, int nd, bool *ok)
{
    *ok = true;
    if (strcmp(name, "AbstractVector") == 0 || strcmp(name, "Vector") == 0 || strcmp(name, "ROCDeviceVector") == 0 ||
        strcmp(name, "DenseVector") == 0)
        return ty_abstractarray(c->types, elem, 1);
    if (strcmp(name, "AbstractMatrix") == 0 || strcmp(name, "Matrix") == 0 || strcmp(name, "ROCDeviceMatrix") == 0 ||
        strcmp(name, "DenseMatrix") == 0)
        return ty_abstractarray(c->types, elem, 2);
    if (strcmp(name, "AbstractArray") == 0 || strcmp(name, "Array") == 0 || strcmp(name, "ROCDeviceArray") == 0 ||
        strcmp(name, "DenseArray") == 0)
        return ty_abstractarray(c->types, elem, nd);
    *ok = false;
    return NULL;
}

/* ComplexF16/32/64, and Complex (every Complex{T}); NULL for other names. */
static const Type *complex_type_named(TypeTable *t, const char *name)
{
    if (strcmp(name, "ComplexF32") == 0)
        return ty_complex(t, ty_prim(t, TY_FLOAT32));
    if (strcmp(name, "ComplexF64") == 0)
        return ty_complex(t, ty_prim(t, TY_FLOAT64));
    if (strcmp(name, "ComplexF16") == 0)
        return ty_complex(t, ty_prim(t, TY_FLOAT16));
    if (strcmp(name, "Complex") == 0)
        return ty_complex(t, NULL);
    return NULL;
}

/* A module path such as AMDGPU, AMDGPU.Device or Base (the parser folds one
 * level into IDENT.qual). */
static bool is_module_path(const Node *n)
{
    static const char *const mods[] = { "AMDGPU", "Device", "Base", "Core", "Runtime", "Math" };
    if (!n || (n->kind != AST_IDENT && n->kind != AST_DOT))
        return false;
    if (n->kind == AST_DOT && !is_module_path(n->kids[0]))
        return false;
    for (int i = 0; i < JK_ARRAY_LEN(mods); i++)
        if (strcmp(n->name, mods[i]) == 0)
            return true;
    return false;
}

/* AMDGPU.Device.ROCDeviceVector{T} and Base.Float32 name the types their last
 * component names: return the expression with the module path dropped. */
static const Node *strip_module_path(FeCompilation *c, const Node *n)
{
    if (n && n->kind == AST_DOT && is_module_path(n->kids[0])) {
        Node *id = arena_alloc(&c->arena, sizeof(Node));
        if (!id)
            return n;
        *id = (Node){ .kind = AST_IDENT, .loc = n->loc, .name = n->name };
        return id;
    }
    if (n && n->kind == AST_CURLY && n->kids[0]->kind == AST_DOT && is_module_path(n->kids[0]->kids[0])) {
        Node *cp = arena_alloc(&c->arena, sizeof(Node));
        Node **kids = arena_alloc(&c->arena, sizeof(Node *) * (size_t)n->nkids);
        if (!cp || !kids)
            return n;
        *cp = *n;
        memcpy(kids, n->kids, sizeof(Node *) * (size_t)n->nkids);
        kids[0] = (Node *)strip_module_path(c, n->kids[0]);
        cp->kids = kids;
        return cp;
    }
    return n;
}

/* The range families of method signatures: UnitRange (step 0), StepRange (step 1), and
 * AbstractRange / OrdinalRange (any range, step -1); -2 for other names. AbstractUnitRange is
 * UnitRange, the only unit range kernels have. */
static int range_family(const char *name)
{
    if (strcmp(name, "UnitRange") == 0 || strcmp(name, "AbstractUnitRange") == 0)
        return 0;
    if (strcmp(name, "StepRange") == 0)
        return 1;
    if (strcmp(name, "AbstractRange") == 0 || strcmp(name, "OrdinalRange") == 0)
        return -1;
    return -2;
}

/* Does n read as a type (a name, a curly, typeof(f)), not as a value (a number, a call)? */
static bool is_type_value_expr(const Node *n)
{
    return n->kind == AST_IDENT || n->kind == AST_CURLY || n->kind == AST_DOT;
}

/* The address space a pointer type's parameter names: 1 (Global) or 3 (Local) as a number or as AS.Global,
 * AMDGPU.AS.Local; -1 for anything else. */
static int64_t addrspace_number(const Node *n)
{
    if (n->kind == AST_INT)
        return n->ival;
    const char *s = n->kind == AST_DOT || n->kind == AST_IDENT ? n->name : NULL;
    if (s && strncmp(s, "AS_", 3) == 0)
        s += 3;
    return !s ? -1 : strcmp(s, "Global") == 0 ? 1 : strcmp(s, "Local") == 0 ? 3 : -1;
}

/* The type a type alias names (`const F = Float32`, `const A{T} = @NamedTuple{x::T}` with its parameters
 * bound to ps): NULL when its value is no type (a constant of another kind) or the aliases loop. */
static const Type *alias_type(FeCompilation *c, const ConstDef *alias, const Type **ps, int np, bool quiet)
{
    if (c->alias_depth > 16 || np > 16)
        return NULL;
    const char *names[16];
    for (int i = 0; i < np; i++)
        names[i] = alias->tparams[i]->name;
    c->alias_depth++;
    const Type *t = infer_type_expr(c, alias->value, names, ps, np, np ? quiet : true);
    c->alias_depth--;
    return t;
}

const Type *infer_type_expr(FeCompilation *c, const Node *n, const char **tvars, const Type **tvals, int ntvars,
                            bool quiet)
{
    if (!n)
        return ty_prim(c->types, TY_ANY);
    n = strip_module_path(c, n);
    if (n->kind == AST_SUBTYPE && !n->kids[0]) {
        /* {<:S}: any type below S (an anonymous where-variable) */
        const Type *bound = infer_type_expr(c, n->kids[1], tvars, tvals, ntvars, quiet);
        return bound ? ty_typevar(c->types, "#T", bound) : NULL;
    }
    if (n->kind == AST_IDENT) {
        for (int i = ntvars - 1; i >= 0; i--)
            if (strcmp(tvars[i], n->name) == 0)
                return tvals[i] ? tvals[i] : ty_typevar(c->types, tvars[i], NULL);
        const Type *t = ty_lookup_name(c->types, n->name);
        if (t)
            return t;
        bool ok;
        t = array_family(c, n->name, NULL, -1, &ok);
        if (ok)
            return t;
        if (strcmp(n->name, "Function") == 0)
            return ty_prim(c->types, TY_ANY);
        if (strcmp(n->name, "Colon") == 0) /* typeof(:), the type of a `:` index */
            return ty_function(c->types, ":");
        if (range_family(n->name) > -2)
            return ty_range_of(c->types, NULL, range_family(n->name));
        if ((t = complex_type_named(c->types, n->name)))
            return t;
        StructDef *sd = fe_find_struct(c->mod, n->name);
        if (sd)
            return struct_type(c, sd, NULL, 0, n->loc, quiet);
        if (strcmp(n->name, "Val") == 0)
            return ty_struct(c->types, "Val", NULL, 0, NULL, NULL, 0, TF_UNIONALL, NULL);
        if (strcmp(n->name, "Symbol") == 0)
            return ty_symbol(c->types, NULL);
        const ConstDef *alias = fe_find_const(c->mod, n->name);
        if (alias && !alias->nonconst && !alias->ntparams && (t = alias_type(c, alias, NULL, 0, quiet)))
            return t;
    } else if (n->kind == AST_CALL && n->nkids == 2 && n->kids[0]->kind == AST_IDENT &&
               strcmp(n->kids[0]->name, "typeof") == 0 && n->kids[1]->kind == AST_IDENT &&
               (fe_find_func(c->mod, n->kids[1]->name) || builtin_lookup(n->kids[1]->name))) {
        return ty_function(c->types, n->kids[1]->name); /* typeof(f): the singleton type of function f */
    } else if (n->kind == AST_INT && (n->lit == LIT_INT64 || n->lit == LIT_INT32)) {
        return ty_val(c->types, ty_prim(c->types, TY_INT64), n->ival,
                      arena_printf(&c->arena, "%lld", (long long)n->ival));
    } else if (n->kind == AST_SYMBOL) {
        return ty_val(c->types, ty_symbol(c->types, n->name), 0, arena_printf(&c->arena, ":%s", n->name));
    } else if (n->kind == AST_BOOL) {
        return ty_val(c->types, ty_prim(c->types, TY_BOOL), n->ival, n->ival ? "true" : "false");
    } else if (n->kind == AST_CURLY && n->kids[0]->kind == AST_IDENT) {
        const char *name = n->kids[0]->name;
        StructDef *sd = fe_find_struct(c->mod, name);
        if (sd || strcmp(name, "Val") == 0) {
            /* P{Float32}, Val{4}: the parameters are types or values */
            const Type *ps[16];
            int np = n->nkids - 1;
            if (np > 16)
                np = 16;
            bool open = false;
            for (int i = 0; i < np; i++) {
                if (!(ps[i] = infer_type_expr(c, n->kids[i + 1], tvars, tvals, ntvars, quiet)))
                    return NULL;
                open = open || ps[i]->kind == TY_TYPEVAR;
            }
            if (!sd)
                return np == 1 && !open ? ty_struct(c->types, "Val", ps, 1, NULL, NULL, 0, 0, NULL)
                                        : ty_struct(c->types, "Val", NULL, 0, NULL, NULL, 0, TF_UNIONALL, NULL);
            /* P{T} with T unbound (a method's parameter type): every P */
            return struct_type(c, sd, open ? NULL : ps, open ? 0 : np, n->loc, quiet);
        }
        if (strcmp(name, "CartesianIndex") == 0 && n->nkids == 2) { /* an NTuple{N,Int64} here (ka.c) */
            const Type *len = infer_type_expr(c, n->kids[1], tvars, tvals, ntvars, quiet);
            if (!len)
                return NULL;
            if (len->kind == TY_VAL && len->elem->kind == TY_INT64 && len->ival >= 0 && len->ival <= TY_MAX_FIELDS) {
                const Type **fs = arena_alloc(&c->arena, sizeof(Type *) * (size_t)(len->ival + 1));
                if (!fs)
                    return NULL;
                for (int i = 0; i < len->ival; i++)
                    fs[i] = ty_prim(c->types, TY_INT64);
                return ty_tuple(c->types, fs, (int)len->ival);
            }
            return ty_prim(c->types, TY_ANY); /* CartesianIndex{N} with N unbound: matched by match_type */
        }
        if (strcmp(name, "NTuple") == 0 && n->nkids == 3) {
            const Type *len = infer_type_expr(c, n->kids[1], tvars, tvals, ntvars, quiet);
            const Type *el = infer_type_expr(c, n->kids[2], tvars, tvals, ntvars, quiet);
            if (!len || !el)
                return NULL;
            if (len->kind == TY_VAL && len->elem->kind == TY_INT64 && len->ival >= 0 && len->ival <= TY_MAX_FIELDS) {
                const Type **fs = arena_alloc(&c->arena, sizeof(Type *) * (size_t)(len->ival + 1));
                if (!fs)
                    return NULL;
                for (int i = 0; i < len->ival; i++)
                    fs[i] = el;
                return ty_tuple(c->types, fs, (int)len->ival);
            }
            return ty_prim(c->types, TY_ANY); /* NTuple{N,T} with N unbound: matched by match_type */
        }
        if (strcmp(name, "Tuple") == 0) {
            int nf = n->nkids - 1;
            const Type **fs = arena_alloc(&c->arena, sizeof(Type *) * (size_t)(nf + 1));
            StrBuf why = { 0 };
            if (!fs)
                return NULL;
            for (int i = 0; i < nf; i++)
                if (!(fs[i] = infer_type_expr(c, n->kids[i + 1], tvars, tvals, ntvars, quiet)))
                    return NULL;
            if (!ty_tuple_fits(fs, nf, &why)) {
                if (!quiet)
                    diag_error(c->diags, n->loc, "%s", why.data ? why.data : "tuple type too large");
                sb_free(&why);
                return NULL;
            }
            return ty_tuple(c->types, fs, nf);
        }
        if (strcmp(name, "Type") == 0 && n->nkids == 2) {
            const Type *t = infer_type_expr(c, n->kids[1], tvars, tvals, ntvars, quiet);
            return t ? ty_typeof_type(c->types, t) : NULL;
        }
        if (((strcmp(name, "LLVMPtr") == 0 || strcmp(name, "DevicePtr") == 0) && n->nkids == 3) ||
            (strcmp(name, "Ptr") == 0 && n->nkids == 2)) {
            /* Core.LLVMPtr{T, AS} (global 1 or local 3; older AMDGPU.jl's DevicePtr{T, AS}) and Ptr{T} (a
             * global pointer here) */
            const Type *t = infer_type_expr(c, n->kids[1], tvars, tvals, ntvars, quiet);
            int64_t as = n->nkids == 3 ? addrspace_number(n->kids[2]) : 1;
            if (t && (as == 1 || as == 3))
                return ty_ptr(c->types, t, as == 3);
            if (t && !quiet)
                diag_error(c->diags, n->loc, "%s: juke has pointers to global (1) and local (3) memory only", name);
            return NULL;
        }
        if (strcmp(name, "Complex") == 0 && n->nkids == 2) {
            const Type *t = infer_type_expr(c, n->kids[1], tvars, tvals, ntvars, quiet);
            if (t && (ty_is_prim(t) || t->kind == TY_TYPEVAR))
                return ty_complex(c->types, t);
            if (t && !quiet)
                diag_error(c->diags, n->loc, "Complex{%s}: the parts must be a primitive number type",
                           ty_name(&c->arena, t));
            return NULL;
        }
        if (strcmp(name, "NamedTuple") == 0 && n->nkids > 1 && n->kids[1]->kind == AST_TYPED) {
            /* @NamedTuple{a::T, b::S} */
            int nf = n->nkids - 1;
            const char **fnames = arena_alloc(&c->arena, sizeof(char *) * (size_t)nf);
            const Type **fs = arena_alloc(&c->arena, sizeof(Type *) * (size_t)nf);
            for (int i = 0; fnames && fs && i < nf; i++) {
                const Node *f = n->kids[i + 1];
                if (f->kind != AST_TYPED || f->kids[0]->kind != AST_IDENT)
                    break;
                fnames[i] = f->kids[0]->name;
                if (!(fs[i] = infer_type_expr(c, f->kids[1], tvars, tvals, ntvars, quiet)))
                    return NULL;
                if (i == nf - 1)
                    return ty_namedtuple(c->types, fnames, fs, nf);
            }
        }
        const ConstDef *alias = fe_find_const(c->mod, name);
        if (alias && alias->ntparams == n->nkids - 1) {
            /* A{Int64} of `const A{T} = ...`: the alias's type with T bound */
            const Type *ps[16];
            for (int i = 0; i < alias->ntparams && i < 16; i++)
                if (!(ps[i] = infer_type_expr(c, n->kids[i + 1], tvars, tvals, ntvars, quiet)))
                    return NULL;
            const Type *t = alias_type(c, alias, ps, alias->ntparams, quiet);
            if (t)
                return t;
        }
        const Type *elem = n->nkids > 1 ? infer_type_expr(c, n->kids[1], tvars, tvals, ntvars, quiet) : NULL;
        if (range_family(name) > -2 && elem)
            return ty_range_of(c->types, elem->kind == TY_ANY ? NULL : elem, range_family(name));
        int nd = -1;
        if (n->nkids > 2 && n->kids[2]->kind == AST_INT) {
            nd = (int)n->kids[2]->ival;
        } else if (n->nkids > 2) { /* AbstractArray{T, N} with N bound (a struct's supertype) */
            const Type *v = infer_type_expr(c, n->kids[2], tvars, tvals, ntvars, true);
            if (v && v->kind == TY_VAL && v->elem && v->elem->kind == TY_INT64)
                nd = (int)v->ival;
        }
        if (elem && elem->kind == TY_ANY)
            elem = NULL;
        /* ROCDeviceArray{T, N, AS} with all three known (a struct's field, AMDGPU.jl's Adapt of a ROCArray):
         * the device array itself, of global (1, AS.Global) or a workgroup's local memory (3, AS.Local) */
        int64_t as = n->nkids == 4 ? addrspace_number(n->kids[3]) : -1;
        if (strcmp(name, "ROCDeviceArray") == 0 && elem && nd >= 0 && (as == 1 || as == 3))
            return as == 1 ? ty_array(c->types, elem, nd) : ty_localarray(c->types, elem, nd);
        bool ok;
        const Type *t = array_family(c, name, elem, nd, &ok);
        if (ok)
            return t;
    }
    if (!quiet) {
        StrBuf sb = { 0 };
        ast_print(&sb, n);
        diag_error(c->diags, n->loc, "UndefVarError: type `%s` not defined", sb.data ? sb.data : "?");
        sb_free(&sb);
    }
    return NULL;
}

/* ---- dispatch ---- */

typedef struct Binding {
    const char **names;
    const Type **vals;
    Node **bounds;
    int n;
} Binding;

static bool match_type(FeCompilation *c, const Node *te, const Type *arg, Binding *b, int depth);

static int tvar_index(Binding *b, const char *name)
{
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->names[i], name) == 0)
            return i;
    return -1;
}

/* Union{A, B, ...} written in a signature or a bound: does arg match one of the members? (Each try starts
 * from the bindings before it.) -1 when te is no Union{...}. */
static int match_union(FeCompilation *c, const Node *te, const Type *arg, Binding *b, int depth)
{
    if (!te || te->kind != AST_CURLY || te->kids[0]->kind != AST_IDENT || strcmp(te->kids[0]->name, "Union") != 0 ||
        te->nkids > 17)
        return -1;
    const Type *saved[16];
    int n = b->n < 16 ? b->n : 16;
    for (int i = 0; i < n; i++)
        saved[i] = b->vals[i];
    for (int k = 1; k < te->nkids; k++) {
        if (match_type(c, te->kids[k], arg, b, depth + 1))
            return 1;
        for (int i = 0; i < n; i++)
            b->vals[i] = saved[i];
    }
    return 0;
}

static bool bind_tvar(FeCompilation *c, Binding *b, int i, const Type *arg)
{
    if (b->vals[i])
        return b->vals[i] == arg;
    int u = match_union(c, b->bounds[i], arg, b, 0); /* T <: Union{Float16, Float32} */
    if (u == 0)
        return false;
    /* D <: AbstractDimension{N}, N another where-parameter: matching the bound binds N */
    if (b->bounds[i] && u < 0 && !match_type(c, b->bounds[i], arg, b, 1)) {
        const Type *bound = infer_type_expr(c, b->bounds[i], b->names, b->vals, b->n, true);
        if (!bound || !ty_subtype(arg, bound))
            return false;
    }
    b->vals[i] = arg;
    return true;
}

/* A copy of n with each name of params[0..np) replaced by args[i]. */
static const Node *subst_names(FeCompilation *c, const Node *n, Node **params, Node **args, int np, int depth)
{
    if (!n || depth > 32)
        return n;
    if (n->kind == AST_IDENT && !n->qual)
        for (int i = 0; i < np; i++)
            if (strcmp(params[i]->name, n->name) == 0)
                return args[i];
    if (!n->nkids)
        return n;
    Node *cp = arena_alloc(&c->arena, sizeof(Node));
    Node **kids = arena_alloc(&c->arena, sizeof(Node *) * (size_t)n->nkids);
    if (!cp || !kids)
        return n;
    *cp = *n;
    for (int i = 0; i < n->nkids; i++)
        kids[i] = (Node *)subst_names(c, n->kids[i], params, args, np, depth + 1);
    cp->kids = kids;
    return cp;
}

/* An annotation naming a type alias (F of `const F = Float32`, A{T} of `const A{T} = ...`) as the type
 * expression it stands for, its parameters substituted; te itself otherwise. */
static const Node *expand_alias(FeCompilation *c, const Node *te)
{
    const char *name = te->kind == AST_IDENT                                     ? te->name
                       : te->kind == AST_CURLY && te->kids[0]->kind == AST_IDENT ? te->kids[0]->name
                                                                                 : NULL;
    const ConstDef *alias = name ? fe_find_const(c->mod, name) : NULL;
    if (!alias || alias->nonconst || !alias->value)
        return te;
    if (te->kind == AST_IDENT && !alias->ntparams && !is_type_value_expr(alias->value))
        return te;
    if (te->kind == AST_CURLY && alias->ntparams != te->nkids - 1)
        return te;
    if (te->kind == AST_IDENT && alias->ntparams)
        return te;
    return subst_names(c, alias->value, alias->tparams, te->kind == AST_CURLY ? te->kids + 1 : NULL, alias->ntparams,
                       0);
}

static bool match_type(FeCompilation *c, const Node *te, const Type *arg, Binding *b, int depth)
{
    if (!te || depth > 16)
        return te == NULL;
    te = strip_module_path(c, te);
    if (te->kind == AST_SUBTYPE && !te->kids[0]) {
        int u = match_union(c, te->kids[1], arg, b, depth); /* <:Union{A, B} */
        if (u >= 0)
            return u == 1;
        if (match_type(c, te->kids[1], arg, b, depth + 1)) /* <:AbstractDimension{N} binds N */
            return true;
        const Type *bound = infer_type_expr(c, te->kids[1], b->names, b->vals, b->n, true);
        return bound && ty_subtype(arg, bound);
    }
    int u = match_union(c, te, arg, b, depth);
    if (u >= 0 && (u == 1 || !infer_type_expr(c, te, b->names, b->vals, b->n, true)))
        return u == 1;
    if (te->kind == AST_IDENT) {
        int i = tvar_index(b, te->name);
        if (i >= 0)
            return bind_tvar(c, b, i, arg);
        if (strcmp(te->name, "Tuple") == 0) /* every tuple type */
            return arg->kind == TY_TUPLE;
        if (strcmp(te->name, "NamedTuple") == 0) /* every named tuple */
            return arg->kind == TY_STRUCT && (arg->flags & TF_NAMEDTUPLE);
    }
    const Node *expanded = expand_alias(c, te);
    if (expanded != te)
        return match_type(c, expanded, arg, b, depth + 1);
    if (te->kind == AST_CURLY && te->kids[0]->kind == AST_IDENT) {
        const char *name = te->kids[0]->name;
        bool ok;
        const Type *fam = array_family(c, name, NULL, -1, &ok);
        if (ok) {
            /* a struct declared <: AbstractArray{T,N} (the prelude's SubArray) matches as that */
            for (const Type *s = arg->kind == TY_STRUCT ? arg->elem : NULL; s;
                 s = s->kind == TY_STRUCT ? s->elem : NULL)
                if (s->kind == TY_ABSTRACTARRAY) {
                    arg = s;
                    break;
                }
            if (!(ty_is_array(arg) || arg->kind == TY_ABSTRACTARRAY) || (fam->ndims >= 0 && fam->ndims != arg->ndims))
                return false;
            if (te->nkids > 1 && !match_type(c, te->kids[1], arg->elem, b, depth + 1))
                return false;
            if (te->nkids > 2) {
                const Node *nd = te->kids[2];
                if (nd->kind == AST_INT && nd->ival != arg->ndims)
                    return false;
                /* N of ROCDeviceArray{T, N, AS} in a struct's field binds as a method's N does */
                const Type *n = ty_val(c->types, ty_prim(c->types, TY_INT64), arg->ndims,
                                       arena_printf(&c->arena, "%d", arg->ndims));
                if (nd->kind == AST_IDENT && tvar_index(b, nd->name) >= 0 && !match_type(c, nd, n, b, depth + 1))
                    return false;
            }
            return true;
        }
        const Node *last = te->nkids > 1 ? strip_module_path(c, te->kids[te->nkids - 1]) : NULL;
        bool vararg = last && ((last->kind == AST_IDENT && strcmp(last->name, "Vararg") == 0) ||
                               (last->kind == AST_CURLY && last->kids[0]->kind == AST_IDENT &&
                                strcmp(last->kids[0]->name, "Vararg") == 0 && last->nkids <= 3));
        if (strcmp(name, "Tuple") == 0 && vararg) {
            /* Tuple{A, Vararg{T, N}}: the fixed fields, then any number (N) of fields of type T */
            int fixed = te->nkids - 2;
            if (arg->kind != TY_TUPLE || arg->nfields < fixed)
                return false;
            for (int i = 0; i < fixed; i++)
                if (!match_type(c, te->kids[i + 1], arg->fields[i], b, depth + 1))
                    return false;
            int rest = arg->nfields - fixed;
            if (last->kind == AST_CURLY && last->nkids == 3) {
                const Type *len =
                    ty_val(c->types, ty_prim(c->types, TY_INT64), rest, arena_printf(&c->arena, "%d", rest));
                if (!match_type(c, last->kids[2], len, b, depth + 1))
                    return false;
            }
            for (int i = fixed; i < arg->nfields && last->kind == AST_CURLY && last->nkids >= 2; i++)
                if (!match_type(c, last->kids[1], arg->fields[i], b, depth + 1))
                    return false;
            return true;
        }
        if (strcmp(name, "Tuple") == 0) {
            if (arg->kind != TY_TUPLE || arg->nfields != te->nkids - 1)
                return false;
            for (int i = 0; i < arg->nfields; i++)
                if (!match_type(c, te->kids[i + 1], arg->fields[i], b, depth + 1))
                    return false;
            return true;
        }
        if (strcmp(name, "NamedTuple") == 0 && te->nkids > 1 && te->kids[1]->kind == AST_TYPED) {
            /* @NamedTuple{a::T, b::S}: the same names, each field matching its type */
            if (arg->kind != TY_STRUCT || !(arg->flags & TF_NAMEDTUPLE) || arg->nfields != te->nkids - 1)
                return false;
            for (int i = 0; i < arg->nfields; i++) {
                const Node *f = te->kids[i + 1];
                if (f->kind != AST_TYPED || f->kids[0]->kind != AST_IDENT ||
                    strcmp(f->kids[0]->name, arg->fnames[i]) != 0 ||
                    !match_type(c, f->kids[1], arg->fields[i], b, depth + 1))
                    return false;
            }
            return true;
        }
        if (strcmp(name, "Type") == 0 && te->nkids == 2)
            return arg->kind == TY_TYPE && match_type(c, te->kids[1], arg->elem, b, depth + 1);
        int rf = range_family(name);
        if (rf > -2) /* UnitRange{T}, StepRange{T,S}, AbstractRange{T}: T is the element type */
            return arg->kind == TY_RANGE && (rf < 0 || arg->step == rf) &&
                   (te->nkids < 2 || match_type(c, te->kids[1], arg->elem, b, depth + 1)) &&
                   (te->nkids < 3 || match_type(c, te->kids[2], arg->elem, b, depth + 1));
        if (strcmp(name, "CartesianIndex") == 0 && te->nkids == 2) { /* an NTuple{N,Int64} here (ka.c) */
            if (arg->kind != TY_TUPLE)
                return false;
            for (int i = 0; i < arg->nfields; i++)
                if (arg->fields[i]->kind != TY_INT64)
                    return false;
            const Type *len = ty_val(c->types, ty_prim(c->types, TY_INT64), arg->nfields,
                                     arena_printf(&c->arena, "%d", arg->nfields));
            return match_type(c, te->kids[1], len, b, depth + 1);
        }
        if (strcmp(name, "NTuple") == 0 && (te->nkids == 3 || te->nkids == 2)) {
            if (arg->kind != TY_TUPLE)
                return false;
            const Type *len = ty_val(c->types, ty_prim(c->types, TY_INT64), arg->nfields,
                                     arena_printf(&c->arena, "%d", arg->nfields));
            if (!match_type(c, te->kids[1], len, b, depth + 1))
                return false;
            for (int i = 0; i < arg->nfields; i++)
                if (te->nkids == 3 ? !match_type(c, te->kids[2], arg->fields[i], b, depth + 1)
                                   : arg->fields[i] != arg->fields[0]) /* NTuple{N}: NTuple{N,T} where T */
                    return false;
            return true;
        }
        if (fe_find_struct(c->mod, name) || strcmp(name, "Val") == 0) {
            /* P{T} against P{Float32}, or against a subtype of P{Float32} (its supertypes walked): each
             * parameter in turn, binding type variables */
            while (arg && arg->kind == TY_STRUCT && strcmp(arg->name, name) != 0)
                arg = arg->elem;
            if (!arg || arg->kind != TY_STRUCT || strcmp(arg->name, name) != 0 ||
                ((arg->flags & TF_UNIONALL) && !arg->nparams) || arg->nparams != te->nkids - 1)
                return false;
            for (int i = 0; i < arg->nparams; i++)
                if (!match_type(c, te->kids[i + 1], arg->params[i], b, depth + 1))
                    return false;
            return true;
        }
        if (strcmp(name, "Complex") == 0 && te->nkids == 2)
            return arg->kind == TY_COMPLEX && match_type(c, te->kids[1], arg->elem, b, depth + 1);
    }
    const Type *t = infer_type_expr(c, te, b->names, b->vals, b->n, true);
    return t && ty_subtype(arg, t);
}

bool infer_match_type(FeCompilation *c, const Node *te, const Type *arg, const char **names, const Type **vals,
                      Node **bounds, int n)
{
    Binding b = { names, vals, bounds, n };
    return match_type(c, te, arg, &b, 0);
}

/* The type expression each argument a parameter takes must match: a vararg's element type (T of xs::T...
 * and of Vararg{T, N}; NULL, Any, for a bare Vararg). */
static const Node *param_elem(const Param *p)
{
    const Node *t = p->type_expr;
    if (!p->vararg || !t)
        return t;
    if (t->kind == AST_IDENT && strcmp(t->name, "Vararg") == 0)
        return NULL;
    if (t->kind == AST_CURLY && t->kids[0]->kind == AST_IDENT && strcmp(t->kids[0]->name, "Vararg") == 0)
        return t->nkids > 1 ? t->kids[1] : NULL;
    return t;
}

/* Does m take nargs arguments of these types, binding its type variables in b? A vararg method takes the
 * rest of them, each matching the element type, their count N of Vararg{T, N}. */
static bool match_args(FeCompilation *c, Method *m, const Type **argtypes, int nargs, Binding *b)
{
    int fixed = m->vararg ? m->nparams - 1 : m->nparams;
    if (m->vararg ? nargs < fixed : nargs != fixed)
        return false;
    for (int k = 0; k < fixed; k++)
        if (!match_type(c, m->params[k].type_expr, argtypes[k], b, 0))
            return false;
    if (!m->vararg)
        return true;
    const Param *p = &m->params[fixed];
    const Node *elem = param_elem(p);
    for (int k = fixed; k < nargs; k++)
        if (!match_type(c, elem, argtypes[k], b, 0))
            return false;
    const Node *t = p->type_expr;
    if (t && t->kind == AST_CURLY && t->nkids == 3) {
        int rest = nargs - fixed;
        const Type *len = ty_val(c->types, ty_prim(c->types, TY_INT64), rest, arena_printf(&c->arena, "%d", rest));
        if (!match_type(c, t->kids[2], len, b, 0))
            return false;
    }
    return true;
}

/* The declared parameter types of a method, type variables as their bounds (a vararg's element type). */
static const Type *param_decl(FeCompilation *c, Method *m, int i)
{
    Binding b = { m->tvars, NULL, m->tvar_bounds, m->ntvars };
    const Type *vals[32] = { 0 };
    for (int k = 0; k < m->ntvars && k < 32; k++)
        vals[k] = m->tvar_bounds[k] ? infer_type_expr(c, m->tvar_bounds[k], NULL, NULL, 0, true) : NULL;
    b.vals = vals;
    const Type *t = param_elem(&m->params[i]) ? infer_type_expr(c, param_elem(&m->params[i]), b.names, b.vals,
                                                                m->ntvars < 32 ? m->ntvars : 32, true)
                                              : ty_prim(c->types, TY_ANY);
    if (t && t->kind == TY_TYPEVAR)
        t = ty_prim(c->types, TY_ANY);
    return t ? t : ty_prim(c->types, TY_ANY);
}

static int count_name(const Node *n, const char *name, int depth)
{
    if (!n || depth > 16)
        return 0;
    if (n->kind == AST_IDENT)
        return strcmp(n->name, name) == 0;
    int k = 0;
    for (int i = 0; i < n->nkids; i++)
        k += count_name(n->kids[i], name, depth + 1);
    return k;
}

/* How many extra times the method's type variables appear among its parameters' types. */
static int shared_tvars(const Method *m)
{
    int extra = 0;
    for (int t = 0; t < m->ntvars; t++) {
        int uses = 0;
        for (int i = 0; i < m->nparams; i++)
            uses += count_name(m->params[i].type_expr, m->tvars[t], 0);
        if (uses > 1)
            extra += uses - 1;
    }
    return extra;
}

/* a is at least as specific as b for a call of nargs arguments: each parameter of a is a subtype of b's
 * (a vararg's element type stands for each argument it takes). */
static bool more_specific(FeCompilation *c, Method *a, Method *b, int nargs)
{
    bool strictly = false;
    for (int i = 0; i < nargs; i++) {
        int ia = i < a->nparams ? i : a->nparams - 1, ib = i < b->nparams ? i : b->nparams - 1;
        if (ia < 0 || ib < 0)
            break;
        /* an untyped parameter (Any) against a typed one, whatever the type expression (a bare Tuple has no
         * Type of its own) */
        bool any_a = !param_elem(&a->params[ia]), any_b = !param_elem(&b->params[ib]);
        if (any_a != any_b) {
            if (any_a)
                return false;
            strictly = true;
            continue;
        }
        const Type *ta = param_decl(c, a, ia), *tb = param_decl(c, b, ib);
        if (!ty_subtype(ta, tb))
            return false;
        if (!ty_subtype(tb, ta))
            strictly = true;
    }
    if (!strictly && a->vararg != b->vararg)
        return b->vararg; /* Tuple{Int} is a strict subtype of Tuple{Vararg{Int}} */
    if (!strictly) {
        /* equal declared types: a type variable shared by parameters (x::T, y::T) narrows the
         * method (Julia's diagonal rule); otherwise the one with fewer type variables wins */
        int ca = shared_tvars(a), cb = shared_tvars(b);
        if (ca != cb)
            return ca > cb;
        return a->ntvars < b->ntvars;
    }
    return true;
}

static bool infer_body_ir(FeCompilation *c, Spec *s, const IrFunc *lf, bool allow_union, int *union_slot,
                          const Type **union_type, const Type **union_had);

/* Infer s; a variable that takes several number types becomes a union, split at its uses
 * (union_split.c), and s is inferred again over the rewritten IR. */
static bool infer_body(FeCompilation *c, Spec *s)
{
    struct {
        int slot, first, k;
        const Type *members[UNION_MAX];
    } uv[8];
    int nuv = 0;
    const IrFunc *lf = s->method->lowered;
    for (;;) {
        int slot;
        const Type *t, *had;
        bool ok = infer_body_ir(c, s, lf, nuv < 8, &slot, &t, &had);
        if (slot < 0)
            return ok;
        int u = 0;
        while (u < nuv && uv[u].first != slot)
            u++;
        if (u == nuv) {
            uv[nuv].slot = slot;
            uv[nuv].k = 1;
            uv[nuv++].members[0] = had;
        }
        if (uv[u].k == UNION_MAX) { /* too many members: the error, from inference without the split */
            infer_body_ir(c, s, lf, false, &slot, &t, &had);
            return false;
        }
        uv[u].members[uv[u].k++] = t;
        IrFunc *cur = s->method->lowered;
        for (int i = 0; i < nuv; i++) {
            IrFunc *nf = ir_func_new(&c->arena, cur->name, cur->loc);
            if (!nf)
                return false;
            uv[i].first = cur->nslots + 1; /* after the tag's */
            if (!union_split(&c->arena, cur, nf, uv[i].slot, uv[i].members, uv[i].k, c->diags))
                return false;
            cur = nf;
        }
        lf = cur;
        s->rettype = NULL;
    }
}

static Spec *specialize(FeCompilation *c, Method *m, const Type *self, const Type **argtypes, int nargs,
                        const Type **tvals, SrcLoc loc, uint64_t constmask, const int64_t *constvals);

/* Does constructor method m take a call of self (Type{P} or Type{P{T}})? P{T}(x) where T methods take
 * the P{...} they match (binding T); P(x) methods take P itself (the UnionAll of a parametric P). */
static bool match_self(FeCompilation *c, Method *m, const Type *self, Binding *b)
{
    if (!self)
        return !m->self;
    const Type *S = self->elem;
    if (m->self) /* P{T}(x) methods take P{Float32}, and SVector{N}(x...) the partial SVector{3} */
        return (!(S->flags & TF_UNIONALL) || S->nparams) && match_type(c, m->self, S, b, 0);
    return S->nparams == 0;
}

/* The first name in annotation te that names no type (nor one of m's type variables), or NULL. A curly's head
 * (AbstractArray in AbstractArray{T}) names a family, not a type, and is not checked. */
static const Node *undefined_type_name(FeCompilation *c, const Method *m, const Node *te, int depth)
{
    if (!te || depth > 16)
        return NULL;
    te = strip_module_path(c, te);
    if (te->kind == AST_IDENT) {
        for (int i = 0; i < m->ntvars; i++)
            if (strcmp(m->tvars[i], te->name) == 0)
                return NULL;
        if (strcmp(te->name, "NamedTuple") == 0 || strcmp(te->name, "Tuple") == 0 || strcmp(te->name, "NTuple") == 0)
            return NULL; /* no type on their own (infer_type_expr), yet defined: a method of them matched nothing */
        return infer_type_expr(c, te, NULL, NULL, 0, true) ? NULL : te;
    }
    if (te->kind == AST_CURLY || te->kind == AST_SUBTYPE)
        for (int i = te->kind == AST_CURLY ? 1 : 0; i < te->nkids; i++) {
            const Node *u = undefined_type_name(c, m, te->kids[i], depth + 1);
            if (u)
                return u;
        }
    return NULL;
}

/* Julia rejects a method whose annotation names no type when it is defined (UndefVarError), so a call that
 * matches no method reports that rather than a MethodError: true after reporting one. */
static bool report_undefined_annotation(FeCompilation *c, GenericFunc *g, int nargs)
{
    for (int i = 0; i < g->nmethods; i++) {
        Method *m = g->methods[i];
        if (m->nparams != nargs)
            continue;
        for (int k = 0; k < m->nparams; k++) {
            const Node *te = m->params[k].type_expr;
            const Node *u = undefined_type_name(c, m, te, 0);
            if (u) {
                diag_error(c->diags, u->loc, "UndefVarError: `%s` not defined (in the type of argument `%s` of %s)",
                           u->name, m->params[k].name ? m->params[k].name : "?", m->name);
                return true;
            }
        }
    }
    return false;
}

/* Does any method of g match these argument types (no diagnostic)? */
static bool has_method(FeCompilation *c, GenericFunc *g, const Type **argtypes, int nargs)
{
    for (int i = 0; i < g->nmethods; i++) {
        Method *m = g->methods[i];
        if (m->ntvars > 32)
            continue;
        const Type *vals[32] = { 0 };
        Binding b = { m->tvars, vals, m->tvar_bounds, m->ntvars };
        if (match_args(c, m, argtypes, nargs, &b))
            return true;
    }
    return false;
}

GenericFunc *infer_dispatch_generic(FeCompilation *c, const char *name, const Type **a, int n)
{
    GenericFunc *g = fe_find_func(c->mod, name);
    /* the Base prelude (or the file, extending Base) adds methods to a built-in: the built-in answers the calls
     * none of them match */
    if (g && (g->from_base || g->extends) && builtin_lookup(name) && !has_method(c, g, a, n))
        return NULL;
    return g;
}

Spec *infer_call_user(FeCompilation *c, GenericFunc *g, const Type **argtypes, int nargs, SrcLoc loc)
{
    return infer_dispatch(c, g, NULL, argtypes, nargs, loc, false, 0, NULL);
}

/* A call reached m, whose loading found errors (frontend.c): they are
 * reported now, once per compilation, each call with the chain of calls
 * from the kernel as notes at the call sites. */
/* A method's name as the user wrote it: f for the methods kwargs.c generates (#f#body#N, f#kw#k). */
static const char *display_name(FeCompilation *c, const char *name)
{
    if (name[0] == '#' && strchr(name + 1, '#'))
        return arena_strndup(&c->arena, name + 1, (size_t)(strchr(name + 1, '#') - name - 1));
    const char *kw = strstr(name, "#kw#");
    return kw ? arena_strndup(&c->arena, name, (size_t)(kw - name)) : name;
}

/* An error at loc inside the Base prelude: a note at the kernel file's call that reached it (WMMA.load_a of a
 * Float32 pointer fails in base/wmma.jl, but the user wrote the call). */
static void note_prelude_caller(FeCompilation *c, SrcLoc loc)
{
    for (int k = c->depth - 1; loc.file && loc.file->name == fe_base_name && c->calls && k >= 1; k--)
        if (c->calls[k].file && c->calls[k].file->name != fe_base_name) {
            diag_note(c->diags, c->calls[k], "in %s of juke's Base prelude, called here",
                      display_name(c, c->stack[k]->method->name));
            return;
        }
}

static Spec *report_deferred(FeCompilation *c, Method *m, SrcLoc loc)
{
    bool seen = false;
    for (int i = 0; i < c->deferred_seen.len; i++)
        seen = seen || c->deferred_seen.items[i] == m;
    if (!seen) {
        diag_append(c->diags, m->deferred, m->deferred_nerrors, m->deferred_kind);
        ptrvec_push(&c->arena, &c->deferred_seen, m);
    }
    const char *callee = display_name(c, m->name);
    SrcLoc def = m->loc;
    for (int k = c->depth - 1; k >= 0 && loc.file; k--) {
        Method *caller = c->stack[k]->method;
        const char *cname = display_name(c, caller->name);
        diag_note(c->diags, loc, "in %s at %s:%d, called from %s at %s:%d", callee, def.file->name, def.line, cname,
                  loc.file->name, loc.line);
        callee = cname;
        def = caller->loc;
        loc = c->calls ? c->calls[k] : (SrcLoc){ 0 };
    }
    return NULL;
}

/* f(::A; k::K) of a keyword call's function f#kw#k (lower.c), as Julia prints its signature. */
static void kwcall_signature(StrBuf *sb, const char *name, const Type **a, int n)
{
    const char *hash = strstr(name, "#kw#");
    const char *kws = hash + 4;
    int nkw = 1;
    for (const char *p = kws; *p; p++)
        nkw += *p == ',';
    sb_printf(sb, "%.*s(", (int)(hash - name), name);
    for (int i = nkw; i < n; i++) {
        sb_puts(sb, i > nkw ? ", ::" : "::");
        ty_print(sb, a[i]);
    }
    sb_puts(sb, "; ");
    const char *p = kws;
    for (int i = 0; i < nkw && i < n; i++) {
        const char *e = strchr(p, ',');
        int l = e ? (int)(e - p) : (int)strlen(p);
        sb_printf(sb, "%s%.*s::", i ? ", " : "", l, p);
        ty_print(sb, a[i]);
        p += l + 1;
    }
    sb_puts(sb, ")");
}

Spec *infer_dispatch(FeCompilation *c, GenericFunc *g, const Type *self, const Type **argtypes, int nargs, SrcLoc loc,
                     bool quiet_nomatch, uint64_t constmask, const int64_t *constvals)
{
    Method *best = NULL;
    const Type *best_tvals[32];
    Method *cands[64];
    int ncands = 0;
    for (int i = 0; i < g->nmethods; i++) {
        Method *m = g->methods[i];
        if (m->ntvars > 32)
            continue;
        const Type *vals[32] = { 0 };
        Binding b = { m->tvars, vals, m->tvar_bounds, m->ntvars };
        bool ok = match_self(c, m, self, &b) && match_args(c, m, argtypes, nargs, &b);
        if (!ok)
            continue;
        if (ncands < 64)
            cands[ncands++] = m;
        if (!best || more_specific(c, m, best, nargs)) {
            best = m;
            memcpy(best_tvals, vals, sizeof vals);
        }
    }
    StrBuf sb = { 0 };
    if (!best && quiet_nomatch)
        return NULL;
    if (!best && report_undefined_annotation(c, g, nargs))
        return NULL;
    if (!best && strstr(g->name, "#kw#")) {
        kwcall_signature(&sb, g->name, argtypes, nargs);
        diag_error(c->diags, loc, "MethodError: no method matching %s", sb.data);
        sb_free(&sb);
        return NULL;
    }
    if (!best) {
        sb_printf(&sb, "MethodError: no method matching %s(", g->name);
        for (int i = 0; i < nargs; i++) {
            sb_puts(&sb, i ? ", ::" : "::");
            ty_print(&sb, argtypes[i]);
        }
        sb_puts(&sb, ")");
        diag_error(c->diags, loc, "%s", sb.data);
        for (int i = 0; i < g->nmethods && i < 8; i++) {
            Method *m = g->methods[i];
            sb.len = 0;
            sb_printf(&sb, "%s(", display_name(c, m->name));
            for (int k = 0; k < m->nparams; k++) {
                if (k)
                    sb_puts(&sb, ", ");
                sb_puts(&sb, m->params[k].name ? m->params[k].name : "");
                if (m->params[k].type_expr) {
                    sb_puts(&sb, "::");
                    ast_print(&sb, m->params[k].type_expr);
                }
                if (m->params[k].vararg && !(m->params[k].type_expr && m->params[k].type_expr->kind == AST_CURLY))
                    sb_puts(&sb, "...");
            }
            sb_puts(&sb, ")");
            diag_note(c->diags, m->loc, "closest candidate: %s", sb.data);
        }
        note_prelude_caller(c, loc);
        sb_free(&sb);
        return NULL;
    }
    /* every other candidate must be less specific than best */
    for (int i = 0; i < ncands; i++) {
        Method *m = cands[i];
        if (m != best && !more_specific(c, best, m, nargs)) {
            sb_printf(&sb, "MethodError: %s(", g->name);
            for (int k = 0; k < nargs; k++) {
                sb_puts(&sb, k ? ", ::" : "::");
                ty_print(&sb, argtypes[k]);
            }
            sb_puts(&sb, ") is ambiguous");
            diag_error(c->diags, loc, "%s", sb.data);
            diag_note(c->diags, best->loc, "candidate: %s defined here", best->name);
            diag_note(c->diags, m->loc, "candidate: %s defined here", m->name);
            sb_free(&sb);
            return NULL;
        }
    }
    sb_free(&sb);
    if (!fe_lower_lazily(c->mod, best, c->diags))
        return NULL;
    if (best->deferred)
        return report_deferred(c, best, loc);
    if (best->vararg) {
        /* the rest of the arguments as one tuple: the specialisation has one argument per parameter */
        int fixed = best->nparams - 1;
        const Type **packed = arena_alloc(&c->arena, sizeof(Type *) * (size_t)(fixed + 1));
        if (!packed)
            return NULL;
        memcpy(packed, argtypes, sizeof(Type *) * (size_t)fixed);
        packed[fixed] = ty_tuple(c->types, argtypes + fixed, nargs - fixed);
        if (!packed[fixed])
            return NULL;
        /* the packed rest is one tuple parameter: only the fixed parameters keep their constants */
        constmask &= fixed < 64 ? (UINT64_C(1) << fixed) - 1 : ~UINT64_C(0);
        return specialize(c, best, self, packed, fixed + 1, best_tvals, loc, constmask, constvals);
    }
    return specialize(c, best, self, argtypes, nargs, best_tvals, loc, constmask, constvals);
}

/* ---- built-ins (builtins.def; the typing rules are in builtins_<family>.c) ---- */

const Type *infer_no_method(Infer *I, IrInst *in, const char *name, const Type **a, int n)
{
    infer_err(I, in->loc, "MethodError: no method matching %s", sig_text(I, name, a, n));
    return NULL;
}

/* The type of a call of built-in `row` by `name`; a complex argument selects the row's complex typing rule. */
static const Type *infer_builtin(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    in->builtin = row->id;
    for (int i = 0; i < n; i++)
        if (a[i]->kind == TY_COMPLEX)
            return row->type_complex(I, in, row, name, a, n);
    return row->type(I, in, row, name, a, n);
}

/* ---- names ---- */

/* The integer value of a `where` parameter used as a dimension count
 * (N in A::AbstractArray{T,N}), read off the argument it describes; -1 if none. */
static int64_t tvar_ndims(Infer *I, const char *name)
{
    Method *m = I->spec->method;
    for (int i = 0; i < m->nparams; i++) {
        const Node *te = m->params[i].type_expr;
        if (te && te->kind == AST_CURLY && te->nkids > 2 && te->kids[2]->kind == AST_IDENT &&
            strcmp(te->kids[2]->name, name) == 0 && ty_is_array(I->spec->argtypes[i]))
            return I->spec->argtypes[i]->ndims;
    }
    return -1;
}

static const Type *infer_name(Infer *I, IrInst *in)
{
    const char *name = in->name;
    Method *m = I->spec->method;
    if (in->builtin != BI_NONE) /* an internal helper lowering calls by id */
        return ty_function(T(I), name);
    for (int i = 0; i < m->ntvars; i++) {
        if (strcmp(m->tvars[i], name) != 0)
            continue;
        /* a `where` parameter used as a value: its type (T in zero(T)) or its integer (N) */
        const Type *tv = I->spec->tvals[i];
        if (tv && tv->kind == TY_VAL && tv->elem->kind == TY_STRUCT) { /* TX of Val{'N'}: a Char */
            in->flags |= IRF_CHARVAL;
            in->ival = tv->ival;
            return tv->elem;
        }
        if (tv && tv->kind == TY_VAL) { /* N of Val{N}: the constant */
            in->op = IR_CONST;
            in->name = NULL;
            if (tv->elem->kind == TY_SYMBOL) {
                in->lit = LIT_NONE;
                in->ival = IR_SYMBOL;
                in->name = tv->name;
                return tv->elem;
            }
            if (tv->elem->kind == TY_BOOL) {
                in->lit = LIT_NONE;
                in->ival = tv->ival ? IR_TRUE : IR_FALSE;
                in->name = tv->ival ? "true" : "false";
                return tv->elem;
            }
            in->lit = LIT_INT64;
            in->ival = tv->ival;
            return prim(I, TY_INT64);
        }
        if (tv)
            return ty_typeof_type(T(I), tv);
        int64_t nd = tvar_ndims(I, name);
        if (nd >= 0) {
            in->op = IR_CONST; /* typed IR is per specialisation: N is a constant here */
            in->lit = LIT_INT64;
            in->ival = nd;
            in->name = NULL;
            return prim(I, TY_INT64);
        }
        infer_err(I, in->loc, "the `where` parameter `%s` has no value for this call", name);
        return NULL;
    }
    StructDef *sd = fe_find_struct(I->c->mod, name);
    if (sd) {
        const Type *st = struct_type(I->c, sd, NULL, 0, in->loc, !I->report);
        if (!st)
            I->failed = true;
        return st ? ty_typeof_type(T(I), st) : NULL;
    }
    if (strcmp(name, "Val") == 0 && !fe_find_func(I->c->mod, name))
        return ty_typeof_type(T(I), ty_struct(T(I), "Val", NULL, 0, NULL, NULL, 0, TF_UNIONALL, NULL));
    const Type *t = ty_lookup_name(T(I), name);
    if (t && ty_is_prim(t)) /* a number type, also where methods of its name exist (Int64(c::Char): infer_call) */
        return ty_typeof_type(T(I), t);
    if (fe_find_func(I->c->mod, name))
        return ty_function(T(I), name);
    if (builtin_lookup(name) || strstr(name, "#kw#")) /* a keyword call no method takes: infer_call says so */
        return ty_function(T(I), name);
    if (t)
        return ty_typeof_type(T(I), t);
    if ((t = complex_type_named(T(I), name)))
        return ty_typeof_type(T(I), t);
    if (strcmp(name, "im") == 0) /* the imaginary unit: Complex{Bool}(false, true) */
        return ty_complex(T(I), prim(I, TY_BOOL));
    if (strcmp(name, "Inf") == 0 || strcmp(name, "NaN") == 0 || strcmp(name, "Inf64") == 0 ||
        strcmp(name, "NaN64") == 0)
        return prim(I, TY_FLOAT64);
    if (strcmp(name, "Inf32") == 0 || strcmp(name, "NaN32") == 0)
        return prim(I, TY_FLOAT32);
    if (strcmp(name, "Inf16") == 0 || strcmp(name, "NaN16") == 0)
        return prim(I, TY_FLOAT16);
    if (strcmp(name, "nothing") == 0)
        return prim(I, TY_NOTHING);
    const char *why = api_unsupported(name);
    if (why)
        infer_err(I, in->loc, "`%s` is not available in kernels: %s", name, why);
    else
        infer_err(I, in->loc, "UndefVarError: `%s` not defined", name);
    return NULL;
}

static const Type *const_type(Infer *I, IrInst *in)
{
    switch (in->lit) {
    case LIT_NONE:
        if (in->ival == IR_NOTHING)
            return prim(I, TY_NOTHING);
        if (in->ival == IR_SYMBOL)
            return ty_symbol(T(I), in->name + 1); /* the name prints as :add */
        return prim(I, TY_BOOL);
    case LIT_INT8: return prim(I, TY_INT8);
    case LIT_INT16: return prim(I, TY_INT16);
    case LIT_INT32: return prim(I, TY_INT32);
    case LIT_INT64: return prim(I, TY_INT64);
    case LIT_UINT8: return prim(I, TY_UINT8);
    case LIT_UINT16: return prim(I, TY_UINT16);
    case LIT_UINT32: return prim(I, TY_UINT32);
    case LIT_UINT64: return prim(I, TY_UINT64);
    case LIT_INT128: return prim(I, TY_INT128);
    case LIT_UINT128: return prim(I, TY_UINT128);
    case LIT_FLOAT32: return prim(I, TY_FLOAT32);
    case LIT_FLOAT64: return prim(I, TY_FLOAT64);
    case LIT_FLOAT16: return prim(I, TY_FLOAT16);
    default: infer_err(I, in->loc, "unsupported literal"); return NULL;
    }
}

/* ---- calls ---- */

/* π meeting a Float32 in a built-in call becomes Float32(π), as Julia's
 * Irrational promotes to the float type it meets (π * 2f0 is a Float32). */
static void narrow_irrationals(Infer *I, IrInst *in, const Type *ft, const Type **a, int n)
{
    if (ft->kind != TY_FUNCTION || in->nargs < 3)
        return;
    /* a method of the source's answers the call: the irrational is its argument as it is */
    if (infer_dispatch_generic(I->c, ft->name, a, n))
        return;
    TypeKind narrow = TY_FLOAT64; /* Float32 if the irrational meets one, else Float16 if it meets one */
    for (int i = 1; i < in->nargs; i++) {
        const Type *t = I->f->insts[in->args[i]].type;
        if (t && (t->kind == TY_FLOAT32 || t->kind == TY_FLOAT16) && (narrow == TY_FLOAT64 || t->kind > narrow))
            narrow = t->kind;
    }
    if (narrow == TY_FLOAT64)
        return;
    for (int i = 1; i < in->nargs; i++) {
        IrInst *k = &I->f->insts[in->args[i]];
        if (k->op == IR_CONST && (k->flags & IRF_IRRATIONAL) && k->lit == LIT_FLOAT64) {
            k->lit = narrow == TY_FLOAT32 ? LIT_FLOAT32 : LIT_FLOAT16;
            k->type = prim(I, narrow);
            I->changed = true;
        }
    }
}

/* P(args...) or P{T}(args...): a constructor the source defines (inner or outer), else the default one
 * (builtins_struct.c). */
static const Type *infer_construct(Infer *I, IrInst *in, const Type *ft, const Type **a, int n)
{
    const Type *S = ft->elem;
    GenericFunc *g = fe_find_func(I->c->mod, S->name);
    if (in->callee)
        return in->callee->rettype;
    if (in->flags & IRF_FAILED) {
        I->failed = true;
        return NULL;
    }
    if (g) {
        int before = I->c->diags->nerrors;
        Spec *s = infer_dispatch(I->c, g, ft, a, n, in->loc, true, 0, NULL);
        if (s && s->method->vararg) { /* P{T}(x, xs...): the rest packed as for any call (splat.c) */
            if (splat_pack_varargs(I, (int)(in - I->f->insts), s) < 0)
                I->failed = true;
            return NULL;
        }
        if (s) {
            in->callee = s;
            return s->rettype;
        }
        if (I->c->diags->nerrors != before) {
            in->flags |= IRF_FAILED;
            I->failed = true;
            return NULL;
        }
    }
    return builtin_type_construct(I, in, S, a, n);
}

/* The integer and Bool arguments of call `in` that are constants (argument k of a is in->args[k + first]):
 * their mask, the values in vals. */
static uint64_t const_args(Infer *I, const IrInst *in, const Type **a, int n, int first, int64_t *vals)
{
    uint64_t mask = 0;
    for (int k = 0; k < n && k < 64; k++) {
        int v = in->args[k + first], b;
        if (a[k]->kind == TY_BOOL && (b = infer_const_bool(I->f, v)) >= 0)
            vals[k] = b;
        else if (!(ty_is_int(a[k]) && a[k]->kind != TY_BOOL && a[k]->kind < TY_INT128 &&
                   infer_const_int(I->f, v, &vals[k], 0)))
            continue;
        mask |= UINT64_C(1) << k;
    }
    return mask;
}

/* The specialisation of g that call `in` (argument types a, argument k in->args[k + first]) calls, NULL after
 * an error. Julia infers a call of constant arguments with those constants (constant propagation), so that
 * getk(t, 2) of `getk(t, k) = t[k]` is typed as t's second field; juke infers the call for its argument types
 * first, its errors held back, and only where that fails (or gives no one return type) and some integer or
 * Bool arguments are constants specialises it on them (Spec.constmask); the first inference goes, with every
 * specialisation it made, and a call without constants reports its errors as before. A kernel whose calls
 * infer without constants infers each once, as before. */
static Spec *dispatch_call(Infer *I, IrInst *in, GenericFunc *g, const Type **a, int n, int first)
{
    FeCompilation *c = I->c;
    Diags *loud = c->diags, held = { .max_errors = loud->max_errors };
    int nspecs = c->nspecs, nseen = c->deferred_seen.len;
    bool recursion = c->recursion;
    c->diags = &held;
    c->recursion = false;
    Spec *s = infer_dispatch(c, g, NULL, a, n, in->loc, false, 0, NULL);
    c->diags = loud;
    /* failed, or returns values of several types; not around a recursive cycle, as Julia limits it */
    bool vague = (!s || s->rettype->kind == TY_ANY) && !c->recursion;
    c->recursion = c->recursion || recursion;
    int64_t *vals = vague ? arena_alloc(&c->arena, sizeof(int64_t) * (size_t)(n < 64 ? n + 1 : 64)) : NULL;
    uint64_t mask = vals ? const_args(I, in, a, n, first, vals) : 0;
    if (!mask) {
        if (held.text.len)
            diag_append(loud, held.text.data, held.nerrors, held.first_kind);
        sb_free(&held.text);
        return s;
    }
    sb_free(&held.text);
    c->nspecs = nspecs; /* nothing refers to them: only the first inference, now dropped, called them */
    c->deferred_seen.len = nseen;
    return infer_dispatch(c, g, NULL, a, n, in->loc, false, mask, vals);
}

/* A call with keywords (lower.c calls f#kw#a,b) that no method of f takes: Julia's MethodError, its keywords
 * shown after a `;`. */
static const Type *kwcall_no_method(Infer *I, IrInst *in, const char *name, const Type **a, int n)
{
    StrBuf sb = { 0 };
    kwcall_signature(&sb, name, a, n);
    infer_err(I, in->loc, "MethodError: no method matching %s", sb.data);
    sb_free(&sb);
    return NULL;
}

/* f(args) of a value f that is no function: a method of #call whose first parameter takes f (a closure's, or a
 * callable struct's (a::T)(args)), called with f first (IRF_SELFCALL), as Julia calls an object. */
static const Type *infer_call_object(Infer *I, IrInst *in, const Type *ft, const Type **a, int n)
{
    if (in->callee)
        return in->callee->rettype;
    if (in->flags & IRF_FAILED) {
        I->failed = true;
        return NULL;
    }
    GenericFunc *g = fe_find_func(I->c->mod, "#call");
    const Type **all = arena_alloc(&I->c->arena, sizeof(Type *) * (size_t)(n + 1));
    if (!all)
        return NULL;
    all[0] = ft;
    for (int i = 0; i < n; i++)
        all[i + 1] = a[i];
    if (!g || !has_method(I->c, g, all, n + 1)) {
        infer_err(I, in->loc, "MethodError: objects of type %s are not callable", infer_tname(I, ft));
        return NULL;
    }
    Spec *s = dispatch_call(I, in, g, all, n + 1, 0);
    if (!s) {
        in->flags |= IRF_FAILED;
        I->failed = true;
        return NULL;
    }
    in->flags |= IRF_SELFCALL;
    if (s->method->vararg) {
        if (splat_pack_varargs(I, (int)(in - I->f->insts), s) < 0)
            I->failed = true;
        return NULL;
    }
    in->callee = s;
    return s->rettype;
}

/* The first argument of the call that is a Union{Nothing, T} and that its callee does not take as it is
 * (splat_union_call splits the call on it), or -1. A built-in of BF_UNION reads the tag itself, and so does
 * x === nothing (type_cmp). */
static int union_argument(Infer *I, const IrInst *in, const Type *ft, const Type **a, int n)
{
    int u = 0;
    while (u < n && a[u]->kind != TY_UNION)
        u++;
    if (u == n)
        return -1;
    const IrInst *callee = &I->f->insts[in->args[0]];
    const BuiltinRow *row = callee->op == IR_NAME && callee->builtin != BI_NONE ? &builtin_rows[callee->builtin]
                            : ft->kind == TY_FUNCTION                           ? builtin_lookup(ft->name)
                                                                                : NULL;
    if (row && (row->flags & BF_UNION))
        return -1;
    if (row && (row->id == BI_EGAL || row->id == BI_NEGAL) && n == 2 &&
        (a[0]->kind == TY_NOTHING || a[1]->kind == TY_NOTHING))
        return -1;
    return u;
}

/* The call `in` of generic function g (argument types a): dispatched to a specialisation, its result type. */
static const Type *call_generic(Infer *I, IrInst *in, GenericFunc *g, const Type **a, int n)
{
    if (in->flags & IRF_FAILED) {
        I->failed = true;
        return NULL;
    }
    int idx = (int)(in - I->f->insts);
    if (g->from_base && strcmp(g->name, "ntuple") == 0 && splat_ntuple_val(I, idx))
        return NULL;                              /* ntuple(f, 3) is ntuple(f, Val(3)) */
    if (I->capture && !has_method(I->c, g, a, n)) /* infer_nothing_member: a MethodError at run time */
        return infer_no_method(I, in, display_name(I->c, g->name), a, n);
    Spec *s = dispatch_call(I, in, g, a, n, 1);
    if (!s) {
        in->flags |= IRF_FAILED;
        I->failed = true;
        return NULL;
    }
    if (s->method->vararg) {
        if (splat_pack_varargs(I, idx, s) < 0)
            I->failed = true;
        return NULL;
    }
    in->callee = s;
    return s->rettype;
}

static const Type *infer_call(Infer *I, IrInst *in);

/* A call split on a Union{Nothing, T} argument, its copy for nothing (IRF_NOTHING_MEMBER): typed as any call,
 * but where no method takes nothing (a typing rule's MethodError, no method of a generic function), Julia's
 * dispatch at run time throws the MethodError, and so does the kernel, at the call's line
 * (`out[i] = findfirst(...)` of an Int64 array: only a search that finds nothing fails). */
static const Type *infer_nothing_member(Infer *I, IrInst *in)
{
    bool failed = I->failed;
    I->capture = true;
    I->captured = NULL;
    in->flags &= ~IRF_NOTHING_MEMBER;
    const Type *t = infer_call(I, in);
    in->flags |= IRF_NOTHING_MEMBER;
    I->capture = false;
    const char *msg = I->captured;
    const char *head = "MethodError: ";
    if (t || !msg || strncmp(msg, head, strlen(head)) != 0) {
        if (!t && msg)
            infer_err(I, in->loc, "%s", msg);
        return t;
    }
    I->failed = failed;
    if (splat_member_throw(I, (int)(in - I->f->insts), msg + strlen(head)) < 0)
        I->failed = true;
    return NULL;
}

static const Type *infer_call(Infer *I, IrInst *in)
{
    if (in->flags & IRF_NOTHING_MEMBER)
        return infer_nothing_member(I, in);
    const Type *ft = I->f->insts[in->args[0]].type;
    int n = in->nargs - 1;
    const Type **a = arena_alloc(&I->c->arena, sizeof(Type *) * (size_t)(n + 1));
    if (!a)
        return NULL;
    for (int i = 0; i < n; i++) {
        a[i] = I->f->insts[in->args[i + 1]].type;
        if (a[i]->kind == TY_ANY) {
            infer_err(
                I, I->f->insts[in->args[i + 1]].loc,
                "this value has no single concrete type (its branches give different types); a kernel cannot box it");
            return NULL;
        }
    }
    narrow_irrationals(I, in, ft, a, n);
    for (int i = 0; i < n; i++)
        a[i] = I->f->insts[in->args[i + 1]].type;
    int u = union_argument(I, in, ft, a, n);
    if (u >= 0) {
        if (splat_union_call(I, (int)(in - I->f->insts), u + 1) < 0)
            I->failed = true;
        return NULL;
    }
    if (ft->kind == TY_TYPE) {
        /* T(x) of a number type T that a method of T's name takes (the prelude's Int64(c::Char)), as Julia's
         * constructor methods of a primitive type */
        GenericFunc *tg = ty_is_prim(ft->elem) ? fe_find_func(I->c->mod, infer_tname(I, ft->elem)) : NULL;
        if (tg && has_method(I->c, tg, a, n))
            return call_generic(I, in, tg, a, n);
        /* T(x): conversion */
        if (n == 1 && ty_is_prim(ft->elem) && ty_is_prim(a[0])) {
            in->builtin = BI_CONVERT;
            in->optype = ft->elem;
            return ft->elem;
        }
        /* Complex(re[, im]), ComplexF32(re[, im]), Complex{T}(z) */
        if (ft->elem->kind == TY_COMPLEX) {
            const Type *r = builtin_type_complex_ctor(I, in, ft->elem->elem, a, n);
            if (r)
                return r;
        }
        if (ft->elem->kind == TY_STRUCT)
            return infer_construct(I, in, ft, a, n);
        return infer_no_method(I, in, infer_tname(I, ft->elem), a, n);
    }
    if (ft->kind != TY_FUNCTION)
        return infer_call_object(I, in, ft, a, n);
    const IrInst *callee = &I->f->insts[in->args[0]];
    if (callee->op == IR_NAME && callee->builtin != BI_NONE)
        return infer_builtin(I, in, &builtin_rows[callee->builtin], callee->name, a, n);
    /* argument types are final once known, so dispatch happens once (a varargs call's arguments are packed
     * after it: splat.c) */
    if (in->callee)
        return in->callee->rettype;
    GenericFunc *g = infer_dispatch_generic(I->c, ft->name, a, n);
    if (g)
        return call_generic(I, in, g, a, n);
    const BuiltinRow *bs = builtin_lookup(ft->name);
    if (!bs && strstr(ft->name, "#kw#"))
        return kwcall_no_method(I, in, ft->name, a, n);
    if (!bs) {
        infer_err(I, in->loc, "UndefVarError: `%s` not defined", ft->name);
        return NULL;
    }
    return infer_builtin(I, in, bs, ft->name, a, n);
}

/* ---- the fixpoint ---- */

/* Does the types alone decide branch condition `cond`, as Julia's inference folds `x === nothing` of a Nothing x
 * to Const(true)? 1 true, 0 false, -1 not known. Values of two different concrete types are never egal; two
 * values of one singleton type (nothing, missing, a type used as a value) always are. */
static int cond_decided_at(const IrFunc *f, const IrInst *cond, int depth);
static int cond_decided(const IrFunc *f, const IrInst *cond)
{
    return cond_decided_at(f, cond, 0);
}

static int cond_decided_at(const IrFunc *f, const IrInst *cond, int depth)
{
    if (cond->op == IR_CONST && cond->lit == LIT_NONE && (cond->ival == IR_TRUE || cond->ival == IR_FALSE))
        return cond->ival == IR_TRUE;
    if (cond->op == IR_CALL && cond->type && cond->nargs == 3 && cond->builtin == BI_SUBTYPE)
        return ty_subtype(f->insts[cond->args[1]].type->elem, f->insts[cond->args[2]].type->elem);
    if (cond->op == IR_CALL && cond->type && cond->nargs == 2 && cond->builtin == BI_ISNOTHING) {
        const Type *x = f->insts[cond->args[1]].type;
        return !x || x->kind == TY_UNION || !ty_is_concrete(x) ? -1 : x->kind == TY_NOTHING;
    }
    if (cond->op == IR_CALL && cond->type && cond->nargs == 2 && cond->builtin == BI_NOT) {
        int d = cond_decided_at(f, &f->insts[cond->args[1]], depth);
        return d < 0 ? -1 : !d;
    }
    /* a call of a function whose one return its own types decide, as isnothing(x) of an x that is nothing:
     * Julia's inference folds the constant it returns (AcceleratedKernels' `if !isnothing(flags)`) */
    if (cond->op == IR_CALL && cond->type && cond->callee && !(cond->flags & IRF_SELFCALL) && depth < 8) {
        const Spec *s = cond->callee;
        int r = s->typed && s->state == SPEC_DONE ? infer_only_return(s->typed) : -1;
        return r >= 0 ? cond_decided_at(s->typed, &s->typed->insts[r], depth + 1) : -1;
    }
    if (cond->op == IR_CALL && cond->type && cond->nargs == 3 && cond->builtin == BI_ISA && cond->optype) {
        const Type *x = f->insts[cond->args[1]].type;
        if (!x || (x->kind != TY_UNION && !ty_is_concrete(x)))
            return -1;
        if (x->kind != TY_UNION)
            return ty_subtype(x, cond->optype);
        bool some = ty_subtype(x->elem, cond->optype),
             nothing = cond->optype->kind == TY_NOTHING || cond->optype->kind == TY_ANY;
        return some == nothing ? some : -1;
    }
    if (cond->op == IR_CALL && cond->type && cond->nargs == 3 &&
        (cond->builtin == BI_EGAL || cond->builtin == BI_NEGAL || cond->builtin == BI_EQ || cond->builtin == BI_NE)) {
        /* TX === 'N' of a Char where-parameter TX (GPUArrays' wrapper characters): two Chars known here */
        uint32_t p, q;
        if (infer_const_char(f, cond->args[1], &p) && infer_const_char(f, cond->args[2], &q))
            return (p == q) == (cond->builtin == BI_EGAL || cond->builtin == BI_EQ);
    }
    if (cond->op == IR_CALL && cond->type && cond->nargs == 3 && cond->builtin >= BI_EQ && cond->builtin <= BI_GE) {
        /* N == 0 of a where-parameter N (a generated function's generator branches on it): two integer
         * literals compare as the generator's Julia compares them */
        const IrInst *x = &f->insts[cond->args[1]], *y = &f->insts[cond->args[2]];
        if (x->op != IR_CONST || y->op != IR_CONST || x->lit != LIT_INT64 || y->lit != LIT_INT64)
            return -1;
        int64_t p = x->ival, q = y->ival;
        switch (cond->builtin) {
        case BI_EQ: return p == q;
        case BI_NE: return p != q;
        case BI_LT: return p < q;
        case BI_LE: return p <= q;
        case BI_GT: return p > q;
        case BI_GE: return p >= q;
        default: return -1;
        }
    }
    if (cond->op != IR_CALL || !cond->type || cond->nargs != 3 ||
        (cond->builtin != BI_EGAL && cond->builtin != BI_NEGAL))
        return -1;
    const Type *a = f->insts[cond->args[1]].type, *b = f->insts[cond->args[2]].type;
    if (!a || !b || !ty_is_concrete(a) || !ty_is_concrete(b) || a->kind == TY_UNION || b->kind == TY_UNION)
        return -1;
    int egal;
    if (a != b)
        egal = 0;
    else if (ty_is_ghost(a) && a->kind != TY_TUPLE)
        egal = 1;
    else
        return -1;
    return cond->builtin == BI_EGAL ? egal : !egal;
}

int infer_const_bool(const IrFunc *f, int v)
{
    return v < 0 || v >= f->ninsts ? -1 : cond_decided(f, &f->insts[v]);
}

/* Is value v a throw(...) or error(...), or a call of a function that always throws? It never returns: its
 * type is Julia's Union{}, which joins with any other. */
static bool throws(const IrFunc *f, int v)
{
    const IrInst *k = &f->insts[v];
    return k->op == IR_CALL && k->nargs &&
           (f->insts[k->args[0]].builtin == BI_THROW || (k->callee && k->callee->noreturn));
}

/* Which instructions a path reaches, following only the side of a branch that the types leave open; nothing
 * after a throw until a label another path reaches (an if whose only open side throws has no value to join). */
bool infer_reach(const IrFunc *f, bool *reach)
{
    bool *label_reached = calloc((size_t)f->nlabels + 1, 1);
    if (!label_reached)
        return false;
    memset(reach, 0, (size_t)f->ninsts);
    bool changed = true;
    while (changed) {
        changed = false;
        bool live = true;
        for (int i = 0; i < f->ninsts; i++) {
            const IrInst *in = &f->insts[i];
            if (in->op == IR_LABEL && label_reached[in->label])
                live = true;
            if (live && !reach[i]) {
                reach[i] = true;
                changed = true;
            }
            if (!live)
                continue;
            int known = in->op == IR_GOTOIFNOT ? cond_decided(f, &f->insts[in->args[0]]) : -1;
            if ((in->op == IR_GOTO || (in->op == IR_GOTOIFNOT && known != 1)) && !label_reached[in->label]) {
                label_reached[in->label] = true;
                changed = true;
            }
            if (in->op == IR_GOTO || in->op == IR_RETURN || known == 0 || (in->op == IR_CALL && throws(f, i)))
                live = false;
        }
    }
    free(label_reached);
    return true;
}

static void compute_reach(Infer *I)
{
    infer_reach(I->f, I->reach);
}

/* x = v of a union variable (union_split.c): the member slot of v's type, whose number goes into the tag's
 * constant just before; a type that is no member asks for another split. */
static const Type *union_store(Infer *I, IrInst *in, const Type *t)
{
    IrFunc *f = I->f;
    for (int m = 0; m < (int)in->ival; m++)
        if (f->slots[in->label + m].type == t) {
            in->slot = in->label + m;
            f->insts[in - f->insts - 1].ival = m + 1;
            return NULL;
        }
    I->failed = true;
    if (I->allow_union && ty_is_prim(t) && t->kind != TY_NOTHING) {
        if (I->union_slot < 0) {
            I->union_slot = in->label;
            I->union_type = t;
        }
    } else if (I->report) {
        StrBuf sb = { 0 };
        for (int m = 0; m < (int)in->ival; m++)
            sb_printf(&sb, "%s%s", m ? ", " : "", infer_tname(I, f->slots[in->label + m].type));
        diag_error(I->c->diags, in->loc,
                   "variable `%s` has type %s here but is a Union{%s} elsewhere; juke splits unions of at most %d "
                   "number types (Julia would box a larger one, a GPU cannot)",
                   var_name(I, f->slots[in->label].name), infer_tname(I, t), sb.data ? sb.data : "", UNION_MAX);
        sb_free(&sb);
    }
    return NULL;
}

/* May slot s, of one number type, take number type t too, as Julia's Union{A, B} split at its uses? (The
 * value of `c ? UInt32(d) : 0`, a variable assigned an Int64 and then a Float64.) */
static bool number_union(const Infer *I, const IrSlot *s, const Type *t)
{
    return I->allow_union && !s->is_param && ty_is_prim(t) && ty_is_prim(s->type) && t->kind != TY_NOTHING &&
           s->type->kind != TY_NOTHING;
}

static const Type *infer_inst(Infer *I, IrInst *in)
{
    IrFunc *f = I->f;
    for (int k = 0; k < in->nargs; k++)
        if (!f->insts[in->args[k]].type)
            return NULL;
    switch (in->op) {
    case IR_CONST: return const_type(I, in);
    case IR_NAME: return infer_name(I, in);
    case IR_SLOT: {
        IrSlot *s = &f->slots[in->slot];
        if (!s->type && I->report) {
            /* a variable whose assignment failed was reported there; only a name never assigned is undefined */
            bool assigned = false;
            for (int k = 0; k < f->ninsts && !assigned; k++)
                assigned = f->insts[k].op == IR_ASSIGN && f->insts[k].slot == in->slot && I->reach[k];
            if (assigned)
                I->failed = true;
            else
                infer_err(I, in->loc, "UndefVarError: `%s` not defined", var_name(I, s->name));
        }
        return s->type;
    }
    case IR_ASSIGN: {
        IrSlot *s = &f->slots[in->slot];
        const Type *t = f->insts[in->args[0]].type;
        if (throws(f, in->args[0])) /* the value of throw(...) never arrives (Julia's Union{}) */
            return NULL;
        if (in->flags & IRF_UNION_STORE)
            return union_store(I, in, t);
        if (!s->type) {
            s->type = t;
            s->loc = in->loc;
            I->changed = true;
        } else if (s->type != t && s->type->kind != TY_ANY) {
            const Type *j = s->name[0] == '#' ? ty_join(T(I), s->type, t) : NULL;
            if (j) {
                /* a compiler temporary (an if's value, a for loop's iterate result) that is nothing on one
                 * path: Union{Nothing, T}; what read the narrower type is typed again */
                if (j != s->type) {
                    s->type = j;
                    I->widened = true;
                    I->changed = true;
                }
            } else if (s->name[0] == '#' && !(number_union(I, s, t) && union_splittable(f, in->slot))) {
                /* a compiler temporary (the value of an if used as a statement): no single type */
                s->type = ty_prim(T(I), TY_ANY);
                I->changed = true;
            } else if (number_union(I, s, t)) {
                /* Julia's Union{A, B} of a variable: split at its uses (union_split.c), inferred again */
                I->failed = true;
                if (I->union_slot < 0) {
                    I->union_slot = in->slot;
                    I->union_type = t;
                    I->union_had = s->type;
                }
            } else {
                I->failed = true;
                if (I->report) {
                    const char *v = var_name(I, s->name);
                    diag_error(I->c->diags, in->loc,
                               "variable `%s` has type %s here but %s at %d:%d, and both reach one use; a kernel "
                               "variable must keep one concrete type (Julia would box it, a GPU cannot)",
                               v, infer_tname(I, t), infer_tname(I, s->type), s->loc.line, s->loc.col);
                    diag_note(I->c->diags, s->loc, "`%s` has type %s here", v, infer_tname(I, s->type));
                }
            }
        }
        return NULL;
    }
    case IR_CALL:
        if (splat_expand(I, (int)(in - f->insts)))
            return NULL; /* the IR changed under `in`: typed on the next pass */
        return infer_call(I, in);
    case IR_GETFIELD: {
        const Type *t = f->insts[in->args[0]].type;
        if (in->flags & IRF_FIELDINDEX) /* a splatted tuple's element (splat.c) */
            return in->ival < t->nfields ? t->fields[in->ival] : NULL;
        if (t->kind == TY_DIM3 && in->ival != IR_FIELD_OTHER)
            return prim(I, TY_INT64);
        if (ty_is_array(t) && in->name && (strcmp(in->name, "ptr") == 0 || strcmp(in->name, "len") == 0)) {
            /* ROCDeviceArray's fields: A.ptr (field 0 of the array's value), A.len (field 2; codegen.c) */
            bool ptr = strcmp(in->name, "ptr") == 0;
            in->ival = ptr ? 0 : 2;
            return ptr ? ty_ptr(T(I), t->elem, t->kind == TY_LOCALARRAY) : prim(I, TY_INT64);
        }
        if (t->kind == TY_TUPLE && in->name && strcmp(in->name, "I") == 0) {
            in->ival = IR_FIELD_SELF; /* CartesianIndex's I: juke's CartesianIndex is that tuple already */
            return t;
        }
        int fi = ty_field_index(t, in->name);
        if (fi >= 0) {
            in->ival = fi; /* typed IR: the field's index */
            return t->fields[fi];
        }
        infer_err(I, in->loc, "type %s has no field %s", infer_tname(I, t), in->name);
        return NULL;
    }
    case IR_TUPLE: {
        if (splat_expand(I, (int)(in - f->insts)))
            return NULL;
        const Type **fs = arena_alloc(&I->c->arena, sizeof(Type *) * (size_t)(in->nargs + 1));
        StrBuf why = { 0 };
        if (!fs)
            return NULL;
        for (int k = 0; k < in->nargs; k++)
            fs[k] = f->insts[in->args[k]].type;
        if (!ty_tuple_fits(fs, in->nargs, &why)) {
            infer_err(I, in->loc, "%s", why.data ? why.data : "tuple type too large");
            sb_free(&why);
            return NULL;
        }
        if (in->name) /* (a = x, b = y): a NamedTuple; .name lists the names */
            return builtin_type_namedtuple(I, in, fs, in->nargs);
        return ty_tuple(T(I), fs, in->nargs);
    }
    case IR_GOTOIFNOT: {
        const Type *t = f->insts[in->args[0]].type;
        if (t->kind != TY_BOOL)
            infer_err(I, in->loc, "TypeError: non-boolean (%s) used in boolean context", infer_tname(I, t));
        return NULL;
    }
    case IR_RETURN: {
        if (in->nargs && throws(f, in->args[0]))
            return NULL;
        const Type *t = in->nargs ? f->insts[in->args[0]].type : prim(I, TY_NOTHING);
        if (!I->spec->rettype) {
            I->spec->rettype = t;
            I->changed = true;
        } else if (I->spec->rettype != t && I->spec->rettype->kind != TY_ANY) {
            const Type *j = ty_join(T(I), I->spec->rettype, t); /* nothing on some paths: Union{Nothing, T} */
            I->spec->rettype = j ? j : ty_prim(T(I), TY_ANY);
            I->changed = true;
        }
        return NULL;
    }
    default: return NULL;
    }
}

/* Drop unreachable code from a typed function: what no path reaches is not
 * printed (as @code_typed leaves it out) nor compiled. Value ids are
 * renumbered; an unreachable value a reachable one uses (none in lowered
 * code, but kept to be safe) stays, typed Nothing. */
static void drop_unreachable(FeCompilation *c, IrFunc *f, const bool *reach)
{
    int n = f->ninsts;
    bool *keep = calloc((size_t)n + 1, 1);
    int *map = calloc((size_t)n + 1, sizeof(int));
    if (!keep || !map) {
        free(keep);
        free(map);
        return;
    }
    for (int i = 0; i < n; i++)
        keep[i] = reach[i];
    for (int i = n - 1; i >= 0; i--)
        for (int k = 0; keep[i] && k < f->insts[i].nargs; k++)
            keep[f->insts[i].args[k]] = true;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        map[i] = m;
        if (!reach[i]) {
            f->insts[i].type = ty_prim(c->types, TY_NOTHING);
            f->insts[i].flags |= IRF_DEAD;
        }
        f->insts[m++] = f->insts[i];
    }
    for (int i = 0; i < m; i++) {
        IrInst *in = &f->insts[i];
        if (in->nargs) {
            int *args = arena_alloc(&c->arena, sizeof(int) * (size_t)in->nargs);
            if (!args)
                break;
            for (int k = 0; k < in->nargs; k++)
                args[k] = map[in->args[k]];
            in->args = args;
        }
    }
    f->ninsts = m;
    free(keep);
    free(map);
}

/* A specialisation on constant arguments (Spec.constmask): every read of such a parameter that the body never
 * assigns is the constant, so a tuple's index, Val(k) or a loop's bounds see it (consteval.c). */
static void read_params_as_consts(IrFunc *f, const Spec *s)
{
    for (int p = 0; p < f->nparams && p < 64; p++) {
        if (!(s->constmask >> p & 1))
            continue;
        bool assigned = false;
        for (int i = 0; i < f->ninsts && !assigned; i++)
            assigned = f->insts[i].op == IR_ASSIGN && f->insts[i].slot == p;
        const Type *t = s->argtypes[p];
        static const LitType lits[] = { [TY_INT8] = LIT_INT8,     [TY_INT16] = LIT_INT16,   [TY_INT32] = LIT_INT32,
                                        [TY_INT64] = LIT_INT64,   [TY_UINT8] = LIT_UINT8,   [TY_UINT16] = LIT_UINT16,
                                        [TY_UINT32] = LIT_UINT32, [TY_UINT64] = LIT_UINT64, [TY_BOOL] = LIT_NONE };
        for (int i = 0; i < f->ninsts && !assigned; i++) {
            IrInst *in = &f->insts[i];
            if (in->op != IR_SLOT || in->slot != p)
                continue;
            in->op = IR_CONST;
            in->lit = lits[t->kind];
            in->ival = s->constvals[p];
            if (t->kind == TY_BOOL) {
                in->ival = s->constvals[p] ? IR_TRUE : IR_FALSE;
                in->name = s->constvals[p] ? "true" : "false";
            }
        }
    }
}

/* Infer s over lf (its method's lowered IR, or that IR with union variables split). A variable that takes a
 * second type, when allow_union, ends the inference early: *union_slot, *union_type and *union_had say
 * which and how (else *union_slot is -1). */
static bool infer_body_ir(FeCompilation *c, Spec *s, const IrFunc *lf, bool allow_union, int *union_slot,
                          const Type **union_type, const Type **union_had)
{
    Method *m = s->method;
    *union_slot = -1;
    IrFunc *f = ir_func_new(&c->arena, m->name, lf->loc);
    if (!f)
        return false;
    *f = *lf;
    f->insts = arena_alloc(&c->arena, sizeof(IrInst) * (size_t)(lf->ninsts + 1));
    f->slots = arena_alloc(&c->arena, sizeof(IrSlot) * (size_t)(lf->nslots + 1));
    bool *reach = arena_alloc(&c->arena, (size_t)lf->ninsts + 1);
    bool *decided = arena_alloc(&c->arena, (size_t)lf->ninsts + 1);
    if (!f->insts || !f->slots || !reach || !decided)
        return false;
    if (lf->ninsts) /* memcpy from NULL is undefined even for 0 bytes */
        memcpy(f->insts, lf->insts, sizeof(IrInst) * (size_t)lf->ninsts);
    if (lf->nslots)
        memcpy(f->slots, lf->slots, sizeof(IrSlot) * (size_t)lf->nslots);
    f->cap = lf->ninsts;
    f->slotcap = lf->nslots;
    f->typed = true;
    for (int i = 0; i < f->nparams; i++)
        f->slots[i].type = s->argtypes[i];
    read_params_as_consts(f, s);
    s->typed = f;
    /* I.reach and I.decided, not these, from here on: inserting instructions (splat.c) replaces them */
    Infer I = {
        .c = c, .spec = s, .f = f, .reach = reach, .decided = decided, .union_slot = -1, .allow_union = allow_union
    };
    compute_reach(&I);
    for (int iter = 0; iter < f->ninsts + 8; iter++) {
        I.changed = false;
        for (int i = 0; i < f->ninsts; i++) {
            IrInst *in = &f->insts[i];
            if (c->arena.failed) /* a type could not be made, an argument may be left untyped: fe_specialize says so */
                return false;
            if (!I.reach[i] || (in->type && in->op != IR_CALL))
                continue;
            const Type *t = infer_inst(&I, in);
            if (t && t != in->type) {
                in->type = t;
                I.changed = true;
            }
            /* a branch the types decide: the side not taken is not typed (Julia infers only what runs) */
            if (in->op == IR_GOTOIFNOT && !I.decided[i] && cond_decided(f, &f->insts[in->args[0]]) >= 0) {
                I.decided[i] = true;
                compute_reach(&I);
            }
        }
        if (I.widened) /* a slot became a union: type every value again (slots keep their types) */
            for (int i = 0; i < f->ninsts; i++)
                if (f->insts[i].op != IR_CALL || !f->insts[i].callee)
                    f->insts[i].type = NULL;
        I.widened = false;
        if (!I.changed)
            break;
    }
    *union_slot = I.union_slot;
    *union_type = I.union_type;
    *union_had = I.union_had;
    if (I.union_slot >= 0)
        return false; /* inferred again with the variable split */
    /* the final pass: report what is still wrong */
    I.report = true;
    I.failed = false;
    int before = c->diags->nerrors;
    for (int i = 0; i < f->ninsts; i++) {
        IrInst *in = &f->insts[i];
        if (!I.reach[i])
            continue;
        bool args_typed = true;
        for (int k = 0; k < in->nargs; k++)
            if (!f->insts[in->args[k]].type)
                args_typed = false;
        if (!args_typed)
            continue;
        if (in->op == IR_ASSIGN || in->op == IR_GOTOIFNOT ||
            (!in->type && in->op != IR_RETURN && in->op != IR_LABEL && in->op != IR_GOTO)) {
            const Type *t = infer_inst(&I, in);
            if (t && !in->type)
                in->type = t;
        }
    }
    /* a decided branch becomes a goto (never taken: nothing); the side not taken goes with the dead code */
    for (int i = 0; i < f->ninsts; i++) {
        IrInst *in = &f->insts[i];
        int known = I.reach[i] && in->op == IR_GOTOIFNOT ? cond_decided(f, &f->insts[in->args[0]]) : -1;
        if (known == 0) {
            in->op = IR_GOTO;
            in->nargs = 0;
        } else if (known == 1) {
            I.reach[i] = false;
        }
    }
    /* unreachable code (after return, break, continue) is dropped: it is neither printed nor compiled */
    drop_unreachable(c, f, I.reach);
    if (!s->rettype) { /* never returns normally */
        s->rettype = ty_prim(c->types, TY_NOTHING);
        s->noreturn = true;
    }
    return c->diags->nerrors == before && !I.failed;
}

static Spec *specialize(FeCompilation *c, Method *m, const Type *self, const Type **argtypes, int nargs,
                        const Type **tvals, SrcLoc loc, uint64_t constmask, const int64_t *constvals)
{
    if (nargs < 64)
        constmask &= (UINT64_C(1) << nargs) - 1;
    int nconst = 0; /* this method's specialisations on constants so far */
    for (int i = 0; i < c->nspecs; i++) {
        Spec *s = c->specs[i];
        if (s->method != m || s->nargs != nargs || s->self != self)
            continue;
        nconst += s->constmask != 0;
        bool same = s->constmask == constmask;
        for (int k = 0; k < nargs; k++)
            same = same && s->argtypes[k] == argtypes[k] &&
                   (k >= 64 || !(constmask >> k & 1) || s->constvals[k] == constvals[k]);
        if (!same)
            continue;
        if (s->state == SPEC_INFERRING) {
            StrBuf sb = { 0 };
            for (int k = 0; k < c->depth; k++)
                sb_printf(&sb, "%s → ", c->stack[k]->method->name);
            sb_puts(&sb, m->name);
            c->recursion = true;
            diag_error(c->diags, loc, "recursion is not supported in kernels: `%s` calls itself (%s)", m->name,
                       sb.data ? sb.data : m->name);
            sb_free(&sb);
            return NULL;
        }
        return s->state == SPEC_DONE ? s : NULL;
    }
    /* Tuple functions recurse once per element (the prelude's map, ntuple, StaticArrays' fill), so the
     * nesting goes as deep as a tuple is long; past that, or when the thread's stack runs short, an error. */
    if (c->depth >= FE_MAX_CALL_DEPTH) {
        diag_error(c->diags, loc, "calls nested more than %d deep", FE_MAX_CALL_DEPTH);
        return NULL;
    }
    if (constmask && nconst >= FE_MAX_CONST_SPECS) {
        /* said once where it is still to be read: the calls after it fail alike */
        if (c->const_limit && c->diags->nerrors)
            return NULL;
        c->const_limit = true;
        diag_error(c->diags, loc,
                   "`%s` is specialised on constant arguments more than %d times in this kernel (Julia's constant "
                   "propagation); pass the constant as a Val, or make the call's types not depend on it",
                   display_name(c, m->name), FE_MAX_CONST_SPECS);
        return NULL;
    }
    if (jk_stack_exhausted(jk_stack_limit())) {
        diag_error(c->diags, loc, "calls nested too deeply for the available stack (%d deep)", c->depth);
        return NULL;
    }
    Spec *s = arena_alloc(&c->arena, sizeof(Spec));
    const Type **at = arena_alloc(&c->arena, sizeof(Type *) * (size_t)(nargs + 1));
    const Type **tv = arena_alloc(&c->arena, sizeof(Type *) * (size_t)(m->ntvars + 1));
    if (!s || !at || !tv)
        return NULL;
    memcpy(at, argtypes, sizeof(Type *) * (size_t)nargs);
    if (tvals && m->ntvars)
        memcpy(tv, tvals, sizeof(Type *) * (size_t)m->ntvars);
    for (int k = 0; k < nargs; k++)
        if (!ty_is_concrete(at[k])) {
            diag_error(c->diags, loc, "argument %d of %s has the abstract type %s; kernels need concrete types", k + 1,
                       m->name, ty_name(&c->arena, at[k]));
            return NULL;
        }
    s->method = m;
    s->self = self;
    s->argtypes = at;
    s->nargs = nargs;
    s->tvals = tv;
    if (constmask) {
        int64_t *cv = arena_alloc(&c->arena, sizeof(int64_t) * (size_t)(nargs < 64 ? nargs : 64));
        if (!cv)
            return NULL;
        memcpy(cv, constvals, sizeof(int64_t) * (size_t)(nargs < 64 ? nargs : 64));
        s->constmask = constmask;
        s->constvals = cv;
    }
    s->state = SPEC_INFERRING;
    s->index = c->nspecs;
    Spec **specs = arena_grow(&c->arena, c->specs, c->nspecs, &c->cap, sizeof(Spec *), 16);
    if (!specs)
        return NULL;
    c->specs = specs;
    c->specs[c->nspecs++] = s;
    if (c->depth == c->stackcap) {
        int cap = c->stackcap;
        Spec **stack = arena_grow(&c->arena, c->stack, c->depth, &cap, sizeof(Spec *), 16);
        SrcLoc *calls = arena_grow(&c->arena, c->calls, c->depth, &c->stackcap, sizeof(SrcLoc), 16);
        if (!stack || !calls)
            return NULL;
        c->stack = stack;
        c->calls = calls;
    }
    c->calls[c->depth] = loc;
    c->stack[c->depth++] = s;
    bool ok = infer_body(c, s);
    c->depth--;
    s->state = ok ? SPEC_DONE : SPEC_FAILED;
    s->llvm_name = arena_printf(&c->arena, "julia_%s_%d", m->name, s->index);
    return ok ? s : NULL;
}
