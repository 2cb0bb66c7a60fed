/* ka.c: KernelAbstractions.jl kernels, as a rewrite of the syntax tree.
 *
 * KernelAbstractions' `@kernel` turns a function into a GPU kernel that takes
 * a hidden context (`__ctx__`) first and runs its body only on the
 * work-items inside the launch's ndrange (src/macros.jl, transform_gpu!).
 * Here the context is the ndrange itself, an NTuple{N,Int64} passed as a
 * hidden last argument (the launch appends it, see launch.c), and the grid
 * is 3-dimensional: workgroup g, work-item l of dimension d cover global
 * index (g-1)*groupsize[d] + l, KernelAbstractions' own partition of the
 * ndrange into whole groups. The macros become calls of the prelude below
 * (Julia, compiled by the same front end) or of juke's built-ins.
 *
 * Padding work-items (outside the ndrange) skip the body but still reach
 * every `@synchronize`, as KernelAbstractions 0.10 defines it: the body is
 * split at statements that contain one; the statements between are guarded
 * by `__ka_valid(__ctx__)`, while `@uniform`, `@localmem`, `@index` and
 * `@private x = ...` statements, and the loops and branches that contain a
 * `@synchronize`, run on every work-item. */
#include <stdio.h>
#include <string.h>

#include "closures.h"
#include "ka.h"

const char KA_PRELUDE_NAME[] = "KernelAbstractions (juke's prelude)";

typedef struct Ka {
    Arena *a;
    Diags *d;
    bool used;         /* the file needs the prelude */
    bool has_ctx;      /* inside a function that has __ctx__ */
    bool inbounds;     /* @kernel inbounds=true */
    Node *gen_params;  /* the parameters of a `@kernel generated = true` function being rewritten, else NULL */
    bool gen_function; /* gen_params are a top-level @generated function's: a vararg stays its tuple */
    PtrVec copies;     /* the prefixes ("I_") of the per-copy names an `@nexprs N i -> I_i = e` made a tuple of */
    bool in_function;  /* rewriting a plain top-level function's body (ka_function) */
    PtrVec nested;     /* the @kernel functions defined in that body, rewritten and taken out of it */
    PtrVec hoisted;    /* those that need nothing of their function: top-level kernels */
} Ka;

/* fname(__ctx__) */
static Node *ka_ctx_call(Ka *k, SrcLoc loc, const char *fname)
{
    Node *n = ast_node(k->a, AST_CALL, loc, 2);
    if (!n)
        return NULL;
    n->kids[0] = ast_ident(k->a, loc, fname);
    n->kids[1] = ast_ident(k->a, loc, KA_CTX);
    k->used = true;
    return n;
}

/* What an erroneous macro call becomes once reported, so that nothing reports it again. */
static Node *ka_nothing(Ka *k, Node *n)
{
    Node *r = ast_node(k->a, AST_NOTHING, n->loc, 0);
    return r ? r : n;
}

static bool is_macro(const Node *n, const char *name)
{
    return n && n->kind == AST_MACROCALL && strcmp(n->name, name) == 0;
}

static bool is_ident(const Node *n, const char *name)
{
    return n && n->kind == AST_IDENT && !n->qual && strcmp(n->name, name) == 0;
}

/* @synchronize, and the group reductions that hold one (KernelAbstractions' reduce.jl) */
static bool is_sync(const Node *n)
{
    return is_macro(n, "synchronize") || is_macro(n, "groupreduce") || is_macro(n, "warp_groupreduce");
}

/* Does the tree under n hold a @synchronize? Walked with a stack of its own:
 * an expression may nest deeper than the C stack would allow (`a + b + ...`
 * 10,000 terms long). */
static bool contains_sync(Ka *k, Node *n)
{
    PtrVec todo = { 0 };
    ptrvec_push(k->a, &todo, n);
    while (todo.len) {
        Node *x = todo.items[--todo.len];
        if (!x)
            continue;
        if (is_sync(x))
            return true;
        for (int i = 0; i < x->nkids; i++)
            ptrvec_push(k->a, &todo, x->kids[i]);
    }
    return false;
}

static bool needs_ctx(Ka *k, const Node *n)
{
    if (k->has_ctx)
        return true;
    diag_error(k->d, n->loc,
               "@%s is only allowed in a @kernel function (KernelAbstractions does not allow it in the functions "
               "a kernel calls, unless they take `KernelAbstractions.@context` and the kernel passes it)",
               n->name);
    return false;
}

static Node *ka_expr(Ka *k, Node *n);

/* @index(Global|Local|Group[, Linear|Cartesian|NTuple][, args...]): as KernelAbstractions' macro, a second
 * argument that is no index kind is the first of the args, passed after the context to the Linear index's
 * function, which takes none on a GPU (KernelAbstractions' CPU methods take a CartesianIndex): a kernel that
 * writes @index(Global, NTuple{3,Int}) loads, and fails with Julia's MethodError where it is compiled. A name
 * there that is no kind (`@index(Global, linear)`) is more likely a misspelt kind: E601 says so. */
static Node *ka_index(Ka *k, Node *n)
{
    if (!needs_ctx(k, n))
        return ka_nothing(k, n);
    static const char *const scopes[] = { "Global", "Local", "Group" };
    static const char *const kinds[] = { "Linear", "Cartesian", "NTuple" };
    const char *scope = NULL, *kind = "Linear";
    for (int i = 0; n->nkids >= 1 && i < 3; i++)
        if (is_ident(n->kids[0], scopes[i]))
            scope = scopes[i];
    int first = 1; /* the first of the args */
    for (int i = 0; n->nkids >= 2 && i < 3; i++)
        if (is_ident(n->kids[1], kinds[i])) {
            kind = kinds[i];
            first = 2;
        }
    if (!scope || (first == 1 && n->nkids >= 2 && n->kids[1]->kind == AST_IDENT)) {
        diag_error(k->d, n->loc,
                   "@index takes Global, Local or Group, then optionally Linear, Cartesian or NTuple: "
                   "@index(Global, Linear)");
        return ka_nothing(k, n);
    }
    char name[64];
    snprintf(name, sizeof name, "__ka_index_%s_%s", scope, kind);
    Node *c = ka_ctx_call(k, n->loc, arena_strdup(k->a, name));
    if (!c || first == n->nkids)
        return c;
    Node *r = ast_node(k->a, AST_CALL, n->loc, 2 + n->nkids - first);
    if (!r)
        return c;
    r->kids[0] = c->kids[0];
    r->kids[1] = c->kids[1];
    for (int i = first; i < n->nkids; i++)
        r->kids[2 + i - first] = ka_expr(k, n->kids[i]);
    return r;
}

/* @localmem T dims: the workgroup's static local memory, not zeroed (as
 * KernelAbstractions' SharedMemory). */
static Node *ka_localmem(Ka *k, Node *n)
{
    if (n->nkids != 2) {
        diag_error(k->d, n->loc, "@localmem takes a type and constant dims: @localmem Float32 (16, 16)");
        return ka_nothing(k, n);
    }
    Node *r = ast_node(k->a, AST_MACROCALL, n->loc, 3);
    if (!r)
        return n;
    r->name = "ROCStaticLocalArray";
    r->kids[0] = n->kids[0];
    r->kids[1] = n->kids[1];
    r->kids[2] = ast_node(k->a, AST_BOOL, n->loc, 0);
    return r;
}

/* @groupreduce(op, val[, groupsize]) and @warp_groupreduce(op, val, neutral[, groupsize]): calls of the
 * prelude's __ka_groupreduce / __ka_warp_groupreduce, a given groupsize passed as Val(groupsize). */
static Node *ka_groupreduce(Ka *k, Node *n)
{
    bool warp = n->name[0] == 'w';
    int base = warp ? 3 : 2;
    if (n->nkids != base && n->nkids != base + 1) {
        diag_error(k->d, n->loc,
                   warp ? "@warp_groupreduce takes (op, val, neutral) or (op, val, neutral, groupsize)"
                        : "@groupreduce takes (op, val) or (op, val, groupsize)");
        return ka_nothing(k, n);
    }
    if (!needs_ctx(k, n))
        return ka_nothing(k, n);
    Node *c = ast_node(k->a, AST_CALL, n->loc, 2 + n->nkids);
    if (!c)
        return n;
    c->kids[0] = ast_ident(k->a, n->loc, warp ? "__ka_warp_groupreduce" : "__ka_groupreduce");
    c->kids[1] = ast_ident(k->a, n->loc, KA_CTX);
    for (int i = 0; i < base; i++)
        c->kids[2 + i] = n->kids[i];
    if (n->nkids == base + 1) {
        Node *v = ast_node(k->a, AST_CALL, n->loc, 2);
        if (!v)
            return n;
        v->kids[0] = ast_ident(k->a, n->loc, "Val");
        v->kids[1] = n->kids[base];
        c->kids[2 + base] = v;
    }
    k->used = true;
    return c;
}

/* x with every identifier `name` in it replaced by v (a small expression: the depth is bounded). */
static Node *ka_subst(Node *x, const char *name, Node *v, int depth)
{
    if (!x || depth > 100)
        return x;
    if (x->kind == AST_IDENT && !x->qual && strcmp(x->name, name) == 0)
        return v;
    for (int i = 0; i < x->nkids; i++)
        x->kids[i] = ka_subst(x->kids[i], name, v, depth + 1);
    return x;
}

/* @dynamic_localmem T (n) -> count (KernelAbstractions' old API): the workgroup's dynamic local memory (the
 * launch's shared-memory bytes) as `count` elements of T, count computed with n = prod(@groupsize()). */
static Node *ka_dynamic_localmem(Ka *k, Node *n)
{
    Node *f = n->nkids == 2 ? n->kids[1] : NULL;
    if (!f || f->kind != AST_CALL || f->nkids != 3 || f->kids[0]->kind != AST_IDENT ||
        strcmp(f->kids[0]->name, "->") != 0 || f->kids[1]->kind != AST_IDENT) {
        diag_error(k->d, n->loc,
                   "@dynamic_localmem takes a type and a function of the group size: @dynamic_localmem Float32 "
                   "(n) -> 2n");
        return ka_nothing(k, n);
    }
    if (!needs_ctx(k, n))
        return ka_nothing(k, n);
    Node *gs = ast_node(k->a, AST_CALL, n->loc, 2), *r = ast_node(k->a, AST_MACROCALL, n->loc, 3);
    if (!gs || !r)
        return n;
    gs->kids[0] = ast_ident(k->a, n->loc, "prod");
    gs->kids[1] = ka_ctx_call(k, n->loc, "__ka_groupsize");
    r->name = "ROCDynamicLocalArray";
    r->kids[0] = n->kids[0];
    r->kids[1] = ka_subst(f->kids[2], f->kids[1]->name, gs, 0);
    r->kids[2] = ast_node(k->a, AST_BOOL, n->loc, 0);
    return r;
}

/* The name a kernel parameter binds (x, x::T, x = default, x::T = default, x...), or NULL (::Val{N}). */
static const char *ka_param_name(const Node *p)
{
    if (p && (p->kind == AST_ASSIGN || p->kind == AST_SPLAT))
        p = p->kids[0];
    if (p && p->kind == AST_TYPED)
        p = p->kids[0];
    return p && p->kind == AST_IDENT && !p->qual ? p->name : NULL;
}

/* x with every identifier that names a parameter of the generated kernel replaced by typeof(that parameter)
 * (a small expression: the depth is bounded as ka_subst's). */
static Node *ka_interp_types(Ka *k, Node *x, int depth)
{
    if (!x || depth > 100)
        return x;
    if (x->kind == AST_IDENT && !x->qual) {
        for (int i = 0; i < k->gen_params->nkids; i++) {
            const char *name = ka_param_name(k->gen_params->kids[i]);
            if (!name || strcmp(name, x->name) != 0 || (k->gen_function && k->gen_params->kids[i]->kind == AST_SPLAT))
                continue;
            Node *c = ast_node(k->a, AST_CALL, x->loc, 2);
            if (!c)
                return x;
            c->kids[0] = ast_ident(k->a, x->loc, "typeof");
            c->kids[1] = x;
            return c;
        }
        return x;
    }
    for (int i = 0; i < x->nkids; i++)
        x->kids[i] = ka_interp_types(k, x->kids[i], depth + 1);
    return x;
}

/* $x and $(expr). KernelAbstractions' `@kernel generated = true` makes the body the quoted expression of a
 * generated function, spliced when the kernel is compiled for its argument types: there a where-parameter is
 * its value and an argument is its type (src/macros.jl). juke compiles every kernel for its argument types, and
 * a where-parameter is a constant already, so `$e` is e with each argument a replaced by typeof(a). Anywhere
 * else `$` is Julia's syntax error. */
static Node *ka_interp(Ka *k, Node *n)
{
    if (!k->gen_params) {
        diag_error(k->d, n->loc,
                   "syntax: \"$\" expression outside quote (KernelAbstractions splices `$x` only into the body of "
                   "a `@kernel generated = true function`)");
        return ka_nothing(k, n);
    }
    return ka_interp_types(k, n->kids[0], 0);
}

/* A top-level `@generated function f(args...) generator... ; quote body end end`. Julia runs the generator on
 * the argument types and compiles the body it returns; juke compiles every method for its argument types, so
 * the function becomes the generator's statements, with each argument a read as typeof(a) (a vararg I...
 * stays its tuple of values: length(I) is the same), followed by the quoted body, whose `$x` and `$(expr)`
 * are spliced as a generated kernel's are (ka_interp): the generator's variables hold constants there. */
/* A generator's `N = length(I)`, I an untyped vararg of fn: N is then a constant, which `$N` may give to Val
 * or @ncall. It becomes a where-parameter, fn(..., I::Vararg{Any,N}) where {N}, and true is returned. */
static bool ka_vararg_count(Ka *k, Node *fn, const Node *s)
{
    if (s->kind != AST_ASSIGN || s->kids[0]->kind != AST_IDENT || s->kids[1]->kind != AST_CALL ||
        s->kids[1]->nkids != 2 || s->kids[1]->kids[0]->kind != AST_IDENT ||
        strcmp(s->kids[1]->kids[0]->name, "length") != 0 || s->kids[1]->kids[1]->kind != AST_IDENT)
        return false;
    Node *params = fn->kids[0], *where = fn->kids[2];
    for (int i = 0; i < params->nkids; i++) {
        Node *p = params->kids[i];
        if (!p || p->kind != AST_SPLAT || !p->kids[0] || p->kids[0]->kind != AST_IDENT ||
            strcmp(p->kids[0]->name, s->kids[1]->kids[1]->name) != 0)
            continue;
        SrcLoc loc = p->loc;
        int nw = where ? where->nkids : 0;
        Node *t = ast_node(k->a, AST_TYPED, loc, 2), *c = ast_node(k->a, AST_CURLY, loc, 3),
             *w = ast_node(k->a, AST_TUPLE, loc, nw + 1);
        if (!t || !c || !w)
            return false;
        c->kids[0] = ast_ident(k->a, loc, "Vararg");
        c->kids[1] = ast_ident(k->a, loc, "Any");
        c->kids[2] = ast_ident(k->a, s->loc, s->kids[0]->name);
        t->kids[0] = p->kids[0];
        t->kids[1] = c;
        for (int j = 0; j < nw; j++)
            w->kids[j] = where->kids[j];
        w->kids[nw] = ast_ident(k->a, s->loc, s->kids[0]->name);
        params->kids[i] = t;
        fn->kids[2] = w;
        return true;
    }
    return false;
}

static bool is_quote(const Node *q)
{
    return q && q->kind == AST_MACROCALL && strcmp(q->name, "quote") == 0 && q->nkids == 1 && q->kids[0] &&
           q->kids[0]->kind == AST_BLOCK;
}

/* Does quoted code x act (an assignment, a call of a `!` function, a macro call other than $ and @inbounds)? */
static bool quoted_acts(const Node *x, int depth)
{
    if (!x || depth > 200)
        return false;
    if (x->kind == AST_ASSIGN || x->kind == AST_OPASSIGN)
        return true;
    if (x->kind == AST_CALL && x->kids[0]->kind == AST_IDENT && x->kids[0]->name[strlen(x->kids[0]->name) - 1] == '!')
        return true;
    if (x->kind == AST_MACROCALL && strcmp(x->name, "$") != 0 && strcmp(x->name, "inbounds") != 0)
        return true;
    for (int i = 0; i < x->nkids; i++)
        if (quoted_acts(x->kids[i], depth + 1))
            return true;
    return false;
}

/* A generator whose quoted expressions are built up and returned along its branches (`if N == 1 return :(x)
 * ... end`, `ex = :($ex * x)` in a loop): each quote becomes the code it quotes, evaluated where the
 * generator builds it, and the generator's own code reads each argument as its type. The values the
 * generator computes are then the values of the expressions Julia's result would compute, as long as a
 * quote kept in a variable does nothing but compute (else E2123). Depth bounded as ka_subst's. */
static Node *ka_gen_values(Ka *k, Node *x, int depth)
{
    if (!x || depth > 100)
        return x;
    if (is_quote(x)) {
        Node *b = x->kids[0];
        return b->nkids == 1 ? b->kids[0] : b;
    }
    if (x->kind == AST_ASSIGN && is_quote(x->kids[1]) && quoted_acts(x->kids[1]->kids[0], 0))
        diag_error(k->d, x->kids[1]->loc,
                   "juke runs the code a @generated function's generator quotes where the generator builds it; "
                   "this quote, kept in a variable, acts (an assignment, a `!` call or a macro), which Julia "
                   "would run only where the returned expression splices it: return the quote, or build it "
                   "inside one `quote ... end` the generator ends in");
    if (x->kind == AST_IDENT)
        return ka_interp_types(k, x, 0);
    for (int i = 0; i < x->nkids; i++)
        x->kids[i] = ka_gen_values(k, x->kids[i], depth + 1);
    return x;
}

static Node *ka_function(Ka *k, Node *fn);
static Node *ka_kernel(Ka *k, Node *item);
static void ka_generated_function(Ka *k, Node *fn)
{
    Node *body = fn->kids[1];
    Node *q = body && body->kind == AST_BLOCK && body->nkids > 0 ? body->kids[body->nkids - 1] : NULL;
    if (q && q->kind == AST_RETURN)
        q = q->kids[0];
    if (!is_quote(q)) {
        k->gen_params = fn->kids[0];
        k->gen_function = true;
        fn->kids[1] = ka_gen_values(k, body, 0);
        ka_function(k, fn);
        k->gen_params = NULL;
        k->gen_function = false;
        return;
    }
    Node *quoted = q->kids[0];
    Node *nb = ast_node(k->a, AST_BLOCK, body->loc, body->nkids - 1 + quoted->nkids);
    if (!nb)
        return;
    k->gen_params = fn->kids[0];
    k->gen_function = true;
    int n = 0;
    for (int i = 0; i < body->nkids - 1; i++)
        if (!ka_vararg_count(k, fn, body->kids[i]))
            nb->kids[n++] = ka_gen_values(k, body->kids[i], 0);
    for (int i = 0; i < quoted->nkids; i++)
        nb->kids[n++] = quoted->kids[i];
    nb->nkids = n;
    fn->kids[1] = nb;
    ka_function(k, fn);
    k->gen_params = NULL;
    k->gen_function = false;
}

static bool is_cartesian(const Node *n)
{
    return n && n->kind == AST_MACROCALL && (strcmp(n->name, "nexprs") == 0 || strcmp(n->name, "ntuple") == 0);
}

/* A generated kernel's body holds no closure (KernelAbstractions' GeneratedKernelError), except the `i -> e`
 * of Base.Cartesian's macros, which they expand before Julia sees a closure. Depth bounded as ka_subst's. */
static void ka_generated_check(Ka *k, const Node *x, int depth)
{
    if (!x || depth > 200)
        return;
    if (x->kind == AST_LAMBDA)
        diag_error(k->d, x->loc,
                   "a `@kernel generated = true` function cannot contain a closure (`x -> ...`, a `do` block, "
                   "`function (x) ... end`): its body is a generated function's, which Julia does not allow "
                   "closures in (KernelAbstractions' GeneratedKernelError); define a named function");
    for (int i = 0; i < x->nkids; i++)
        if (!(is_cartesian(x) && x->kids[i] && x->kids[i]->kind == AST_LAMBDA))
            ka_generated_check(k, x->kids[i], depth + 1);
}

/* Does x name an identifier that ends in "_" var (the x_i names @nexprs makes one per copy)? */
static bool names_suffixed(const Node *x, const char *var, int depth)
{
    if (!x || depth > 200)
        return false;
    if (x->kind == AST_IDENT && !x->qual) {
        size_t n = strlen(x->name), v = strlen(var);
        if (n > v + 1 && x->name[n - v - 1] == '_' && strcmp(x->name + n - v, var) == 0)
            return true;
    }
    for (int i = 0; i < x->nkids; i++)
        if (names_suffixed(x->kids[i], var, depth + 1))
            return true;
    return false;
}

enum { KA_NEXPRS_MAX = 64 }; /* the copies a literal `@nexprs N` with per-copy names is unrolled into */

/* x (a copy of @nexprs's expression) for the index value c: the index variable `var` replaced by c, and every
 * identifier ending in _var renamed to end in _c (Base.Cartesian's per-copy names). */
static Node *ka_copy_indexed(Ka *k, Node *x, const char *var, int c, int depth)
{
    if (!x || depth > 200)
        return x;
    if (x->kind == AST_IDENT && !x->qual) {
        size_t n = strlen(x->name), v = strlen(var);
        if (strcmp(x->name, var) == 0) {
            Node *lit = ast_node(k->a, AST_INT, x->loc, 0);
            if (lit) {
                lit->ival = c;
                lit->lit = LIT_INT64;
            }
            return lit ? lit : x;
        }
        if (n > v + 1 && x->name[n - v - 1] == '_' && strcmp(x->name + n - v, var) == 0) {
            char *name = arena_printf(k->a, "%.*s%d", (int)(n - v), x->name, c);
            if (name)
                x->name = name;
        }
        return x;
    }
    for (int i = 0; i < x->nkids; i++)
        x->kids[i] = ka_copy_indexed(k, x->kids[i], var, c, depth + 1);
    return x;
}

/* `ntuple(f, Val(count))`, what @ntuple and @ncall expand to; NULL when out of memory */
static Node *ntuple_val(Ka *k, SrcLoc loc, Node *f, Node *count)
{
    Node *c = ast_node(k->a, AST_CALL, loc, 3), *v = ast_node(k->a, AST_CALL, loc, 2);
    if (!c || !v)
        return NULL;
    v->kids[0] = ast_ident(k->a, loc, "Val");
    v->kids[1] = count;
    c->kids[0] = ast_ident(k->a, loc, "ntuple");
    c->kids[1] = f;
    c->kids[2] = v;
    return c;
}

/* In the body of `var -> body` (a Base.Cartesian function of the index), each `I_var` of a prefix an
 * @nexprs made a tuple of (k->copies) becomes `I_#[var]`. Depth bounded as ka_subst's. */
static Node *ka_copies_indexed(Ka *k, Node *x, const char *var, int depth)
{
    if (!x || depth > 100 || !k->copies.len)
        return x;
    if (x->kind == AST_IDENT && !x->qual) {
        size_t n = strlen(x->name), v = strlen(var);
        for (int i = 0; i < k->copies.len; i++) {
            const char *pre = k->copies.items[i];
            size_t pl = strlen(pre);
            if (n == pl + v && strncmp(x->name, pre, pl) == 0 && strcmp(x->name + pl, var) == 0) {
                Node *r = ast_node(k->a, AST_REF, x->loc, 2);
                if (!r)
                    return x;
                r->kids[0] = ast_ident(k->a, x->loc, arena_printf(k->a, "%s#", pre));
                r->kids[1] = ast_ident(k->a, x->loc, var);
                return r;
            }
        }
        return x;
    }
    for (int i = 0; i < x->nkids; i++)
        x->kids[i] = ka_copies_indexed(k, x->kids[i], var, depth + 1);
    return x;
}

/* Base.Cartesian's `@ntuple N i -> e` and `@nexprs N i -> e`, N a constant (a literal, a where-parameter, a
 * generated kernel's $N): ntuple(i -> e, Val(N)), and `for i in 1:N e end`, which computes what @nexprs's N
 * copies of e do when e names no `x_i` variables (those need a name per copy, which juke does not make). */
static Node *ka_cartesian(Ka *k, Node *n)
{
    Node *f = n->nkids == 2 ? n->kids[1] : NULL;
    const Node *p = f && f->kind == AST_LAMBDA && f->kids[0]->nkids == 1 ? f->kids[0]->kids[0] : NULL;
    if (!p || p->kind != AST_IDENT) {
        diag_error(k->d, n->loc, "@%s takes a count and a function of the index: @%s N i -> expr", n->name, n->name);
        return ka_nothing(k, n);
    }
    SrcLoc loc = n->loc;
    f->kids[1] = ka_copies_indexed(k, f->kids[1], p->name, 0);
    if (n->name[1] == 't') { /* @ntuple */
        Node *c = ntuple_val(k, loc, f, n->kids[0]);
        return c ? c : n;
    }
    if (names_suffixed(f->kids[1], p->name, 0) && n->kids[0]->kind == AST_INT && n->kids[0]->ival >= 0 &&
        n->kids[0]->ival <= KA_NEXPRS_MAX) {
        /* a literal count: Julia's copies, x_i named x_1, x_2, ... */
        int cnt = (int)n->kids[0]->ival;
        Node *b = ast_node(k->a, AST_BLOCK, loc, cnt);
        if (!b)
            return n;
        for (int c = 0; c < cnt; c++)
            b->kids[c] = ka_copy_indexed(k, ast_clone(k->a, f->kids[1], 0), p->name, c + 1, 0);
        return b;
    }
    Node *as = f->kids[1];
    if (as && as->kind == AST_BLOCK && as->nkids == 1)
        as = as->kids[0];
    size_t vl = strlen(p->name), al;
    if (names_suffixed(f->kids[1], p->name, 0) && as && as->kind == AST_ASSIGN && as->kids[0]->kind == AST_IDENT &&
        (al = strlen(as->kids[0]->name)) > vl + 1 && strcmp(as->kids[0]->name + al - vl, p->name) == 0 &&
        as->kids[0]->name[al - vl - 1] == '_' && !names_suffixed(as->kids[1], p->name, 0)) {
        /* `@nexprs N i -> I_i = e` with N a constant that is no literal (a where-parameter, a generated
         * function's $N): the N copies' I_1, I_2, ... are the elements of a tuple, I_# = ntuple(i -> e,
         * Val(N)), which later `i -> ... I_i ...` functions (of @ncall, @ntuple) index as I_#[i] */
        const char *prefix = arena_strndup(k->a, as->kids[0]->name, al - vl);
        char *tname = prefix ? arena_printf(k->a, "%s#", prefix) : NULL;
        Node *lam = ast_node(k->a, AST_LAMBDA, f->loc, 3), *ps = ast_node(k->a, AST_TUPLE, f->loc, 1),
             *body = ast_node(k->a, AST_BLOCK, f->loc, 1), *r = ast_node(k->a, AST_ASSIGN, loc, 2);
        if (!tname || !lam || !ps || !body || !r)
            return n;
        ps->kids[0] = f->kids[0]->kids[0];
        body->kids[0] = as->kids[1];
        lam->kids[0] = ps;
        lam->kids[1] = body;
        Node *t = ntuple_val(k, loc, lam, n->kids[0]);
        if (!t)
            return n;
        r->kids[0] = ast_ident(k->a, as->loc, tname);
        r->kids[1] = t;
        ptrvec_push(k->a, &k->copies, (void *)prefix);
        return r;
    }
    if (names_suffixed(f->kids[1], p->name, 0)) {
        diag_error(k->d, n->loc,
                   "juke expands `@nexprs N %s -> expr` with a count that is no integer literal as a loop over %s in "
                   "1:N: names ending in _%s (one per copy in Julia) need a literal N (up to %d); use a tuple "
                   "(`@ntuple`) or an array instead",
                   p->name, p->name, p->name, KA_NEXPRS_MAX);
        return ka_nothing(k, n);
    }
    Node *loop = ast_node(k->a, AST_FOR, loc, 3), *range = ast_node(k->a, AST_CALL, loc, 3),
         *one = ast_node(k->a, AST_INT, loc, 0);
    if (!loop || !range || !one)
        return n;
    one->ival = 1;
    one->lit = LIT_INT64;
    range->kids[0] = ast_ident(k->a, loc, ":");
    range->kids[1] = one;
    range->kids[2] = n->kids[0];
    loop->kids[0] = ast_ident(k->a, p->loc, p->name);
    loop->kids[1] = range;
    loop->kids[2] = f->kids[1];
    return loop;
}

/* Base.Cartesian's `@ncall N f args... i -> e`: f(args..., e(1), ..., e(N)), as f(args..., ntuple(i -> e,
 * Val(N))...), N a constant (a literal, a where-parameter, a generated function's $N). */
static Node *ka_ncall(Ka *k, Node *n)
{
    Node *f = n->nkids >= 3 ? n->kids[n->nkids - 1] : NULL;
    if (!f || f->kind != AST_LAMBDA || f->kids[0]->nkids != 1 || !f->kids[0]->kids[0] ||
        f->kids[0]->kids[0]->kind != AST_IDENT) {
        diag_error(k->d, n->loc, "@ncall takes a count, a function and a function of the index: @ncall N f i -> expr");
        return ka_nothing(k, n);
    }
    SrcLoc loc = n->loc;
    f->kids[1] = ka_copies_indexed(k, f->kids[1], f->kids[0]->kids[0]->name, 0);
    int nfixed = n->nkids - 3;
    Node *c = ast_node(k->a, AST_CALL, loc, 2 + nfixed), *t = ntuple_val(k, loc, f, n->kids[0]),
         *sp = ast_node(k->a, AST_SPLAT, loc, 1);
    if (!c || !t || !sp)
        return n;
    sp->kids[0] = t;
    c->kids[0] = n->kids[1];
    for (int i = 0; i < nfixed; i++)
        c->kids[1 + i] = n->kids[2 + i];
    c->kids[1 + nfixed] = sp;
    return c;
}

/* One macro call of KernelAbstractions' language, rewritten; any other node
 * is returned as it is. */
static Node *ka_macro(Ka *k, Node *n)
{
    const char *m = n->name;
    if (strcmp(m, "$") == 0 && n->nkids == 1)
        return ka_interp(k, n);
    if (strcmp(m, "quote") == 0) {
        diag_error(k->d, n->loc,
                   "syntax: \"quote\" is not supported in kernels, except as the body a top-level @generated "
                   "function returns");
        return ka_nothing(k, n);
    }
    if (is_cartesian(n))
        return ka_cartesian(k, n);
    if (strcmp(m, "ncall") == 0)
        return ka_ncall(k, n);
    if (strcmp(m, "index") == 0)
        return ka_index(k, n);
    if (strcmp(m, "groupsize") == 0 || strcmp(m, "ndrange") == 0) {
        if (n->nkids != 0) {
            diag_error(k->d, n->loc, "@%s takes no arguments: @%s()", m, m);
            return ka_nothing(k, n);
        }
        return needs_ctx(k, n) ? ka_ctx_call(k, n->loc, m[0] == 'g' ? "__ka_groupsize" : "__ka_ndrange")
                               : ka_nothing(k, n);
    }
    if (strcmp(m, "context") == 0)
        return needs_ctx(k, n) ? ast_ident(k->a, n->loc, KA_CTX) : ka_nothing(k, n);
    if (strcmp(m, "synchronize") == 0) {
        /* @synchronize(cond) has meant @synchronize() since KernelAbstractions 0.9.34 */
        Node *c = ast_node(k->a, AST_CALL, n->loc, 1);
        if (c)
            c->kids[0] = ast_ident(k->a, n->loc, "sync_workgroup");
        return c ? c : n;
    }
    if (strcmp(m, "uniform") == 0) {
        if (n->nkids != 1) {
            diag_error(k->d, n->loc, "@uniform takes one expression");
            return ka_nothing(k, n);
        }
        return n->kids[0]; /* rewritten already */
    }
    if (strcmp(m, "localmem") == 0)
        return ka_localmem(k, n);
    if (strcmp(m, "groupreduce") == 0 || strcmp(m, "warp_groupreduce") == 0)
        return ka_groupreduce(k, n);
    if (strcmp(m, "dynamic_localmem") == 0)
        return ka_dynamic_localmem(k, n);
    if (strcmp(m, "private") == 0) {
        if (n->nkids == 1 && n->kids[0]->kind == AST_ASSIGN)
            return n->kids[0]; /* @private x = v: an ordinary variable is private already */
        if (n->nkids == 2) {   /* @private T dims: the work-item's own array (BI_PRIVATE) */
            Node *r = ast_node(k->a, AST_MACROCALL, n->loc, 2);
            if (!r)
                return n;
            r->name = "#private";
            r->kids[0] = n->kids[0];
            r->kids[1] = n->kids[1];
            return r;
        }
        diag_error(k->d, n->loc, "@private takes a type and constant dims (@private Float32 (4,)) or an assignment");
        return ka_nothing(k, n);
    }
    if (strcmp(m, "atomic") == 0 && n->qual && strcmp(n->qual, "AMDGPU") != 0) {
        /* KernelAbstractions.@atomic is Atomix.@atomic: AMDGPU.@atomic's forms on arrays, and also *=, /= and a
         * load (lower_atomic) */
        n->qual = "Atomix";
        return n;
    }
    return n;
}

/* Rewrite the macro calls under n, innermost first (so @uniform's argument
 * is rewritten before it is unwrapped), with a stack of its own as
 * contains_sync. Returns what replaces n. */
static Node *ka_expr(Ka *k, Node *n)
{
    typedef struct Slot {
        Node **at;
        bool kids_done;
    } Slot;
    Node *root = n;
    Slot *stack = NULL;
    int len = 0, cap = 0;
    stack = arena_grow(k->a, stack, len, &cap, sizeof(Slot), 64);
    if (!stack)
        return n;
    stack[len++] = (Slot){ &root, false };
    while (len) {
        Slot *top = &stack[len - 1];
        Node *x = *top->at;
        if (!x) {
            len--;
            continue;
        }
        if (!top->kids_done && is_macro(x, "kernel")) {
            if (k->in_function) {
                /* (ka_function decides whether it can be a top-level kernel) */
                Ka inner = *k;
                inner.in_function = false;
                inner.nested = (PtrVec){ 0 };
                Node *fn = ka_kernel(&inner, x);
                k->used = k->used || inner.used;
                if (fn)
                    ptrvec_push(k->a, &k->nested, fn);
            } else {
                /* (a top-level @kernel is ka_kernel's; this one is inside a kernel or a block) */
                diag_error(k->d, x->loc,
                           "a @kernel defined inside a kernel or a block is not supported: define it at the top "
                           "level, or in a function");
            }
            *top->at = ka_nothing(k, x);
            len--;
            continue;
        }
        if (!top->kids_done) {
            top->kids_done = true;
            for (int i = x->nkids - 1; i >= 0; i--) {
                Slot *grown = arena_grow(k->a, stack, len, &cap, sizeof(Slot), 64);
                if (!grown)
                    return root;
                stack = grown;
                stack[len++] = (Slot){ &x->kids[i], false };
            }
            continue;
        }
        len--;
        if (x->kind == AST_MACROCALL)
            *top->at = ka_macro(k, x);
        else if (k->has_ctx && x->kind == AST_CALL && x->nkids == 1 && x->kids[0]->kind == AST_IDENT &&
                 strcmp(x->kids[0]->name, "groupsize") == 0 &&
                 (!x->kids[0]->qual || strcmp(x->kids[0]->qual, "KernelAbstractions") == 0))
            *top->at = ka_ctx_call(k, x->loc, "__ka_groupsize"); /* KernelAbstractions 0.1's groupsize() */
    }
    return root;
}

/* Statements that every work-item runs, padding ones too: what
 * KernelAbstractions hoists out of its guard. */
static bool runs_everywhere(const Node *s)
{
    if (is_macro(s, "uniform"))
        return true;
    if (is_macro(s, "private") && s->nkids == 1 && s->kids[0]->kind == AST_ASSIGN)
        return true;
    if (s->kind == AST_ASSIGN && (s->kids[0]->kind == AST_IDENT || s->kids[0]->kind == AST_TUPLE)) {
        const Node *r = s->kids[1];
        return is_macro(r, "uniform") || is_macro(r, "localmem") || is_macro(r, "dynamic_localmem") ||
               is_macro(r, "index") || is_macro(r, "private");
    }
    return false;
}

static Node *ka_block(Ka *k, Node *block);

/* A statement that contains a @synchronize, run by every work-item: its
 * nested blocks are split again. */
static Node *ka_sync_stmt(Ka *k, Node *s)
{
    switch (s->kind) {
    case AST_BLOCK: return ka_block(k, s);
    case AST_FOR:
        s->kids[1] = ka_expr(k, s->kids[1]);
        s->kids[2] = ka_block(k, s->kids[2]);
        return s;
    case AST_WHILE:
        s->kids[0] = ka_expr(k, s->kids[0]);
        s->kids[1] = ka_block(k, s->kids[1]);
        return s;
    case AST_IF:
        s->kids[0] = ka_expr(k, s->kids[0]);
        s->kids[1] = ka_block(k, s->kids[1]);
        if (s->kids[2])
            s->kids[2] = s->kids[2]->kind == AST_IF ? ka_sync_stmt(k, s->kids[2]) : ka_block(k, s->kids[2]);
        return s;
    case AST_MACROCALL:
        if ((strcmp(s->name, "inbounds") == 0 || strcmp(s->name, "uniform") == 0) && s->nkids == 1 &&
            s->kids[0]->kind == AST_BLOCK) {
            s->kids[0] = ka_block(k, s->kids[0]);
            return strcmp(s->name, "uniform") == 0 ? s->kids[0] : s;
        }
        return ka_expr(k, s);
    default: return ka_expr(k, s);
    }
}

/* if __ka_valid(__ctx__) stmts... end */
static Node *ka_guard(Ka *k, PtrVec *stmts)
{
    Node *first = stmts->items[0];
    Node *body = ast_node(k->a, AST_BLOCK, first->loc, stmts->len);
    Node *g = ast_node(k->a, AST_IF, first->loc, 3);
    if (!body || !g)
        return first;
    for (int i = 0; i < stmts->len; i++)
        body->kids[i] = stmts->items[i];
    g->kids[0] = ka_ctx_call(k, first->loc, "__ka_valid");
    g->kids[1] = body;
    stmts->len = 0;
    return g;
}

/* The statements of a kernel's body (or of a block that contains a
 * @synchronize), split into guarded runs and statements for every work-item. */
static Node *ka_block(Ka *k, Node *block)
{
    PtrVec out = { 0 }, run = { 0 };
    for (int i = 0; i < block->nkids; i++) {
        Node *s = block->kids[i];
        bool everywhere = runs_everywhere(s), sync = !everywhere && contains_sync(k, s);
        if ((everywhere || sync) && run.len)
            ptrvec_push(k->a, &out, ka_guard(k, &run));
        if (everywhere)
            ptrvec_push(k->a, &out, ka_expr(k, s));
        else if (sync)
            ptrvec_push(k->a, &out, ka_sync_stmt(k, s));
        else
            ptrvec_push(k->a, &run, ka_expr(k, s));
    }
    if (run.len)
        ptrvec_push(k->a, &out, ka_guard(k, &run));
    block->kids = (Node **)out.items;
    block->nkids = out.len;
    return block;
}

/* A `@kernel [options] function` item: the FUNCTION it defines, rewritten. */
static Node *ka_kernel(Ka *k, Node *item)
{
    Node *fn = item->nkids ? item->kids[item->nkids - 1] : NULL;
    if (!fn || fn->kind != AST_FUNCTION) {
        diag_error(k->d, item->loc, "@kernel takes a function definition: @kernel function f(A) ... end");
        return NULL;
    }
    bool guard = true, generated = false;
    k->inbounds = false;
    for (int i = 0; i + 1 < item->nkids; i++) {
        Node *o = item->kids[i];
        const char *name = o->kind == AST_ASSIGN && o->kids[0]->kind == AST_IDENT ? o->kids[0]->name : NULL;
        bool on = o->kind == AST_ASSIGN && o->kids[1]->kind == AST_BOOL && o->kids[1]->ival;
        if (name && o->kids[1]->kind == AST_BOOL && strcmp(name, "cpu") == 0)
            continue; /* juke compiles the GPU form for every device */
        if (name && o->kids[1]->kind == AST_BOOL && strcmp(name, "inbounds") == 0)
            k->inbounds = on;
        else if (name && o->kids[1]->kind == AST_BOOL && strcmp(name, "generated") == 0)
            generated = on;
        else if (name && o->kids[1]->kind == AST_BOOL &&
                 (strcmp(name, "unsafe_indices") == 0 || strcmp(name, "unsafe_indicies") == 0))
            guard = !on;
        else
            diag_error(
                k->d, o->loc,
                "unknown @kernel option; KernelAbstractions takes cpu=, inbounds=, unsafe_indices= and generated= "
                "with true or false");
    }
    /* the parameters: @Const(A) is A (a promise juke does not need), then __ctx__ */
    Node *params = fn->kids[0];
    Node *np = ast_node(k->a, AST_TUPLE, params->loc, params->nkids + 1);
    if (!np)
        return fn;
    for (int i = 0; i < params->nkids; i++) {
        Node *p = params->kids[i];
        np->kids[i] = is_macro(p, "Const") && p->nkids == 1 ? p->kids[0] : p;
    }
    np->kids[params->nkids] = ast_ident(k->a, fn->loc, KA_CTX);
    /* a vararg last, `@kernel f(a, Is::Vararg{Any,N}) where {N}` (GPUArrays' indexing kernels): the hidden
     * context follows the values, so one untyped vararg takes both, and the body starts by splitting it */
    Node *prologue = NULL;
    Node *last = params->nkids ? np->kids[params->nkids - 1] : NULL;
    const Node *vt = last && last->kind == AST_TYPED ? last->kids[1] : NULL;
    const Node *vname = last && last->kind == AST_SPLAT ? last->kids[0] : last && vt ? last->kids[0] : NULL;
    bool vararg = last && vname && vname->kind == AST_IDENT &&
                  (last->kind == AST_SPLAT || (vt->kind == AST_CURLY && vt->kids[0]->kind == AST_IDENT &&
                                               strcmp(vt->kids[0]->name, "Vararg") == 0));
    if (vararg) {
        SrcLoc loc = last->loc;
        Node *sp = ast_node(k->a, AST_SPLAT, loc, 1), *pro = ast_node(k->a, AST_BLOCK, loc, 3),
             *len = ast_node(k->a, AST_CALL, loc, 2), *at = ast_node(k->a, AST_REF, loc, 2),
             *ctx = ast_node(k->a, AST_ASSIGN, loc, 2), *fr = ast_node(k->a, AST_CALL, loc, 2),
             *vals = ast_node(k->a, AST_ASSIGN, loc, 2);
        if (!sp || !pro || !len || !at || !ctx || !fr || !vals)
            return fn;
        sp->kids[0] = ast_ident(k->a, loc, "#ka_va");
        Node *spl = ast_node(k->a, AST_SPLAT, loc, 1), *spl2 = ast_node(k->a, AST_SPLAT, loc, 1);
        if (!spl || !spl2)
            return fn;
        spl->kids[0] = ast_ident(k->a, loc, "#ka_va");
        spl2->kids[0] = ast_ident(k->a, loc, "#ka_va");
        (void)at;
        len->kids[0] = ast_ident(k->a, loc, "__ka_last");
        len->kids[1] = spl;
        ctx->kids[0] = ast_ident(k->a, loc, KA_CTX);
        ctx->kids[1] = len;
        fr->kids[0] = ast_ident(k->a, loc, "__ka_front");
        fr->kids[1] = spl2;
        vals->kids[0] = ast_ident(k->a, loc, vname->name);
        vals->kids[1] = fr;
        pro->kids[0] = ctx;
        pro->kids[1] = vals;
        pro->nkids = 2;
        /* Vararg{T, N}: N, a where-parameter, is the count of the values */
        if (vt && vt->nkids == 3 && vt->kids[2]->kind == AST_IDENT && fn->kids[2]) {
            Node *w = fn->kids[2];
            int nw = 0;
            for (int i = 0; i < w->nkids; i++)
                if (!(w->kids[i]->kind == AST_IDENT && strcmp(w->kids[i]->name, vt->kids[2]->name) == 0))
                    w->kids[nw++] = w->kids[i];
            if (nw < w->nkids) {
                Node *cnt = ast_node(k->a, AST_ASSIGN, loc, 2), *l2 = ast_node(k->a, AST_CALL, loc, 2);
                if (!cnt || !l2)
                    return fn;
                l2->kids[0] = ast_ident(k->a, loc, "length");
                l2->kids[1] = ast_ident(k->a, loc, vname->name);
                cnt->kids[0] = ast_ident(k->a, loc, vt->kids[2]->name);
                cnt->kids[1] = l2;
                pro->kids[pro->nkids++] = cnt;
                w->nkids = nw;
                if (!nw)
                    fn->kids[2] = NULL;
            }
        }
        np->kids[params->nkids - 1] = sp;
        np->nkids = params->nkids;
        prologue = pro;
    }
    fn->kids[0] = np;
    k->has_ctx = true;
    k->gen_params = generated ? np : NULL;
    Node *body = fn->kids[1];
    if (generated)
        ka_generated_check(k, body, 0);
    if (guard)
        body = ka_block(k, body);
    else
        body = ka_expr(k, body);
    k->has_ctx = false;
    k->gen_params = NULL;
    if (k->inbounds) {
        Node *ib = ast_node(k->a, AST_MACROCALL, body->loc, 1);
        if (ib) {
            ib->name = "inbounds";
            ib->kids[0] = body;
            Node *b = ast_node(k->a, AST_BLOCK, body->loc, 1);
            if (b) {
                b->kids[0] = ib;
                body = b;
            }
        }
    }
    if (prologue) {
        Node *pb = ast_node(k->a, AST_BLOCK, body->loc, 2);
        if (!pb)
            return fn;
        pb->kids[0] = prologue;
        pb->kids[1] = body;
        body = pb;
    }
    /* a kernel returns nothing, whatever its last expression */
    Node *b = ast_node(k->a, AST_BLOCK, body->loc, 2);
    Node *ret = ast_node(k->a, AST_RETURN, body->loc, 1);
    if (b && ret) {
        ret->kids[0] = ast_node(k->a, AST_NOTHING, body->loc, 0);
        b->kids[0] = body;
        b->kids[1] = ret;
        body = b;
    }
    fn->kids[1] = body;
    fn->flags |= FN_KA;
    k->used = true;
    return fn;
}

/* A plain function: `KernelAbstractions.@context` as a parameter gives it the
 * context, so @index and friends work in it. */
static Node *ka_function(Ka *k, Node *fn)
{
    Node *params = fn->kids[0];
    bool ctx = false;
    for (int i = 0; params && i < params->nkids; i++)
        if (is_macro(params->kids[i], "context") && params->kids[i]->nkids == 0) {
            params->kids[i] = ast_ident(k->a, params->kids[i]->loc, KA_CTX);
            ctx = true;
        }
    k->has_ctx = ctx;
    k->in_function = true;
    k->nested.len = 0;
    fn->kids[1] = ka_expr(k, fn->kids[1]);
    k->in_function = false;
    k->has_ctx = false;
    /* a @kernel defined in the body is a closure in KernelAbstractions over the function's variables it uses
     * (GPUArrays 11's tril_kernel! uses the method's T, transpose_kernel! its f). The closure exists only when
     * the function runs on the host, so juke's kernel takes those values as its first arguments, where a call
     * passes a closure's fields, in the order the body first uses them; one that uses nothing of the function
     * (fill_kernel!, rmul_kernel!) is the same kernel at the top level */
    for (int i = 0; i < k->nested.len; i++) {
        Node *kfn = k->nested.items[i];
        const Node *uses[32];
        int nc = closures_captures(k->a, fn, kfn, uses, JK_ARRAY_LEN(uses));
        Node *params = kfn->kids[0];
        Node *np = nc ? ast_node(k->a, AST_TUPLE, params->loc, nc + params->nkids) : params;
        if (!np)
            return fn;
        for (int c = 0; c < nc; c++)
            np->kids[c] = ast_ident(k->a, uses[c]->loc, uses[c]->name);
        for (int p = 0; nc && p < params->nkids; p++)
            np->kids[nc + p] = params->kids[p];
        kfn->kids[0] = np;
        ptrvec_push(k->a, &k->hoisted, kfn);
    }
    return fn;
}

/* Whether x names AMDGPU.jl's or CUDA.jl's KernelAbstractions backend (ROCBackend, which AMDGPU.jl exports, is a
 * type that plain @roc code dispatches on too: JACC's `const AMDGPUBackend = ROCBackend` and its
 * `JACC.shared(::AMDGPUBackend, x)` methods), which the KernelAbstractions prelude defines. */
static bool names_backend(Ka *k, const Node *x)
{
    const Node **stack = NULL;
    int len = 0, cap = 0;
    stack = arena_grow(k->a, stack, len, &cap, sizeof(Node *), 64);
    if (!stack)
        return false;
    stack[len++] = x;
    while (len) {
        const Node *n = stack[--len];
        if (!n)
            continue;
        if (n->kind == AST_IDENT && (strcmp(n->name, "ROCBackend") == 0 || strcmp(n->name, "CUDABackend") == 0))
            return true;
        for (int i = 0; i < n->nkids; i++) {
            const Node **grown = arena_grow(k->a, stack, len, &cap, sizeof(Node *), 64);
            if (!grown)
                return false;
            stack = grown;
            stack[len++] = n->kids[i];
        }
    }
    return false;
}

bool ka_rewrite(Arena *a, Diags *d, Node *file)
{
    Ka k = { .a = a, .d = d };
    for (int i = 0; file && i < file->nkids; i++) {
        Node *item = file->kids[i];
        k.copies.len = 0; /* the tuples @nexprs made are one function's variables */
        /* `@kernel ...` and definitions wrapped in other macros (@inline) */
        Node *inner = item;
        while (inner && inner->kind == AST_MACROCALL && !is_macro(inner, "kernel") && inner->nkids == 1)
            inner = inner->kids[0];
        Node *gen = item; /* @generated, also under @inline (GPUArrays' permute_linearindex) */
        while (gen && gen->kind == AST_MACROCALL && !is_macro(gen, "generated") && gen->nkids == 1)
            gen = gen->kids[0];
        if (is_macro(gen, "generated") && gen->nkids == 1 && gen->kids[0] && gen->kids[0]->kind == AST_FUNCTION) {
            *gen = *gen->kids[0];
            ka_generated_function(&k, gen);
        } else if (is_macro(inner, "kernel")) {
            Node *fn = ka_kernel(&k, inner);
            if (fn && inner == item)
                file->kids[i] = fn;
            else if (fn)
                *inner = *fn;
        } else if (inner && inner->kind == AST_FUNCTION) {
            ka_function(&k, inner);
        }
        if (!k.used && names_backend(&k, item))
            k.used = true;
    }
    if (k.hoisted.len) {
        Node **kids = arena_alloc(a, sizeof(Node *) * (size_t)(file->nkids + k.hoisted.len));
        if (!kids)
            return k.used;
        memcpy(kids, file->kids, sizeof(Node *) * (size_t)file->nkids);
        memcpy(kids + file->nkids, k.hoisted.items, sizeof(Node *) * (size_t)k.hoisted.len);
        file->kids = kids;
        file->nkids += k.hoisted.len;
    }
    return k.used;
}

static bool ka_in(const char *s, const char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

const char *ka_macro_hint(const char *name, bool user)
{
    static const char *const printing[] = { "println", "print", "printf", "info", "warn", "debug", "error" };
    static const char *const cuda_print[] = { "cushow" };
    static const char *const host[] = { "time",    "elapsed",     "test", "testset", "benchmark",
                                        "btime",   "belapsed",    "sync", "async",   "spawn",
                                        "threads", "distributed", "eval", "roc",     "cuda" };
    if (user)
        return "it is a macro this file defines whose body juke cannot read (juke expands macros that build "
               "their result from `quote ... end` and `:(...)` templates); write a function instead";
    if (ka_in(name, printing, JK_ARRAY_LEN(printing)))
        return "print from a kernel with @rocprintf(\"fmt\", args...), @rocprint or @rocprintln";
    if (ka_in(name, cuda_print, JK_ARRAY_LEN(cuda_print)))
        return "juke prints with AMDGPU.jl's @rocprintf, @rocprint and @rocprintln (and CUDA's @cuprintf, @cuprint "
               "and @cuprintln)";
    if (strcmp(name, "cuStaticSharedMem") == 0)
        return "use @ROCStaticLocalArray(T, dims) or KernelAbstractions' @localmem T dims";
    if (strcmp(name, "cuDynamicSharedMem") == 0)
        return "use @ROCDynamicLocalArray(T, dims)";
    if (ka_in(name, host, JK_ARRAY_LEN(host)))
        return "host code: juke compiles kernels only";
    return "juke does not expand it (the macros it knows are listed in docs/language.md)";
}

/* The functions behind the macros. The context c is the ndrange, an
 * NTuple{N,Int64}, followed by N fields Val{G} when the launch gave a static
 * groupsize (launch.c): then @groupsize() is a constant tuple, and local
 * arrays may take their dims from it (consteval.c). The grid is
 * 3-dimensional, its dimensions past the ndrange's of size 1. An ndrange
 * of more than 3 dimensions is launched linearly (launch.c): its group is
 * the shape of KernelAbstractions' threads_to_workgroupsize over the
 * ndrange, found again from the group's size (shaping the product of a
 * shape gives that shape), and the groups run column-major over
 * cld(ndrange, shape). A CartesianIndex{N} is an NTuple{N,Int64} here. */
const char *ka_prelude(void)
{
    return "@inline __ka_nd(c::Tuple{Int64}) = c\n"
           "@inline __ka_nd(c::Tuple{Int64,Int64}) = c\n"
           "@inline __ka_nd(c::Tuple{Int64,Int64,Int64}) = c\n"
           "@inline __ka_nd(c::Tuple{Int64,Val{A}}) where {A} = (c[1],)\n"
           "@inline __ka_nd(c::Tuple{Int64,Int64,Val{A},Val{B}}) where {A,B} = (c[1], c[2])\n"
           "@inline __ka_nd(c::Tuple{Int64,Int64,Int64,Val{A},Val{B},Val{C}}) where {A,B,C} = (c[1], c[2], c[3])\n"
           "@inline __ka_nd(c::NTuple{N,Int64}) where {N} = c\n"
           "@inline __ka_shape(threads, total, ::Tuple{}) = ()\n"
           "@inline function __ka_shape(threads, total, nd::Tuple)\n"
           "    x = min(threads ÷ total, nd[1])\n"
           "    return (x, __ka_shape(threads, total * x, tail(nd))...)\n"
           "end\n"
           "@inline __ka_blocks(c::NTuple{N,Int64}) where {N} = map(cld, c, __ka_groupsize(c))\n"
           "@inline __ka_glob(::Tuple{}, ::Tuple{}, ::Tuple{}) = ()\n"
           "@inline __ka_glob(g::Tuple, d::Tuple, l::Tuple) = ((g[1] - 1) * d[1] + l[1], __ka_glob(tail(g), tail(d), "
           "tail(l))...)\n"
           "@inline __ka_groupsize(::Tuple{Int64}) = (workgroupDim().x,)\n"
           "@inline __ka_groupsize(::Tuple{Int64,Int64}) = (workgroupDim().x, workgroupDim().y)\n"
           "@inline __ka_groupsize(::Tuple{Int64,Int64,Int64}) = (workgroupDim().x, workgroupDim().y, "
           "workgroupDim().z)\n"
           "@inline __ka_groupsize(::Tuple{Int64,Val{A}}) where {A} = (A,)\n"
           "@inline __ka_groupsize(::Tuple{Int64,Int64,Val{A},Val{B}}) where {A,B} = (A, B)\n"
           "@inline __ka_groupsize(::Tuple{Int64,Int64,Int64,Val{A},Val{B},Val{C}}) where {A,B,C} = (A, B, C)\n"
           "@inline __ka_groupsize(c::NTuple{N,Int64}) where {N} = __ka_shape(Int64(workgroupDim().x), 1, c)\n"
           "@inline __ka_local(c::NTuple{N,Int64}) where {N} = _cartesian_of(Int64(workitemIdx().x), "
           "__ka_groupsize(c))\n"
           "@inline __ka_group(c::NTuple{N,Int64}) where {N} = _cartesian_of(Int64(workgroupIdx().x), __ka_blocks(c))\n"
           "@inline __ka_ngroups(c::NTuple{N,Int64}) where {N} = __ka_blocks(c)\n"
           "@inline __ka_global2(g::NTuple{N,Int64}, d, l) where {N} = __ka_glob(g, d, l)\n"
           "@inline __ka_linear(I::NTuple{N,Int64}, d::NTuple{N,Int64}) where {N} = _linear_of(I, d)\n"
           "@inline __ka_inside(I::NTuple{N,Int64}, c::NTuple{N,Int64}) where {N} = all(map(<=, I, c))\n"
           "@inline __ka_local(::Tuple{Int64}) = (workitemIdx().x,)\n"
           "@inline __ka_local(::Tuple{Int64,Int64}) = (workitemIdx().x, workitemIdx().y)\n"
           "@inline __ka_local(::Tuple{Int64,Int64,Int64}) = (workitemIdx().x, workitemIdx().y, workitemIdx().z)\n"
           "@inline __ka_group(::Tuple{Int64}) = (workgroupIdx().x,)\n"
           "@inline __ka_group(::Tuple{Int64,Int64}) = (workgroupIdx().x, workgroupIdx().y)\n"
           "@inline __ka_group(::Tuple{Int64,Int64,Int64}) = (workgroupIdx().x, workgroupIdx().y, "
           "workgroupIdx().z)\n"
           "@inline __ka_ngroups(::Tuple{Int64}) = (gridGroupDim().x,)\n"
           "@inline __ka_ngroups(::Tuple{Int64,Int64}) = (gridGroupDim().x, gridGroupDim().y)\n"
           "@inline __ka_ngroups(::Tuple{Int64,Int64,Int64}) = (gridGroupDim().x, gridGroupDim().y, "
           "gridGroupDim().z)\n"
           "@inline __ka_global2(g::Tuple{Int64}, d, l) = ((g[1] - 1) * d[1] + l[1],)\n"
           "@inline __ka_global2(g::Tuple{Int64,Int64}, d, l) = ((g[1] - 1) * d[1] + l[1], (g[2] - 1) * d[2] + "
           "l[2])\n"
           "@inline __ka_global2(g::Tuple{Int64,Int64,Int64}, d, l) = ((g[1] - 1) * d[1] + l[1], (g[2] - 1) * d[2] "
           "+ l[2], (g[3] - 1) * d[3] + l[3])\n"
           "@inline __ka_global(c) = __ka_global2(__ka_group(__ka_nd(c)), __ka_groupsize(c), "
           "__ka_local(__ka_nd(c)))\n"
           "@inline __ka_linear(I::Tuple{Int64}, d::Tuple{Int64}) = I[1]\n"
           "@inline __ka_linear(I::Tuple{Int64,Int64}, d::Tuple{Int64,Int64}) = I[1] + (I[2] - 1) * d[1]\n"
           "@inline __ka_linear(I::Tuple{Int64,Int64,Int64}, d::Tuple{Int64,Int64,Int64}) = "
           "I[1] + (I[2] - 1) * d[1] + (I[3] - 1) * d[1] * d[2]\n"
           "@inline __ka_inside(I::Tuple{Int64}, c::Tuple{Int64}) = I[1] <= c[1]\n"
           "@inline __ka_inside(I::Tuple{Int64,Int64}, c::Tuple{Int64,Int64}) = I[1] <= c[1] && I[2] <= c[2]\n"
           "@inline __ka_inside(I::Tuple{Int64,Int64,Int64}, c::Tuple{Int64,Int64,Int64}) = "
           "I[1] <= c[1] && I[2] <= c[2] && I[3] <= c[3]\n"
           "@inline __ka_valid(c) = __ka_inside(__ka_global(c), __ka_nd(c))\n"
           /* a vararg @kernel's values and its context, the last element (ka_kernel) */
           "@inline __ka_last(x) = x\n"
           "@inline __ka_last(x, rest...) = __ka_last(rest...)\n"
           "@inline __ka_front(x) = ()\n"
           "@inline __ka_front(x, rest...) = (x, __ka_front(rest...)...)\n"
           /* KernelAbstractions.__validindex(__ctx__), which unsafe_indices kernels test themselves */
           "@inline __validindex(c) = __ka_valid(c)\n"
           /* KernelAbstractions.__iterspace(ctx), the launch's NDRange, and its blocks (the groups) and workitems
            * (a group's items) as CartesianIndices: GPUArrays' mapreduce counts its groups with
            * length(blocks(__iterspace(@context()))) */
           "struct __KaIterspace{C}\n"
           "    c::C\n"
           "end\n"
           "@inline __iterspace(c) = __KaIterspace(c)\n"
           "@inline blocks(s::__KaIterspace) = CartesianIndices(__ka_ngroups(__ka_nd(s.c)))\n"
           "@inline workitems(s::__KaIterspace) = CartesianIndices(__ka_groupsize(s.c))\n"
           "@inline __ka_ndrange(c) = __ka_nd(c)\n"
           "@inline __ka_index_Global_Linear(c) = __ka_linear(__ka_global(c), __ka_nd(c))\n"
           "@inline __ka_index_Global_Cartesian(c) = __ka_global(c)\n"
           "@inline __ka_index_Global_NTuple(c) = __ka_global(c)\n"
           "@inline __ka_index_Local_Linear(c) = __ka_linear(__ka_local(__ka_nd(c)), __ka_groupsize(c))\n"
           "@inline __ka_index_Local_Cartesian(c) = __ka_local(__ka_nd(c))\n"
           "@inline __ka_index_Local_NTuple(c) = __ka_local(__ka_nd(c))\n"
           "@inline __ka_index_Group_Linear(c) = __ka_linear(__ka_group(__ka_nd(c)), __ka_ngroups(__ka_nd(c)))\n"
           "@inline __ka_index_Group_Cartesian(c) = __ka_group(__ka_nd(c))\n"
           "@inline __ka_index_Group_NTuple(c) = __ka_group(__ka_nd(c))\n"
           /* an offset ndrange (ndrange = (-3:4, 2:11)): the context c above and lo, each range's first index
            * minus 1 (launch.c); only the global index of a work-item moves, KernelAbstractions' linear index
            * and @ndrange() are those of the extents */
           "struct __KaOffset{C,L}\n"
           "    c::C\n"
           "    lo::L\n"
           "end\n"
           "@inline __ka_nd(o::__KaOffset) = __ka_nd(o.c)\n"
           "@inline __ka_groupsize(o::__KaOffset) = __ka_groupsize(o.c)\n"
           "@inline __ka_global(o::__KaOffset) = __ka_global(o.c)\n"
           "@inline __ka_index_Global_Cartesian(o::__KaOffset) = map(+, __ka_global(o.c), o.lo)\n"
           "@inline __ka_index_Global_NTuple(o::__KaOffset) = __ka_index_Global_Cartesian(o)\n"
           /* an index-map ndrange (ndrange = an array of CartesianIndex{N} or NTuple{N} of integers): the 1-D
            * context c of length(map) work-items and the map (launch.c); work-item p's global index is map[p],
            * its linear, group and local indices and @ndrange() are those of 1:length(map). A padding work-item
            * reads the last entry: @index runs on every work-item, the body only on those inside. */
           "struct __KaMap{C,M}\n"
           "    c::C\n"
           "    map::M\n"
           "end\n"
           "@inline __ka_nd(o::__KaMap) = __ka_nd(o.c)\n"
           "@inline __ka_groupsize(o::__KaMap) = __ka_groupsize(o.c)\n"
           "@inline __ka_global(o::__KaMap) = __ka_global(o.c)\n"
           "@inline __ka_index_Global_Cartesian(o::__KaMap) = "
           "map(Int64, @inbounds(o.map[min(__ka_global(o.c)[1], length(o.map))]))\n"
           "@inline __ka_index_Global_NTuple(o::__KaMap) = __ka_index_Global_Cartesian(o)\n"
           /* KernelAbstractions' reduce.jl: a tree over local memory of groupsize elements (the
            * groupsize a power of two), the result on the group's first work-item */
           "@inline function __ka_groupreduce(c, op, val::T) where {T}\n"
           "    G = prod(__ka_groupsize(c))\n"
           "    storage = @ROCStaticLocalArray(T, (G,), false)\n"
           "    return __ka_treereduce(c, op, val, storage, G)\n"
           "end\n"
           "@inline function __ka_groupreduce(c, op, val::T, ::Val{G}) where {T, G}\n"
           "    storage = @ROCStaticLocalArray(T, (G,), false)\n"
           "    return __ka_treereduce(c, op, val, storage, G)\n"
           "end\n"
           "@inline function __ka_treereduce(c, op, val, storage, G)\n"
           "    i = __ka_index_Local_Linear(c)\n"
           "    if i <= G\n"
           "        @inbounds storage[i] = val\n"
           "    end\n"
           "    sync_workgroup()\n"
           "    s = G ÷ 2\n"
           "    while s > 0\n"
           "        if i - 1 < s && i + s <= G\n"
           "            @inbounds storage[i] = op(storage[i], storage[i + s])\n"
           "        end\n"
           "        sync_workgroup()\n"
           "        s >>= 1\n"
           "    end\n"
           "    if i == 1\n"
           "        @inbounds val = storage[1]\n"
           "    end\n"
           "    return val\n"
           "end\n"
           /* ... and over warps of 32 lanes (shfl_down; a 64-wide wave holds two), their partial results
            * in 32 slots of local memory, reduced again by the first warp */
           "@inline function __ka_warp_reduce(op, val)\n"
           "    offset = 16\n"
           "    while offset > 0\n"
           "        val = op(val, shfl_down(val, offset))\n"
           "        offset >>= 1\n"
           "    end\n"
           "    return val\n"
           "end\n"
           "@inline __ka_warp_groupreduce(c, op, val::T, neutral::T) where {T} = "
           "__ka_warp_groupreduce(c, op, val, neutral, prod(__ka_groupsize(c)))\n"
           "@inline __ka_warp_groupreduce(c, op, val::T, neutral::T, ::Val{G}) where {T, G} = "
           "__ka_warp_groupreduce(c, op, val, neutral, G)\n"
           "@inline function __ka_warp_groupreduce(c, op, val::T, neutral::T, G::Int64) where {T}\n"
           "    storage = @ROCStaticLocalArray(T, (32,), false)\n"
           "    i = __ka_index_Local_Linear(c)\n"
           "    lane = (i - 1) % 32 + 1\n"
           "    warp = (i - 1) ÷ 32 + 1\n"
           "    val = __ka_warp_reduce(op, val)\n"
           "    if lane == 1\n"
           "        @inbounds storage[warp] = val\n"
           "    end\n"
           "    sync_workgroup()\n"
           "    val = i - 1 < G ÷ 32 ? storage[lane] : neutral\n"
           "    if warp == 1\n"
           "        val = __ka_warp_reduce(op, val)\n"
           "    end\n"
           "    return val\n"
           "end\n"
           /* Base._unsafe_getindex(IndexStyle(A), A, i) (KernelAbstractions' test/unsafe_getindex.jl): a
            * 0-dimensional array of A[i] in Julia, its one element unchecked; here a 1-tuple */
           "struct IndexLinear end\n"
           "@inline IndexStyle(::Any) = IndexLinear()\n"
           "@inline _unsafe_getindex(::IndexLinear, A, i::Int64) = (@inbounds(A[i]),)\n"
           /* the backends, for kernels that dispatch on one passed as an argument (NNlib's
            * _upsample_linear_kernel!(::CPU, ...) and (::B, ...) where B <: GPU): values without bits */
           "abstract type Backend end\n"
           "abstract type GPU <: Backend end\n"
           "struct CPU <: Backend end\n"
           "struct ROCBackend <: GPU end\n"
           "struct CUDABackend <: GPU end\n";
}
