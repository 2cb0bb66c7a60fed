/* macroexp.c: the macros a kernel file defines, expanded at their uses.
 *
 * A Julia macro is a function from syntax to syntax that runs when the file is parsed. Kernel code's
 * macros are templates (ExaTron's `@amdlocalmem(T, n)` builds `ROCDeviceArray((n,), alloc_local(:id, T,
 * n))` under a gensym'd id), so their bodies are evaluated here by a small interpreter over the syntax
 * tree: a value is a tree (an Expr), an identifier (a Symbol), or a literal. It knows what such bodies
 * use: assignments, `if`/`?:`/`&&`/`||`, `return`, `quote ... end` and `:(...)` with `$x`, `$(expr)` and
 * `$(xs...)` spliced in, and the calls esc, gensym, QuoteNode, Symbol, string, isa, ==, != and
 * length / indexing of a vararg's tuple. Anything else in a body that runs is reported (E2120).
 *
 * Hygiene: Julia renames the variables a macro's result assigns, except in the parts wrapped in esc, so
 * that they cannot clash with the caller's. Here the names the templates assign outside esc'd syntax are
 * renamed to fresh ones; the caller's syntax spliced in keeps its names (Julia would also resolve an
 * unescaped one in the macro's module: a kernel's macro escapes it). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "macroexp.h"

enum {
    MX_VARS = 64,         /* variables of one macro body */
    MX_NEST = 64,         /* macro calls expanded inside an expansion, nested */
    MX_DEPTH = 200,       /* syntax depth the interpreter walks */
    MX_SPLICED = 1 << 28, /* on the root of syntax spliced into a template, during one expansion */
    MX_ESC = 1 << 29,     /* on the root of syntax esc() returned, during one expansion */
};

typedef struct Mx {
    Arena *a;
    Diags *d;
    Node **defs; /* the FUNCTIONs named "@name" */
    int ndefs;
    int gensyms; /* fresh names made so far */
} Mx;

typedef struct Env {
    const Node *call; /* the macro call being expanded */
    const char *names[MX_VARS];
    Node *vals[MX_VARS];
    int n;
    bool returned, failed;
    Node *ret;
} Env;

static const char *macro_name(const Node *def)
{
    return def->name + 1;
}

/* Report x as a construct the interpreter does not evaluate; returns NULL. */
static Node *mx_unsupported(Mx *m, Env *e, const Node *x)
{
    if (!e->failed) {
        StrBuf sb = { 0 };
        ast_print(&sb, x);
        char *nl = sb.data ? strchr(sb.data, '\n') : NULL;
        if (nl) /* a statement with a body: its first line */
            *nl = 0;
        diag_error(m->d, x->loc,
                   "juke expands a macro this file defines by running its body on the syntax of the call, "
                   "which may build the result with `quote ... end` and `:(...)` (`$x` spliced in), gensym, "
                   "QuoteNode, Symbol, esc, assignments and if; `%.60s` is none of those",
                   sb.data ? sb.data : "?");
        diag_note(m->d, e->call->loc, "in the expansion of @%s here", e->call->name);
        sb_free(&sb);
    }
    e->failed = true;
    return NULL;
}

static Node **env_slot(Env *e, const char *name)
{
    for (int i = e->n - 1; i >= 0; i--)
        if (strcmp(e->names[i], name) == 0)
            return &e->vals[i];
    return NULL;
}

static bool env_set(Mx *m, Env *e, const Node *at, const char *name, Node *v)
{
    Node **s = env_slot(e, name);
    if (s) {
        *s = v;
        return true;
    }
    if (e->n == MX_VARS) {
        mx_unsupported(m, e, at);
        return false;
    }
    e->names[e->n] = name;
    e->vals[e->n++] = v;
    return true;
}

static Node *mx_bool(Mx *m, SrcLoc loc, bool v)
{
    Node *b = ast_node(m->a, AST_BOOL, loc, 0);
    if (b)
        b->ival = v;
    return b;
}

/* A fresh name, as Julia's gensym("tag") makes: ##tag#k. */
static Node *mx_gensym(Mx *m, SrcLoc loc, const char *tag)
{
    char *name = arena_printf(m->a, "##%s#%d", tag && *tag ? tag : "", ++m->gensyms);
    return name ? ast_ident(m->a, loc, name) : NULL;
}

/* The text of a value for Symbol(...) and string(...): a name, a string or an integer's digits. */
static bool mx_text(Mx *m, StrBuf *sb, const Node *v)
{
    (void)m;
    if (v->kind == AST_IDENT || v->kind == AST_SYMBOL || v->kind == AST_STRING)
        sb_puts(sb, v->name);
    else if (v->kind == AST_INT)
        sb_printf(sb, "%lld", (long long)v->ival);
    else
        return false;
    return true;
}

/* Are two values the same syntax as far as == on names and literals goes? */
static bool mx_same(const Node *x, const Node *y)
{
    bool xname = x->kind == AST_IDENT || x->kind == AST_SYMBOL, yname = y->kind == AST_IDENT || y->kind == AST_SYMBOL;
    if (xname || yname)
        return xname && yname && strcmp(x->name, y->name) == 0;
    if (x->kind != y->kind)
        return false;
    if (x->kind == AST_INT || x->kind == AST_BOOL)
        return x->ival == y->ival;
    if (x->kind == AST_FLOAT)
        return x->fval == y->fval;
    if (x->kind == AST_STRING)
        return strcmp(x->name, y->name) == 0;
    return x->kind == AST_NOTHING;
}

/* v isa T for the types a macro asks about its arguments: Symbol, Expr, an integer or a string. */
static Node *mx_isa(Mx *m, Env *e, const Node *x, const Node *v, const Node *t)
{
    if (t->kind != AST_IDENT)
        return mx_unsupported(m, e, x);
    const char *T = t->name;
    bool lit = v->kind == AST_INT || v->kind == AST_FLOAT || v->kind == AST_BOOL || v->kind == AST_STRING ||
               v->kind == AST_NOTHING || v->kind == AST_SYMBOL;
    bool r;
    if (strcmp(T, "Symbol") == 0)
        r = v->kind == AST_IDENT;
    else if (strcmp(T, "Expr") == 0)
        r = v->kind != AST_IDENT && !lit;
    else if (strcmp(T, "Integer") == 0 || strcmp(T, "Int") == 0 || strcmp(T, "Int64") == 0)
        r = v->kind == AST_INT;
    else if (strcmp(T, "Bool") == 0)
        r = v->kind == AST_BOOL;
    else if (strcmp(T, "String") == 0 || strcmp(T, "AbstractString") == 0)
        r = v->kind == AST_STRING;
    else if (strcmp(T, "QuoteNode") == 0)
        r = v->kind == AST_SYMBOL;
    else
        return mx_unsupported(m, e, x);
    return mx_bool(m, x->loc, r);
}

static Node *mx_eval(Mx *m, Env *e, Node *x, int depth);

/* xs of a `$(xs...)` in a template (parsed as `$` of the tuple `(xs...,)`), else NULL */
static Node *splat_of(const Node *k)
{
    if (!k || k->kind != AST_MACROCALL || strcmp(k->name, "$") != 0 || k->nkids != 1 || !k->kids[0])
        return NULL;
    const Node *t = k->kids[0];
    if (t->kind == AST_TUPLE && t->nkids == 1)
        t = t->kids[0];
    return t->kind == AST_SPLAT ? t->kids[0] : NULL;
}

/* A quoted template: a copy with every `$x` / `$(expr)` replaced by its value (a copy, marked spliced) and
 * `$(xs...)` in an argument list replaced by the elements of the tuple xs. */
static Node *mx_splice(Mx *m, Env *e, Node *x, int depth)
{
    if (!x || depth > MX_DEPTH || e->failed)
        return x;
    if (x->kind == AST_MACROCALL && strcmp(x->name, "$") == 0 && x->nkids == 1) {
        Node *v = mx_eval(m, e, x->kids[0], depth + 1);
        if (!v)
            return x;
        v = ast_clone(m->a, v, 0);
        if (v)
            v->flags |= MX_SPLICED;
        return v;
    }
    if (x->kind == AST_MACROCALL && strcmp(x->name, "quote") == 0)
        return x; /* a quote inside the template: its `$` belong to it */
    int n = 0;
    for (int i = 0; i < x->nkids; i++) {
        Node *k = x->kids[i];
        if (splat_of(k)) {
            Node *t = mx_eval(m, e, splat_of(k), depth + 1);
            if (!t)
                return x;
            if (t->kind != AST_TUPLE)
                return mx_unsupported(m, e, k);
            n += t->nkids;
        } else {
            n++;
        }
    }
    Node **kids = n ? arena_alloc(m->a, (size_t)n * sizeof(Node *)) : NULL;
    if (n && !kids)
        return x;
    int j = 0;
    for (int i = 0; i < x->nkids; i++) {
        Node *k = x->kids[i];
        if (splat_of(k)) {
            Node *t = mx_eval(m, e, splat_of(k), depth + 1);
            for (int q = 0; t && q < t->nkids; q++) {
                kids[j] = ast_clone(m->a, t->kids[q], 0);
                if (kids[j])
                    kids[j]->flags |= MX_SPLICED;
                j++;
            }
        } else {
            kids[j++] = mx_splice(m, e, k, depth + 1);
        }
    }
    x->kids = kids;
    x->nkids = j;
    return x;
}

/* quote ... end / :(...): the template's block, spliced; a block of one expression is that expression. */
static Node *mx_quote(Mx *m, Env *e, Node *x, int depth)
{
    Node *b = ast_clone(m->a, x->kids[0], 0);
    if (!b)
        return NULL;
    b = mx_splice(m, e, b, depth + 1);
    if (e->failed)
        return NULL;
    if (b->kind == AST_BLOCK && b->nkids == 1)
        return b->kids[0];
    return b;
}

static Node *mx_call(Mx *m, Env *e, Node *x, int depth)
{
    const char *f = x->kids[0]->kind == AST_IDENT ? x->kids[0]->name : NULL;
    int nargs = x->nkids - 1;
    if (!f)
        return mx_unsupported(m, e, x);
    if (strcmp(f, "isa") == 0 && nargs == 2) {
        Node *v = mx_eval(m, e, x->kids[1], depth + 1);
        return v ? mx_isa(m, e, x, v, x->kids[2]) : NULL;
    }
    Node *args[8];
    if (nargs > 8)
        return mx_unsupported(m, e, x);
    for (int i = 0; i < nargs; i++) {
        args[i] = mx_eval(m, e, x->kids[1 + i], depth + 1);
        if (!args[i])
            return NULL;
    }
    if (strcmp(f, "esc") == 0 && nargs == 1) {
        Node *v = ast_clone(m->a, args[0], 0);
        if (v)
            v->flags |= MX_ESC;
        return v;
    }
    if (strcmp(f, "gensym") == 0 && nargs <= 1) {
        StrBuf sb = { 0 };
        if (nargs == 1 && !mx_text(m, &sb, args[0])) {
            sb_free(&sb);
            return mx_unsupported(m, e, x);
        }
        Node *g = mx_gensym(m, x->loc, sb.data ? arena_strdup(m->a, sb.data) : "");
        sb_free(&sb);
        return g;
    }
    if (strcmp(f, "QuoteNode") == 0 && nargs == 1) {
        if (args[0]->kind != AST_IDENT)
            return args[0];
        Node *s = ast_node(m->a, AST_SYMBOL, x->loc, 0);
        if (s)
            s->name = args[0]->name;
        return s;
    }
    if ((strcmp(f, "Symbol") == 0 || strcmp(f, "string") == 0) && nargs >= 1) {
        StrBuf sb = { 0 };
        for (int i = 0; i < nargs; i++)
            if (!mx_text(m, &sb, args[i])) {
                sb_free(&sb);
                return mx_unsupported(m, e, x);
            }
        const char *text = arena_strdup(m->a, sb.data ? sb.data : "");
        sb_free(&sb);
        if (!text)
            return NULL;
        if (f[0] == 'S')
            return ast_ident(m->a, x->loc, text);
        Node *s = ast_node(m->a, AST_STRING, x->loc, 0);
        if (s)
            s->name = text;
        return s;
    }
    if ((strcmp(f, "==") == 0 || strcmp(f, "!=") == 0 || strcmp(f, "===") == 0 || strcmp(f, "!==") == 0) && nargs == 2)
        return mx_bool(m, x->loc, mx_same(args[0], args[1]) == (f[0] == '='));
    if (strcmp(f, "!") == 0 && nargs == 1 && args[0]->kind == AST_BOOL)
        return mx_bool(m, x->loc, !args[0]->ival);
    if (strcmp(f, "length") == 0 && nargs == 1 && args[0]->kind == AST_TUPLE) {
        Node *n = ast_node(m->a, AST_INT, x->loc, 0);
        if (n) {
            n->ival = args[0]->nkids;
            n->lit = LIT_INT64;
        }
        return n;
    }
    return mx_unsupported(m, e, x);
}

/* The value of x in the macro body's environment, or NULL (reported, or out of memory). */
static Node *mx_eval(Mx *m, Env *e, Node *x, int depth)
{
    if (e->failed || !x)
        return NULL;
    if (depth > MX_DEPTH)
        return mx_unsupported(m, e, x);
    switch (x->kind) {
    case AST_INT:
    case AST_FLOAT:
    case AST_BOOL:
    case AST_NOTHING:
    case AST_STRING:
    case AST_SYMBOL: return x;
    case AST_IDENT: {
        Node **s = x->qual ? NULL : env_slot(e, x->name);
        if (s)
            return *s;
        return mx_unsupported(m, e, x);
    }
    case AST_BLOCK: {
        Node *v = NULL;
        for (int i = 0; i < x->nkids && !e->returned && !e->failed; i++)
            v = mx_eval(m, e, x->kids[i], depth + 1);
        if (!x->nkids)
            v = ast_node(m->a, AST_NOTHING, x->loc, 0);
        return v;
    }
    case AST_RETURN:
        e->ret = x->kids[0] ? mx_eval(m, e, x->kids[0], depth + 1) : ast_node(m->a, AST_NOTHING, x->loc, 0);
        e->returned = true;
        return e->ret;
    case AST_ASSIGN: {
        if (x->kids[0]->kind != AST_IDENT || x->kids[0]->qual)
            return mx_unsupported(m, e, x);
        Node *v = mx_eval(m, e, x->kids[1], depth + 1);
        return v && env_set(m, e, x, x->kids[0]->name, v) ? v : NULL;
    }
    case AST_IF:
    case AST_TERNARY: {
        Node *c = mx_eval(m, e, x->kids[0], depth + 1);
        if (!c)
            return NULL;
        if (c->kind != AST_BOOL)
            return mx_unsupported(m, e, x->kids[0]);
        Node *br = c->ival ? x->kids[1] : x->kids[2];
        return br ? mx_eval(m, e, br, depth + 1) : ast_node(m->a, AST_NOTHING, x->loc, 0);
    }
    case AST_AND:
    case AST_OR: {
        Node *c = mx_eval(m, e, x->kids[0], depth + 1);
        if (!c)
            return NULL;
        if (c->kind != AST_BOOL)
            return mx_unsupported(m, e, x->kids[0]);
        if ((x->kind == AST_AND) != (c->ival != 0))
            return c;
        return mx_eval(m, e, x->kids[1], depth + 1);
    }
    case AST_REF: {
        Node *t = mx_eval(m, e, x->kids[0], depth + 1);
        Node *i = x->nkids == 2 ? mx_eval(m, e, x->kids[1], depth + 1) : NULL;
        if (!t || !i)
            return e->failed ? NULL : mx_unsupported(m, e, x);
        if (t->kind != AST_TUPLE || i->kind != AST_INT || i->ival < 1 || i->ival > t->nkids)
            return mx_unsupported(m, e, x);
        return t->kids[i->ival - 1];
    }
    case AST_CALL: return mx_call(m, e, x, depth);
    case AST_MACROCALL:
        if (strcmp(x->name, "quote") == 0 && x->nkids == 1)
            return mx_quote(m, e, x, depth);
        return mx_unsupported(m, e, x);
    default: return mx_unsupported(m, e, x);
    }
}

/* Julia's hygiene: the names the result's templates assign outside esc'd or spliced syntax become fresh
 * ones, consistently through those parts. */
static void mx_hygiene(Mx *m, Node *r)
{
    const char *from[MX_VARS], *to[MX_VARS];
    int n = 0;
    PtrVec todo = { 0 };
    ptrvec_push(m->a, &todo, r);
    while (todo.len) {
        Node *x = todo.items[--todo.len];
        if (!x || (x->flags & (MX_SPLICED | MX_ESC)))
            continue;
        Node *lhs = x->kind == AST_ASSIGN || x->kind == AST_OPASSIGN || x->kind == AST_FOR ? x->kids[0] : NULL;
        if (lhs && lhs->kind == AST_TYPED)
            lhs = lhs->kids[0];
        if (lhs && lhs->kind == AST_IDENT && !lhs->qual && !(lhs->flags & (MX_SPLICED | MX_ESC)) && n < MX_VARS) {
            bool seen = false;
            for (int i = 0; i < n; i++)
                seen |= strcmp(from[i], lhs->name) == 0;
            Node *g = seen ? NULL : mx_gensym(m, lhs->loc, lhs->name);
            if (g) {
                from[n] = lhs->name;
                to[n++] = g->name;
            }
        }
        for (int i = 0; i < x->nkids; i++)
            ptrvec_push(m->a, &todo, x->kids[i]);
    }
    if (!n)
        return;
    ptrvec_push(m->a, &todo, r);
    while (todo.len) {
        Node *x = todo.items[--todo.len];
        if (!x || (x->flags & (MX_SPLICED | MX_ESC)))
            continue;
        if (x->kind == AST_IDENT && !x->qual)
            for (int i = 0; i < n; i++)
                if (strcmp(x->name, from[i]) == 0)
                    x->name = to[i];
        for (int i = 0; i < x->nkids; i++)
            ptrvec_push(m->a, &todo, x->kids[i]);
    }
}

static void mx_unmark(Mx *m, Node *r)
{
    PtrVec todo = { 0 };
    ptrvec_push(m->a, &todo, r);
    while (todo.len) {
        Node *x = todo.items[--todo.len];
        if (!x)
            continue;
        x->flags &= ~(MX_SPLICED | MX_ESC);
        for (int i = 0; i < x->nkids; i++)
            ptrvec_push(m->a, &todo, x->kids[i]);
    }
}

/* Does def take nargs arguments? (positional ones, those with defaults, a vararg last) */
static bool mx_arity(const Node *def, int nargs)
{
    const Node *ps = def->kids[0];
    int need = 0, max = 0;
    for (int i = 0; i < ps->nkids; i++) {
        if (ps->kids[i]->kind == AST_SPLAT)
            return nargs >= need;
        max++;
        if (ps->kids[i]->kind != AST_ASSIGN)
            need++;
    }
    return nargs >= need && nargs <= max;
}

static const char *param_name(const Node *p)
{
    if (p->kind == AST_SPLAT || p->kind == AST_ASSIGN)
        p = p->kids[0];
    if (p->kind == AST_TYPED)
        p = p->kids[0];
    return p && p->kind == AST_IDENT ? p->name : NULL;
}

/* The expansion of the call n of a file's macro, or NULL (reported). */
static Node *mx_expand(Mx *m, Node *n)
{
    Node *def = NULL;
    bool named = false;
    for (int i = 0; i < m->ndefs && !def; i++)
        if (strcmp(macro_name(m->defs[i]), n->name) == 0) {
            named = true;
            if (mx_arity(m->defs[i], n->nkids))
                def = m->defs[i];
        }
    if (!named)
        return n;
    if (!def) {
        diag_error(m->d, n->loc, "MethodError: no method matching @%s with %d argument%s (see the definitions of @%s)",
                   n->name, n->nkids, n->nkids == 1 ? "" : "s", n->name);
        return NULL;
    }
    Env *e = arena_alloc(m->a, sizeof(Env));
    if (!e)
        return NULL;
    e->call = n;
    const Node *ps = def->kids[0];
    for (int i = 0; i < ps->nkids; i++) {
        const Node *p = ps->kids[i];
        const char *name = param_name(p);
        if (!name)
            return mx_unsupported(m, e, p);
        Node *v;
        if (p->kind == AST_SPLAT) {
            int rest = n->nkids - i;
            v = ast_node(m->a, AST_TUPLE, n->loc, rest);
            for (int k = 0; v && k < rest; k++)
                v->kids[k] = n->kids[i + k];
        } else if (i < n->nkids) {
            v = n->kids[i];
        } else {
            v = mx_eval(m, e, p->kids[1], 0);
        }
        if (!v || !env_set(m, e, p, name, v))
            return NULL;
    }
    Node *body = def->kids[1];
    Node *r = mx_eval(m, e, body, 0);
    if (e->returned)
        r = e->ret;
    if (e->failed || !r)
        return NULL;
    r = ast_clone(m->a, r, 0);
    if (!r)
        return NULL;
    mx_hygiene(m, r);
    mx_unmark(m, r);
    return r;
}

static bool is_user_call(Mx *m, const Node *x)
{
    if (!x || x->kind != AST_MACROCALL)
        return false;
    for (int i = 0; i < m->ndefs; i++)
        if (strcmp(macro_name(m->defs[i]), x->name) == 0)
            return true;
    return false;
}

void macroexp_expand(Arena *a, Diags *d, Node *file)
{
    if (!file || file->kind != AST_FILE)
        return;
    Mx m = { .a = a, .d = d };
    int ndefs = 0, nitems = 0;
    for (int i = 0; i < file->nkids; i++)
        if (file->kids[i]->kind == AST_FUNCTION && file->kids[i]->name && file->kids[i]->name[0] == '@')
            ndefs++;
    if (!ndefs)
        return;
    m.defs = arena_alloc(a, (size_t)ndefs * sizeof(Node *));
    if (!m.defs)
        return;
    for (int i = 0; i < file->nkids; i++) {
        Node *x = file->kids[i];
        if (x->kind == AST_FUNCTION && x->name && x->name[0] == '@')
            m.defs[m.ndefs++] = x;
        else
            file->kids[nitems++] = x;
    }
    file->nkids = nitems;
    /* walk every item with a stack of (node, nesting of expansions); a call is replaced in its parent */
    PtrVec todo = { 0 }, level = { 0 };
    ptrvec_push(a, &todo, file);
    ptrvec_push(a, &level, (void *)(intptr_t)0);
    while (todo.len) {
        Node *x = todo.items[--todo.len];
        int nest = (int)(intptr_t)level.items[--level.len];
        if (!x)
            continue;
        for (int i = 0; i < x->nkids; i++) {
            Node *k = x->kids[i];
            int kn = nest;
            while (is_user_call(&m, k)) {
                if (kn >= MX_NEST) {
                    diag_error(d, k->loc, "the expansion of @%s nests macro calls more than %d deep", k->name, MX_NEST);
                    k = ast_node(a, AST_NOTHING, k->loc, 0);
                    break;
                }
                Node *r = mx_expand(&m, k);
                k = r ? r : ast_node(a, AST_NOTHING, k->loc, 0);
                kn++;
            }
            x->kids[i] = k;
            ptrvec_push(a, &todo, k);
            ptrvec_push(a, &level, (void *)(intptr_t)kn);
        }
    }
}
