/* splat.c: inference's rewrites of a call whose shape the argument types decide, in the typed IR of one
 * specialisation (the lowered IR, shared by every specialisation, is never changed).
 *
 *  - Splatting. Lowering marks `x...` in a call's arguments, a tuple's elements or an index list as
 *    #splat(x). Once x's type is known (a tuple or a NamedTuple: its length is part of its type), the mark
 *    becomes x's fields, read with getfield before the call, and the call is typed as any other.
 *  - Varargs. A call that dispatches to a method whose last parameter is varargs (f(a, xs...)) passes the
 *    rest of its arguments as one tuple, as Julia does, so the callee's specialisation has one parameter per
 *    declared one.
 *  - ntuple(f, n) with a constant n is ntuple(f, Val(n)), whose length the prelude's methods know.
 *  - Union splitting. A call with an argument of type Union{Nothing, T} (findfirst's result) dispatches, in
 *    Julia, on the type the value has at run time: `x == 3` is false for nothing and compares the Int
 *    otherwise, `something(x, 0)` is an Int. The call becomes `if x !== nothing; #split = f(#something(x));
 *    else #split = f(nothing); end` and its value is #split's, so each member call is typed and dispatched as
 *    any other (the other arguments split in turn). Built-ins that read the tag themselves (isnothing, isa,
 *    x === nothing; BF_UNION) take the union as it is.
 *
 * Requires: typed IR being inferred (infer.c), the instruction's arguments typed. Guarantees: value ids stay
 * in definition order (an inserted value is placed just before the instruction that uses it), every other
 * instruction keeps its type, and reach[] and decided[] grow with the IR. */
#include <string.h>

#include "abi.h"
#include "builtins_type.h"

/* Make room for count instructions before pos: later values are renumbered (the argument arrays are
 * copied, as the lowered IR shares them). The new instructions are empty and reached when pos is. */
static bool insert_insts(Infer *I, int pos, int count)
{
    IrFunc *f = I->f;
    Arena *a = &I->c->arena;
    int n = f->ninsts;
    IrInst *insts = arena_alloc(a, sizeof(IrInst) * (size_t)(n + count + 1));
    bool *reach = arena_alloc(a, (size_t)(n + count + 1));
    bool *decided = arena_alloc(a, (size_t)(n + count + 1));
    if (!insts || !reach || !decided)
        return false;
    memcpy(insts, f->insts, sizeof(IrInst) * (size_t)pos);
    memcpy(insts + pos + count, f->insts + pos, sizeof(IrInst) * (size_t)(n - pos));
    memset(insts + pos, 0, sizeof(IrInst) * (size_t)count);
    memcpy(reach, I->reach, (size_t)pos);
    memcpy(reach + pos + count, I->reach + pos, (size_t)(n - pos));
    memcpy(decided, I->decided, (size_t)pos);
    memcpy(decided + pos + count, I->decided + pos, (size_t)(n - pos));
    for (int i = 0; i < count; i++) {
        reach[pos + i] = I->reach[pos];
        decided[pos + i] = false;
        insts[pos + i].loc = f->insts[pos].loc;
        insts[pos + i].flags = f->insts[pos].flags & IRF_INBOUNDS;
    }
    for (int i = 0; i < n + count; i++) {
        IrInst *in = &insts[i];
        bool moved = false;
        for (int k = 0; k < in->nargs && !moved; k++)
            moved = in->args[k] >= pos;
        if (!moved)
            continue;
        int *args = arena_alloc(a, sizeof(int) * (size_t)in->nargs);
        if (!args)
            return false;
        for (int k = 0; k < in->nargs; k++)
            args[k] = in->args[k] >= pos ? in->args[k] + count : in->args[k];
        in->args = args;
    }
    f->insts = insts;
    f->ninsts = n + count;
    f->cap = n + count;
    I->reach = reach;
    I->decided = decided;
    return true;
}

/* Is value v a #splat(x) mark? */
static bool is_splat(const IrFunc *f, int v)
{
    const IrInst *k = &f->insts[v];
    return k->op == IR_CALL && k->nargs == 2 && f->insts[k->args[0]].builtin == BI_SPLAT;
}

/* The number of elements a splatted value of type t gives, or -1 when its length is not in its type. */
static int splat_length(const Type *t)
{
    if (t->kind == TY_TUPLE || (t->kind == TY_STRUCT && (t->flags & TF_NAMEDTUPLE)))
        return t->nfields;
    return -1;
}

int splat_expand(Infer *I, int idx)
{
    IrFunc *f = I->f;
    IrInst *in = &f->insts[idx];
    int first = in->op == IR_CALL ? 1 : 0;
    int add = 0, nsplat = 0;
    for (int k = first; k < in->nargs; k++) {
        if (!is_splat(f, in->args[k]))
            continue;
        const Type *t = f->insts[f->insts[in->args[k]].args[1]].type;
        int len = splat_length(t);
        if (len < 0) {
            infer_err(I, f->insts[in->args[k]].loc,
                      "splatting a value of type %s is not supported in kernels: only a tuple (or NamedTuple) "
                      "splats, its length known from its type",
                      infer_tname(I, t));
            I->failed = true;
            return -1;
        }
        add += len;
        nsplat++;
    }
    if (!nsplat)
        return 0;
    int nargs = in->nargs - nsplat + add;
    if (nargs - first > TY_MAX_FIELDS) {
        infer_err(I, in->loc, "too many arguments after splatting (%d; at most %d)", nargs - first, TY_MAX_FIELDS);
        I->failed = true;
        return -1;
    }
    if (add && !insert_insts(I, idx, add))
        return -1;
    in = &f->insts[idx + add];
    int *args = arena_alloc(&I->c->arena, sizeof(int) * (size_t)nargs);
    if (!args)
        return -1;
    int na = 0, at = idx;
    for (int k = 0; k < in->nargs; k++) {
        int v = in->args[k];
        if (k < first || !is_splat(f, v)) {
            args[na++] = v;
            continue;
        }
        int x = f->insts[v].args[1];
        int len = splat_length(f->insts[x].type);
        for (int e = 0; e < len; e++, at++) {
            IrInst *g = &f->insts[at];
            g->op = IR_GETFIELD;
            g->loc = f->insts[v].loc;
            g->flags |= IRF_FIELDINDEX;
            g->ival = e;
            g->name = arena_printf(&I->c->arena, "%d", e + 1);
            ir_set_args(&I->c->arena, f, at, &x, 1);
            args[na++] = at;
        }
    }
    in = &f->insts[idx + add];
    in->args = args;
    in->nargs = na;
    in->type = NULL;
    I->changed = true;
    return add + 1;
}

int splat_pack_varargs(Infer *I, int idx, Spec *s)
{
    IrFunc *f = I->f;
    /* the callee's parameters before the varargs, less a callable object's own (IRF_SELFCALL: args[0]) */
    int fixed = s->nargs - 1 - (f->insts[idx].flags & IRF_SELFCALL ? 1 : 0);
    IrInst *in = &f->insts[idx];
    int rest = in->nargs - 1 - fixed;
    if (!insert_insts(I, idx, 1))
        return -1;
    in = &f->insts[idx + 1];
    IrInst *t = &f->insts[idx];
    t->op = IR_TUPLE;
    ir_set_args(&I->c->arena, f, idx, in->args + 1 + fixed, rest);
    int *args = arena_alloc(&I->c->arena, sizeof(int) * (size_t)(fixed + 2));
    if (!args)
        return -1;
    memcpy(args, in->args, sizeof(int) * (size_t)(fixed + 1));
    args[fixed + 1] = idx;
    in->args = args;
    in->nargs = fixed + 2;
    in->callee = s;
    I->changed = true;
    return 1;
}

int splat_ntuple_val(Infer *I, int idx)
{
    IrFunc *f = I->f;
    IrInst *in = &f->insts[idx];
    int64_t n;
    if (in->nargs != 3 || !ty_is_int(f->insts[in->args[2]].type) || !infer_const_int(f, in->args[2], &n, 0))
        return 0;
    if (!insert_insts(I, idx, 3))
        return -1;
    IrInst *name = &f->insts[idx], *k = &f->insts[idx + 1], *val = &f->insts[idx + 2];
    name->op = IR_NAME;
    name->name = "Val";
    k->op = IR_CONST;
    k->lit = LIT_INT64;
    k->ival = n;
    val->op = IR_CALL;
    int va[2] = { idx, idx + 1 };
    ir_set_args(&I->c->arena, f, idx + 2, va, 2);
    in = &f->insts[idx + 3];
    int *args = arena_alloc(&I->c->arena, sizeof(int) * 3);
    if (!args)
        return -1;
    args[0] = in->args[0];
    args[1] = in->args[1];
    args[2] = idx + 2;
    in->args = args;
    in->type = NULL;
    I->changed = true;
    return 3;
}

/* Instruction at of f becomes a call of built-in id on x (an internal helper called by id). */
static void call_helper(Infer *I, int at, BuiltinId id, int x)
{
    IrFunc *f = I->f;
    IrInst *name = &f->insts[at], *call = &f->insts[at + 1];
    name->op = IR_NAME;
    name->name = builtin_name(id);
    name->builtin = id;
    call->op = IR_CALL;
    int args[2] = { at, x };
    ir_set_args(&I->c->arena, f, at + 1, args, 2);
}

/* Instruction at of f becomes a copy of call with its argument k replaced by value v. */
static void copy_call(Infer *I, int at, const IrInst *call, int k, int v)
{
    IrFunc *f = I->f;
    IrInst *in = &f->insts[at];
    *in = *call;
    in->flags &= ~(IRF_FAILED | IRF_DEAD);
    in->type = in->optype = NULL;
    in->callee = NULL;
    in->builtin = BI_NONE;
    ir_set_args(&I->c->arena, f, at, call->args, call->nargs);
    in->args[k] = v;
}

/* Instruction at of f becomes `slot = v`. */
static void assign(Infer *I, int at, int slot, int v)
{
    I->f->insts[at].op = IR_ASSIGN;
    I->f->insts[at].slot = slot;
    ir_set_args(&I->c->arena, I->f, at, &v, 1);
}

int splat_member_throw(Infer *I, int idx, const char *msg)
{
    if (!insert_insts(I, idx, 1))
        return -1;
    IrFunc *f = I->f;
    IrInst *name = &f->insts[idx], *in = &f->insts[idx + 1];
    name->op = IR_NAME;
    name->name = builtin_name(BI_THROW);
    name->builtin = BI_THROW;
    /* the message is #throw's format: a % in it is written %% */
    StrBuf fmt = { 0 };
    for (const char *p = msg; *p; p++)
        sb_puts(&fmt, *p == '%' ? "%%" : (char[]){ *p, 0 });
    in->name = arena_strdup(&I->c->arena, fmt.data ? fmt.data : "");
    sb_free(&fmt);
    in->ival = JUKE_THROWN_METHOD;
    in->flags &= IRF_INBOUNDS;
    in->type = in->optype = NULL;
    in->callee = NULL;
    in->builtin = BI_NONE;
    ir_set_args(&I->c->arena, f, idx + 1, &idx, 1);
    I->changed = true;
    return 1;
}

int splat_union_call(Infer *I, int idx, int k)
{
    IrFunc *f = I->f;
    Arena *a = &I->c->arena;
    SrcLoc loc = f->insts[idx].loc;
    int slot = ir_new_slot(a, f, "#split", loc);
    int none = ir_new_label(f), end = ir_new_label(f);
    enum { ADDED = 13 };
    if (a->failed || !insert_insts(I, idx, ADDED))
        return -1;
    IrInst *in = &f->insts[idx + ADDED], *p = &f->insts[idx];
    int x = in->args[k];
    /* if x !== nothing: #split = f(..., #something(x), ...) else #split = f(..., nothing, ...) end */
    call_helper(I, idx, BI_NOTNOTHING, x);
    p[2].op = IR_GOTOIFNOT;
    p[2].label = none;
    ir_set_args(a, f, idx + 2, (int[]){ idx + 1 }, 1);
    call_helper(I, idx + 3, BI_SOMETHING, x);
    copy_call(I, idx + 5, in, k, idx + 4);
    assign(I, idx + 6, slot, idx + 5);
    p[7].op = IR_GOTO;
    p[7].label = end;
    p[8].op = IR_LABEL;
    p[8].label = none;
    p[9].op = IR_CONST;
    p[9].lit = LIT_NONE;
    p[9].ival = IR_NOTHING;
    p[9].name = "nothing";
    copy_call(I, idx + 10, in, k, idx + 9);
    p[10].flags |= IRF_NOTHING_MEMBER;
    assign(I, idx + 11, slot, idx + 10);
    p[12].op = IR_LABEL;
    p[12].label = end;
    /* the call's value, which later instructions read, is the slot's */
    in->op = IR_SLOT;
    in->slot = slot;
    in->args = NULL;
    in->nargs = 0;
    in->type = in->optype = NULL;
    in->callee = NULL;
    in->builtin = BI_NONE;
    in->flags &= IRF_INBOUNDS;
    I->changed = true;
    return ADDED;
}
