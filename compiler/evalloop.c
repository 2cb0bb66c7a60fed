/* evalloop.c: top-level `@eval` loops, unrolled into the definitions they make.
 *
 * Julia's `for T in (Int8, Int16) @eval f(::Type{$T}, x) = x % $T end` runs at load time and defines
 * one method per element, `$T` spliced in as the element's value. A kernel file is not run, so the
 * loop is unrolled here: for each element, a copy of every `@eval` item of the body with `$T`
 * replaced by a copy of the element's expression. Only what a loop over literal elements means
 * this way is expanded: the elements must be written out (a tuple or vector literal, of tuples for
 * `for (a, b) in ...`), and the body must be `@eval` items alone. */
#include <string.h>

#include "evalloop.h"

/* What `$name` becomes for the element v: v itself, except a symbol :f, which names f. */
static Node *ev_value(Arena *a, const Node *v)
{
    if (v->kind == AST_SYMBOL)
        return ast_ident(a, v->loc, v->name);
    return ast_clone(a, v, 0);
}

/* x with every `$name` / `$(name)` of a loop variable replaced by its element (names[i] gets vals[i]). */
static Node *ev_splice(Arena *a, Node *x, const char **names, Node **vals, int n, int depth)
{
    if (!x || depth > 200)
        return x;
    if (x->kind == AST_MACROCALL && strcmp(x->name, "$") == 0 && x->nkids == 1 && x->kids[0] &&
        x->kids[0]->kind == AST_IDENT && !x->kids[0]->qual)
        for (int i = 0; i < n; i++)
            if (strcmp(x->kids[0]->name, names[i]) == 0)
                return ev_value(a, vals[i]);
    if (x->kind == AST_FUNCTION && x->name && x->name[0] == '$') /* $f(x) = ... (parse_short_def) */
        for (int i = 0; i < n; i++)
            if (strcmp(x->name + 1, names[i]) == 0 && (vals[i]->kind == AST_SYMBOL || vals[i]->kind == AST_IDENT))
                x->name = vals[i]->name;
    for (int i = 0; i < x->nkids; i++)
        x->kids[i] = ev_splice(a, x->kids[i], names, vals, n, depth + 1);
    return x;
}

/* The elements of a literal tuple or vector (`for (f, op) in [(:add, +), ...]`), or NULL. */
static Node **ev_elements(Node *iter, int *n)
{
    if (!iter || (iter->kind != AST_TUPLE && iter->kind != AST_VECT))
        return NULL;
    *n = iter->nkids;
    return iter->kids;
}

static bool is_eval(const Node *n)
{
    return n && n->kind == AST_MACROCALL && strcmp(n->name, "eval") == 0 && n->nkids == 1 && n->kids[0];
}

/* Append the items an `@eval X` makes: X, or the statements of a `begin ... end` X. */
static void ev_push_items(Arena *a, PtrVec *out, Node *x)
{
    if (x->kind == AST_BLOCK) {
        for (int i = 0; i < x->nkids; i++)
            ptrvec_push(a, out, x->kids[i]);
    } else {
        ptrvec_push(a, out, x);
    }
}

/* The items of the loop `item` unrolled into out; false when it is no loop juke can unroll. */
static bool ev_unroll(Arena *a, Node *item, PtrVec *out)
{
    if (item->kind != AST_FOR || item->nkids < 3 || !item->kids[2])
        return false;
    Node *var = item->kids[0], *body = item->kids[2];
    int nel = 0;
    Node **els = ev_elements(item->kids[1], &nel);
    if (!els || !var || body->kind != AST_BLOCK || body->nkids == 0)
        return false;
    for (int i = 0; i < body->nkids; i++)
        if (!is_eval(body->kids[i]))
            return false;
    /* the loop variables: one name, or a tuple of names that each element destructures */
    const char *names[8];
    int nnames = 0;
    if (var->kind == AST_IDENT) {
        names[nnames++] = var->name;
    } else if (var->kind == AST_TUPLE && var->nkids <= 8) {
        for (int i = 0; i < var->nkids; i++) {
            if (!var->kids[i] || var->kids[i]->kind != AST_IDENT)
                return false;
            names[nnames++] = var->kids[i]->name;
        }
    } else {
        return false;
    }
    for (int e = 0; e < nel; e++) {
        Node *vals[8];
        if (var->kind == AST_IDENT) {
            vals[0] = els[e];
        } else {
            if (!els[e] || els[e]->kind != AST_TUPLE || els[e]->nkids != nnames)
                return false;
            for (int i = 0; i < nnames; i++)
                vals[i] = els[e]->kids[i];
        }
        for (int i = 0; i < body->nkids; i++) {
            Node *x = ast_clone(a, body->kids[i]->kids[0], 0);
            ev_push_items(a, out, ev_splice(a, x, names, vals, nnames, 0));
        }
    }
    return true;
}

void evalloop_expand(Arena *a, Diags *d, Node *file)
{
    (void)d;
    if (!file)
        return;
    bool any = false;
    for (int i = 0; i < file->nkids && !any; i++)
        any = (file->kids[i] && file->kids[i]->kind == AST_FOR) || is_eval(file->kids[i]);
    if (!any)
        return;
    PtrVec out = { 0 };
    for (int i = 0; i < file->nkids; i++) {
        Node *item = file->kids[i];
        if (is_eval(item))
            ev_push_items(a, &out, item->kids[0]);
        else if (!(item && item->kind == AST_FOR && ev_unroll(a, item, &out)))
            ptrvec_push(a, &out, item);
    }
    file->kids = (Node **)out.items;
    file->nkids = out.len;
}
