/* split_slots.c: splitting variables into webs, Julia's slot2ssa in spirit.
 *
 * Requires: a method's lowered IR as lower.c makes it, before inference:
 * parameters are slots 0..nparams-1, every other variable a slot assigned
 * by IR_ASSIGN and read by IR_SLOT; control flow is IR_LABEL, IR_GOTO,
 * IR_GOTOIFNOT and IR_RETURN only, every jump naming a label of f.
 * Guarantees: every IR_SLOT read is reached only by assignments of its own
 * slot (its web), so inference may give each slot one type; a read that no
 * assignment reaches, of a variable assigned elsewhere, is an
 * UndefVarError at its location in diags. Slot indices of the parameters do
 * not change; new slots are appended, named `x@_N`.
 *
 * A variable assigned values of different types in sequence (x = 1;
 * x = Float32(x)) is fine in Julia: only where two assignments reach one use
 * must they agree. So each slot is split into webs: the assignments that
 * reach a common use (reaching definitions over the flat IR) are joined, and
 * every web beyond the first becomes a slot of its own, printed `x@_N` as
 * Julia prints slots that share a name. Inference then types each web alone. */

#include <stdint.h>
#include <string.h>

#include "frontend.h"

typedef struct Split {
    int nblocks;
    int *block_of; /* instruction -> block */
    int *first;    /* block -> first instruction */
    int *succ;     /* block -> up to two successors (-1 = none) */
    int ndefs;     /* parameter entry definitions first, then one per IR_ASSIGN */
    int *def_slot;
    int *def_inst; /* -1 for a parameter's entry definition */
    int *inst_def; /* IR_ASSIGN instruction -> its definition */
    int *parent;   /* union-find over definitions */
    uint64_t *in;  /* nblocks * words: definitions reaching each block's start */
    int words;
} Split;

static int uf_find(int *p, int x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

static void uf_union(int *p, int a, int b)
{
    a = uf_find(p, a);
    b = uf_find(p, b);
    if (a != b)
        p[a > b ? a : b] = a < b ? a : b; /* the earliest definition is the root */
}

/* Apply instruction i to the set of reaching definitions. */
static void rd_step(const Split *S, const IrFunc *f, int i, uint64_t *set)
{
    const IrInst *in = &f->insts[i];
    if (in->op != IR_ASSIGN)
        return;
    for (int d = 0; d < S->ndefs; d++)
        if (S->def_slot[d] == in->slot)
            set[d / 64] &= ~(1ULL << (d % 64));
    int d = S->inst_def[i];
    set[d / 64] |= 1ULL << (d % 64);
}

void split_slots(Arena *a, IrFunc *f, Diags *diags)
{
    int n = f->ninsts;
    if (!n || a->failed)
        return;
    Split S = { 0 };
    S.block_of = arena_alloc(a, sizeof(int) * (size_t)n);
    S.first = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
    S.inst_def = arena_alloc(a, sizeof(int) * (size_t)n);
    int *label_block = arena_alloc(a, sizeof(int) * (size_t)(f->nlabels + 1));
    if (!S.block_of || !S.first || !S.inst_def || !label_block)
        return;
    /* blocks: a label starts one, a jump or return ends one */
    for (int i = 0; i < n; i++) {
        const IrInst *in = &f->insts[i];
        bool starts = i == 0 || in->op == IR_LABEL || f->insts[i - 1].op == IR_GOTO ||
                      f->insts[i - 1].op == IR_GOTOIFNOT || f->insts[i - 1].op == IR_RETURN;
        if (starts)
            S.first[S.nblocks++] = i;
        S.block_of[i] = S.nblocks - 1;
        if (in->op == IR_LABEL)
            label_block[in->label] = S.nblocks - 1;
    }
    S.first[S.nblocks] = n;
    S.succ = arena_alloc(a, sizeof(int) * 2 * (size_t)S.nblocks);
    if (!S.succ)
        return;
    for (int b = 0; b < S.nblocks; b++) {
        const IrInst *last = &f->insts[S.first[b + 1] - 1];
        int next = b + 1 < S.nblocks ? b + 1 : -1;
        S.succ[2 * b] = S.succ[2 * b + 1] = -1;
        if (last->op == IR_GOTO)
            S.succ[2 * b] = label_block[last->label];
        else if (last->op == IR_GOTOIFNOT) {
            S.succ[2 * b] = label_block[last->label];
            S.succ[2 * b + 1] = next;
        } else if (last->op != IR_RETURN)
            S.succ[2 * b] = next;
    }
    /* definitions */
    S.ndefs = f->nparams;
    for (int i = 0; i < n; i++)
        if (f->insts[i].op == IR_ASSIGN)
            S.ndefs++;
    S.def_slot = arena_alloc(a, sizeof(int) * (size_t)(S.ndefs + 1));
    S.def_inst = arena_alloc(a, sizeof(int) * (size_t)(S.ndefs + 1));
    S.parent = arena_alloc(a, sizeof(int) * (size_t)(S.ndefs + 1));
    S.words = (S.ndefs + 63) / 64 + 1;
    S.in = arena_alloc(a, sizeof(uint64_t) * (size_t)S.words * (size_t)(S.nblocks + 1));
    uint64_t *cur = arena_alloc(a, sizeof(uint64_t) * (size_t)S.words);
    if (!S.def_slot || !S.def_inst || !S.parent || !S.in || !cur)
        return;
    int d = 0;
    for (; d < f->nparams; d++) {
        S.def_slot[d] = d;
        S.def_inst[d] = -1;
    }
    for (int i = 0; i < n; i++)
        if (f->insts[i].op == IR_ASSIGN) {
            S.def_slot[d] = f->insts[i].slot;
            S.def_inst[d] = i;
            S.inst_def[i] = d++;
        }
    for (d = 0; d < S.ndefs; d++)
        S.parent[d] = d;
    /* reaching definitions to a fixed point */
    for (d = 0; d < f->nparams; d++)
        S.in[d / 64] |= 1ULL << (d % 64);
    bool changed = true;
    for (int iter = 0; changed && iter < 4 * S.nblocks + 8; iter++) {
        changed = false;
        for (int b = 0; b < S.nblocks; b++) {
            memcpy(cur, S.in + (size_t)b * S.words, sizeof(uint64_t) * (size_t)S.words);
            for (int i = S.first[b]; i < S.first[b + 1]; i++)
                rd_step(&S, f, i, cur);
            for (int k = 0; k < 2; k++) {
                int s = S.succ[2 * b + k];
                if (s < 0)
                    continue;
                uint64_t *in = S.in + (size_t)s * S.words;
                for (int w = 0; w < S.words; w++)
                    if (cur[w] & ~in[w]) {
                        in[w] |= cur[w];
                        changed = true;
                    }
            }
        }
    }
    /* join the definitions that reach each use; remember one for the use */
    int *use_def = arena_alloc(a, sizeof(int) * (size_t)n);
    if (!use_def)
        return;
    for (int b = 0; b < S.nblocks; b++) {
        memcpy(cur, S.in + (size_t)b * S.words, sizeof(uint64_t) * (size_t)S.words);
        for (int i = S.first[b]; i < S.first[b + 1]; i++) {
            const IrInst *in = &f->insts[i];
            use_def[i] = -1;
            if (in->op == IR_SLOT)
                for (d = 0; d < S.ndefs; d++)
                    if (S.def_slot[d] == in->slot && (cur[d / 64] >> (d % 64) & 1)) {
                        if (use_def[i] >= 0)
                            uf_union(S.parent, use_def[i], d);
                        else
                            use_def[i] = d;
                    }
            rd_step(&S, f, i, cur);
        }
    }
    /* a use no assignment reaches, in code that runs, reads a variable never defined */
    bool *live = arena_alloc(a, (size_t)S.nblocks + 1);
    int *work = arena_alloc(a, sizeof(int) * (size_t)(S.nblocks + 1));
    if (!live || !work)
        return;
    int nw = 0;
    live[0] = true;
    work[nw++] = 0;
    while (nw) {
        int b = work[--nw];
        for (int k = 0; k < 2; k++) {
            int sb = S.succ[2 * b + k];
            if (sb >= 0 && !live[sb]) {
                live[sb] = true;
                work[nw++] = sb;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        const IrInst *in = &f->insts[i];
        if (in->op != IR_SLOT || use_def[i] >= 0 || !live[S.block_of[i]] || in->slot < f->nparams)
            continue;
        bool assigned = false;
        for (d = f->nparams; d < S.ndefs && !assigned; d++)
            assigned = S.def_slot[d] == in->slot;
        if (assigned && f->slots[in->slot].name[0] != '#')
            diag_error(diags, in->loc, "UndefVarError: `%s` not defined (it is used before any assignment reaches it)",
                       f->slots[in->slot].name);
    }
    /* one slot per web: the web of the earliest definition keeps the slot */
    int *web_slot = arena_alloc(a, sizeof(int) * (size_t)(S.ndefs + 1));
    int *slot_root = arena_alloc(a, sizeof(int) * (size_t)(f->nslots + 1));
    if (!web_slot || !slot_root)
        return;
    int nslots = f->nslots;
    for (int s = 0; s < nslots; s++)
        slot_root[s] = -1;
    for (d = 0; d < S.ndefs; d++) {
        int r = uf_find(S.parent, d);
        if (r != d)
            continue;
        int s = S.def_slot[d];
        if (slot_root[s] < 0) {
            slot_root[s] = d;
            web_slot[d] = s;
        } else {
            IrSlot old = f->slots[s];
            SrcLoc loc = S.def_inst[d] >= 0 ? f->insts[S.def_inst[d]].loc : old.loc;
            int ns = ir_new_slot(a, f, arena_printf(a, "%s@_%d", old.name, f->nslots + 1), loc);
            if (a->failed)
                return;
            f->slots[ns].decl_type = old.decl_type;
            web_slot[d] = ns;
        }
    }
    for (int i = 0; i < n; i++) {
        IrInst *in = &f->insts[i];
        if (in->op == IR_ASSIGN)
            in->slot = web_slot[uf_find(S.parent, S.inst_def[i])];
        else if (in->op == IR_SLOT && use_def[i] >= 0)
            in->slot = web_slot[uf_find(S.parent, use_def[i])];
    }
}
