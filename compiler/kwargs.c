/* kwargs.c: the methods Julia generates from one definition with default positional arguments or keyword
 * arguments (julia-syntax.scm's optional-positional and keyword lowering), as syntax trees that the loader
 * (frontend.c) adds like the file's own definitions.
 *
 * `function f(a, b = 2, c = b + 1) body end` is three methods: f(a, b, c) with the body, f(a, b) =
 * f(a, b, b + 1) and f(a) = f(a, 2). A default is evaluated in the shorter method, so it sees the arguments
 * before it.
 *
 * `function f(a; k = 1, j) body end` is, with B a name no user can write:
 *   B(k, j, a) = body                            the body, keywords first
 *   f(a) = (k = 1; j = <unassigned>; B(k, j, a))  a call with no keywords
 *   f#kw#j,k(j, k, a) = B(k, j, a)               a call f(x; j = .., k = ..) (lower.c names the keywords
 *                                                 sorted), one such method per set of keywords the file's
 *                                                 calls pass (collected before, kw_collect_calls)
 * Keywords do not take part in dispatch, as in Julia: the positional arguments pick the method. A required
 * keyword that a call leaves out is a compile error where that call reaches it (Julia's UndefKeywordError),
 * and `kwargs...` is rejected when a call reaches the method. */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

const char *kwcall_name(Arena *a, const char *f, const char *const *sorted, int n)
{
    StrBuf sb = { 0 };
    sb_printf(&sb, "%s#kw#", f);
    for (int i = 0; i < n; i++)
        sb_printf(&sb, "%s%s", i ? "," : "", sorted[i]);
    const char *s = arena_strndup(a, sb.data ? sb.data : "", sb.len);
    sb_free(&sb);
    return s;
}

/* Record the keyword sets the calls below n pass (lower.c's names: f#kw#a,b) in set and, in the order
 * found, list; the keys come from a. */
static void collect_calls(Arena *a, NameMap *set, PtrVec *list, const Node *n, int depth)
{
    if (!n || depth > 400)
        return;
    if (n->kind == AST_CALL && n->nkids > 1 && n->kids[0] && n->kids[0]->kind == AST_IDENT) {
        const char *names[32];
        int nk = 0;
        for (int i = 1; i < n->nkids; i++) {
            const Node *k = n->kids[i];
            if (k->kind == AST_ASSIGN && k->kids[0]->kind == AST_IDENT && !k->kids[0]->qual && nk < 32)
                names[nk++] = k->kids[0]->name;
            else if (k->kind == AST_PARAMETERS)
                for (int j = 0; j < k->nkids && nk < 32; j++) {
                    const Node *it = k->kids[j];
                    if (it->kind == AST_ASSIGN && it->kids[0]->kind == AST_IDENT)
                        names[nk++] = it->kids[0]->name;
                    else if (it->kind == AST_IDENT || it->kind == AST_DOT)
                        names[nk++] = it->name;
                }
        }
        if (nk) {
            for (int i = 1; i < nk; i++) /* sorted, as lower_kwcall sorts them */
                for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
                    const char *t = names[j];
                    names[j] = names[j - 1];
                    names[j - 1] = t;
                }
            const char *key = kwcall_name(a, n->kids[0]->name, names, nk);
            if (key && !namemap_get(set, key)) {
                namemap_put(a, set, key, (void *)key);
                ptrvec_push(a, list, (void *)key);
            }
        }
    }
    for (int i = 0; i < n->nkids; i++)
        collect_calls(a, set, list, n->kids[i], depth + 1);
}

void kw_collect_calls(FeModule *mod, const Node *file)
{
    collect_calls(&mod->arena, &mod->kwcalls, &mod->kwcall_list, file, 0);
}

void kw_collect_calls_into(Arena *a, NameMap *set, PtrVec *list, const Node *file)
{
    collect_calls(a, set, list, file, 0);
}

void kw_add_calls(FeModule *mod, const PtrVec *list)
{
    for (int i = 0; i < list->len; i++)
        if (!namemap_get(&mod->kwcalls, list->items[i])) {
            namemap_put(&mod->arena, &mod->kwcalls, list->items[i], list->items[i]);
            ptrvec_push(&mod->arena, &mod->kwcall_list, list->items[i]);
        }
}

/* ---- building syntax ---- */

typedef struct Gen {
    Arena *a;
    FeExpanded *out;
    int nout, max;
} Gen;

/* The parameter's name (x of x, x::T, x = d, x::T = d, x..., @Const(x)), or NULL for an anonymous ::T. */
static Node *param_var(Node *p)
{
    if (p->kind == AST_MACROCALL && p->nkids == 1)
        p = p->kids[0];
    if (p->kind == AST_ASSIGN || p->kind == AST_SPLAT)
        p = p->kids[0];
    if (p->kind == AST_TYPED)
        p = p->kids[0];
    return p && p->kind == AST_IDENT ? p : NULL;
}

/* p without its default (x = d is x, ::T = d is ::T). */
static Node *param_nodefault(Node *p)
{
    return p->kind == AST_ASSIGN ? p->kids[0] : p;
}

/* p named: an anonymous ::T gets a name the forwarding call can pass (#argN). */
static Node *param_named(Gen *g, Node *p, int i)
{
    if (param_var(p))
        return p;
    Node *x = param_nodefault(p);
    if (x->kind != AST_TYPED)
        return p;
    Node *t = ast_node(g->a, AST_TYPED, x->loc, 2);
    if (!t)
        return p;
    t->kids[0] = ast_ident(g->a, x->loc, arena_printf(g->a, "#arg%d", i + 1));
    t->kids[1] = x->kids[1];
    if (p->kind != AST_ASSIGN)
        return t;
    Node *as = ast_node(g->a, AST_ASSIGN, p->loc, 2);
    if (!as)
        return p;
    as->kids[0] = t;
    as->kids[1] = p->kids[1];
    return as;
}

/* The argument that passes parameter p on: x, or x... for varargs. */
static Node *param_arg(Gen *g, Node *p)
{
    Node *v = param_var(p);
    Node *id = ast_ident(g->a, v ? v->loc : p->loc, v ? v->name : "#missing");
    if (p->kind != AST_SPLAT || !id)
        return id;
    Node *s = ast_node(g->a, AST_SPLAT, p->loc, 1);
    if (s)
        s->kids[0] = id;
    return s;
}

static bool mentions(const Node *n, const char *name, int depth)
{
    if (!n || depth > 64)
        return false;
    if (n->kind == AST_IDENT)
        return strcmp(n->name, name) == 0;
    for (int i = 0; i < n->nkids; i++)
        if (mentions(n->kids[i], name, depth + 1))
            return true;
    return false;
}

/* A copy of definition fn named `name` with these parameters and body; its `where` keeps the variables the
 * parameters mention. */
static Node *def_like(Gen *g, const Node *fn, const char *name, Node **params, int np, Node *body)
{
    Node *f = ast_node(g->a, AST_FUNCTION, fn->loc, 5);
    Node *pt = ast_node(g->a, AST_TUPLE, fn->loc, np);
    if (!f || !pt)
        return NULL;
    *f = *fn;
    f->kids = arena_alloc(g->a, sizeof(Node *) * 5);
    if (!f->kids)
        return NULL;
    memcpy(f->kids, fn->kids, sizeof(Node *) * (size_t)fn->nkids);
    f->name = name;
    for (int i = 0; i < np; i++)
        pt->kids[i] = params[i];
    f->kids[0] = pt;
    f->kids[1] = body;
    Node *where = fn->kids[2];
    if (where && body != fn->kids[1]) {
        Node *w = ast_node(g->a, AST_TUPLE, where->loc, where->nkids);
        if (!w)
            return NULL;
        w->nkids = 0;
        for (int i = 0; i < where->nkids; i++) {
            const Node *v = where->kids[i]->kind == AST_SUBTYPE ? where->kids[i]->kids[0] : where->kids[i];
            bool used = false;
            for (int k = 0; k < np && !used; k++)
                used = mentions(params[k], v->name, 0);
            if (used)
                w->kids[w->nkids++] = where->kids[i];
        }
        f->kids[2] = w->nkids ? w : NULL;
    }
    return f;
}

/* begin stmts...; return callee(args...) end */
static Node *forward_body(Gen *g, SrcLoc loc, Node **stmts, int ns, const char *callee, Node **args, int na)
{
    Node *call = ast_node(g->a, AST_CALL, loc, na + 1);
    Node *ret = ast_node(g->a, AST_RETURN, loc, 1);
    Node *b = ast_node(g->a, AST_BLOCK, loc, ns + 1);
    if (!call || !ret || !b)
        return NULL;
    call->kids[0] = ast_ident(g->a, loc, callee);
    for (int i = 0; i < na; i++)
        call->kids[i + 1] = args[i];
    ret->kids[0] = call;
    for (int i = 0; i < ns; i++)
        b->kids[i] = stmts[i];
    b->kids[ns] = ret;
    return b;
}

static void emit_def(Gen *g, Node *fn, const char *err, SrcLoc errloc)
{
    if (!fn || g->nout >= g->max)
        return;
    g->out[g->nout++] = (FeExpanded){ fn, err, errloc };
}

/* fn's positional methods: one per count of trailing defaults left out (parameters after the defaults,
 * as a @kernel's hidden context, stay). */
static void expand_defaults(Gen *g, Node *fn, const char *err, SrcLoc errloc)
{
    if (!fn || g->a->failed) /* out of memory: the caller sees a->failed */
        return;
    Node *params = fn->kids[0];
    int np = params->nkids, nd = 0;
    for (int i = 0; i < np; i++)
        nd += params->kids[i]->kind == AST_ASSIGN;
    if (nd == 0) {
        emit_def(g, fn, err, errloc);
        return;
    }
    Node *full[64], *ps[64], *args[64];
    if (np > 64)
        return;
    for (int i = 0; i < np; i++)
        full[i] = param_named(g, params->kids[i], i);
    /* the full method: the defaults stripped */
    for (int i = 0; i < np; i++)
        ps[i] = param_nodefault(full[i]);
    emit_def(g, def_like(g, fn, fn->name, ps, np, fn->kids[1]), err, errloc);
    /* drop the last k defaults: the shorter method passes the (k-th from last) default on */
    for (int k = 1; k <= nd; k++) {
        int seen = 0, nps = 0, na = 0;
        for (int i = 0; i < np; i++) {
            Node *p = full[i];
            bool is_default = p->kind == AST_ASSIGN;
            int rank = is_default ? ++seen : 0; /* 1-based among the defaults */
            if (is_default && rank > nd - k) {
                if (rank == nd - k + 1)
                    args[na++] = p->kids[1]; /* the first one dropped is passed as its default */
                continue;
            }
            ps[nps++] = param_nodefault(p);
            args[na++] = param_arg(g, p);
        }
        /* forward to the method with one more argument (k - 1 dropped): its parameters, the first dropped
         * default given */
        Node *body = forward_body(g, fn->loc, NULL, 0, fn->name, args, na);
        emit_def(g, def_like(g, fn, fn->name, ps, nps, body), err, errloc);
    }
}

/* The keyword k's name and declaration (k, k::T, k = d, k::T = d). */
static const char *kw_name(const Node *k)
{
    const Node *v = k->kind == AST_ASSIGN ? k->kids[0] : k;
    if (v->kind == AST_TYPED)
        v = v->kids[0];
    return v && v->kind == AST_IDENT ? v->name : NULL;
}

static bool in_names(const char *name, const char *list, size_t len)
{
    size_t n = strlen(name);
    for (const char *p = list; p < list + len;) {
        const char *e = memchr(p, ',', (size_t)(list + len - p));
        size_t l = e ? (size_t)(e - p) : (size_t)(list + len - p);
        if (l == n && strncmp(p, name, n) == 0)
            return true;
        p += l + 1;
    }
    return false;
}

int kw_expand(FeModule *mod, Node *fn, FeExpanded *out, int max)
{
    Gen g = { &mod->arena, out, 0, max };
    Node *params = fn->kids[0];
    Node *kws = params && params->nkids && params->kids[params->nkids - 1]->kind == AST_PARAMETERS
                    ? params->kids[params->nkids - 1]
                    : NULL;
    if (!kws) {
        expand_defaults(&g, fn, NULL, fn->loc);
        return g.nout;
    }
    int npos = params->nkids - 1, nkw = kws->nkids;
    if (npos + nkw > 62)
        return 0;
    const char *err = NULL;
    SrcLoc errloc = fn->loc;
    for (int i = 0; i < nkw; i++)
        if (kws->kids[i]->kind == AST_SPLAT || !kw_name(kws->kids[i])) {
            err = kws->kids[i]->kind == AST_SPLAT
                      ? "keyword-argument splats (`kwargs...`) are not supported in kernels: name each keyword"
                      : "invalid keyword parameter";
            errloc = kws->kids[i]->loc;
        }
    const char *body_name = arena_printf(&mod->arena, "#%s#body#%d", fn->name, mod->nfuncs);
    Node *ps[64], *pos[64], *args[64], *stmts[32];
    /* the body: keywords first (their declarations, without defaults), then the positional parameters */
    for (int i = 0; i < npos; i++)
        pos[i] = param_named(&g, params->kids[i], i);
    int n = 0;
    for (int i = 0; i < nkw && !err; i++)
        ps[n++] = param_nodefault(kws->kids[i]);
    for (int i = 0; i < npos; i++)
        ps[n++] = param_nodefault(pos[i]);
    Node *bodyfn = def_like(&g, fn, body_name, ps, n, fn->kids[1]);
    if (bodyfn) {
        bodyfn->kids[4] = NULL; /* the body of a constructor is a plain function */
        bodyfn->nkids = 4;
    }
    emit_def(&g, bodyfn, err, errloc);
    /* the body's arguments: every keyword, then the positional ones */
    int na = 0;
    for (int i = 0; i < nkw && !err; i++)
        args[na++] = ast_ident(g.a, kws->kids[i]->loc, kw_name(kws->kids[i]));
    for (int i = 0; i < npos; i++)
        args[na++] = param_arg(&g, pos[i]);
    /* one entry per keyword set: the empty one (fn's own name), and each set a call passes */
    for (int set = -1; set < mod->kwcall_list.len; set++) {
        const char *name = fn->name;
        const char *given = "";
        size_t glen = 0;
        if (set >= 0) {
            const char *key = mod->kwcall_list.items[set];
            size_t fl = strlen(fn->name);
            if (strncmp(key, fn->name, fl) != 0 || strncmp(key + fl, "#kw#", 4) != 0)
                continue;
            name = key;
            given = key + fl + 4;
            glen = strlen(given);
        }
        const char *set_err = err;
        SrcLoc set_loc = errloc;
        /* every given keyword must be one of fn's */
        for (const char *p = given; p < given + glen && !set_err;) {
            const char *e = memchr(p, ',', (size_t)(given + glen - p));
            size_t l = e ? (size_t)(e - p) : (size_t)(given + glen - p);
            bool known = false;
            for (int i = 0; i < nkw && !known; i++)
                known = kw_name(kws->kids[i]) && strlen(kw_name(kws->kids[i])) == l &&
                        strncmp(kw_name(kws->kids[i]), p, l) == 0;
            if (!known) {
                set_err = arena_printf(&mod->arena, "MethodError: %s got an unsupported keyword argument \"%.*s\"",
                                       fn->name, (int)l, p);
                set_loc = fn->loc;
            }
            p += l + 1;
        }
        int nps = 0, ns = 0;
        /* the given keywords as parameters, in the sorted order of the call's arguments (one fn does not
         * take is a plain parameter, so that the call reaches the error) */
        for (const char *p = given; p < given + glen && nps < 32;) {
            const char *e = memchr(p, ',', (size_t)(given + glen - p));
            size_t l = e ? (size_t)(e - p) : (size_t)(given + glen - p);
            Node *kp = NULL;
            for (int i = 0; i < nkw && !kp; i++)
                if (kw_name(kws->kids[i]) && strlen(kw_name(kws->kids[i])) == l &&
                    strncmp(kw_name(kws->kids[i]), p, l) == 0)
                    kp = param_nodefault(kws->kids[i]);
            ps[nps++] = kp ? kp : ast_ident(g.a, fn->loc, arena_strndup(&mod->arena, p, l));
            p += l + 1;
        }
        /* the others take their defaults, in declaration order (a default sees the keywords before it) */
        for (int i = 0; i < nkw && !set_err && ns < 32; i++) {
            Node *k = kws->kids[i];
            if (in_names(kw_name(k), given, glen))
                continue;
            if (k->kind != AST_ASSIGN) {
                set_err =
                    arena_printf(&mod->arena, "UndefKeywordError: keyword argument `%s` not assigned", kw_name(k));
                set_loc = k->loc;
                break;
            }
            Node *as = ast_node(g.a, AST_ASSIGN, k->loc, 2);
            if (!as)
                return g.nout;
            as->kids[0] = ast_ident(g.a, k->loc, kw_name(k));
            as->kids[1] = k->kids[1];
            stmts[ns++] = as;
        }
        for (int i = 0; i < npos; i++)
            ps[nps++] = pos[i]; /* with their defaults: expand_defaults makes the shorter methods */
        Node *body = forward_body(&g, fn->loc, stmts, ns, body_name, args, na);
        Node *entry = def_like(&g, fn, name, ps, nps, body);
        expand_defaults(&g, entry, set_err, set_loc);
    }
    return g.nout;
}
