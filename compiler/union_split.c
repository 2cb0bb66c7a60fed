/* union_split.c: small isbits Unions of local variables (and of the value of a `?:` or `if`, a compiler
 * temporary, where every statement that reads it can be split), split at each use as Julia does.
 *
 * A variable assigned values of different types that reach one use (`tmp = 0`, then `tmp += a[i] * b[i]` of
 * Float64 in a loop) has Julia's type Union{Int64, Float64}: a tag and a payload, and every use is split on
 * the tag, each branch dispatched with its concrete type. Here the variable's slot becomes a tag slot (the
 * member's number, 1-based) and one slot per member type; inference (infer.c) asks for this when an
 * assignment brings a new type to a variable, and infers the rewritten method again.
 *
 * Requires: lowered IR after split_slots.c (every read reached only by its own slot's assignments), not yet
 * typed. Guarantees: the variable's slot is neither read nor assigned any more;
 *   - each statement that reads it, from its first read to the assignment, branch, return or call whose
 *     value is unused that ends the statement, is copied once per member, the copy for member i reading the
 *     member's slot, behind the test `tag === i` (the last member untested);
 *   - each assignment `x = v` becomes `%c = 0; x_1 = v` flagged IRF_UNION_STORE (.label the first member
 *     slot, .ival the member count), then `tag = %c`: inference picks the member by v's type and writes its
 *     number into %c.
 * A statement that jumps before it ends (&&, ?: inside it), or whose values are read after it, cannot be
 * copied: an error at the read. */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

/* Does instruction j's value feed any instruction after it? */
static bool value_used(const IrFunc *f, int j)
{
    for (int k = j + 1; k < f->ninsts; k++)
        for (int a = 0; a < f->insts[k].nargs; a++)
            if (f->insts[k].args[a] == j)
                return true;
    return false;
}

/* The last instruction of the statement that reads slot x at instruction i, or -1 if it cannot be copied. */
static int statement_end(const IrFunc *f, int i)
{
    int e = -1;
    for (int j = i + 1; j < f->ninsts && e < 0; j++) {
        IrOp op = f->insts[j].op;
        if (op == IR_LABEL || op == IR_GOTO)
            return -1;
        if (op == IR_ASSIGN || op == IR_GOTOIFNOT || op == IR_RETURN || (op == IR_CALL && !value_used(f, j)))
            e = j;
    }
    for (int k = e + 1; e >= 0 && k < f->ninsts; k++) /* values of the statement read after it */
        for (int a = 0; a < f->insts[k].nargs; a++)
            if (f->insts[k].args[a] >= i && f->insts[k].args[a] <= e)
                return -1;
    return e;
}

bool union_splittable(const IrFunc *f, int x)
{
    bool read = false;
    for (int i = 0; i < f->ninsts; i++)
        if (f->insts[i].op == IR_SLOT && f->insts[i].slot == x) {
            if (statement_end(f, i) < 0)
                return false;
            read = true;
        }
    return read;
}

typedef struct Rewrite {
    Arena *a;
    const IrFunc *src;
    IrFunc *dst;
    int x, tag, first, k; /* the variable's slot, the tag's, the first member's, the member count */
} Rewrite;

/* Copy src's instruction j into dst with its arguments renamed by map (lm for those of [lo, hi]). */
static int copy_inst(Rewrite *R, int j, const int *map, const int *lm, int lo, int hi, int member)
{
    const IrInst *in = &R->src->insts[j];
    int n = in->nargs;
    int *args = arena_alloc(R->a, sizeof(int) * (size_t)(n + 1));
    if (!args)
        return 0; /* as a failed ir_emit: the arena's failure is reported at the end */
    for (int a = 0; a < n; a++) {
        int v = in->args[a];
        args[a] = v >= lo && v <= hi ? lm[v - lo] : map[v];
    }
    if (in->op == IR_ASSIGN && in->slot == R->x) {
        int c = ir_emit(R->a, R->dst, IR_CONST, in->loc);
        R->dst->insts[c].lit = LIT_INT64;
        int st = ir_emit(R->a, R->dst, IR_ASSIGN, in->loc);
        IrInst *s = &R->dst->insts[st];
        s->slot = R->first;
        s->label = R->first;
        s->ival = R->k;
        s->flags = in->flags | IRF_UNION_STORE;
        ir_set_args(R->a, R->dst, st, args, 1);
        int t = ir_emit(R->a, R->dst, IR_ASSIGN, in->loc);
        R->dst->insts[t].slot = R->tag;
        ir_set_args(R->a, R->dst, t, &c, 1);
        return st;
    }
    int d = ir_emit(R->a, R->dst, in->op, in->loc);
    IrInst *o = &R->dst->insts[d];
    *o = *in;
    o->args = NULL;
    o->nargs = 0;
    ir_set_args(R->a, R->dst, d, args, n);
    if (in->op == IR_SLOT && in->slot == R->x && member >= 0)
        o->slot = R->first + member;
    return d;
}

bool union_split(Arena *a, const IrFunc *src, IrFunc *dst, int x, const Type *const *members, int k, Diags *diags)
{
    *dst = *src;
    /* room for the copy from the start: an ir_emit that fails returns 0, which must index an array (the
     * arena's failed flag ends the compile at the stage boundary) */
    dst->ninsts = 0;
    dst->cap = 2 * src->ninsts + 32;
    dst->insts = arena_alloc(a, sizeof(IrInst) * (size_t)dst->cap);
    dst->slots = arena_alloc(a, sizeof(IrSlot) * (size_t)(src->nslots + k + 1));
    int *map = calloc((size_t)src->ninsts + 1, sizeof(int));
    int *lm = calloc((size_t)src->ninsts + 1, sizeof(int));
    if (!dst->insts || !dst->slots || !map || !lm) {
        free(map);
        free(lm);
        return false;
    }
    memcpy(dst->slots, src->slots, sizeof(IrSlot) * (size_t)src->nslots);
    dst->slotcap = src->nslots + k + 1;
    const char *name = src->slots[x].name;
    Rewrite R = { a, src, dst, x, 0, 0, k };
    R.tag = ir_new_slot(a, dst, arena_printf(a, "%s@_tag", name), src->slots[x].loc);
    dst->slots[R.tag].type = NULL;
    R.first = dst->nslots;
    for (int m = 0; m < k; m++) {
        int sl = ir_new_slot(a, dst, arena_printf(a, "%s@_%d", name, m + 1), src->slots[x].loc);
        dst->slots[sl].type = members[m];
    }
    bool ok = true;
    for (int i = 0; i < src->ninsts; i++) {
        const IrInst *in = &src->insts[i];
        if (!(in->op == IR_SLOT && in->slot == x)) {
            map[i] = copy_inst(&R, i, map, lm, -1, -2, -1);
            continue;
        }
        int e = statement_end(src, i);
        if (e < 0) {
            diag_error(diags, in->loc,
                       "variable `%s` has several types here (a Union); juke splits a union variable only where a "
                       "statement reads it without branching inside (assign the branch's value to a variable "
                       "first)",
                       name);
            ok = false;
            map[i] = copy_inst(&R, i, map, lm, -1, -2, 0);
            continue;
        }
        int t = ir_emit(a, dst, IR_SLOT, in->loc);
        dst->insts[t].slot = R.tag;
        int end = ir_new_label(dst);
        for (int m = 0; m < k; m++) {
            int next = -1;
            if (m < k - 1) {
                int c = ir_emit(a, dst, IR_CONST, in->loc);
                dst->insts[c].lit = LIT_INT64;
                dst->insts[c].ival = m + 1;
                int eq = ir_emit(a, dst, IR_NAME, in->loc);
                dst->insts[eq].name = "===";
                int args[3] = { eq, t, c };
                int call = ir_emit(a, dst, IR_CALL, in->loc);
                ir_set_args(a, dst, call, args, 3);
                next = ir_new_label(dst);
                int br = ir_emit(a, dst, IR_GOTOIFNOT, in->loc);
                dst->insts[br].label = next;
                ir_set_args(a, dst, br, &call, 1);
            }
            for (int j = i; j <= e; j++)
                lm[j - i] = copy_inst(&R, j, map, lm, i, j - 1, m);
            if (next >= 0) {
                int g = ir_emit(a, dst, IR_GOTO, in->loc);
                dst->insts[g].label = end;
                int l = ir_emit(a, dst, IR_LABEL, in->loc);
                dst->insts[l].label = next;
            }
        }
        int l = ir_emit(a, dst, IR_LABEL, in->loc);
        dst->insts[l].label = end;
        for (int j = i; j <= e; j++)
            map[j] = lm[j - i];
        i = e;
    }
    free(map);
    free(lm);
    return ok;
}
