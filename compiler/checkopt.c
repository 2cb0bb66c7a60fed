/* checkopt.c: bounds checks that cost (almost) nothing, a pass of juke's own
 * over the optimised LLVM IR (llvm_optimize runs it after -O2/-O3, then
 * simplifycfg). A check is a conditional branch that codegen.c's check()
 * marked unlikely (branch weights 1 : 2^20) towards an exception block.
 *
 * 1. Implied checks. A check whose condition follows from the conditions of
 *    the branches that dominate it on a chain of single-predecessor blocks
 *    (`if i <= length(c)` before `c[i]`; `ix ∈ axes(A, 1)` before
 *    `A[ix, iy]`) branches on a constant and simplifycfg drops it. LLVM's own
 *    passes (GVN, ConstraintElimination, CorrelatedValuePropagation) take
 *    the same condition and the unsigned ones; the signed guard against the
 *    unsigned check of a non-negative index is what they leave (Constraint-
 *    Elimination does not move a signed fact to the unsigned system when
 *    only known bits say the index is non-negative).
 *
 * 2. Merged checks (GPU targets). Checks one after another on the hot path, with nothing
 *    between them that writes memory or calls (loads may be there), become
 *    one branch on the `or` of their conditions at the first, computed
 *    there (each later condition frozen: its operands may carry no-wrap
 *    flags that hold only once the earlier checks passed). On a GPU each
 *    check is a divergent branch whose exec-mask bookkeeping costs more
 *    than its compare. The cold path keeps each check's own record: a chain
 *    of dispatch blocks tests the conditions again in program order and
 *    gives the exception block the values of the first that fails, so the
 *    error (index, dims, line, work-item) is exactly as before.
 *
 * Requires: the IR verified and optimised; keeps it valid. */
#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checkopt.h"

enum { CHAIN_MAX = 64, FACT_MAX = 32, WALK_UP = 8, DEPTH = 8, COLD_MAX = 256 };

/* ---- blocks and their predecessors ---- */

typedef struct Preds {
    LLVMBasicBlockRef *bb; /* open addressing by pointer */
    LLVMBasicBlockRef *pred;
    int *count;
    bool *done; /* a block of a merged chain: not a head again */
    size_t cap;
} Preds;

static size_t slot_of(const Preds *p, LLVMBasicBlockRef b)
{
    size_t h = ((uintptr_t)b >> 4) * 0x9e3779b97f4a7c15ull;
    for (size_t i = h & (p->cap - 1);; i = (i + 1) & (p->cap - 1))
        if (p->bb[i] == b || !p->bb[i])
            return i;
}

static bool preds_build(Preds *p, LLVMValueRef fn)
{
    size_t n = LLVMCountBasicBlocks(fn);
    p->cap = 16;
    while (p->cap < 2 * n + 2)
        p->cap *= 2;
    p->bb = calloc(p->cap, sizeof *p->bb);
    p->pred = calloc(p->cap, sizeof *p->pred);
    p->count = calloc(p->cap, sizeof *p->count);
    p->done = calloc(p->cap, sizeof *p->done);
    if (!p->bb || !p->pred || !p->count || !p->done)
        return false;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        p->bb[slot_of(p, b)] = b;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++) {
            LLVMBasicBlockRef d = LLVMGetSuccessor(t, s);
            bool seen = false; /* a block branching twice to d is one predecessor */
            for (unsigned r = 0; r < s; r++)
                seen |= LLVMGetSuccessor(t, r) == d;
            size_t i = slot_of(p, d);
            if (!seen && p->bb[i] == d) {
                p->count[i]++;
                p->pred[i] = b;
            }
        }
    }
    return true;
}

static void preds_free(Preds *p)
{
    free(p->bb);
    free(p->pred);
    free(p->count);
    free(p->done);
}

/* b's only predecessor, or NULL. */
static LLVMBasicBlockRef single_pred(const Preds *p, LLVMBasicBlockRef b)
{
    size_t i = slot_of(p, b);
    return p->bb[i] == b && p->count[i] == 1 ? p->pred[i] : NULL;
}

/* ---- checks ---- */

typedef struct Check {
    LLVMValueRef br;
    LLVMValueRef cond;
    unsigned cold; /* the successor index of the exception block */
} Check;

static uint64_t md_int(LLVMValueRef v)
{
    return v && LLVMIsAConstantInt(v) ? LLVMConstIntGetZExtValue(v) : 0;
}

/* Whether b ends in a check (codegen.c's mark_unlikely weights). */
static bool is_check(LLVMContextRef ctx, LLVMBasicBlockRef b, Check *c)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    if (!t || !LLVMIsABranchInst(t) || !LLVMIsConditional(t))
        return false;
    LLVMValueRef md = LLVMGetMetadata(t, LLVMGetMDKindIDInContext(ctx, "prof", 4));
    if (!md || LLVMGetMDNodeNumOperands(md) != 3)
        return false;
    LLVMValueRef ops[3];
    LLVMGetMDNodeOperands(md, ops);
    unsigned len = 0;
    const char *s = LLVMGetMDString(ops[0], &len);
    if (!s || len != 14 || memcmp(s, "branch_weights", 14) != 0)
        return false;
    uint64_t w0 = md_int(ops[1]), w1 = md_int(ops[2]);
    if (!((w0 == 1 && w1 == 1u << 20) || (w0 == 1u << 20 && w1 == 1)))
        return false;
    c->br = t;
    c->cond = LLVMGetCondition(t);
    c->cold = w0 == 1 ? 0 : 1;
    return true;
}

/* ---- 1. implied checks ---- */

typedef struct Fact {
    LLVMIntPredicate pred;
    LLVMValueRef x, y;
} Fact;

static LLVMIntPredicate inverse(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntEQ: return LLVMIntNE;
    case LLVMIntNE: return LLVMIntEQ;
    case LLVMIntUGT: return LLVMIntULE;
    case LLVMIntUGE: return LLVMIntULT;
    case LLVMIntULT: return LLVMIntUGE;
    case LLVMIntULE: return LLVMIntUGT;
    case LLVMIntSGT: return LLVMIntSLE;
    case LLVMIntSGE: return LLVMIntSLT;
    case LLVMIntSLT: return LLVMIntSGE;
    default: return LLVMIntSGT;
    }
}

static LLVMIntPredicate swapped(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntUGT: return LLVMIntULT;
    case LLVMIntUGE: return LLVMIntULE;
    case LLVMIntULT: return LLVMIntUGT;
    case LLVMIntULE: return LLVMIntUGE;
    case LLVMIntSGT: return LLVMIntSLT;
    case LLVMIntSGE: return LLVMIntSLE;
    case LLVMIntSLT: return LLVMIntSGT;
    case LLVMIntSLE: return LLVMIntSGE;
    default: return p;
    }
}

/* The relation `v == val` as x PRED y with PRED one of lt/le/eq/ne (a gt
 * or ge swaps the operands). */
static Fact as_fact(LLVMValueRef icmp, bool val)
{
    LLVMIntPredicate p = LLVMGetICmpPredicate(icmp);
    if (!val)
        p = inverse(p);
    Fact f = { p, LLVMGetOperand(icmp, 0), LLVMGetOperand(icmp, 1) };
    if (p == LLVMIntUGT || p == LLVMIntUGE || p == LLVMIntSGT || p == LLVMIntSGE)
        f = (Fact){ swapped(p), f.y, f.x };
    return f;
}

/* Whether v (an integer) is non-negative by its construction: what index
 * arithmetic on work-item ids, sizes and constants gives. */
static bool non_negative(LLVMValueRef v, int depth)
{
    if (LLVMIsAConstantInt(v))
        return LLVMConstIntGetSExtValue(v) >= 0;
    if (!LLVMIsAInstruction(v) || depth > DEPTH)
        return false;
    LLVMValueRef range = LLVMGetMetadata(v, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(v)), "range", 5));
    if (range && LLVMGetMDNodeNumOperands(range) == 2) {
        /* !range [lo, hi) with 0 <= lo < hi <= 2^(bits-1): a load of an id or a size */
        LLVMValueRef lohi[2];
        LLVMGetMDNodeOperands(range, lohi);
        unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
        if (LLVMIsAConstantInt(lohi[0]) && LLVMIsAConstantInt(lohi[1]) && bits <= 64 &&
            LLVMConstIntGetSExtValue(lohi[0]) >= 0 &&
            LLVMConstIntGetZExtValue(lohi[0]) < LLVMConstIntGetZExtValue(lohi[1]) &&
            (bits == 64 || LLVMConstIntGetZExtValue(lohi[1]) <= (1ull << (bits - 1))))
            return true;
    }
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMZExt: return true;
    case LLVMSExt: return non_negative(LLVMGetOperand(v, 0), depth + 1);
    case LLVMAnd: return non_negative(LLVMGetOperand(v, 0), depth + 1) || non_negative(LLVMGetOperand(v, 1), depth + 1);
    case LLVMLShr: {
        LLVMValueRef s = LLVMGetOperand(v, 1);
        return (LLVMIsAConstantInt(s) && LLVMConstIntGetZExtValue(s) > 0) ||
               non_negative(LLVMGetOperand(v, 0), depth + 1);
    }
    case LLVMAdd:
    case LLVMMul:
        return LLVMGetNSW(v) && non_negative(LLVMGetOperand(v, 0), depth + 1) &&
               non_negative(LLVMGetOperand(v, 1), depth + 1);
    default: return false;
    }
}

/* Whether v is positive by its construction (an index from 1). */
static bool positive(LLVMValueRef v, int depth)
{
    if (LLVMIsAConstantInt(v))
        return LLVMConstIntGetSExtValue(v) > 0;
    if (!LLVMIsAInstruction(v) || depth > DEPTH)
        return false;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMZExt: return positive(LLVMGetOperand(v, 0), depth + 1);
    case LLVMAdd: {
        LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
        return LLVMGetNSW(v) && ((positive(a, depth + 1) && non_negative(b, depth + 1)) ||
                                 (non_negative(a, depth + 1) && positive(b, depth + 1)));
    }
    default: return false;
    }
}

/* Whether v >=u 1 by its construction: a positive constant, or an add nuw with such an operand. */
static bool positive_unsigned(LLVMValueRef v, int depth)
{
    if (LLVMIsAConstantInt(v))
        return LLVMConstIntGetZExtValue(v) > 0;
    if (!LLVMIsAInstruction(v) || depth > DEPTH || LLVMGetInstructionOpcode(v) != LLVMAdd || !LLVMGetNUW(v))
        return false;
    return positive_unsigned(LLVMGetOperand(v, 0), depth + 1) || positive_unsigned(LLVMGetOperand(v, 1), depth + 1);
}

/* v as x - 1 (add nsw x, -1), or NULL. */
static LLVMValueRef minus_one_of(LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMAdd || !LLVMGetNSW(v))
        return NULL;
    LLVMValueRef c = LLVMGetOperand(v, 1);
    return LLVMIsAConstantInt(c) && LLVMConstIntGetSExtValue(c) == -1 ? LLVMGetOperand(v, 0) : NULL;
}

/* Whether fact f gives the relation g. */
static bool gives(const Fact *f, const Fact *g)
{
    /* x <=s y with 1 <= x: then x - 1 <u y (the guard `i <= length(a)` of a 1-based index) */
    if (f->y == g->y && f->pred == LLVMIntSLE && g->pred == LLVMIntULT && minus_one_of(g->x) == f->x)
        return positive(f->x, 0);
    /* likewise x <=u y (the guard as -O3 leaves it once narrow.c made both sides 32-bit) */
    if (f->y == g->y && f->pred == LLVMIntULE && g->pred == LLVMIntULT && minus_one_of(g->x) == f->x)
        return positive(f->x, 0) || positive_unsigned(f->x, 0);
    if (f->x != g->x || f->y != g->y)
        return false;
    if (f->pred == g->pred)
        return true;
    /* x <s y with 0 <= x: then 0 < y, and x <u y (likewise <=) */
    if (f->pred == LLVMIntSLT && g->pred == LLVMIntULT)
        return non_negative(f->x, 0);
    if (f->pred == LLVMIntSLE && g->pred == LLVMIntULE)
        return non_negative(f->x, 0) && non_negative(f->y, 0);
    if (f->pred == LLVMIntULT && g->pred == LLVMIntSLT)
        return non_negative(f->y, 0);
    if ((f->pred == LLVMIntULT || f->pred == LLVMIntSLT) && (g->pred == LLVMIntULE || g->pred == LLVMIntSLE))
        return f->pred == LLVMIntULT ? g->pred == LLVMIntULE : g->pred == LLVMIntSLE;
    return false;
}

/* logical a && b (and, or select a, b, false) and a || b (or, select a, true, b) */
static bool logic_op(LLVMValueRef v, bool *is_and, LLVMValueRef *a, LLVMValueRef *b)
{
    if (!LLVMIsAInstruction(v) || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(LLVMTypeOf(v)) != 1)
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMAnd || op == LLVMOr) {
        *is_and = op == LLVMAnd;
        *a = LLVMGetOperand(v, 0);
        *b = LLVMGetOperand(v, 1);
        return true;
    }
    if (op == LLVMSelect) {
        LLVMValueRef t = LLVMGetOperand(v, 1), f = LLVMGetOperand(v, 2);
        if (LLVMIsAConstantInt(f) && LLVMConstIntGetZExtValue(f) == 0) {
            *is_and = true;
            *a = LLVMGetOperand(v, 0);
            *b = t;
            return true;
        }
        if (LLVMIsAConstantInt(t) && LLVMConstIntGetZExtValue(t) == 1) {
            *is_and = false;
            *a = LLVMGetOperand(v, 0);
            *b = f;
            return true;
        }
    }
    return false;
}

/* The facts `v == val` gives (a && b true: both; a || b false: both). */
static void collect_facts(LLVMValueRef v, bool val, Fact *facts, int *n, int depth)
{
    bool is_and;
    LLVMValueRef a, b;
    if (*n >= FACT_MAX || depth > DEPTH)
        return;
    if (LLVMIsAICmpInst(v)) {
        facts[(*n)++] = as_fact(v, val);
    } else if (logic_op(v, &is_and, &a, &b) && is_and == val) {
        collect_facts(a, val, facts, n, depth + 1);
        collect_facts(b, val, facts, n, depth + 1);
    }
}

static bool implied(LLVMValueRef v, bool val, const Fact *facts, int n)
{
    if (LLVMIsAICmpInst(v)) {
        Fact g = as_fact(v, val);
        for (int i = 0; i < n; i++)
            if (gives(&facts[i], &g))
                return true;
    }
    return false;
}

/* Replaces the parts of a check's condition that the facts decide with
 * constants: the condition itself, or the operands of a single-use and/or
 * (one disjunct of a multi-dimensional check). */
static bool fold_implied(LLVMContextRef ctx, LLVMValueRef user, unsigned opno, LLVMValueRef v, const Fact *facts, int n,
                         int depth)
{
    LLVMTypeRef i1 = LLVMInt1TypeInContext(ctx);
    for (int val = 0; val < 2; val++)
        if (implied(v, val, facts, n)) {
            LLVMSetOperand(user, opno, LLVMConstInt(i1, (unsigned long long)val, 0));
            return true;
        }
    bool changed = false, is_and;
    LLVMValueRef a, b;
    LLVMUseRef u = LLVMGetFirstUse(v);
    if (depth < DEPTH && u && !LLVMGetNextUse(u) && logic_op(v, &is_and, &a, &b) &&
        (LLVMGetInstructionOpcode(v) != LLVMSelect)) {
        changed |= fold_implied(ctx, v, 0, a, facts, n, depth + 1);
        changed |= fold_implied(ctx, v, 1, b, facts, n, depth + 1);
    }
    return changed;
}

static int remove_implied(LLVMContextRef ctx, LLVMValueRef fn, const Preds *p)
{
    int removed = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
        Check c;
        if (!is_check(ctx, b, &c) || LLVMIsAConstant(c.cond))
            continue;
        Fact facts[FACT_MAX];
        int n = 0;
        LLVMBasicBlockRef cur = b, up;
        for (int k = 0; k < WALK_UP && (up = single_pred(p, cur)); k++, cur = up) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(up);
            if (LLVMIsABranchInst(t) && LLVMIsConditional(t) && LLVMGetSuccessor(t, 0) != LLVMGetSuccessor(t, 1))
                collect_facts(LLVMGetCondition(t), LLVMGetSuccessor(t, 0) == cur, facts, &n, 0);
        }
        if (n && fold_implied(ctx, c.br, 0, c.cond, facts, n, 0))
            removed++;
    }
    return removed;
}

/* ---- 2. merged checks ---- */

/* Whether an instruction may run earlier than it does: no memory access,
 * no call, nothing that can be undefined behaviour (division). */
static bool speculatable(LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
    case LLVMICmp:
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMExtractValue:
    case LLVMGetElementPtr:
    case LLVMSelect:
    case LLVMFreeze:
    case LLVMBitCast:
    case LLVMPtrToInt: return true;
    default: return false;
    }
}

/* Whether a block may run inside a merged check: it reads memory at most. */
static bool side_effect_free(LLVMBasicBlockRef b)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        if (LLVMIsAPHINode(i))
            return false;
        if (LLVMIsALoadInst(i)) {
            if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
                return false;
        } else if (!speculatable(i) && !LLVMIsATerminatorInst(i)) {
            return false;
        }
    }
    return true;
}

static bool in_blocks(LLVMBasicBlockRef b, LLVMBasicBlockRef *bs, int n)
{
    for (int i = 0; i < n; i++)
        if (bs[i] == b)
            return true;
    return false;
}

/* whether b is one of the chain's later blocks (not its head) */
static bool in_chain(LLVMBasicBlockRef b, LLVMBasicBlockRef *chain, int n)
{
    return in_blocks(b, chain + 1, n - 1);
}

/* Whether v can be computed at the head: defined outside the chain's later
 * blocks, or speculatable with operands that can. */
static bool can_hoist(LLVMValueRef v, LLVMBasicBlockRef *chain, int n, int depth)
{
    if (!LLVMIsAInstruction(v) || !in_chain(LLVMGetInstructionParent(v), chain, n))
        return true;
    if (depth > 4 * DEPTH || !speculatable(v))
        return false;
    int ops = LLVMGetNumOperands(v);
    for (int k = 0; k < ops; k++)
        if (!can_hoist(LLVMGetOperand(v, k), chain, n, depth + 1))
            return false;
    return true;
}

/* Moves v (and what it needs from the chain) before the head's terminator. */
static void hoist(LLVMBuilderRef bld, LLVMValueRef v, LLVMBasicBlockRef *chain, int n)
{
    if (!LLVMIsAInstruction(v) || !in_chain(LLVMGetInstructionParent(v), chain, n))
        return;
    int ops = LLVMGetNumOperands(v);
    for (int k = 0; k < ops; k++)
        hoist(bld, LLVMGetOperand(v, k), chain, n);
    LLVMInstructionRemoveFromParent(v);
    LLVMInsertIntoBuilder(bld, v);
}

/* The values the exception block's phis get from the check in block b. */
static bool cold_values_hoistable(LLVMBasicBlockRef b, LLVMBasicBlockRef thr, LLVMBasicBlockRef *chain, int n)
{
    for (LLVMValueRef phi = LLVMGetFirstInstruction(thr); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
        for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
            if (LLVMGetIncomingBlock(phi, k) == b && !can_hoist(LLVMGetIncomingValue(phi, k), chain, n, 0))
                return false;
    return true;
}

/* The blocks of the cold paths of the chain's later checks: what their
 * exception blocks reach (they end in unreachable), at most COLD_MAX. */
static int cold_region(const Check *ck, const bool *test, int n, LLVMBasicBlockRef *out)
{
    int m = 0;
    for (int i = 1; i < n; i++) {
        if (!test[i])
            continue;
        LLVMBasicBlockRef thr = LLVMGetSuccessor(ck[i].br, ck[i].cold);
        int from = m;
        if (in_blocks(thr, out, m))
            continue;
        out[m++] = thr;
        for (int k = from; k < m; k++) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(out[k]);
            for (unsigned s = 0, ns = t ? LLVMGetNumSuccessors(t) : 0; s < ns; s++) {
                LLVMBasicBlockRef d = LLVMGetSuccessor(t, s);
                if (in_blocks(d, out, m))
                    continue;
                if (m == COLD_MAX)
                    return -1;
                out[m++] = d;
            }
        }
    }
    return m;
}

/* A later check's cold path may use a value of a chain block directly (not
 * through a phi of its exception block: a check inlined from a helper has
 * an exception block of its own). Once merged, the cold path is entered
 * from the dispatch blocks, which that chain block no longer dominates, so
 * each such value must move to the merged head. With bld, moves them there
 * (at bld's position); false if the cold paths cannot be found or a value
 * cannot move. */
static bool cold_uses(const Check *ck, const bool *test, LLVMBasicBlockRef *chain, int n, LLVMBuilderRef bld)
{
    LLVMBasicBlockRef region[COLD_MAX];
    LLVMValueRef moved[COLD_MAX];
    int m = cold_region(ck, test, n, region), nmoved = 0;
    if (m < 0)
        return false;
    for (int i = 1; i < n; i++)
        for (LLVMValueRef v = LLVMGetFirstInstruction(chain[i]); v; v = LLVMGetNextInstruction(v))
            for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                /* an exception block's phi: its incoming value moves with the check (cold_values_hoistable) */
                if (!LLVMIsAInstruction(user) || LLVMIsAPHINode(user) ||
                    !in_blocks(LLVMGetInstructionParent(user), region, m))
                    continue;
                if (!can_hoist(v, chain, n, 0) || nmoved == COLD_MAX)
                    return false;
                moved[nmoved++] = v;
                break;
            }
    for (int k = 0; bld && k < nmoved; k++)
        hoist(bld, moved[k], chain, n);
    return true;
}

static LLVMValueRef fail_of(LLVMBuilderRef bld, const Check *c)
{
    return c->cold == 0 ? c->cond : LLVMBuildNot(bld, c->cond, "");
}

static void set_unlikely(LLVMContextRef ctx, LLVMValueRef br)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMMetadataRef w[3] = { LLVMMDStringInContext2(ctx, "branch_weights", 14),
                             LLVMValueAsMetadata(LLVMConstInt(i32, 1, 0)),
                             LLVMValueAsMetadata(LLVMConstInt(i32, 1u << 20, 0)) };
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(ctx, "prof", 4),
                    LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, w, 3)));
}

/* Merges the chain of checks that starts at head (see the top): head's
 * instructions and what the later checks need move to a new block before
 * it, which branches on the `or` to head (now the cold path's first test)
 * or on to the second block of the chain, whose check and those after it
 * branch on a constant. A check already decided on the hot path (part 1)
 * is a link of the chain with no test. Returns the checks merged into the
 * first. */
static int merge_chain(LLVMContextRef ctx, LLVMBuilderRef bld, LLVMBasicBlockRef head, Preds *p)
{
    LLVMBasicBlockRef chain[CHAIN_MAX];
    Check ck[CHAIN_MAX];
    bool test[CHAIN_MAX];
    int n = 0, ntests = 0;
    if (!is_check(ctx, head, &ck[0]) || LLVMIsAConstant(ck[0].cond) || LLVMIsAPHINode(LLVMGetFirstInstruction(head)))
        return 0;
    chain[n] = head;
    test[n++] = true;
    while (n < CHAIN_MAX) {
        LLVMBasicBlockRef next = LLVMGetSuccessor(ck[n - 1].br, 1 - ck[n - 1].cold);
        Check c;
        if (single_pred(p, next) != chain[n - 1] || !side_effect_free(next) || !is_check(ctx, next, &c))
            break;
        chain[n] = next;
        if (LLVMIsAConstant(c.cond)) {
            /* decided: a link on the hot path if it passes */
            if ((LLVMConstIntGetZExtValue(c.cond) != 0) != (c.cold == 1))
                break;
            ck[n] = c;
            test[n++] = false;
            continue;
        }
        LLVMBasicBlockRef thr = LLVMGetSuccessor(c.br, c.cold);
        if (!can_hoist(c.cond, chain, n + 1, 0) || !cold_values_hoistable(next, thr, chain, n + 1))
            break;
        ck[n] = c;
        test[n] = true;
        chain[n] = next;
        if (!cold_uses(ck, test, chain, n + 1, NULL))
            break;
        n++;
        ntests++;
    }
    while (n > 1 && !test[n - 1])
        n--;
    if (ntests == 0)
        return 0;
    LLVMValueRef fn = LLVMGetBasicBlockParent(head);
    LLVMBasicBlockRef top = LLVMInsertBasicBlockInContext(ctx, head, "checks");
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
        for (unsigned s = 0, ns = t ? LLVMGetNumSuccessors(t) : 0; s < ns; s++)
            if (LLVMGetSuccessor(t, s) == head)
                LLVMSetSuccessor(t, s, top);
    }
    LLVMPositionBuilderAtEnd(bld, top);
    for (LLVMValueRef i = LLVMGetFirstInstruction(head), next; i != ck[0].br; i = next) {
        next = LLVMGetNextInstruction(i);
        LLVMInstructionRemoveFromParent(i);
        LLVMInsertIntoBuilder(bld, i);
    }
    cold_uses(ck, test, chain, n, bld);
    LLVMValueRef fail[CHAIN_MAX];
    LLVMValueRef any = fail_of(bld, &ck[0]);
    for (int i = 1; i < n; i++) {
        if (!test[i])
            continue;
        LLVMBasicBlockRef thr = LLVMGetSuccessor(ck[i].br, ck[i].cold);
        hoist(bld, ck[i].cond, chain, n);
        for (LLVMValueRef phi = LLVMGetFirstInstruction(thr); phi && LLVMIsAPHINode(phi);
             phi = LLVMGetNextInstruction(phi))
            for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
                if (LLVMGetIncomingBlock(phi, k) == chain[i])
                    hoist(bld, LLVMGetIncomingValue(phi, k), chain, n);
        fail[i] = LLVMBuildFreeze(bld, fail_of(bld, &ck[i]), "");
        any = LLVMBuildOr(bld, any, fail[i], "");
    }
    set_unlikely(ctx, LLVMBuildCondBr(bld, any, head, chain[1]));
    /* the cold path: head's own test, then a dispatch block per later check;
     * the last needs no test (some check failed) */
    int last = 0;
    for (int i = 1; i < n; i++)
        last = test[i] ? i : last;
    LLVMValueRef from = ck[0].br;
    unsigned from_succ = 1 - ck[0].cold;
    for (int i = 1; i < n; i++) {
        if (!test[i])
            continue;
        LLVMBasicBlockRef d = LLVMAppendBasicBlockInContext(ctx, fn, "check.which");
        LLVMSetSuccessor(from, from_succ, d);
        LLVMBasicBlockRef thr = LLVMGetSuccessor(ck[i].br, ck[i].cold);
        for (LLVMValueRef phi = LLVMGetFirstInstruction(thr); phi && LLVMIsAPHINode(phi);
             phi = LLVMGetNextInstruction(phi))
            for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
                if (LLVMGetIncomingBlock(phi, k) == chain[i]) {
                    LLVMValueRef v = LLVMGetIncomingValue(phi, k);
                    LLVMAddIncoming(phi, &v, &d, 1);
                    break;
                }
        LLVMPositionBuilderAtEnd(bld, d);
        if (i < last) {
            /* the false edge is set to the next dispatch block above */
            from = LLVMBuildCondBr(bld, fail[i], thr, thr);
            from_succ = 1;
        } else {
            LLVMBuildBr(bld, thr);
        }
        /* on the hot path the check has passed: simplifycfg drops its cold edge */
        LLVMSetCondition(ck[i].br, LLVMConstInt(LLVMInt1TypeInContext(ctx), ck[i].cold == 0 ? 0 : 1, 0));
    }
    for (int i = 0; i < n; i++)
        p->done[slot_of(p, chain[i])] = true;
    return ntests;
}

int checkopt_run(LLVMModuleRef mod, bool merge, CheckoptStats *st)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(ctx);
    int changed = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        Preds p = { 0 };
        size_t nb = LLVMCountBasicBlocks(fn);
        LLVMBasicBlockRef *blocks = malloc(nb * sizeof *blocks);
        if (blocks && preds_build(&p, fn)) {
            int implied = remove_implied(ctx, fn, &p);
            st->implied += implied;
            changed += implied;
            /* heads in the order of the blocks before any merge */
            LLVMGetBasicBlocks(fn, blocks);
            for (size_t i = 0; merge && i < nb; i++) {
                if (p.done[slot_of(&p, blocks[i])])
                    continue;
                int m = merge_chain(ctx, bld, blocks[i], &p);
                st->merged += m;
                changed += m;
            }
        }
        free(blocks);
        preds_free(&p);
    }
    LLVMDisposeBuilder(bld);
    return changed;
}
