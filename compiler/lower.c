/* lower.c: AST → lowered IR, once per method, before any types are known.
 *
 * Variables become slots (every name assigned anywhere in the body, the loop
 * variables and the parameters); everything else a name can mean (a function,
 * a built-in, a constant, a type) is an IR_NAME resolved by inference.
 * Constants are inlined at their use. Control flow (if, while, for, &&, ||,
 * ?:, chained comparisons) becomes labels and gotos. */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "ka.h"
#include "abi.h"
#include "printfmt.h"

typedef struct Loop {
    int brk, cont;
} Loop;

typedef struct Lower {
    Arena *a;
    Diags *d;
    FeModule *mod;
    Method *m;
    IrFunc *f;
    Loop loops[64];
    int nloops;
    int inbounds;
    int views; /* inside @views: a slice A[I...] that reads is a view (base/prelude.jl's __maybeview) */
    int ntemps;
    int depth;
    const char *stack_limit; /* see jk_stack_limit */
    bool dead;               /* after return/break/continue: the next instruction is unreachable */
    struct {                 /* A[...] being lowered, innermost last: what `end` means in its indices */
        int array, dim, nidx;
    } ends[32];
    int nends;
    struct { /* the variables of the `let` blocks being lowered, innermost last: each shadows its name */
        const char *name;
        int slot;
    } lets[64];
    int nlets;
    const char *marrays[16]; /* variables assigned a StaticArrays MVector/MMatrix/MArray (lower_setindex) */
    int nmarrays;
    struct GotoLabel { /* the function's @label names, each an IR label; placed once its @label is lowered */
        const char *name;
        int label;
        bool placed;
        SrcLoc used; /* the first @goto of it */
    } *labels;
    int nlabels, labelcap;
} Lower;

static int lower_expr(Lower *L, Node *n);
static void lower_stmt(Lower *L, Node *n);

static int find_slot(Lower *L, const char *name)
{
    for (int i = L->nlets - 1; i >= 0; i--)
        if (strcmp(L->lets[i].name, name) == 0)
            return L->lets[i].slot;
    for (int i = 0; i < L->f->nslots; i++)
        if (L->f->slots[i].name && strcmp(L->f->slots[i].name, name) == 0) /* NULL: the arena ran out */
            return i;
    return -1;
}

static int add_slot(Lower *L, const char *name, SrcLoc loc)
{
    int s = find_slot(L, name);
    if (s >= 0)
        return s;
    s = ir_new_slot(L->a, L->f, name, loc);
    return s;
}

static int temp_slot(Lower *L, const char *what, SrcLoc loc)
{
    return ir_new_slot(L->a, L->f, arena_printf(L->a, "#%s%d", what, ++L->ntemps), loc);
}

/* Code after return/break/continue is unreachable: it starts a block of its
 * own (a label nothing jumps to), emitted only when such code exists, so a
 * body ending in `return` ends there. */
static int emit(Lower *L, IrOp op, SrcLoc loc)
{
    if (L->dead && op != IR_LABEL) {
        L->dead = false;
        int k = ir_emit(L->a, L->f, IR_LABEL, loc);
        L->f->insts[k].label = ir_new_label(L->f);
    }
    if (op == IR_LABEL)
        L->dead = false;
    return ir_emit(L->a, L->f, op, loc);
}

static int emit_const_int(Lower *L, int64_t v, SrcLoc loc)
{
    int k = emit(L, IR_CONST, loc);
    L->f->insts[k].lit = LIT_INT64;
    L->f->insts[k].ival = v;
    return k;
}

/* true, false or nothing: a constant that Julia writes as a name. */
static int emit_named(Lower *L, IrNamedConst c, SrcLoc loc)
{
    static const char *const names[] = { [IR_NOTHING] = "nothing", [IR_TRUE] = "true", [IR_FALSE] = "false" };
    int k = emit(L, IR_CONST, loc);
    L->f->insts[k].lit = LIT_NONE;
    L->f->insts[k].ival = c;
    L->f->insts[k].name = names[c];
    return k;
}

/* :name, a Symbol: a constant whose type is the symbol itself. */
static int emit_symbol(Lower *L, const char *name, SrcLoc loc)
{
    int k = emit(L, IR_CONST, loc);
    L->f->insts[k].lit = LIT_NONE;
    L->f->insts[k].ival = IR_SYMBOL;
    L->f->insts[k].name = arena_printf(L->a, ":%s", name);
    return k;
}

static int emit_name(Lower *L, const char *name, SrcLoc loc)
{
    int k = emit(L, IR_NAME, loc);
    L->f->insts[k].name = name;
    return k;
}

static int emit_call(Lower *L, SrcLoc loc, int callee, const int *args, int nargs)
{
    if (nargs > TY_MAX_FIELDS) {
        diag_error(L->d, loc, "too many arguments in a call (at most %d)", TY_MAX_FIELDS);
        nargs = TY_MAX_FIELDS;
    }
    int k = emit(L, IR_CALL, loc);
    int *all = arena_alloc(L->a, sizeof(int) * (size_t)(nargs + 1));
    if (!all)
        return k; /* the arena's failed flag ends the compile at the stage boundary */
    all[0] = callee;
    memcpy(all + 1, args, sizeof(int) * (size_t)nargs);
    L->f->insts[k].args = all;
    L->f->insts[k].nargs = nargs + 1;
    if (L->inbounds)
        L->f->insts[k].flags |= IRF_INBOUNDS;
    return k;
}

static int call_named(Lower *L, const char *fname, SrcLoc loc, const int *args, int nargs)
{
    return emit_call(L, loc, emit_name(L, fname, loc), args, nargs);
}

/* A call of an internal helper (builtins.def) by its id: no user function can take its place. The callee's
 * name is the row's printed one, for dumps. */
static int call_builtin(Lower *L, BuiltinId id, SrcLoc loc, const int *args, int nargs)
{
    int callee = emit_name(L, builtin_name(id), loc);
    L->f->insts[callee].builtin = id;
    return emit_call(L, loc, callee, args, nargs);
}

static void emit_assign(Lower *L, int slot, int value, SrcLoc loc)
{
    if (L->f->slots[slot].decl_type) {
        /* x::T = v converts every value stored into x, as Julia does */
        int args[2] = { lower_expr(L, L->f->slots[slot].decl_type), value };
        value = call_named(L, "convert", loc, args, 2);
    }
    int k = emit(L, IR_ASSIGN, loc);
    L->f->insts[k].slot = slot;
    ir_set_args(L->a, L->f, k, &value, 1);
}

static int emit_slot_read(Lower *L, int slot, SrcLoc loc)
{
    int k = emit(L, IR_SLOT, loc);
    L->f->insts[k].slot = slot;
    return k;
}

static void emit_label(Lower *L, int label, SrcLoc loc)
{
    int k = emit(L, IR_LABEL, loc);
    L->f->insts[k].label = label;
}

static void emit_goto(Lower *L, int label, SrcLoc loc)
{
    if (L->dead) /* an unreachable jump: leave it out */
        return;
    int k = emit(L, IR_GOTO, loc);
    L->f->insts[k].label = label;
}

static void emit_gotoifnot(Lower *L, int cond, int label, SrcLoc loc)
{
    int k = emit(L, IR_GOTOIFNOT, loc);
    L->f->insts[k].label = label;
    ir_set_args(L->a, L->f, k, &cond, 1);
}

/* ---- collecting locals: every name assigned in the body is a slot ---- */

/* (a = x, b = y): every element a name = value */
static bool is_named_tuple(const Node *n)
{
    for (int i = 0; i < n->nkids; i++)
        if (n->kids[i]->kind != AST_ASSIGN || n->kids[i]->kids[0]->kind != AST_IDENT || n->kids[i]->kids[0]->qual)
            return false;
    return n->nkids > 0;
}

static void collect_lhs(Lower *L, Node *lhs);
static void collect_chain(Lower *L, Node *n);
static bool is_keyword_arg(const Node *n);

static void collect_locals(Lower *L, Node *n)
{
    if (!n)
        return;
    if (++L->depth > 2000 || jk_stack_exhausted(L->stack_limit)) {
        /* past 2000, lower_expr reports the nesting (its limit is lower) */
        if (L->depth <= 2000)
            diag_error(L->d, n->loc, "expression too deeply nested for the available stack");
        L->depth--;
        return;
    }
    switch (n->kind) {
    case AST_ASSIGN:
    case AST_OPASSIGN:
        collect_lhs(L, n->kids[0]);
        collect_locals(L, n->kids[1]);
        break;
    case AST_TUPLE:
        if (is_named_tuple(n)) { /* (a = 1, b = 2) names fields, not variables */
            for (int i = 0; i < n->nkids; i++)
                collect_locals(L, n->kids[i]->kids[1]);
            break;
        }
        for (int i = 0; i < n->nkids; i++)
            collect_locals(L, n->kids[i]);
        break;
    case AST_FOR:
        collect_lhs(L, n->kids[0]);
        collect_locals(L, n->kids[1]);
        collect_locals(L, n->kids[2]);
        break;
    case AST_LOCAL:
        for (int i = 0; i < n->nkids; i++) {
            Node *k = n->kids[i];
            if (k->kind == AST_ASSIGN)
                collect_locals(L, k);
            else
                collect_lhs(L, k);
        }
        break;
    case AST_FUNCTION: break;
    case AST_LET: /* the bindings are the let's own variables (lower_let); only their values and the body */
        for (int i = 0; i < n->kids[0]->nkids; i++)
            if (n->kids[0]->kids[i]->kind == AST_ASSIGN)
                collect_locals(L, n->kids[0]->kids[i]->kids[1]);
        collect_locals(L, n->kids[1]);
        break;
    case AST_PARAMETERS: /* keyword arguments name no local */
        for (int i = 0; i < n->nkids; i++)
            collect_locals(L, n->kids[i]->kind == AST_ASSIGN ? n->kids[i]->kids[1] : n->kids[i]);
        break;
    default:
        if (n->kind == AST_CALL && n->nkids == 3 && n->kids[1] && n->kids[1]->kind == AST_CALL) {
            collect_chain(L, n);
            break;
        }
        if (n->kind == AST_CALL) { /* f(x, k = v): a keyword argument names no local */
            for (int i = 0; i < n->nkids; i++)
                collect_locals(L, i && is_keyword_arg(n->kids[i]) && n->kids[i]->kind == AST_ASSIGN
                                      ? n->kids[i]->kids[1]
                                      : n->kids[i]);
            break;
        }
        for (int i = 0; i < n->nkids; i++)
            collect_locals(L, n->kids[i]);
    }
    L->depth--;
}

/* a + b + c + ...: the parser's left-nested binary calls, walked with a loop
 * (in the order the recursion takes) so that a long sum is not deep nesting. */
static void collect_chain(Lower *L, Node *n)
{
    int len = 0;
    Node *bottom = n;
    for (; bottom->kind == AST_CALL && bottom->nkids == 3 && bottom->kids[1]; bottom = bottom->kids[1])
        len++;
    Node **spine = arena_alloc(L->a, sizeof(Node *) * (size_t)len);
    if (!spine)
        return; /* the arena's failed flag ends the load */
    Node *k = n;
    for (int i = 0; i < len; i++, k = k->kids[1]) {
        spine[i] = k;
        collect_locals(L, k->kids[0]);
    }
    collect_locals(L, bottom);
    for (int i = len - 1; i >= 0; i--)
        collect_locals(L, spine[i]->kids[2]);
}

static void collect_lhs(Lower *L, Node *lhs)
{
    if (!lhs)
        return;
    if (lhs->kind == AST_IDENT) {
        /* as in Julia, assigning a name inside a function makes it local, even one that names a
         * global constant (function bodies are hard scope); the constant stays as it is */
        if (find_slot(L, lhs->name) < 0) {
            int s = add_slot(L, lhs->name, lhs->loc);
            (void)s;
        }
    } else if (lhs->kind == AST_TYPED && lhs->kids[0]) {
        collect_lhs(L, lhs->kids[0]);
        int s = lhs->kids[0]->kind == AST_IDENT ? find_slot(L, lhs->kids[0]->name) : -1;
        if (s >= 0)
            L->f->slots[s].decl_type = lhs->kids[1];
    } else if (lhs->kind == AST_TUPLE) {
        for (int i = 0; i < lhs->nkids; i++)
            collect_lhs(L, lhs->kids[i]);
    } else {
        for (int i = 0; i < lhs->nkids; i++)
            collect_locals(L, lhs->kids[i]);
    }
}

/* ---- expressions ---- */

static int lower_literal(Lower *L, Node *n)
{
    int k = emit(L, IR_CONST, n->loc);
    IrInst *in = &L->f->insts[k];
    in->lit = n->lit;
    if (n->kind == AST_FLOAT)
        in->fval = n->fval;
    else
        in->ival = n->ival;
    return k;
}

/* `end` in A[..., end, ...]: lastindex(A) with one index, size(A, d) with several. */
static int lower_end(Lower *L, Node *n)
{
    int a = L->ends[L->nends - 1].array;
    if (L->ends[L->nends - 1].nidx == 1)
        return call_named(L, "length", n->loc, &a, 1);
    int args[2] = { a, emit_const_int(L, L->ends[L->nends - 1].dim, n->loc) };
    return call_named(L, "size", n->loc, args, 2);
}

static int lower_ident(Lower *L, Node *n)
{
    if (!n->qual) {
        int s = find_slot(L, n->name);
        if (s >= 0)
            return emit_slot_read(L, s, n->loc);
        if (L->nends && strcmp(n->name, "end") == 0)
            return lower_end(L, n);
        if (L->nends && strcmp(n->name, "begin") == 0)
            return emit_const_int(L, 1, n->loc);
        bool euler = strcmp(n->name, "ℯ") == 0;
        if ((strcmp(n->name, "π") == 0 || strcmp(n->name, "pi") == 0 || euler) && !fe_find_const(L->mod, n->name) &&
            !fe_find_func(L->mod, n->name)) {
            /* Irrational (π, ℯ): a Float64 that inference narrows to the float type it meets */
            int k = emit(L, IR_CONST, n->loc);
            L->f->insts[k].lit = LIT_FLOAT64;
            L->f->insts[k].fval = euler ? 2.71828182845904523536 : 3.14159265358979323846;
            L->f->insts[k].flags |= IRF_IRRATIONAL;
            return k;
        }
    }
    /* a constant, also by a module's name (AMDGPU.UnsafeAtomics.seq_cst is the prelude's seq_cst) */
    ConstDef *c = fe_find_const(L->mod, n->name);
    if (c && c->nonconst) {
        diag_error(L->d, n->loc,
                   "a kernel cannot read the non-constant global `%s` (Julia would box it; a GPU cannot): declare it "
                   "`const %s = ...`",
                   n->name, n->name);
        return emit_named(L, IR_NOTHING, n->loc);
    }
    if (c) {
        if (++L->depth > 64) {
            diag_error(L->d, n->loc, "constant `%s` is defined in terms of itself", n->name);
            L->depth--;
            return emit_named(L, IR_NOTHING, n->loc);
        }
        int v = lower_expr(L, c->value);
        L->depth--;
        return v;
    }
    return emit_name(L, n->name, n->loc);
}

/* Short-circuit and conditional expressions produce their value in a temporary slot. */
static int lower_andor(Lower *L, Node *n)
{
    int tmp = temp_slot(L, n->kind == AST_AND ? "and" : "or", n->loc);
    int lshort = ir_new_label(L->f), lend = ir_new_label(L->f);
    int a = lower_expr(L, n->kids[0]);
    if (n->kind == AST_AND) {
        emit_gotoifnot(L, a, lshort, n->loc);
        emit_assign(L, tmp, lower_expr(L, n->kids[1]), n->loc);
        emit_goto(L, lend, n->loc);
        emit_label(L, lshort, n->loc);
        emit_assign(L, tmp, emit_named(L, IR_FALSE, n->loc), n->loc);
    } else {
        int lrhs = lshort;
        emit_gotoifnot(L, a, lrhs, n->loc);
        emit_assign(L, tmp, emit_named(L, IR_TRUE, n->loc), n->loc);
        emit_goto(L, lend, n->loc);
        emit_label(L, lrhs, n->loc);
        emit_assign(L, tmp, lower_expr(L, n->kids[1]), n->loc);
    }
    emit_label(L, lend, n->loc);
    return emit_slot_read(L, tmp, n->loc);
}

static const char *nothing_test(const Node *c);
static const char *something_test(const Node *c);
static void narrow_slot(Lower *L, const char *x, const Node *body, SrcLoc loc);

/* c ? a : b, narrowing a Union{Nothing, T} tested by c as lower_if does */
static int lower_ternary(Lower *L, Node *n)
{
    int tmp = temp_slot(L, "if", n->loc);
    int lelse = ir_new_label(L->f), lend = ir_new_label(L->f);
    int saved = L->nlets;
    emit_gotoifnot(L, lower_expr(L, n->kids[0]), lelse, n->loc);
    narrow_slot(L, something_test(n->kids[0]), n->kids[1], n->loc);
    emit_assign(L, tmp, lower_expr(L, n->kids[1]), n->loc);
    L->nlets = saved;
    emit_goto(L, lend, n->loc);
    emit_label(L, lelse, n->loc);
    narrow_slot(L, nothing_test(n->kids[0]), n->kids[2], n->loc);
    emit_assign(L, tmp, lower_expr(L, n->kids[2]), n->loc);
    L->nlets = saved;
    emit_label(L, lend, n->loc);
    return emit_slot_read(L, tmp, n->loc);
}

/* a < b <= c: each operand evaluated once, false as soon as one fails. */
static int lower_comparison(Lower *L, Node *n)
{
    int tmp = temp_slot(L, "cmp", n->loc);
    int lend = ir_new_label(L->f), lfalse = ir_new_label(L->f);
    int left = lower_expr(L, n->kids[0]);
    for (int i = 1; i < n->nkids; i++) {
        int right = lower_expr(L, n->kids[i]);
        int args[2] = { left, right };
        int c = call_named(L, n->ops[i - 1], n->loc, args, 2);
        if (i == n->nkids - 1) {
            emit_assign(L, tmp, c, n->loc);
            emit_goto(L, lend, n->loc);
        } else {
            emit_gotoifnot(L, c, lfalse, n->loc);
        }
        left = right;
    }
    emit_label(L, lfalse, n->loc);
    emit_assign(L, tmp, emit_named(L, IR_FALSE, n->loc), n->loc);
    emit_label(L, lend, n->loc);
    return emit_slot_read(L, tmp, n->loc);
}

/* An argument, a tuple's element or an index: x... is #splat(x), which inference replaces by x's fields
 * (splat.c). */
static int lower_arg(Lower *L, Node *n)
{
    if (n->kind != AST_SPLAT)
        return lower_expr(L, n);
    int v = lower_expr(L, n->kids[0]);
    return call_builtin(L, BI_SPLAT, n->loc, &v, 1);
}

/* kids' values in a list of the arena with room for `before` values ahead of them (*out), as many values as a
 * tuple has fields (TY_MAX_FIELDS) in all: the count of kids' values, -1 if the arena is out of memory. */
static int lower_arg_list(Lower *L, Node **kids, int n, int before, int **out)
{
    if (before + n > TY_MAX_FIELDS) {
        diag_error(L->d, kids[TY_MAX_FIELDS - before]->loc, "too many arguments (at most %d)", TY_MAX_FIELDS);
        n = TY_MAX_FIELDS - before;
    }
    *out = arena_alloc(L->a, sizeof(int) * (size_t)(before + n + 1));
    if (!*out)
        return -1;
    for (int i = 0; i < n; i++)
        (*out)[before + i] = lower_arg(L, kids[i]);
    return n;
}

static int lower_args(Lower *L, Node **kids, int n, int *out, int max)
{
    if (n > max) {
        diag_error(L->d, kids[max]->loc, "too many arguments (at most %d)", max);
        n = max;
    }
    for (int i = 0; i < n; i++)
        out[i] = lower_arg(L, kids[i]);
    return n;
}

/* The indices of A[i, j, ...] (kids[1..] of an AST_REF) with `end` bound to A. */
static int lower_indices(Lower *L, Node *ref, int array, int *out, int max)
{
    int n = ref->nkids - 1;
    if (n > max) {
        diag_error(L->d, ref->kids[max + 1]->loc, "too many indices (at most %d)", max);
        n = max;
    }
    bool push = L->nends < JK_ARRAY_LEN(L->ends);
    if (push)
        L->ends[L->nends++] = (typeof(L->ends[0])){ array, 0, n };
    for (int i = 0; i < n; i++) {
        if (push)
            L->ends[L->nends - 1].dim = i + 1;
        out[i] = lower_arg(L, ref->kids[i + 1]);
    }
    if (push)
        L->nends--;
    return n;
}

static int lower_throw(Lower *L, Node *n);
/* new(args...) / new{T}(args...) in an inner constructor: #new(P or P{T}, args...). */
static int lower_new(Lower *L, Node *n)
{
    Node *callee = n->kids[0];
    StructDef *sd = L->m->owner;
    int head; /* P or P{T}, lowered before the fields' values */
    if (callee->kind == AST_CURLY) {
        /* new{T}: P{T} */
        Node *cp = arena_alloc(L->a, sizeof(Node));
        Node **kids = arena_alloc(L->a, sizeof(Node *) * (size_t)callee->nkids);
        if (!cp || !kids)
            return emit_named(L, IR_NOTHING, n->loc);
        *cp = *callee;
        memcpy(kids, callee->kids, sizeof(Node *) * (size_t)callee->nkids);
        kids[0] = arena_alloc(L->a, sizeof(Node));
        if (!kids[0])
            return emit_named(L, IR_NOTHING, n->loc);
        *kids[0] = (Node){ .kind = AST_IDENT, .loc = callee->loc, .name = sd->name };
        cp->kids = kids;
        head = lower_expr(L, cp);
    } else if (L->m->self) {
        head = lower_expr(L, L->m->self); /* new(x) in P{T}(x) where T: a P{T} */
    } else {
        head = emit_name(L, sd->name, callee->loc);
    }
    int *args;
    int na = lower_arg_list(L, n->kids + 1, n->nkids - 1, 1, &args);
    if (na < 0)
        return emit_named(L, IR_NOTHING, n->loc);
    args[0] = head;
    return call_builtin(L, BI_NEW, n->loc, args, na + 1);
}

static bool is_new(Lower *L, const Node *callee)
{
    if (!L->m->owner)
        return false;
    if (callee->kind == AST_CURLY)
        callee = callee->kids[0];
    return callee->kind == AST_IDENT && !callee->qual && strcmp(callee->name, "new") == 0 && find_slot(L, "new") < 0;
}

/* Is n a keyword argument of a call: name = value, or the `; ...` part? */
static bool is_keyword_arg(const Node *n)
{
    return n->kind == AST_PARAMETERS || (n->kind == AST_ASSIGN && n->kids[0]->kind == AST_IDENT && !n->kids[0]->qual);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* f(args...; k = v, j): Julia passes the keywords apart from the positional arguments (kwcall). Here it is
 * a call of `f#kw#j,k` (the keywords' names sorted) with the keywords' values in that order, then the
 * positional arguments: frontend.c defines that function's methods for each method of f that takes
 * keywords (kwargs.c). Arguments are evaluated in the order written. */
static int lower_kwcall(Lower *L, Node *n)
{
    Node *callee = n->kids[0];
    struct {
        const char *name;
        int value;
        SrcLoc loc;
    } kw[32];
    int nkw = 0, pos[64], npos = 0;
    for (int i = 1; i < n->nkids; i++) {
        Node *k = n->kids[i];
        if (!is_keyword_arg(k)) {
            if (npos < 62)
                pos[npos++] = lower_arg(L, k);
            continue;
        }
        Node **items = k->kind == AST_PARAMETERS ? k->kids : &n->kids[i];
        int nitems = k->kind == AST_PARAMETERS ? k->nkids : 1;
        for (int j = 0; j < nitems; j++) {
            Node *it = items[j];
            const char *name = NULL;
            Node *value = it;
            if (it->kind == AST_ASSIGN && it->kids[0]->kind == AST_IDENT) {
                name = it->kids[0]->name;
                value = it->kids[1];
            } else if (it->kind == AST_IDENT) {
                name = it->name; /* f(x; k) is f(x; k = k) */
            } else if (it->kind == AST_DOT) {
                name = it->name; /* f(x; p.k) is f(x; k = p.k) */
            } else if (it->kind == AST_SPLAT) {
                diag_error(L->d, it->loc,
                           "splatting keyword arguments (`%s...`) is not supported in kernels: pass each keyword "
                           "by name",
                           it->kids[0]->kind == AST_IDENT ? it->kids[0]->name : "kwargs");
                continue;
            } else {
                diag_error(L->d, it->loc, "syntax: invalid keyword argument \"%s\"", "?");
                continue;
            }
            for (int m = 0; m < nkw; m++)
                if (strcmp(kw[m].name, name) == 0)
                    diag_error(L->d, it->loc, "syntax: keyword argument \"%s\" repeated in call", name);
            if (nkw == 32) {
                diag_error(L->d, it->loc, "too many keyword arguments in a call (at most 32)");
                continue;
            }
            kw[nkw].name = name;
            kw[nkw].loc = it->loc;
            kw[nkw++].value = lower_expr(L, value);
        }
    }
    if (callee->kind != AST_IDENT || (!callee->qual && find_slot(L, callee->name) >= 0)) {
        diag_error(L->d, callee->loc,
                   "keyword arguments are only supported in calls of a function by its name in kernels");
        return emit_named(L, IR_NOTHING, n->loc);
    }
    if (nkw == 0)
        return emit_call(L, n->loc, emit_name(L, callee->name, callee->loc), pos, npos);
    const char *names[32];
    for (int m = 0; m < nkw; m++)
        names[m] = kw[m].name;
    qsort(names, (size_t)nkw, sizeof names[0], compare_names);
    int args[64], na = 0;
    for (int m = 0; m < nkw; m++)
        for (int k = 0; k < nkw; k++)
            if (kw[k].name == names[m] && na < 62)
                args[na++] = kw[k].value;
    for (int i = 0; i < npos && na < 62; i++)
        args[na++] = pos[i];
    return emit_call(L, n->loc, emit_name(L, kwcall_name(L->a, callee->name, names, nkw), callee->loc), args, na);
}

/* KernelAbstractions.KernelIntrinsics.localmemory(T, dims), unless the file defines a localmemory. */
static bool is_ki_localmemory(Lower *L, const Node *n)
{
    const Node *callee = n->kids[0];
    return callee->kind == AST_IDENT && n->nkids == 3 && strcmp(callee->name, "localmemory") == 0 &&
           (callee->qual || find_slot(L, "localmemory") < 0) && !fe_find_func(L->mod, "localmemory");
}

static int lower_call(Lower *L, Node *n);
static bool is_marray(Lower *L, const Node *a);

/* Is n sort!(x, ...) (Base's or unqualified) of a variable holding an MVector (note_marray)? */
static bool is_marray_sort(Lower *L, const Node *n)
{
    const Node *f = n->kids[0];
    return f->kind == AST_IDENT && strcmp(f->name, "sort!") == 0 && (!f->qual || strcmp(f->qual, "Base") == 0) &&
           find_slot(L, f->name) < 0 && n->nkids > 1 && is_marray(L, n->kids[1]) && find_slot(L, n->kids[1]->name) >= 0;
}

/* sort!(x, ...) of an MVector variable is x = sort(x, ...) (base/staticarrays.jl): juke keeps the mutable
 * array as a value, so the sorted one replaces it in x's slot, and the call's value is it, as sort! returns x. */
static int lower_marray_sort(Lower *L, Node *n)
{
    Node *c = arena_alloc(L->a, sizeof(Node));
    Node **kids = arena_alloc(L->a, sizeof(Node *) * (size_t)n->nkids);
    Node *f = ast_ident(L->a, n->kids[0]->loc, "sort");
    if (!c || !kids || !f)
        return emit_named(L, IR_NOTHING, n->loc);
    *c = *n;
    memcpy(kids, n->kids, sizeof(Node *) * (size_t)n->nkids);
    kids[0] = f;
    c->kids = kids;
    int v = lower_call(L, c);
    emit_assign(L, find_slot(L, n->kids[1]->name), v, n->loc);
    return v;
}

static int lower_call(Lower *L, Node *n)
{
    Node *callee = n->kids[0];
    if (callee->kind == AST_IDENT && (strcmp(callee->name, "error") == 0 || strcmp(callee->name, "throw") == 0) &&
        find_slot(L, callee->name) < 0 && !fe_find_const(L->mod, callee->name))
        return lower_throw(L, n);
    if (callee->kind == AST_IDENT && !callee->qual &&
        (strcmp(callee->name, "println") == 0 || strcmp(callee->name, "print") == 0) &&
        find_slot(L, callee->name) < 0 && !fe_find_func(L->mod, callee->name)) {
        diag_error(L->d, callee->loc,
                   "%s is not available in kernels: print with @rocprintln \"x = $x\" (or @rocprint, "
                   "@rocprintf)",
                   callee->name);
        return emit_named(L, IR_NOTHING, n->loc);
    }
    if (callee->kind == AST_IDENT && (strcmp(callee->name, "ccall") == 0 || strcmp(callee->name, "llvmcall") == 0) &&
        find_slot(L, callee->name) < 0 && !fe_find_func(L->mod, callee->name)) {
        diag_error(L->d, callee->loc,
                   "%s is not available in kernels: juke compiles Julia, not calls of C, LLVM or device-library "
                   "functions by name; call the AMDGPU.jl function that wraps the intrinsic (sync_workgroup() for "
                   "llvm.amdgcn.s.barrier, workitemIdx() for llvm.amdgcn.workitem.id.x, ...)",
                   callee->name);
        return emit_named(L, IR_NOTHING, n->loc);
    }
    if (is_marray_sort(L, n))
        return lower_marray_sort(L, n);
    if (n->nkids > 1 && is_keyword_arg(n->kids[n->nkids - 1]))
        return lower_kwcall(L, n);
    if (is_ki_localmemory(L, n)) {
        /* KI.localmemory(T, dims): the workgroup's static local memory, not zeroed (KA's SharedMemory) */
        int a[3] = { lower_expr(L, n->kids[1]), lower_expr(L, n->kids[2]), emit_named(L, IR_FALSE, n->loc) };
        return call_named(L, "ROCStaticLocalArray", n->loc, a, 3);
    }
    int fn;
    if (is_new(L, callee))
        return lower_new(L, n);
    if (callee->kind == AST_IDENT && (callee->qual || find_slot(L, callee->name) < 0) &&
        !fe_find_const(L->mod, callee->name))
        fn = emit_name(L, callee->name, callee->loc);
    else
        fn = lower_expr(L, callee);
    int *args, na = lower_arg_list(L, n->kids + 1, n->nkids - 1, 0, &args);
    return na < 0 ? emit_named(L, IR_NOTHING, n->loc) : emit_call(L, n->loc, fn, args, na);
}

/* Is n a binary call f(a, b) of a function named by a global name, as the
 * parser builds a + b? */
static bool chain_link(Lower *L, const Node *n)
{
    if (!n || n->kind != AST_CALL || n->nkids != 3 || n->kids[0]->kind != AST_IDENT)
        return false;
    const Node *callee = n->kids[0];
    return (callee->qual || find_slot(L, callee->name) < 0) && !fe_find_const(L->mod, callee->name);
}

/* a + b + c + ... (left-nested binary calls) with a loop instead of one level
 * of recursion per operand, so a sum of 100,000 terms is not deep nesting;
 * the instructions, and their order, are those lower_call would emit. */
static int lower_chain(Lower *L, Node *n)
{
    int len = 0;
    Node *bottom = n;
    for (; chain_link(L, bottom); bottom = bottom->kids[1])
        len++;
    Node **spine = arena_alloc(L->a, sizeof(Node *) * (size_t)len);
    int *fns = arena_alloc(L->a, sizeof(int) * (size_t)len);
    if (!spine || !fns)
        return emit_named(L, IR_NOTHING, n->loc);
    Node *k = n;
    for (int i = 0; i < len; i++, k = k->kids[1]) {
        spine[i] = k;
        fns[i] = emit_name(L, k->kids[0]->name, k->kids[0]->loc);
    }
    int v = lower_expr(L, bottom);
    for (int i = len - 1; i >= 0; i--) {
        int args[2] = { v, lower_expr(L, spine[i]->kids[2]) };
        v = emit_call(L, spine[i]->loc, fns[i], args, 2);
    }
    return v;
}

/* AMDGPU.@atomic A[i] op= v, @atomic A[i] = v, @atomic max(A[i], v). */
static int lower_atomic(Lower *L, Node *n)
{
    static const struct {
        const char *op, *fn;
    } ops[] = {
        { "+", "atomic_add!" }, { "-", "atomic_sub!" },   { "&", "atomic_and!" },   { "|", "atomic_or!" },
        { "⊻", "atomic_xor!" }, { "xor", "atomic_xor!" }, { "max", "atomic_max!" }, { "min", "atomic_min!" },
    };
    Node *e = n->nkids == 1 ? n->kids[0] : NULL;
    const char *fn = NULL;
    Node *ref = NULL, *val = NULL;
    if (e && e->kind == AST_OPASSIGN) {
        for (int i = 0; i < JK_ARRAY_LEN(ops); i++)
            if (strcmp(ops[i].op, e->name) == 0)
                fn = ops[i].fn;
        ref = e->kids[0];
        val = e->kids[1];
    } else if (e && e->kind == AST_ASSIGN) {
        fn = "atomic_xchg!";
        ref = e->kids[0];
        val = e->kids[1];
    } else if (e && e->kind == AST_CALL && e->nkids == 3 && e->kids[0]->kind == AST_IDENT) {
        for (int i = 0; i < JK_ARRAY_LEN(ops); i++)
            if (strcmp(ops[i].op, e->kids[0]->name) == 0)
                fn = ops[i].fn;
        ref = e->kids[1];
        val = e->kids[2];
    }
    /* AMDGPU.@atomic has neither a load nor *= (its AtomicError); Atomix's (KernelAbstractions') has both */
    bool amdgpu = n->qual && strcmp(n->qual, "AMDGPU") == 0;
    if (e && e->kind == AST_REF && !fn && !amdgpu) /* Atomix's @atomic A[i]: a load (aligned loads are atomic) */
        return lower_expr(L, e);
    if (!fn && !amdgpu && e && e->kind == AST_OPASSIGN && e->kids[0]->kind == AST_REF &&
        (strcmp(e->name, "*") == 0 || strcmp(e->name, "/") == 0)) {
        /* Atomix's @atomic A[i] *= x, /= x: base/prelude.jl's __atomic_modify, a compare-and-swap loop, on the
         * element's checked pointer (base/atomix.jl's __atomic_ref); the new value */
        ref = e->kids[0];
        int args[64];
        args[0] = lower_expr(L, ref->kids[0]);
        int na = 1 + lower_indices(L, ref, args[0], args + 1, 59);
        int call[3] = { call_named(L, "__atomic_ref", ref->loc, args, na), emit_name(L, e->name, e->loc),
                        lower_expr(L, e->kids[1]) };
        return call_named(L, "__atomic_modify", n->loc, call, 3);
    }
    if (!fn || !ref || ref->kind != AST_REF) {
        diag_error(L->d, n->loc,
                   "AMDGPU.@atomic expects `A[i] op= x` (op one of + - & | ⊻), `A[i] = x`, or `max(A[i], x)` / "
                   "`min(A[i], x)`");
        return emit_named(L, IR_NOTHING, n->loc);
    }
    int args[64];
    args[0] = lower_expr(L, ref->kids[0]);
    int na = 1 + lower_indices(L, ref, args[0], args + 1, 59);
    args[na++] = lower_expr(L, val);
    return call_named(L, fn, n->loc, args, na);
}

/* Atomix's @atomicswap A[i] = v (the old value) and @atomicreplace A[i] expected => desired (the NamedTuple
 * (old = ..., success = ...)), as KernelAbstractions re-exports them: calls of base/prelude.jl's
 * __atomicswap and __atomicreplace on the element's pointer, __atomic_ref(A, i...) (bounds-checked). */
static int lower_atomix(Lower *L, Node *n)
{
    bool swap = strcmp(n->name, "atomicswap") == 0;
    Node *e = n->nkids >= 1 ? n->kids[0] : NULL, *ref = NULL, *v1 = NULL, *v2 = NULL;
    if (swap && n->nkids == 1 && e->kind == AST_ASSIGN) {
        ref = e->kids[0];
        v1 = e->kids[1];
    } else if (!swap && n->nkids == 2 && n->kids[1]->kind == AST_CALL && n->kids[1]->nkids == 3 &&
               n->kids[1]->kids[0]->kind == AST_IDENT && strcmp(n->kids[1]->kids[0]->name, "Pair") == 0) {
        ref = e;
        v1 = n->kids[1]->kids[1];
        v2 = n->kids[1]->kids[2];
    }
    if (!ref || ref->kind != AST_REF) {
        diag_error(L->d, n->loc,
                   swap ? "@atomicswap expects `A[i] = x`" : "@atomicreplace expects `A[i] expected => desired`");
        return emit_named(L, IR_NOTHING, n->loc);
    }
    int args[64];
    args[0] = lower_expr(L, ref->kids[0]);
    int na = 1 + lower_indices(L, ref, args[0], args + 1, 59);
    int call[3] = { call_named(L, "__atomic_ref", ref->loc, args, na), lower_expr(L, v1), v2 ? lower_expr(L, v2) : 0 };
    return call_named(L, swap ? "__atomicswap" : "__atomicreplace", n->loc, call, swap ? 2 : 3);
}

/* ---- printing and throwing: calls of #print / #throw by id, the format in the call's .name, the
 * mode (#print) or the JukeThrownKind (#throw) in its .ival */

static int lower_formatted(Lower *L, BuiltinId id, const PrintFormat *pf, int aux, SrcLoc loc)
{
    int args[64];
    for (int i = 0; i < pf->nvals; i++)
        args[i] = lower_expr(L, pf->vals[i]);
    int k = call_builtin(L, id, loc, args, pf->nvals);
    L->f->insts[k].name = pf->fmt;
    L->f->insts[k].ival = aux;
    return k;
}

static Node *string_node(Lower *L, const char *text, SrcLoc loc)
{
    Node *n = arena_alloc(L->a, sizeof *n);
    if (n) {
        n->kind = AST_STRING;
        n->loc = loc;
        n->name = text;
    }
    return n;
}

/* A message of parts; false after a diagnostic or when the arena ran out. */
static bool thrown_message(Lower *L, Node **parts, int n, const char *prefix, PrintFormat *pf)
{
    for (int i = 0; i < n; i++)
        if (!parts[i])
            return false;
    return printfmt_message(L->a, L->d, parts, n, prefix, pf);
}

/* The exceptions kernels may throw (runtime/abi.h's JukeThrownKind) and how each shows its arguments:
 * a message (ErrorException("msg")); a value (KeyError(k): "key k not found"); none. */
enum { SHOW_MESSAGE, SHOW_KEY, SHOW_DOMAIN, SHOW_BOUNDS, SHOW_INEXACT, SHOW_UNDEFVAR, SHOW_NONE };
static const struct {
    const char *name;
    int kind, show;
} thrown_types[] = {
    { "ErrorException", JUKE_THROWN_ERROR, SHOW_MESSAGE },
    { "AssertionError", JUKE_THROWN_ASSERTION, SHOW_MESSAGE },
    { "ArgumentError", JUKE_THROWN_ARGUMENT, SHOW_MESSAGE },
    { "OverflowError", JUKE_THROWN_OVERFLOW, SHOW_MESSAGE },
    { "DimensionMismatch", JUKE_THROWN_DIMENSION_MISMATCH, SHOW_MESSAGE },
    { "KeyError", JUKE_THROWN_KEY, SHOW_KEY },
    { "DomainError", JUKE_THROWN_DOMAIN, SHOW_DOMAIN },
    { "BoundsError", JUKE_THROWN_BOUNDS, SHOW_BOUNDS },
    { "InexactError", JUKE_THROWN_INEXACT, SHOW_INEXACT },
    { "UndefVarError", JUKE_THROWN_UNDEFVAR, SHOW_UNDEFVAR },
    { "DivideError", JUKE_THROWN_DIVIDE, SHOW_NONE },
};

/* error(parts...) and throw(E(args...)) as Julia shows E's message. */
static int lower_throw(Lower *L, Node *n)
{
    Node *callee = n->kids[0];
    PrintFormat pf;
    if (strcmp(callee->name, "error") == 0) {
        if (!thrown_message(L, n->kids + 1, n->nkids - 1, NULL, &pf))
            return emit_named(L, IR_NOTHING, n->loc);
        return lower_formatted(L, BI_THROW, &pf, JUKE_THROWN_ERROR, n->loc);
    }
    Node *e = n->nkids == 2 ? n->kids[1] : NULL;
    int t = -1;
    if (e && e->kind == AST_CALL && e->kids[0]->kind == AST_IDENT)
        for (int i = 0; i < JK_ARRAY_LEN(thrown_types); i++)
            if (strcmp(e->kids[0]->name, thrown_types[i].name) == 0)
                t = i;
    if (t < 0) {
        diag_error(L->d, e ? e->loc : n->loc,
                   "throw: kernels throw Base's exceptions built where they are thrown, such as "
                   "throw(ArgumentError(\"msg\")) (ErrorException, ArgumentError, AssertionError, DomainError, "
                   "BoundsError, DivideError, OverflowError, InexactError, KeyError, DimensionMismatch)");
        return emit_named(L, IR_NOTHING, n->loc);
    }
    Node **a = e->kids + 1;
    int na = e->nkids - 1;
    Node *parts[16];
    int np = 0;
    SrcLoc at = e->loc;
    bool ok = true;
    switch (thrown_types[t].show) {
    case SHOW_MESSAGE: ok = thrown_message(L, a, na, NULL, &pf); break;
    case SHOW_KEY:
        if (na == 1) {
            parts[np++] = string_node(L, "key ", at);
            parts[np++] = a[0];
            parts[np++] = string_node(L, " not found", at);
        }
        ok = thrown_message(L, parts, np, NULL, &pf);
        break;
    case SHOW_DOMAIN:
        /* "DomainError with -1.0:\nmsg" */
        if (na >= 1) {
            parts[np++] = string_node(L, "with ", at);
            parts[np++] = a[0];
            if (na >= 2) {
                parts[np++] = string_node(L, ":\n", at);
                parts[np++] = a[1];
            }
        }
        ok = thrown_message(L, parts, np, NULL, &pf);
        break;
    case SHOW_INEXACT:
        /* InexactError(:f, T, x): "InexactError: f(T, x)" */
        if (na == 3 && a[0]->kind == AST_SYMBOL) {
            StrBuf sb = { 0 };
            sb_printf(&sb, "%s(", a[0]->name);
            ast_print(&sb, a[1]);
            sb_puts(&sb, ", ");
            const char *head = arena_strndup(L->a, sb.data ? sb.data : "", sb.len);
            sb_free(&sb);
            parts[np++] = string_node(L, head, at);
            parts[np++] = a[2];
            parts[np++] = string_node(L, ")", at);
        }
        ok = thrown_message(L, parts, np, NULL, &pf);
        break;
    case SHOW_UNDEFVAR:
        if (na == 1 && a[0]->kind == AST_SYMBOL) {
            parts[np++] = string_node(L, "`", at);
            parts[np++] = string_node(L, a[0]->name, at);
            parts[np++] = string_node(L, "` not defined", at);
        }
        ok = thrown_message(L, parts, np, NULL, &pf);
        break;
    case SHOW_BOUNDS:
        /* BoundsError(A, i...): the indices (the array itself cannot be shown from a kernel) */
        if (na >= 2) {
            parts[np++] = string_node(L, "attempt to access an array at index [", at);
            for (int i = 1; i < na && np < 14; i++) {
                if (i > 1)
                    parts[np++] = string_node(L, ", ", at);
                parts[np++] = a[i];
            }
            parts[np++] = string_node(L, "]", at);
        }
        ok = thrown_message(L, parts, np, NULL, &pf);
        break;
    default: ok = thrown_message(L, parts, 0, NULL, &pf); break;
    }
    if (!ok)
        return emit_named(L, IR_NOTHING, n->loc);
    return lower_formatted(L, BI_THROW, &pf, thrown_types[t].kind, n->loc);
}

/* @assert cond [msg] (and @rocassert): unless cond, throw an AssertionError whose message is msg or, as
 * Julia's, the condition's source. */
/* @show a b...: each expression, then a line "text = value" from every work-item, the text as Julia
 * prints the expression and the value as Julia's show does (%R, runtime/print.c); the value of the last
 * expression. */
static int lower_show(Lower *L, Node *n)
{
    int v = -1;
    for (int i = 0; i < n->nkids; i++) {
        v = lower_expr(L, n->kids[i]);
        StrBuf sb = { 0 };
        ast_print(&sb, n->kids[i]);
        StrBuf fmt = { 0 };
        for (size_t k = 0; k < sb.len; k++)
            sb_puts(&fmt, sb.data[k] == '%' ? "%%" : (char[2]){ sb.data[k], 0 });
        sb_puts(&fmt, " = %R\n");
        int k = call_builtin(L, BI_PRINT, n->kids[i]->loc, &v, 1);
        L->f->insts[k].name = arena_strndup(L->a, fmt.data ? fmt.data : "", fmt.len);
        L->f->insts[k].ival = PRINT_LANE;
        sb_free(&sb);
        sb_free(&fmt);
    }
    return v >= 0 ? v : emit_named(L, IR_NOTHING, n->loc);
}

static int lower_assert(Lower *L, Node *n)
{
    if (n->nkids < 1 || n->nkids > 2) {
        diag_error(L->d, n->loc, "@%s takes a condition and an optional message", n->name);
        return emit_named(L, IR_NOTHING, n->loc);
    }
    PrintFormat pf;
    Node *msg = n->nkids == 2 ? n->kids[1] : NULL;
    if (!msg) {
        StrBuf sb = { 0 };
        ast_print(&sb, n->kids[0]);
        msg = string_node(L, arena_strndup(L->a, sb.data ? sb.data : "", sb.len), n->kids[0]->loc);
        sb_free(&sb);
    }
    if (!thrown_message(L, &msg, 1, NULL, &pf))
        return emit_named(L, IR_NOTHING, n->loc);
    int ok = ir_new_label(L->f);
    int c = lower_expr(L, n->kids[0]);
    int fail = ir_new_label(L->f);
    emit_gotoifnot(L, c, fail, n->loc);
    emit_goto(L, ok, n->loc);
    emit_label(L, fail, n->loc);
    lower_formatted(L, BI_THROW, &pf, JUKE_THROWN_ASSERTION, n->loc);
    emit_label(L, ok, n->loc);
    return emit_named(L, IR_NOTHING, n->loc);
}

/* StaticArrays' @SVector, @MVector, @SMatrix and @MMatrix (with `using StaticArrays`) of zeros(T, dims...),
 * ones(T, dims...), fill(x, dims...) or a vector literal [a, b, ...]: base/staticarrays.jl's
 * __sa_make(X, x, Val(d1)[, Val(d2)]) and X((a, b, ...)), the sizes constants of the call as the macro's are. */
static int lower_static_array(Lower *L, Node *n)
{
    bool matrix = strcmp(n->name + 1, "Matrix") == 0;
    Node *a = n->nkids == 1 ? n->kids[0] : NULL;
    if (a && a->kind == AST_VECT && !matrix) {
        int *elems, ne = lower_arg_list(L, a->kids, a->nkids, 0, &elems);
        if (ne < 0)
            return emit_named(L, IR_NOTHING, n->loc);
        int t = call_named(L, "tuple", n->loc, elems, ne);
        return call_named(L, n->name, n->loc, &t, 1);
    }
    const char *f = a && a->kind == AST_CALL && a->kids[0]->kind == AST_IDENT ? a->kids[0]->name : "";
    bool filled = strcmp(f, "fill") == 0;
    if ((filled || strcmp(f, "zeros") == 0 || strcmp(f, "ones") == 0) && a->nkids == (matrix ? 4 : 3)) {
        int x = lower_expr(L, a->kids[1]);
        if (!filled)
            x = call_named(L, f[0] == 'z' ? "zero" : "one", n->loc, &x, 1);
        int args[4] = { emit_name(L, n->name, n->loc), x };
        for (int d = 2; d < a->nkids; d++) {
            Node *dim = a->kids[d];
            if (dim->kind == AST_INT && dim->ival > TY_MAX_FIELDS) {
                diag_error(L->d, dim->loc,
                           "@%s of %lld elements along a dimension: juke's static arrays are tuples of "
                           "up to %d",
                           n->name, (long long)dim->ival, TY_MAX_FIELDS);
                return emit_named(L, IR_NOTHING, n->loc);
            }
            int v = lower_expr(L, dim);
            args[d] = call_named(L, "Val", n->loc, &v, 1);
        }
        return call_named(L, "__sa_make", n->loc, args, a->nkids);
    }
    diag_error(L->d, n->loc, "@%s takes zeros(T, %s), ones(T, %s), fill(x, %s)%s", n->name, matrix ? "n, m" : "n",
               matrix ? "n, m" : "n", matrix ? "n, m" : "n", matrix ? "" : " or a vector literal [a, b, ...]");
    return emit_named(L, IR_NOTHING, n->loc);
}

/* The IR label of the function's `@label name`, made at its first @label or @goto; NULL if the arena ran out. */
static struct GotoLabel *goto_label(Lower *L, const char *name, SrcLoc loc)
{
    for (int i = 0; i < L->nlabels; i++)
        if (strcmp(L->labels[i].name, name) == 0)
            return &L->labels[i];
    struct GotoLabel *ls = arena_grow(L->a, L->labels, L->nlabels, &L->labelcap, sizeof *ls, 4);
    if (!ls)
        return NULL;
    L->labels = ls;
    ls[L->nlabels] = (struct GotoLabel){ name, ir_new_label(L->f), false, loc };
    return &ls[L->nlabels++];
}

/* @goto name / @label name: a jump to the place of the function's @label, before or after it (Julia's
 * symbolic goto); the code after @goto is unreachable until a label. */
static int lower_goto(Lower *L, Node *n)
{
    bool is_label = strcmp(n->name, "label") == 0;
    if (n->nkids != 1 || n->kids[0]->kind != AST_IDENT) {
        diag_error(L->d, n->loc, "@%s takes a label name: @%s name", n->name, n->name);
        return emit_named(L, IR_NOTHING, n->loc);
    }
    struct GotoLabel *g = goto_label(L, n->kids[0]->name, n->loc);
    if (!g)
        return emit_named(L, IR_NOTHING, n->loc);
    if (is_label && g->placed)
        diag_error(L->d, n->loc, "syntax: label \"%s\" defined multiple times", g->name);
    if (is_label) {
        g->placed = true;
        emit_label(L, g->label, n->loc);
    } else {
        emit_goto(L, g->label, n->loc);
        L->dead = true;
    }
    return emit_named(L, IR_NOTHING, n->loc);
}

static int lower_macro(Lower *L, Node *n)
{
    if (strcmp(n->name, "goto") == 0 || strcmp(n->name, "label") == 0)
        return lower_goto(L, n);
    if (strcmp(n->name, "inbounds") == 0) {
        if (n->nkids != 1) {
            diag_error(L->d, n->loc, "@inbounds takes one expression");
            return emit_named(L, IR_NOTHING, n->loc);
        }
        L->inbounds++;
        int v = lower_expr(L, n->kids[0]);
        L->inbounds--;
        return v;
    }
    if (strcmp(n->name, "ROCDynamicLocalArray") == 0 && n->nkids == 4) {
        /* AMDGPU.jl 0.5's @ROCDynamicLocalArray(T, dims, zeroinit, offset): the array starts offset bytes into
         * the launch's dynamic local memory (base/prelude.jl's __dynamic_local) */
        int zero = lower_expr(L, n->kids[2]);
        int args[4] = { lower_expr(L, n->kids[0]), lower_expr(L, n->kids[1]), call_named(L, "Val", n->loc, &zero, 1),
                        lower_expr(L, n->kids[3]) };
        return call_named(L, "__dynamic_local", n->loc, args, 4);
    }
    if (strcmp(n->name, "ROCStaticLocalArray") == 0 || strcmp(n->name, "ROCDynamicLocalArray") == 0) {
        if (n->nkids < 2 || n->nkids > 3) {
            diag_error(L->d, n->loc, "@%s takes (T, dims) or (T, dims, zeroinit)", n->name);
            return emit_named(L, IR_NOTHING, n->loc);
        }
        int args[3];
        args[0] = lower_expr(L, n->kids[0]);
        args[1] = lower_expr(L, n->kids[1]);
        args[2] = n->nkids == 3 ? lower_expr(L, n->kids[2]) : emit_named(L, IR_TRUE, n->loc);
        return call_named(L, n->name, n->loc, args, 3);
    }
    if (strcmp(n->name, "#private") == 0 && n->nkids == 2) { /* @private T dims (ka.c) */
        int args[2] = { lower_expr(L, n->kids[0]), lower_expr(L, n->kids[1]) };
        return call_builtin(L, BI_PRIVATE, n->loc, args, 2);
    }
    if (strcmp(n->name, "view") == 0 && n->nkids == 1 && n->kids[0]->kind == AST_REF) {
        /* @view A[I...] is view(A, I...), `end` in I bound to A as in A[I...] */
        Node *r = n->kids[0];
        int args[64];
        args[0] = lower_expr(L, r->kids[0]);
        int na = 1 + lower_indices(L, r, args[0], args + 1, 63);
        return call_named(L, "view", n->loc, args, na);
    }
    if (strcmp(n->name, "views") == 0 && n->nkids == 1) {
        L->views++;
        int v = lower_expr(L, n->kids[0]);
        L->views--;
        return v;
    }
    if (strcmp(n->name, "atomic") == 0)
        return lower_atomic(L, n);
    if (strcmp(n->name, "atomicswap") == 0 || strcmp(n->name, "atomicreplace") == 0)
        return lower_atomix(L, n);
    if (strcmp(n->name, "rocprintf") == 0 || strcmp(n->name, "rocprint") == 0 || strcmp(n->name, "rocprintln") == 0 ||
        strcmp(n->name, "print") == 0 || strcmp(n->name, "cuprintf") == 0 || strcmp(n->name, "cuprint") == 0 ||
        strcmp(n->name, "cuprintln") == 0) {
        PrintFormat pf;
        if (!printfmt_macro(L->a, L->d, n, &pf))
            return emit_named(L, IR_NOTHING, n->loc);
        lower_formatted(L, BI_PRINT, &pf, pf.mode, n->loc);
        return emit_named(L, IR_NOTHING, n->loc);
    }
    if (strcmp(n->name, "assert") == 0 || strcmp(n->name, "rocassert") == 0)
        return lower_assert(L, n);
    if (strcmp(n->name, "SVector") == 0 || strcmp(n->name, "MVector") == 0 || strcmp(n->name, "SMatrix") == 0 ||
        strcmp(n->name, "MMatrix") == 0)
        return lower_static_array(L, n);
    if (strcmp(n->name, "show") == 0)
        return lower_show(L, n);
    /* annotations with no effect on what a kernel computes: @fastmath keeps
     * IEEE semantics here (allowed: it only permits faster code), @simd and
     * @unroll leave loop transformations to LLVM; `@simd ivdep for` and
     * `@unroll 4 for` carry an option before the loop; @boundscheck's
     * block always runs (juke keeps bounds checks per call site, so no
     * caller's @inbounds elides it) */
    static const char *const noops[] = { "inline", "noinline",           "fastmath",   "simd",
                                         "unroll", "propagate_inbounds", "boundscheck" };
    for (int i = 0; i < JK_ARRAY_LEN(noops); i++) {
        if (strcmp(n->name, noops[i]) != 0)
            continue;
        if (n->nkids == 1)
            return lower_expr(L, n->kids[0]);
        if (n->nkids == 2 && (strcmp(n->name, "simd") == 0 || strcmp(n->name, "unroll") == 0) &&
            n->kids[1]->kind == AST_FOR)
            return lower_expr(L, n->kids[1]);
    }
    diag_error(L->d, n->loc, "unsupported macro @%s: %s", n->name,
               ka_macro_hint(n->name, (n->flags & MACRO_USER) != 0));
    return emit_named(L, IR_NOTHING, n->loc);
}

static void lower_assign_to(Lower *L, Node *lhs, int value, SrcLoc loc);

/* Note x = MVector...(...) (and MMatrix, MArray, with parameters or not; or @MVector/@MMatrix ...): juke keeps
 * mutable structs as values, so x[i] = v on such a variable assigns x the updated array (lower_setindex). */
static void note_marray(Lower *L, const Node *lhs, const Node *rhs)
{
    if (lhs->kind != AST_IDENT || lhs->qual || L->nmarrays == JK_ARRAY_LEN(L->marrays))
        return;
    const char *name = rhs->kind == AST_MACROCALL ? rhs->name : "";
    if (rhs->kind == AST_CALL) {
        const Node *c = rhs->kids[0]->kind == AST_CURLY ? rhs->kids[0]->kids[0] : rhs->kids[0];
        name = c->kind == AST_IDENT ? c->name : "";
    }
    if (strcmp(name, "MVector") == 0 || strcmp(name, "MMatrix") == 0 || strcmp(name, "MArray") == 0)
        L->marrays[L->nmarrays++] = lhs->name;
}

static bool is_marray(Lower *L, const Node *a)
{
    for (int i = 0; a->kind == AST_IDENT && !a->qual && i < L->nmarrays; i++)
        if (strcmp(L->marrays[i], a->name) == 0)
            return true;
    return false;
}

/* setindex!(A, v, i...); for a variable holding a StaticArrays MVector/MMatrix (note_marray),
 * A = __sa_setindex(A, v, i...) (base/staticarrays.jl), the array with the element replaced */
static void lower_setindex(Lower *L, Node *ref, int value, SrcLoc loc)
{
    int args[64];
    args[0] = lower_expr(L, ref->kids[0]);
    args[1] = value;
    int na = 2 + lower_indices(L, ref, args[0], args + 2, 60);
    if (is_marray(L, ref->kids[0]) && find_slot(L, ref->kids[0]->name) >= 0) {
        int v = call_named(L, "__sa_setindex", loc, args, na);
        emit_assign(L, find_slot(L, ref->kids[0]->name), v, loc);
        return;
    }
    call_named(L, "setindex!", loc, args, na);
}

static void lower_assign_to(Lower *L, Node *lhs, int value, SrcLoc loc)
{
    switch (lhs->kind) {
    case AST_IDENT: {
        int s = find_slot(L, lhs->name);
        if (s < 0) /* not collected (an error reported elsewhere) */
            return;
        emit_assign(L, s, value, loc);
        return;
    }
    case AST_TYPED:
        if (lhs->kids[0])
            lower_assign_to(L, lhs->kids[0], value, loc);
        return;
    case AST_REF: lower_setindex(L, lhs, value, loc); return;
    case AST_TUPLE:
        for (int i = 0; i < lhs->nkids; i++) {
            int args[2] = { value, emit_const_int(L, i + 1, lhs->kids[i]->loc) };
            lower_assign_to(L, lhs->kids[i], call_named(L, "getindex", lhs->kids[i]->loc, args, 2), loc);
        }
        return;
    case AST_DOT: {
        /* x.f = v of a mutable struct kept as a value in x's slot: x = #setfield(x, :f, v) */
        Node *base = lhs->kids[0];
        int s = base->kind == AST_IDENT && !base->qual ? find_slot(L, base->name) : -1;
        if (s < 0) {
            diag_error(L->d, lhs->loc,
                       "assigning to a field (`x.%s = ...`) is only supported on a local variable holding a "
                       "mutable struct",
                       lhs->name);
            return;
        }
        int args[3] = { emit_slot_read(L, s, lhs->loc), emit_symbol(L, lhs->name, lhs->loc), value };
        emit_assign(L, s, call_builtin(L, BI_SETFIELD, loc, args, 3), loc);
        return;
    }
    default: diag_error(L->d, lhs->loc, "invalid assignment target");
    }
}

static int lower_assign(Lower *L, Node *n)
{
    Node *lhs = n->kids[0], *rhs = n->kids[1];
    /* a, b = x, y: evaluate every right-hand side before assigning (a swap works); a splat on the right
     * (a, b = t..., 1) makes the tuple first and destructures it */
    bool splat = false;
    for (int i = 0; rhs->kind == AST_TUPLE && i < rhs->nkids; i++)
        splat |= rhs->kids[i]->kind == AST_SPLAT;
    if (lhs->kind == AST_TUPLE && rhs->kind == AST_TUPLE && lhs->nkids == rhs->nkids && !splat) {
        int vals[64];
        int nv = lower_args(L, rhs->kids, rhs->nkids, vals, 64);
        for (int i = 0; i < nv; i++)
            lower_assign_to(L, lhs->kids[i], vals[i], n->loc);
        int t = emit(L, IR_TUPLE, n->loc);
        ir_set_args(L->a, L->f, t, vals, nv);
        return t;
    }
    note_marray(L, lhs, rhs);
    int v = lower_expr(L, rhs);
    lower_assign_to(L, lhs, v, n->loc);
    return v;
}

/* x op= v is x = x op v; for A[i] op= v the array and indices are evaluated once. */
static int lower_opassign(Lower *L, Node *n)
{
    Node *lhs = n->kids[0];
    const char *op = n->name;
    if (lhs->kind == AST_REF) {
        int idx[64];
        int arr = lower_expr(L, lhs->kids[0]);
        int ni = lower_indices(L, lhs, arr, idx + 1, 60);
        idx[0] = arr;
        int old = call_named(L, "getindex", lhs->loc, idx, ni + 1);
        int ops[2] = { old, lower_expr(L, n->kids[1]) };
        int nv = call_named(L, op, n->loc, ops, 2);
        int sargs[64];
        sargs[0] = arr;
        sargs[1] = nv;
        for (int i = 0; i < ni; i++)
            sargs[i + 2] = idx[i + 1];
        if (is_marray(L, lhs->kids[0]) && find_slot(L, lhs->kids[0]->name) >= 0)
            emit_assign(L, find_slot(L, lhs->kids[0]->name), call_named(L, "__sa_setindex", n->loc, sargs, ni + 2),
                        n->loc);
        else
            call_named(L, "setindex!", n->loc, sargs, ni + 2);
        return nv;
    }
    if (lhs->kind == AST_DOT) { /* p.x += v */
        int ops[2] = { lower_expr(L, lhs), lower_expr(L, n->kids[1]) };
        int nv = call_named(L, op, n->loc, ops, 2);
        lower_assign_to(L, lhs, nv, n->loc);
        return nv;
    }
    if (lhs->kind != AST_IDENT) {
        diag_error(L->d, lhs->loc, "invalid target of %s=", op);
        return emit_named(L, IR_NOTHING, n->loc);
    }
    int ops[2] = { lower_expr(L, lhs), lower_expr(L, n->kids[1]) };
    int nv = call_named(L, op, n->loc, ops, 2);
    lower_assign_to(L, lhs, nv, n->loc);
    return nv;
}

static int lower_block_value(Lower *L, Node *n);
static int block_value(Lower *L, Node *n);


/* A NamedTuple: an IR_TUPLE whose .name lists the field names, "a,b". */
static int lower_named_tuple(Lower *L, Node *n)
{
    StrBuf names = { 0 };
    int na = n->nkids < TY_MAX_FIELDS ? n->nkids : TY_MAX_FIELDS;
    int *args = arena_alloc(L->a, sizeof(int) * (size_t)(na + 1));
    for (int i = 0; args && i < na; i++) {
        args[i] = lower_expr(L, n->kids[i]->kids[1]);
        sb_printf(&names, "%s%s", i ? "," : "", n->kids[i]->kids[0]->name);
        for (int k = 0; k < i; k++)
            if (strcmp(n->kids[k]->kids[0]->name, n->kids[i]->kids[0]->name) == 0)
                diag_error(L->d, n->kids[i]->loc, "syntax: field name \"%s\" repeated in named tuple",
                           n->kids[i]->kids[0]->name);
    }
    int v = emit(L, IR_TUPLE, n->loc);
    ir_set_args(L->a, L->f, v, args, args ? na : 0);
    L->f->insts[v].name = arena_strdup(L->a, names.data ? names.data : "");
    sb_free(&names);
    return v;
}

/* let x = v, y; body end: each binding a new slot (of the same name, for messages) that shadows the name
 * in the body, as Julia's let makes a new local; its value is the body's. */
static int lower_let(Lower *L, Node *n)
{
    int saved = L->nlets;
    Node *binds = n->kids[0];
    for (int i = 0; i < binds->nkids; i++) {
        Node *b = binds->kids[i];
        Node *x = b->kind == AST_ASSIGN ? b->kids[0] : b;
        Node *decl = x->kind == AST_TYPED ? x->kids[1] : NULL;
        if (x->kind == AST_TYPED)
            x = x->kids[0];
        int value = b->kind == AST_ASSIGN ? lower_expr(L, b->kids[1]) : -1; /* sees the bindings before it */
        if (L->nlets == JK_ARRAY_LEN(L->lets)) {
            diag_error(L->d, b->loc, "too many nested `let` variables (at most %d)", (int)JK_ARRAY_LEN(L->lets));
            break;
        }
        int slot = ir_new_slot(L->a, L->f, x->name, x->loc);
        if (slot < 0)
            break;
        L->f->slots[slot].decl_type = decl;
        L->lets[L->nlets].name = x->name;
        L->lets[L->nlets++].slot = slot;
        if (value >= 0)
            emit_assign(L, slot, value, b->loc);
    }
    int v = block_value(L, n->kids[1]);
    L->nlets = saved;
    return v;
}

/* Is curly n (its head a name) a type #typeapply builds: Tuple{...}, NTuple{N, T}, @NamedTuple{a::T, ...}
 * (NamedTuple{...} of name::T elements) or a parametric alias of `const A{T} = ...`? */
static bool is_type_apply(Lower *L, const Node *n)
{
    const char *h = n->kids[0]->name;
    if (n->kids[0]->qual && strcmp(n->kids[0]->qual, "Base") != 0 && strcmp(n->kids[0]->qual, "Core") != 0)
        return false;
    if (find_slot(L, h) >= 0)
        return false;
    if (strcmp(h, "NamedTuple") == 0) {
        for (int i = 1; i < n->nkids; i++)
            if (n->kids[i]->kind != AST_TYPED || !n->kids[i]->kids[0] || n->kids[i]->kids[0]->kind != AST_IDENT)
                return false;
        return n->nkids > 1;
    }
    if (strcmp(h, "Tuple") == 0 || strcmp(h, "NTuple") == 0)
        return !fe_find_const(L->mod, h) && !fe_find_struct(L->mod, h);
    const ConstDef *c = fe_find_const(L->mod, h);
    return c && c->ntparams == n->nkids - 1;
}

static int lower_expr(Lower *L, Node *n)
{
    if (!n)
        return emit_named(L, IR_NOTHING, L->f->loc);
    if (++L->depth > 1000 || jk_stack_exhausted(L->stack_limit)) {
        diag_error(L->d, n->loc, "expression too deeply nested%s", L->depth > 1000 ? "" : " for the available stack");
        L->depth--;
        return emit_named(L, IR_NOTHING, n->loc);
    }
    int v;
    switch (n->kind) {
    case AST_INT:
    case AST_FLOAT: v = lower_literal(L, n); break;
    case AST_BOOL: v = emit_named(L, n->ival ? IR_TRUE : IR_FALSE, n->loc); break;
    case AST_NOTHING: v = emit_named(L, IR_NOTHING, n->loc); break;
    case AST_STRING:
        diag_error(L->d, n->loc,
                   "strings are not values in kernels: only the formats and messages of @rocprintf, @rocprint, "
                   "@rocprintln, error, throw and @assert");
        v = emit_named(L, IR_NOTHING, n->loc);
        break;
    case AST_IDENT: v = lower_ident(L, n); break;
    case AST_CALL: v = chain_link(L, n) && chain_link(L, n->kids[1]) ? lower_chain(L, n) : lower_call(L, n); break;
    case AST_COMPARISON: v = lower_comparison(L, n); break;
    case AST_AND:
    case AST_OR: v = lower_andor(L, n); break;
    case AST_TERNARY: v = lower_ternary(L, n); break;
    case AST_REF: {
        int args[64];
        args[0] = lower_expr(L, n->kids[0]);
        int na = lower_indices(L, n, args[0], args + 1, 60);
        v = call_named(L, L->views ? "__maybeview" : "getindex", n->loc, args, na + 1);
        break;
    }
    case AST_DOT: {
        Node *m = n->kids[0];
        if (m->kind == AST_IDENT && strcmp(m->name, "AS") == 0 && (!m->qual || strcmp(m->qual, "AMDGPU") == 0) &&
            find_slot(L, "AS") < 0 && !fe_find_const(L->mod, "AS")) {
            /* AMDGPU.jl's address-space module: AS.Local is the prelude's AS_Local */
            const char *c = arena_printf(L->a, "AS_%s", n->name);
            if (fe_find_const(L->mod, c)) {
                v = lower_ident(L, &(Node){ .kind = AST_IDENT, .loc = n->loc, .name = c });
                break;
            }
        }
        int base = lower_expr(L, n->kids[0]);
        v = emit(L, IR_GETFIELD, n->loc);
        L->f->insts[v].name = n->name;
        L->f->insts[v].ival = !strcmp(n->name, "x")   ? IR_FIELD_X
                              : !strcmp(n->name, "y") ? IR_FIELD_Y
                              : !strcmp(n->name, "z") ? IR_FIELD_Z
                                                      : IR_FIELD_OTHER;
        ir_set_args(L->a, L->f, v, &base, 1);
        break;
    }
    case AST_TUPLE: {
        if (is_named_tuple(n)) {
            v = lower_named_tuple(L, n);
            break;
        }
        int *args, na = lower_arg_list(L, n->kids, n->nkids, 0, &args);
        v = emit(L, IR_TUPLE, n->loc);
        if (na >= 0)
            ir_set_args(L->a, L->f, v, args, na);
        break;
    }
    case AST_SYMBOL: v = emit_symbol(L, n->name, n->loc); break;
    case AST_CURLY:
        if (n->nkids == 2 && n->kids[0]->kind == AST_IDENT && strcmp(n->kids[0]->name, "Complex") == 0) {
            /* Complex{T} as a value (Complex{Float32}(a, b)): a type inference resolves */
            int t = lower_expr(L, n->kids[1]);
            v = call_builtin(L, BI_COMPLEXTYPE, n->loc, &t, 1);
            break;
        }
        if (n->kids[0]->kind == AST_IDENT && ((n->nkids == 3 && (strcmp(n->kids[0]->name, "LLVMPtr") == 0 ||
                                                                 strcmp(n->kids[0]->name, "DevicePtr") == 0)) ||
                                              (n->nkids == 2 && strcmp(n->kids[0]->name, "Ptr") == 0))) {
            /* Core.LLVMPtr{T, AS}, older AMDGPU.jl's DevicePtr{T, AS}, Ptr{T} as a value: a type inference
             * resolves (builtins_heap.c) */
            int args[2];
            int na = lower_args(L, n->kids + 1, n->nkids - 1, args, 2);
            v = call_builtin(L, BI_PTRTYPE, n->loc, args, na);
            break;
        }
        if (n->kids[0]->kind == AST_IDENT && is_type_apply(L, n)) {
            /* Tuple{Int64, Float32}, @NamedTuple{a::T}, A{T} of a `const A{T} = ...` as a value */
            bool named = strcmp(n->kids[0]->name, "NamedTuple") == 0;
            StrBuf names = { 0 };
            int args[TY_MAX_FIELDS];
            int na = 0;
            for (int i = 1; i < n->nkids && na < TY_MAX_FIELDS; i++) {
                const Node *k = n->kids[i];
                if (named) {
                    sb_printf(&names, "%s%s", i == 1 ? "NamedTuple:" : ",", k->kids[0]->name);
                    k = k->kids[1];
                }
                args[na++] = lower_expr(L, (Node *)k);
            }
            v = call_builtin(L, BI_TYPEAPPLY, n->loc, args, na);
            L->f->insts[v].name =
                named ? arena_strdup(L->a, names.data ? names.data : "NamedTuple:") : n->kids[0]->name;
            sb_free(&names);
            break;
        }
        {
            /* P{Float32}, Val{4} as a value: #curly(P, Float32), a type inference builds */
            int args[17];
            int na = 1 + lower_args(L, n->kids + 1, n->nkids - 1, args + 1, 16);
            args[0] = lower_expr(L, n->kids[0]);
            v = call_builtin(L, BI_CURLY, n->loc, args, na);
        }
        break;
    case AST_TYPED: {
        /* x::T as an expression: a type assertion, checked by inference */
        int args[2] = { lower_expr(L, n->kids[0]), lower_expr(L, n->kids[1]) };
        v = call_named(L, "typeassert", n->loc, args, 2);
        break;
    }
    case AST_LAMBDA: /* one closures.c could not lift: its reason */
        diag_error(L->d, n->loc, "%s", n->name ? n->name : "this anonymous function cannot be compiled");
        v = emit_named(L, IR_NOTHING, n->loc);
        break;
    case AST_MACROCALL: v = lower_macro(L, n); break;
    case AST_ASSIGN: v = lower_assign(L, n); break;
    case AST_OPASSIGN: v = lower_opassign(L, n); break;
    case AST_BLOCK:
    case AST_IF: v = block_value(L, n); break;
    case AST_LET: v = lower_let(L, n); break;
    case AST_SPLAT:
        diag_error(L->d, n->loc,
                   "splatting (`...`) is only supported in a call's arguments, a tuple's elements and indices");
        v = emit_named(L, IR_NOTHING, n->loc);
        break;
    case AST_VECT: /* Julia allocates the Vector on the heap, which GPUCompiler rejects in a kernel */
        diag_error(
            L->d, n->loc,
            "an array literal [a, b, ...] allocates a Vector, which a kernel cannot do; use a tuple (a, b, ...), "
            "or an array argument");
        v = emit_named(L, IR_NOTHING, n->loc);
        break;
    case AST_PARAMETERS:
        diag_error(L->d, n->loc, "keyword arguments (after `;`) are only supported in function calls");
        v = emit_named(L, IR_NOTHING, n->loc);
        break;
    default: lower_stmt(L, n); v = emit_named(L, IR_NOTHING, n->loc);
    }
    L->depth--;
    return v;
}

/* ---- statements ---- */

static void lower_if(Lower *L, Node *n, int result_slot);

static void lower_body(Lower *L, Node *n)
{
    if (!n)
        return;
    if (n->kind != AST_BLOCK) {
        lower_stmt(L, n);
        return;
    }
    for (int i = 0; i < n->nkids; i++)
        lower_stmt(L, n->kids[i]);
}

/* for v in iter: the hidden counter runs from first(r) to last(r) by step(r);
 * the loop variable gets the counter's value at the top of each iteration. */
/* for var in itr body end, as Julia lowers it (the iterate protocol):
 *     #next = iterate(itr)
 *     while #notnothing(#next)
 *         var, #state = #something(#next)   (var may be a tuple pattern: (i, v))
 *         body                              (continue jumps to the next line)
 *         #next = iterate(itr, #state)
 *     end
 * iterate is Base's (base/prelude.jl: ranges, tuples, arrays, enumerate, zip, ...) or the file's. */
static void lower_for(Lower *L, Node *n)
{
    Node *var = n->kids[0];
    SrcLoc loc = n->loc;
    int itr = temp_slot(L, "itr", loc), next = temp_slot(L, "next", loc), state = temp_slot(L, "state", loc);
    emit_assign(L, itr, lower_expr(L, n->kids[1]), loc);
    int iv = emit_slot_read(L, itr, loc);
    emit_assign(L, next, call_named(L, "iterate", loc, &iv, 1), loc);
    int lend = ir_new_label(L->f), ltop = ir_new_label(L->f), lcont = ir_new_label(L->f);
    emit_label(L, ltop, loc);
    int nv = emit_slot_read(L, next, loc);
    emit_gotoifnot(L, call_builtin(L, BI_NOTNOTHING, loc, &nv, 1), lend, loc);
    int nv2 = emit_slot_read(L, next, loc);
    int pair = call_builtin(L, BI_SOMETHING, loc, &nv2, 1);
    int at1[2] = { pair, emit_const_int(L, 1, loc) };
    lower_assign_to(L, var, call_named(L, "getindex", loc, at1, 2), loc);
    int at2[2] = { pair, emit_const_int(L, 2, loc) };
    emit_assign(L, state, call_named(L, "getindex", loc, at2, 2), loc);
    if (L->nloops == JK_ARRAY_LEN(L->loops)) {
        diag_error(L->d, loc, "loops nested too deeply");
        return;
    }
    L->loops[L->nloops++] = (Loop){ lend, lcont };
    lower_body(L, n->kids[2]);
    L->nloops--;
    emit_label(L, lcont, loc);
    int args[2] = { emit_slot_read(L, itr, loc), emit_slot_read(L, state, loc) };
    emit_assign(L, next, call_named(L, "iterate", loc, args, 2), loc);
    emit_goto(L, ltop, loc);
    emit_label(L, lend, loc);
}

/* The variable x that `x === nothing` or `isnothing(x)` tests, or NULL. */
static const char *nothing_test(const Node *c)
{
    if (!c || c->kind != AST_CALL || !c->kids[0] || c->kids[0]->kind != AST_IDENT || c->kids[0]->qual)
        return NULL;
    const char *f = c->kids[0]->name;
    if (strcmp(f, "===") == 0 && c->nkids == 3 && c->kids[1]->kind == AST_IDENT && c->kids[2]->kind == AST_NOTHING)
        return c->kids[1]->qual ? NULL : c->kids[1]->name;
    if (strcmp(f, "isnothing") == 0 && c->nkids == 2 && c->kids[1]->kind == AST_IDENT)
        return c->kids[1]->qual ? NULL : c->kids[1]->name;
    return NULL;
}

/* The variable x that `x !== nothing` or `!isnothing(x)` tests, or NULL. */
static const char *something_test(const Node *c)
{
    if (!c || c->kind != AST_CALL || !c->kids[0] || c->kids[0]->kind != AST_IDENT || c->kids[0]->qual)
        return NULL;
    const char *f = c->kids[0]->name;
    if (strcmp(f, "!==") == 0 && c->nkids == 3 && c->kids[1]->kind == AST_IDENT && c->kids[2]->kind == AST_NOTHING)
        return c->kids[1]->qual ? NULL : c->kids[1]->name;
    if (strcmp(f, "!") == 0 && c->nkids == 2)
        return nothing_test(c->kids[1]);
    return NULL;
}

static void lower_while(Lower *L, Node *n)
{
    int ltop = ir_new_label(L->f), lend = ir_new_label(L->f);
    emit_label(L, ltop, n->loc);
    emit_gotoifnot(L, lower_expr(L, n->kids[0]), lend, n->loc);
    /* while x !== nothing: x is not nothing in the body (see narrow_after) */
    const char *x = something_test(n->kids[0]);
    int s = x ? find_slot(L, x) : -1;
    if (s >= 0) {
        int v = emit_slot_read(L, s, n->loc);
        emit_assign(L, s, call_builtin(L, BI_SOMETHING, n->loc, &v, 1), n->loc);
    }
    if (L->nloops == JK_ARRAY_LEN(L->loops)) {
        diag_error(L->d, n->loc, "loops nested too deeply");
        return;
    }
    L->loops[L->nloops++] = (Loop){ lend, ltop };
    lower_body(L, n->kids[1]);
    L->nloops--;
    emit_goto(L, ltop, n->loc);
    emit_label(L, lend, n->loc);
}

/* Does n assign the variable x anywhere (x = v, x += v, a tuple or typed left side holding x, a for loop's x)? */
static bool assigns_var(const Node *n, const char *x)
{
    if (!n)
        return false;
    if ((n->kind == AST_ASSIGN || n->kind == AST_OPASSIGN || n->kind == AST_FOR) && n->nkids > 0) {
        const Node *lhs = n->kids[0];
        if (lhs && lhs->kind == AST_TYPED)
            lhs = lhs->kids[0];
        if (lhs && lhs->kind == AST_IDENT && !lhs->qual && strcmp(lhs->name, x) == 0)
            return true;
        for (int i = 0; lhs && lhs->kind == AST_TUPLE && i < lhs->nkids; i++)
            if (lhs->kids[i] && lhs->kids[i]->kind == AST_IDENT && strcmp(lhs->kids[i]->name, x) == 0)
                return true;
    }
    for (int i = 0; i < n->nkids; i++)
        if (assigns_var(n->kids[i], x))
            return true;
    return false;
}

/* Where x is known not to be nothing (a branch `body` of `if x === nothing`), x names a new binding of
 * #something(x) until the branch ends (the caller restores L->nlets), as Julia's inference narrows
 * Union{Nothing, T} to T there; the variable itself keeps its type, so that the paths still meet after the
 * if. Not where the branch assigns x, which must update the variable. */
static void narrow_slot(Lower *L, const char *x, const Node *body, SrcLoc loc)
{
    int s = x ? find_slot(L, x) : -1;
    if (s < 0 || L->dead || assigns_var(body, x) || L->nlets == JK_ARRAY_LEN(L->lets))
        return;
    int v = emit_slot_read(L, s, loc);
    int shadow = ir_new_slot(L->a, L->f, x, loc);
    if (shadow < 0)
        return;
    emit_assign(L, shadow, call_builtin(L, BI_SOMETHING, loc, &v, 1), loc);
    L->lets[L->nlets].name = x;
    L->lets[L->nlets++].slot = shadow;
}

/* if/elseif/else; when result_slot >= 0 each branch's value goes there (an if used as a value). In the branch
 * where `x === nothing` (isnothing(x)) is false, or `x !== nothing` true, x is not nothing. */
static void lower_if(Lower *L, Node *n, int result_slot)
{
    int lelse = ir_new_label(L->f), lend = ir_new_label(L->f), saved = L->nlets;
    Node *e = n->nkids > 2 ? n->kids[2] : NULL;
    emit_gotoifnot(L, lower_expr(L, n->kids[0]), lelse, n->loc);
    narrow_slot(L, something_test(n->kids[0]), n->kids[1], n->loc);
    if (result_slot >= 0) {
        int v = lower_block_value(L, n->kids[1]);
        if (v >= 0)
            emit_assign(L, result_slot, v, n->loc);
    } else
        lower_body(L, n->kids[1]);
    L->nlets = saved;
    emit_goto(L, lend, n->loc);
    emit_label(L, lelse, n->loc);
    narrow_slot(L, nothing_test(n->kids[0]), e, n->loc);
    if (result_slot >= 0) {
        int v = e ? lower_block_value(L, e) : emit_named(L, IR_NOTHING, n->loc);
        if (v >= 0)
            emit_assign(L, result_slot, v, n->loc);
    } else if (e && e->kind == AST_IF)
        lower_if(L, e, -1);
    else
        lower_body(L, e);
    L->nlets = saved;
    emit_label(L, lend, n->loc);
}

/* The value of a block (its last expression) or of an if used as a value. */
static int lower_block_value(Lower *L, Node *n)
{
    if (!n)
        return emit_named(L, IR_NOTHING, L->f->loc);
    if (n->kind == AST_IF) {
        int tmp = temp_slot(L, "if", n->loc);
        lower_if(L, n, tmp);
        return emit_slot_read(L, tmp, n->loc);
    }
    if (n->kind != AST_BLOCK)
        return lower_expr(L, n);
    if (n->nkids == 0)
        return emit_named(L, IR_NOTHING, n->loc);
    for (int i = 0; i < n->nkids - 1; i++)
        lower_stmt(L, n->kids[i]);
    Node *last = n->kids[n->nkids - 1];
    if (last->kind == AST_RETURN || last->kind == AST_BREAK || last->kind == AST_CONTINUE) {
        lower_stmt(L, last);
        return -1; /* no value: control does not reach the end of the block */
    }
    return lower_expr(L, last);
}

/* A block's value, or `nothing` where the block always jumps away. */
static int block_value(Lower *L, Node *n)
{
    int v = lower_block_value(L, n);
    return v >= 0 ? v : emit_named(L, IR_NOTHING, n ? n->loc : L->f->loc);
}

/* Does every path through n leave (return, break, continue)? */
static bool always_leaves(const Node *n)
{
    if (!n)
        return false;
    if (n->kind == AST_RETURN || n->kind == AST_BREAK || n->kind == AST_CONTINUE)
        return true;
    if (n->kind == AST_BLOCK)
        return n->nkids && always_leaves(n->kids[n->nkids - 1]);
    return false;
}

/* After `x === nothing && return ...` (also isnothing(x), break, continue, or `if x === nothing ... return
 * end` without else), x is not nothing: as Julia's inference narrows Union{Nothing, T} there, lowering
 * assigns x = #something(x), so that the uses below see a T (split_slots makes it a new value). */
static void narrow_after(Lower *L, Node *n)
{
    const char *x = NULL;
    if (n->kind == AST_AND && always_leaves(n->kids[1]))
        x = nothing_test(n->kids[0]);
    else if (n->kind == AST_IF && (n->nkids < 3 || !n->kids[2]) && always_leaves(n->kids[1]))
        x = nothing_test(n->kids[0]);
    int s = x ? find_slot(L, x) : -1;
    if (s < 0 || L->dead)
        return;
    int v = emit_slot_read(L, s, n->loc);
    emit_assign(L, s, call_builtin(L, BI_SOMETHING, n->loc, &v, 1), n->loc);
}

static void lower_stmt(Lower *L, Node *n)
{
    if (!n)
        return;
    if (n->kind == AST_AND || n->kind == AST_IF) {
        if (n->kind == AST_IF)
            lower_if(L, n, -1);
        else
            lower_expr(L, n);
        narrow_after(L, n);
        return;
    }
    switch (n->kind) {
    case AST_IF: lower_if(L, n, -1); break;
    case AST_WHILE: lower_while(L, n); break;
    case AST_FOR: lower_for(L, n); break;
    case AST_BLOCK: lower_body(L, n); break;
    case AST_BREAK:
    case AST_CONTINUE:
        if (!L->nloops) {
            diag_error(L->d, n->loc, "syntax: %s outside a loop", n->kind == AST_BREAK ? "break" : "continue");
            break;
        }
        emit_goto(L, n->kind == AST_BREAK ? L->loops[L->nloops - 1].brk : L->loops[L->nloops - 1].cont, n->loc);
        L->dead = true;
        break;
    case AST_RETURN: {
        int v = n->nkids && n->kids[0] ? lower_expr(L, n->kids[0]) : -1;
        int k = emit(L, IR_RETURN, n->loc);
        if (v >= 0)
            ir_set_args(L->a, L->f, k, &v, 1);
        L->dead = true;
        break;
    }
    case AST_LOCAL:
        for (int i = 0; i < n->nkids; i++)
            if (n->kids[i]->kind == AST_ASSIGN)
                lower_assign(L, n->kids[i]);
        break;
    case AST_FUNCTION:
        diag_error(L->d, n->loc, "nested function definitions (closures) are not supported in kernels");
        break;
    case AST_CONST: diag_error(L->d, n->loc, "`const` is only allowed at top level"); break;
    case AST_MACROCALL:
        if (strcmp(n->name, "inbounds") == 0 && n->nkids == 1) {
            L->inbounds++;
            lower_stmt(L, n->kids[0]);
            L->inbounds--;
            break;
        }
        lower_expr(L, n);
        break;
    default: lower_expr(L, n);
    }
}

bool lower_method(FeModule *mod, Method *m, Diags *d)
{
    int before = d->nerrors;
    Arena *a = &mod->arena;
    Lower L = { .a = a, .d = d, .mod = mod, .m = m, .stack_limit = mod->stack_limit };
    L.f = ir_func_new(a, m->name, m->loc);
    if (!L.f)
        return false;
    Node *body = m->def->kids[1];
    for (int i = 0; i < m->nparams; i++) {
        const char *pn = m->params[i].name ? m->params[i].name : arena_printf(a, "#unused%d", i + 1);
        int k = ir_new_slot(a, L.f, pn, m->params[i].loc);
        L.f->slots[k].is_param = true; /* k is 0, not i, when the arena ran out */
    }
    L.f->nparams = m->nparams;
    collect_locals(&L, body);
    int v = lower_block_value(&L, body);
    if (v >= 0 && !L.dead) { /* the implicit return of the last value */
        int k = emit(&L, IR_RETURN, m->def->loc);
        ir_set_args(a, L.f, k, &v, 1);
    }
    for (int i = 0; i < L.nlabels; i++)
        if (!L.labels[i].placed)
            diag_error(d, L.labels[i].used, "syntax: label \"%s\" referenced but not defined", L.labels[i].name);
    split_slots(a, L.f, d);
    m->lowered = L.f;
    if (a->failed) {
        diag_plain(d, DIAG_NOMEM, "out of memory while lowering %s", m->name);
        return false;
    }
    return d->nerrors == before && ir_verify(L.f, d);
}
