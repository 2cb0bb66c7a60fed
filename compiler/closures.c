/* closures.c: anonymous functions, do-blocks and inner functions, lifted to top-level definitions as Julia's
 * lowering lifts them (julia-syntax.scm, closure conversion).
 *
 * requires: the parsed file, after ka_rewrite (so KernelAbstractions' macros are calls already).
 * guarantees: no AST_LAMBDA is left in the file except those that cannot be lifted, each carrying its reason
 * in .name for lowering to report (lazily, as Julia reports only what a kernel reaches).
 *
 * A lambda that captures nothing becomes a function `#f#k` (f the enclosing function) and the lambda's value is
 * that function. One that captures locals c1..cn of the functions around it becomes, as in Julia, a struct
 *
 *     struct #f#k{#C1, ..., #Cn, T...}  c1::#C1; ...; cn::#Cn; #T::Val{T} ...  end
 *
 * with a method of #call, (#self::#f#k{#C1, ..., T...})(params) where {#C1, ..., T...}, whose body first reads
 * each capture back (c1 = #self.c1), and the lambda's value is the struct built from the captured values
 * #f#k(c1, ..., cn, Val(T)...). A static parameter T of the enclosing method (a type, or a value as N of Val{N})
 * is captured as the parameter of a Val{T} field, so that T is a static parameter of the call method too. Each closure
 * type specialises whatever it is passed to, as in Julia; there are no function pointers.
 *
 * A captured variable that the closure assigns, or that its function assigns again after the closure is made,
 * is a Core.Box in Julia, which GPU code cannot hold: such a lambda is not lifted and lowering reports it. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "closures.h"

typedef struct Assigned {
    const char *name;
    SrcLoc loc;
    const Node **loops; /* the for/while loops around the assignment, outermost first */
    int nloops;
} Assigned;

/* The names a function or lambda binds: its parameters and the variables it assigns (locals), and its
 * where-parameters (statics). */
typedef struct Scope {
    struct Scope *up;
    PtrVec locals;   /* const char * */
    PtrVec statics;  /* const char * */
    PtrVec assigned; /* Assigned *: every assignment of a local, in source order of the walk */
} Scope;

typedef struct Cl {
    Arena *a;
    bool base;         /* lifting the Base prelude's: its closures' names say so (#Base.f#1) */
    const char *fname; /* the top-level function being converted */
    int count;         /* lambdas lifted from its methods so far */
    PtrVec seen;       /* the functions converted, and their counts (seen_counts, as intptr_t): a function's
                              methods number their lambdas on from each other, or two would make one name */
    PtrVec seen_counts;
    PtrVec out;            /* the new top-level items */
    const Node *loops[64]; /* the for/while loops around the node being walked, outermost first */
    int nloops;
    PtrVec named, names; /* the lambdas of inner functions defined by name (inner_functions), and their names */
    PtrVec *inner;       /* ClInner *: where the launchable inner functions go (NULL: nowhere) */
} Cl;

static void push_loop(Cl *c, const Node *n)
{
    if (c->nloops < (int)JK_ARRAY_LEN(c->loops))
        c->loops[c->nloops] = n;
    c->nloops++;
}

static bool in_loops(const Node *const *loops, int n, const Node *loop)
{
    for (int i = 0; i < n && i < 64; i++)
        if (loops[i] == loop)
            return true;
    return false;
}

static bool has_name(const PtrVec *v, const char *name)
{
    for (int i = 0; i < v->len; i++)
        if (strcmp(v->items[i], name) == 0)
            return true;
    return false;
}

static void add_name(Cl *c, PtrVec *v, const char *name)
{
    if (!has_name(v, name))
        ptrvec_push(c->a, v, (void *)name);
}

static bool loc_before(SrcLoc a, SrcLoc b)
{
    return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* The scope (innermost first) that binds name as a local or a static, or NULL for a global. */
static Scope *binder(Scope *s, const char *name, bool *is_static)
{
    for (; s; s = s->up) {
        if (has_name(&s->locals, name)) {
            *is_static = false;
            return s;
        }
        if (has_name(&s->statics, name)) {
            *is_static = true;
            return s;
        }
    }
    return NULL;
}

/* ---- what a body binds ---- */

static void bind_lhs(Cl *c, Scope *s, Node *lhs, SrcLoc at)
{
    if (!lhs)
        return;
    if (lhs->kind == AST_IDENT && !lhs->qual) {
        add_name(c, &s->locals, lhs->name);
        Assigned *as = arena_alloc(c->a, sizeof(Assigned));
        if (as) {
            as->name = lhs->name;
            as->loc = at;
            as->nloops = c->nloops < (int)JK_ARRAY_LEN(c->loops) ? c->nloops : (int)JK_ARRAY_LEN(c->loops);
            as->loops = as->nloops ? arena_alloc(c->a, (size_t)as->nloops * sizeof(Node *)) : NULL;
            if (as->nloops && !as->loops)
                return;
            for (int i = 0; i < as->nloops; i++)
                as->loops[i] = c->loops[i];
            ptrvec_push(c->a, &s->assigned, as);
        }
    } else if (lhs->kind == AST_TYPED) {
        bind_lhs(c, s, lhs->kids[0], at);
    } else if (lhs->kind == AST_TUPLE) {
        for (int i = 0; i < lhs->nkids; i++)
            bind_lhs(c, s, lhs->kids[i]->kind == AST_SPLAT ? lhs->kids[i]->kids[0] : lhs->kids[i], at);
    }
}

/* A parameter's name (x, x::T, x = default, x..., a keyword's). */
static const char *param_name(const Node *p)
{
    if (p->kind == AST_ASSIGN || p->kind == AST_SPLAT)
        p = p->kids[0];
    if (p->kind == AST_TYPED)
        p = p->kids[0];
    return p && p->kind == AST_IDENT ? p->name : NULL;
}

static void bind_params(Cl *c, Scope *s, const Node *params)
{
    for (int i = 0; params && i < params->nkids; i++) {
        const Node *p = params->kids[i];
        if (p->kind == AST_PARAMETERS) {
            bind_params(c, s, p);
            continue;
        }
        const char *name = param_name(p);
        if (name) {
            /* a parameter is bound before the body: its first "assignment", outside the body's loops */
            Node id = { .kind = AST_IDENT, .name = name, .loc = p->loc };
            bind_lhs(c, s, &id, p->loc);
        }
    }
}

/* The where-parameters of fn (T, T <: S) as statics of s. */
static void bind_statics(Cl *c, Scope *s, const Node *fn)
{
    for (int i = 0; fn->kids[2] && i < fn->kids[2]->nkids; i++) {
        const Node *w = fn->kids[2]->kids[i];
        if (w->kind == AST_SUBTYPE)
            w = w->kids[0];
        if (w && w->kind == AST_IDENT)
            add_name(c, &s->statics, w->name);
    }
}

/* Is kid i of call n a keyword argument's name = value? */
static bool is_kwarg(const Node *n, int i)
{
    return n->kind == AST_CALL && i > 0 && n->kids[i]->kind == AST_ASSIGN && n->kids[i]->kids[0]->kind == AST_IDENT;
}

static bool is_named_tuple(const Node *n)
{
    return n->kind == AST_TUPLE && n->nkids > 0 && n->kids[0]->kind == AST_ASSIGN;
}

/* The variables body assigns, into s (not those of the lambdas inside it: theirs are their own). */
static void collect_bound(Cl *c, Scope *s, Node *n)
{
    if (!n || n->kind == AST_LAMBDA)
        return;
    switch (n->kind) {
    case AST_ASSIGN:
        bind_lhs(c, s, n->kids[0], n->loc);
        if (n->kids[0]->kind == AST_REF || n->kids[0]->kind == AST_DOT)
            collect_bound(c, s, n->kids[0]);
        collect_bound(c, s, n->kids[1]);
        return;
    case AST_OPASSIGN:
        bind_lhs(c, s, n->kids[0], n->loc);
        collect_bound(c, s, n->kids[1]);
        return;
    case AST_FOR: /* the loop variable is a new binding in each iteration */
        collect_bound(c, s, n->kids[1]);
        push_loop(c, n);
        bind_lhs(c, s, n->kids[0], n->loc);
        collect_bound(c, s, n->kids[2]);
        c->nloops--;
        return;
    case AST_WHILE:
        push_loop(c, n);
        for (int i = 0; i < n->nkids; i++)
            collect_bound(c, s, n->kids[i]);
        c->nloops--;
        return;
    case AST_LOCAL:
        for (int i = 0; i < n->nkids; i++) {
            if (n->kids[i]->kind == AST_ASSIGN)
                collect_bound(c, s, n->kids[i]);
            else
                bind_lhs(c, s, n->kids[i], n->loc);
        }
        return;
    case AST_LET:
        for (int i = 0; i < n->kids[0]->nkids; i++)
            collect_bound(c, s, n->kids[0]->kids[i]->kind == AST_ASSIGN ? n->kids[0]->kids[i] : NULL);
        collect_bound(c, s, n->kids[1]);
        return;
    default: break;
    }
    if (is_named_tuple(n)) {
        for (int i = 0; i < n->nkids; i++)
            collect_bound(c, s, n->kids[i]->kind == AST_ASSIGN ? n->kids[i]->kids[1] : n->kids[i]);
        return;
    }
    for (int i = 0; i < n->nkids; i++) {
        if (is_kwarg(n, i) || (n->kind == AST_PARAMETERS && n->kids[i]->kind == AST_ASSIGN))
            collect_bound(c, s, n->kids[i]->kids[1]);
        else
            collect_bound(c, s, n->kids[i]);
    }
}

/* The names a lambda's body reads or writes, in order of first appearance (keyword and field names aside). */
static void collect_used(Cl *c, PtrVec *used, PtrVec *uselocs, const Node *n)
{
    if (!n)
        return;
    if (n->kind == AST_IDENT) {
        if (!n->qual && !has_name(used, n->name)) {
            ptrvec_push(c->a, used, (void *)n->name);
            ptrvec_push(c->a, uselocs, (void *)n);
        }
        return;
    }
    if (is_named_tuple(n)) {
        for (int i = 0; i < n->nkids; i++)
            collect_used(c, used, uselocs, n->kids[i]->kind == AST_ASSIGN ? n->kids[i]->kids[1] : n->kids[i]);
        return;
    }
    for (int i = 0; i < n->nkids; i++) {
        if (is_kwarg(n, i) || (n->kind == AST_PARAMETERS && n->kids[i]->kind == AST_ASSIGN))
            collect_used(c, used, uselocs, n->kids[i]->kids[1]);
        else
            collect_used(c, used, uselocs, n->kids[i]);
    }
}

/* ---- lifting ---- */

static void convert(Cl *c, Scope *s, Node **slot);

/* function g(x) ... end inside a body: g = (x) -> ..., a closure like any other (Julia's local function) */
static void inner_functions(Cl *c, Node *n)
{
    for (int i = 0; n && i < n->nkids; i++) {
        Node *k = n->kids[i];
        if (!k)
            continue;
        if (k->kind == AST_FUNCTION && k->name && k->nkids <= 4) {
            Node *lam = ast_node(c->a, AST_LAMBDA, k->loc, k->kids[2] ? 4 : 3);
            Node *as = ast_node(c->a, AST_ASSIGN, k->loc, 2);
            if (!lam || !as)
                return;
            lam->kids[0] = k->kids[0];
            lam->kids[1] = k->kids[1];
            lam->kids[2] = k->kids[3];
            lam->flags = k->flags & (FN_INLINE | FN_NOINLINE);
            if (k->kids[2]) /* its where-parameters: the lifted method's too (lift) */
                lam->kids[3] = k->kids[2];
            as->kids[0] = ast_ident(c->a, k->loc, k->name);
            as->kids[1] = lam;
            ptrvec_push(c->a, &c->named, lam);
            ptrvec_push(c->a, &c->names, (void *)k->name);
            if (c->a->failed)
                return;
            n->kids[i] = as;
            k = lam;
        }
        inner_functions(c, k);
    }
}

/* The name an inner function lam was defined by, or NULL (an anonymous function). */
static const char *inner_name(const Cl *c, const Node *lam)
{
    for (int i = 0; i < c->named.len; i++)
        if (c->named.items[i] == lam)
            return c->names.items[i];
    return NULL;
}

/* Record the inner function name, lifted to the function `lifted` (NULL: not launchable). */
static void record_inner(Cl *c, const char *name, const char *lifted, SrcLoc loc)
{
    ClInner *r = c->inner && name ? arena_alloc(c->a, sizeof *r) : NULL;
    if (!r)
        return;
    *r = (ClInner){ .name = name, .outer = c->fname, .lifted = lifted, .loc = loc };
    ptrvec_push(c->a, c->inner, r);
}

/* For the host's launch of a closure #f#k over captures caps: function #f#k#entry(c1, ..., cn, p1, ..., pm)
 * return #f#k(c1, ..., cn)(p1, ..., pm) end, pk... for a vararg; its name, or NULL where the parameters have
 * defaults or keywords (the entry would have to repeat them). */
static const char *closure_entry(Cl *c, const char *cname, const PtrVec *caps, const Node *params, SrcLoc at)
{
    int np = params ? params->nkids : 0;
    for (int i = 0; i < np; i++) {
        const Node *p = params->kids[i];
        const Node *q = p->kind == AST_SPLAT ? p->kids[0] : p;
        if (q->kind != AST_IDENT && q->kind != AST_TYPED)
            return NULL;
    }
    Node *fn = ast_node(c->a, AST_FUNCTION, at, 4);
    Node *fparams = ast_node(c->a, AST_TUPLE, at, caps->len + np);
    Node *ctor = ast_node(c->a, AST_CALL, at, caps->len + 1);
    Node *call = ast_node(c->a, AST_CALL, at, np + 1);
    Node *ret = ast_node(c->a, AST_RETURN, at, 1);
    Node *body = ast_node(c->a, AST_BLOCK, at, 1);
    const char *name = arena_printf(c->a, "%s#entry", cname);
    if (!fn || !fparams || !ctor || !call || !ret || !body || !name)
        return NULL;
    ctor->kids[0] = ast_ident(c->a, at, cname);
    for (int i = 0; i < caps->len; i++) {
        fparams->kids[i] = ast_ident(c->a, at, caps->items[i]);
        ctor->kids[i + 1] = ast_ident(c->a, at, caps->items[i]);
    }
    call->kids[0] = ctor;
    for (int i = 0; i < np; i++) {
        const Node *p = params->kids[i];
        bool splat = p->kind == AST_SPLAT;
        const Node *q = splat ? p->kids[0] : p;
        const char *pn = q->kind == AST_IDENT ? q->name : q->kids[0] ? q->kids[0]->name : NULL;
        if (!pn) /* ::T, a parameter without a name */
            pn = arena_printf(c->a, "#p%d", i + 1);
        Node *id = ast_ident(c->a, at, pn), *arg = id;
        if (splat) {
            Node *fs = ast_node(c->a, AST_SPLAT, at, 1), *as = ast_node(c->a, AST_SPLAT, at, 1);
            if (!fs || !as)
                return NULL;
            fs->kids[0] = id;
            as->kids[0] = ast_ident(c->a, at, pn);
            id = fs, arg = as;
        }
        fparams->kids[caps->len + i] = id;
        call->kids[i + 1] = arg;
    }
    ret->kids[0] = call;
    body->kids[0] = ret;
    fn->name = name;
    fn->kids[0] = fparams;
    fn->kids[1] = body;
    if (c->a->failed)
        return NULL;
    ptrvec_push(c->a, &c->out, fn);
    return c->a->failed ? NULL : name;
}

/* Lift the lambda at *slot, whose surrounding scopes are s. */
static void lift(Cl *c, Scope *s, Node **slot)
{
    Node *lam = *slot;
    if (lam->name) /* already refused */
        return;
    Scope ls = { .up = s };
    bind_params(c, &ls, lam->kids[0]);
    /* an inner function's own where-parameters (AMDGPU.jl's reverse kernel: _kernel!(x::AbstractArray{T, N})
     * where {T, N}) are its names, not captures, and parameters of the lifted method */
    Node *lwhere = lam->nkids > 3 ? lam->kids[3] : NULL;
    for (int i = 0; lwhere && i < lwhere->nkids; i++) {
        const Node *w = lwhere->kids[i]->kind == AST_SUBTYPE ? lwhere->kids[i]->kids[0] : lwhere->kids[i];
        if (w->kind == AST_IDENT)
            add_name(c, &ls.locals, w->name);
    }
    /* the variables the body assigns: its own, unless a scope around binds them (then a captured one) */
    Scope body = { 0 };
    collect_bound(c, &body, lam->kids[1]);
    for (int i = 0; i < body.assigned.len; i++) {
        Assigned *as = body.assigned.items[i];
        bool is_static = false;
        if (has_name(&ls.locals, as->name))
            continue;
        if (binder(s, as->name, &is_static)) {
            lam->loc = as->loc;
            lam->name = arena_printf(c->a,
                                     "the closure assigns `%s`, a variable of the function around it: Julia "
                                     "boxes such a variable (Core.Box), which a kernel cannot hold; accumulate in a "
                                     "`for` loop, or return the new value from the closure, instead",
                                     as->name);
            return;
        }
    }
    for (int i = 0; i < body.locals.len; i++)
        add_name(c, &ls.locals, body.locals.items[i]);
    ls.assigned = body.assigned;
    /* the lambdas inside first: their captures become uses of this one's */
    convert(c, &ls, &lam->kids[1]);
    for (int i = 0; lam->kids[0] && i < lam->kids[0]->nkids; i++)
        convert(c, s, &lam->kids[0]->kids[i]); /* defaults and parameter types belong to the outer scope */
    PtrVec used = { 0 }, uselocs = { 0 };
    collect_used(c, &used, &uselocs, lam->kids[1]);
    for (int i = 0; lam->kids[0] && i < lam->kids[0]->nkids; i++) {
        const Node *p = lam->kids[0]->kids[i];
        if (p->kind == AST_TYPED || (p->kind == AST_SPLAT && p->kids[0]->kind == AST_TYPED))
            collect_used(c, &used, &uselocs, (p->kind == AST_SPLAT ? p->kids[0] : p)->kids[1]);
    }
    PtrVec caps = { 0 }, statics = { 0 };
    for (int i = 0; i < used.len; i++) {
        const char *name = used.items[i];
        bool is_static = false;
        if (has_name(&ls.locals, name))
            continue;
        Scope *b = binder(s, name, &is_static);
        if (!b)
            continue;
        if (is_static) {
            ptrvec_push(c->a, &statics, (void *)name);
            continue;
        }
        /* assigned after the closure is made: later in the source, or earlier in a loop around the closure
         * that the variable is older than (the next iteration assigns it again; one first assigned in the
         * loop is a new variable each iteration) */
        const Assigned *first = NULL;
        for (int k = 0; k < b->assigned.len && !first; k++)
            if (strcmp(((Assigned *)b->assigned.items[k])->name, name) == 0)
                first = b->assigned.items[k];
        for (int k = 0; k < b->assigned.len; k++) {
            Assigned *as = b->assigned.items[k];
            bool again = false;
            for (int l = 0; l < c->nloops && l < (int)JK_ARRAY_LEN(c->loops) && !again; l++)
                again = in_loops(as->loops, as->nloops, c->loops[l]) &&
                        (!first || !in_loops(first->loops, first->nloops, c->loops[l]));
            if (strcmp(as->name, name) == 0 && (loc_before(lam->loc, as->loc) || again)) {
                const Node *use = uselocs.items[i];
                lam->name = arena_printf(c->a,
                                         "`%s` is captured by the closure at line %d:%d and assigned again here: "
                                         "Julia boxes such a variable (Core.Box), which a kernel cannot hold; give "
                                         "the new value another name, or assign `%s` only before the closure",
                                         name, use->loc.line, use->loc.col, name);
                lam->loc = as->loc;
                return;
            }
        }
        ptrvec_push(c->a, &caps, (void *)name);
    }
    const char *name = arena_printf(c->a, "#%s%s#%d", c->base ? "Base." : "", c->fname, ++c->count);
    if (!name)
        return;
    SrcLoc at = lam->loc;
    Node *params = lam->kids[0];
    Node *fbody = lam->kids[1];
    if (caps.len || statics.len) {
        int nt = caps.len + statics.len;
        /* struct #f#k{#C1.., T..}; c1::#C1; ..; #T::Val{T}; end */
        Node *st = ast_node(c->a, AST_STRUCT, at, 4);
        Node *tps = ast_node(c->a, AST_TUPLE, at, nt);
        Node *fields = ast_node(c->a, AST_TUPLE, at, nt);
        Node *ctor = ast_node(c->a, AST_CALL, at, nt + 1);
        Node *selfcurly = ast_node(c->a, AST_CURLY, at, nt + 1);
        int nw = lwhere ? lwhere->nkids : 0;
        Node *where = ast_node(c->a, AST_TUPLE, at, nt + nw);
        Node *nbody = ast_node(c->a, AST_BLOCK, fbody->loc, caps.len + 1);
        Node *nparams = ast_node(c->a, AST_TUPLE, at, (params ? params->nkids : 0) + 1);
        Node *self = ast_node(c->a, AST_TYPED, at, 2);
        Node *fn = ast_node(c->a, AST_FUNCTION, at, 4);
        if (!st || !tps || !fields || !ctor || !selfcurly || !where || !nbody || !nparams || !self || !fn)
            return;
        st->name = name;
        st->kids[0] = tps;
        st->kids[2] = fields;
        st->kids[3] = ast_node(c->a, AST_BLOCK, at, 0);
        ctor->kids[0] = ast_ident(c->a, at, name);
        selfcurly->kids[0] = ast_ident(c->a, at, name);
        for (int i = 0; i < nt; i++) {
            bool cap = i < caps.len;
            const char *v = cap ? caps.items[i] : statics.items[i - caps.len];
            const char *tp = cap ? arena_printf(c->a, "#C%d", i + 1) : v;
            const char *field = cap ? v : arena_printf(c->a, "#%s", v);
            Node *f = ast_node(c->a, AST_TYPED, at, 2);
            if (!tp || !field || !f)
                return;
            tps->kids[i] = ast_ident(c->a, at, tp);
            where->kids[i] = ast_ident(c->a, at, tp);
            selfcurly->kids[i + 1] = ast_ident(c->a, at, tp);
            f->kids[0] = ast_ident(c->a, at, field);
            if (cap) {
                f->kids[1] = ast_ident(c->a, at, tp);
            } else {
                Node *ty = ast_node(c->a, AST_CURLY, at, 2);
                if (!ty)
                    return;
                ty->kids[0] = ast_ident(c->a, at, "Val");
                ty->kids[1] = ast_ident(c->a, at, tp);
                f->kids[1] = ty;
            }
            fields->kids[i] = f;
            if (cap) {
                ctor->kids[i + 1] = ast_ident(c->a, at, v);
            } else { /* Val(T): a static parameter is a type or a value (N of Val{N}) */
                Node *val = ast_node(c->a, AST_CALL, at, 2);
                if (!val)
                    return;
                val->kids[0] = ast_ident(c->a, at, "Val");
                val->kids[1] = ast_ident(c->a, at, v);
                ctor->kids[i + 1] = val;
            }
            if (cap) { /* c = #self.c */
                Node *as = ast_node(c->a, AST_ASSIGN, at, 2);
                Node *dot = ast_node(c->a, AST_DOT, at, 1);
                if (!as || !dot)
                    return;
                dot->kids[0] = ast_ident(c->a, at, "#self");
                dot->name = v;
                as->kids[0] = ast_ident(c->a, at, v);
                as->kids[1] = dot;
                nbody->kids[i] = as;
            }
        }
        for (int i = 0; i < nw; i++)
            where->kids[nt + i] = lwhere->kids[i];
        nbody->kids[caps.len] = fbody;
        self->kids[0] = ast_ident(c->a, at, "#self");
        self->kids[1] = selfcurly;
        nparams->kids[0] = self;
        for (int i = 0; params && i < params->nkids; i++)
            nparams->kids[i + 1] = params->kids[i];
        fn->name = "#call";
        fn->kids[0] = nparams;
        fn->kids[1] = nbody;
        fn->kids[2] = where;
        fn->kids[3] = lam->kids[2];
        fn->flags = lam->flags;
        if (c->a->failed) /* nothing half-built enters the tree */
            return;
        ptrvec_push(c->a, &c->out, st);
        ptrvec_push(c->a, &c->out, fn);
        if (c->a->failed)
            return;
        *slot = ctor;
        const char *iname = inner_name(c, lam);
        if (iname)
            record_inner(c, iname, statics.len ? NULL : closure_entry(c, name, &caps, params, at), at);
        return;
    }
    Node *fn = ast_node(c->a, AST_FUNCTION, at, 4);
    if (!fn)
        return;
    fn->name = name;
    fn->kids[0] = params ? params : ast_node(c->a, AST_TUPLE, at, 0);
    fn->kids[1] = fbody;
    fn->kids[2] = lwhere;
    fn->kids[3] = lam->kids[2];
    fn->flags = lam->flags;
    Node *ref = ast_ident(c->a, at, name);
    if (c->a->failed)
        return;
    ptrvec_push(c->a, &c->out, fn);
    if (c->a->failed)
        return;
    *slot = ref;
    record_inner(c, inner_name(c, lam), name, at);
}

/* Lift every lambda in the tree at *slot, innermost first. */
static void convert(Cl *c, Scope *s, Node **slot)
{
    Node *n = *slot;
    if (!n)
        return;
    if (n->kind == AST_LAMBDA) {
        lift(c, s, slot);
        return;
    }
    for (int i = 0; i < n->nkids; i++) {
        bool loop = (n->kind == AST_FOR && i == 2) || n->kind == AST_WHILE;
        if (loop)
            push_loop(c, n);
        convert(c, s, &n->kids[i]);
        if (loop)
            c->nloops--;
    }
}

/* Does the tree under n hold a lambda or a function definition, which convert_item would lift? */
static bool has_closure(const Node *n)
{
    if (!n)
        return false;
    if (n->kind == AST_LAMBDA || n->kind == AST_FUNCTION)
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (has_closure(n->kids[i]))
            return true;
    return false;
}

/* A top-level function, or a top-level `f = lambda` / `const f = lambda` (then the lambda is the function f). */
static void convert_item(Cl *c, Node **slot)
{
    Node *n = *slot;
    if (n->kind == AST_MACROCALL && n->nkids == 1 && n->kids[0] && n->kids[0]->kind == AST_FUNCTION)
        slot = &n->kids[0], n = *slot; /* @inline function ..., @kernel function ... */
    Node *value = n->kind == AST_CONST && n->nkids == 1                    ? n->kids[0]
                  : n->kind == AST_ASSIGN && n->kids[0]->kind == AST_IDENT ? n->kids[1]
                                                                           : NULL;
    if (value && value->kind == AST_LAMBDA && !value->name) {
        const char *fname = n->kind == AST_CONST ? n->name : n->kids[0]->name;
        Node *fn = ast_node(c->a, AST_FUNCTION, n->loc, 4);
        if (!fn)
            return;
        fn->name = fname;
        fn->kids[0] = value->kids[0];
        fn->kids[1] = value->kids[1];
        fn->kids[3] = value->kids[2];
        if (c->a->failed)
            return;
        *slot = fn;
        n = fn;
    }
    if (n->kind != AST_FUNCTION && n->kind != AST_STRUCT)
        return;
    if (n->kind == AST_STRUCT) {
        for (int i = 0; n->kids[3] && i < n->kids[3]->nkids; i++)
            if (n->kids[3]->kids[i]->kind == AST_FUNCTION)
                convert_item(c, &n->kids[3]->kids[i]);
        return;
    }
    if (!has_closure(n->kids[1]))
        return; /* the walks below would only collect its scopes: most of a process's first module load's lift */
    c->fname = n->name && strcmp(n->name, "#call") != 0 ? n->name : "callable";
    int seen = 0;
    while (seen < c->seen.len && strcmp(c->seen.items[seen], c->fname) != 0)
        seen++;
    if (seen == c->seen.len) {
        ptrvec_push(c->a, &c->seen, (void *)c->fname);
        ptrvec_push(c->a, &c->seen_counts, (void *)(intptr_t)0);
    }
    if (c->a->failed)
        return;
    c->count = (int)(intptr_t)c->seen_counts.items[seen];
    inner_functions(c, n->kids[1]);
    Scope s = { 0 };
    bind_params(c, &s, n->kids[0]);
    bind_statics(c, &s, n);
    collect_bound(c, &s, n->kids[1]);
    convert(c, &s, &n->kids[1]);
    c->seen_counts.items[seen] = (void *)(intptr_t)c->count;
}

int closures_captures(Arena *a, const Node *outer, const Node *inner, const Node **uses, int max)
{
    Cl c = { .a = a };
    Scope os = { 0 }, is = { .up = &os }, body = { 0 };
    bind_params(&c, &os, outer->kids[0]);
    bind_statics(&c, &os, outer);
    collect_bound(&c, &os, outer->kids[1]);
    bind_params(&c, &is, inner->kids[0]);
    bind_statics(&c, &is, inner);
    /* a name the body assigns is its own unless outer binds it: then Julia assigns outer's variable */
    collect_bound(&c, &body, inner->kids[1]);
    for (int i = 0; i < body.locals.len; i++) {
        bool is_static;
        if (has_name(&is.locals, body.locals.items[i]) || !binder(&os, body.locals.items[i], &is_static))
            add_name(&c, &is.locals, body.locals.items[i]);
    }
    PtrVec used = { 0 }, uselocs = { 0 };
    collect_used(&c, &used, &uselocs, inner->kids[1]);
    for (int i = 0; inner->kids[0] && i < inner->kids[0]->nkids; i++)
        collect_used(&c, &used, &uselocs, inner->kids[0]->kids[i]);
    PtrVec seen = { 0 };
    int n = 0;
    for (int i = 0; i < used.len && n < max; i++) {
        bool is_static = false;
        if (!has_name(&is.locals, used.items[i]) && !has_name(&is.statics, used.items[i]) &&
            !has_name(&seen, used.items[i]) && binder(&os, used.items[i], &is_static)) {
            add_name(&c, &seen, used.items[i]);
            uses[n++] = uselocs.items[i];
        }
    }
    return n;
}

void closures_lift(Arena *a, Node *file, bool base, PtrVec *inner)
{
    Cl c = { .a = a, .base = base, .inner = inner };
    for (int i = 0; i < file->nkids; i++)
        convert_item(&c, &file->kids[i]);
    if (!c.out.len)
        return;
    Node **kids = arena_alloc(a, sizeof(Node *) * (size_t)(file->nkids + c.out.len));
    if (!kids)
        return;
    memcpy(kids, file->kids, sizeof(Node *) * (size_t)file->nkids);
    memcpy(kids + file->nkids, c.out.items, sizeof(Node *) * (size_t)c.out.len);
    file->kids = kids;
    file->nkids += c.out.len;
}
