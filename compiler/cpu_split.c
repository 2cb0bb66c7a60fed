/* cpu_split.c: a group entry's item loop split at the bound of a guard alike in every work-item.
 *
 * The group entry (target_cpu.c) runs every work-item of a group, x fastest, in item loops; LLVM vectorises
 * an x loop across the items. A guard of the item's index against a value alike in every item turns the
 * vector loop's loads and stores into masked ones over all the items:
 * - in a round of a kernel with barriers (cpu_regions.c), reductions guard their step (`if item <= d`) and
 *   the masked loop runs all the items where C runs `d`;
 * - in a kernel without barriers, the launch's bound (`if i <= length(dst)` with `i = (group - 1) * n +
 *   item`) holds for every item of every group but the last, and yet each access is masked: on a CPU with
 *   AVX-512 (EPYC, znver5) a copy through masked loads and stores moves half the bytes a second that plain
 *   ones do (bench/RESULTS.md §23a).
 * This pass finds, in each x loop of the group entry (those whose loop ID holds the caller's mark), a
 * compare `icmp (x + c + U), B` with U and B computed before the loop (U a sum of values alike in every
 * item, as `(group - 1) * n` in `i = (group - 1) * n + item`) that decides a branch, alone or (in kernels
 * without barriers) through `&&` and `||`, and splits the loop at the point S where the compare changes:
 * items [0, S) run a copy with it decided one way, items [S, n) a copy decided the other. The items run in
 * the same order as before, so what the kernel computes (and where a fault or an exception stops it) is
 * unchanged; each copy vectorises without masks.
 *
 * requires: the group entry with the kernel inlined into it and cleaned up (sroa, early-cse, instcombine,
 * simplifycfg, licm): the item index is the loop's induction variable, B is loop invariant.
 * guarantees: each x loop with such a guard is split at the first one; any other loop is left as it was. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h> /* LLVMTemporaryMDNode */

#include "cpu_split.h"

typedef struct Loop {
    LLVMBasicBlockRef pre, head, latch, exit;
    LLVMValueRef iv, next, n; /* iv: 0, 1, ..., n - 1 (i32); next = iv + 1 */
    LLVMBasicBlockRef *blocks;
    int nb;
} Loop;

static bool in_loop(const Loop *l, LLVMBasicBlockRef bb)
{
    for (int k = 0; k < l->nb; k++)
        if (l->blocks[k] == bb)
            return true;
    return false;
}

static bool defined_in_loop(const Loop *l, LLVMValueRef v)
{
    return LLVMIsAInstruction(v) && in_loop(l, LLVMGetInstructionParent(v));
}

static bool add_block(Loop *l, LLVMBasicBlockRef bb, int *cap)
{
    if (l->nb == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        LLVMBasicBlockRef *nb = realloc(l->blocks, (size_t)*cap * sizeof *nb);
        if (!nb)
            return false;
        l->blocks = nb;
    }
    l->blocks[l->nb++] = bb;
    return true;
}

/* phi's value coming from bb, or NULL */
static LLVMValueRef phi_from(LLVMValueRef phi, LLVMBasicBlockRef bb)
{
    for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
        if (LLVMGetIncomingBlock(phi, k) == bb)
            return LLVMGetIncomingValue(phi, k);
    return NULL;
}

/* The loop whose latch branch is br (`condbr (icmp ult next, n), head, exit`, as emit_item_loops makes it):
 * its blocks are those reached from head before exit; false when its shape is another (a value of the loop
 * used after it, a block entered from outside but at the head, an exit with phis). */
static bool find_loop(LLVMValueRef br, Loop *l)
{
    memset(l, 0, sizeof *l);
    if (!LLVMIsConditional(br) || LLVMGetNumSuccessors(br) != 2)
        return false;
    l->latch = LLVMGetInstructionParent(br);
    l->head = LLVMGetSuccessor(br, 0);
    l->exit = LLVMGetSuccessor(br, 1);
    LLVMValueRef cmp = LLVMGetCondition(br);
    if (!LLVMIsAICmpInst(cmp) || LLVMGetICmpPredicate(cmp) != LLVMIntULT)
        return false;
    l->next = LLVMGetOperand(cmp, 0);
    l->n = LLVMGetOperand(cmp, 1);
    if (!LLVMIsAInstruction(l->next) || LLVMGetInstructionOpcode(l->next) != LLVMAdd ||
        LLVMGetOperand(l->next, 1) != LLVMConstInt(LLVMTypeOf(l->next), 1, 0))
        return false;
    l->iv = LLVMGetOperand(l->next, 0);
    if (!LLVMIsAPHINode(l->iv) || LLVMGetInstructionParent(l->iv) != l->head ||
        LLVMGetTypeKind(LLVMTypeOf(l->iv)) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(LLVMTypeOf(l->iv)) != 32)
        return false;
    /* every phi of the head comes from the preheader and the latch; the index from 0 */
    for (LLVMValueRef p = LLVMGetFirstInstruction(l->head); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
        if (LLVMCountIncoming(p) != 2)
            return false;
        for (unsigned k = 0; k < 2; k++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(p, k);
            if (from == l->latch)
                continue;
            if (l->pre && from != l->pre)
                return false;
            l->pre = from;
        }
    }
    LLVMValueRef start = l->pre ? phi_from(l->iv, l->pre) : NULL;
    if (!start || !LLVMIsAConstantInt(start) || LLVMConstIntGetZExtValue(start) != 0 ||
        phi_from(l->iv, l->latch) != l->next)
        return false;
    /* the preheader only enters the loop; the exit's phis (LCSSA) take the latch's values */
    LLVMValueRef pre_br = LLVMGetBasicBlockTerminator(l->pre);
    if (!pre_br || LLVMIsConditional(pre_br) || LLVMGetNumSuccessors(pre_br) != 1)
        return false;
    for (LLVMValueRef p = LLVMGetFirstInstruction(l->exit); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p))
        if (LLVMCountIncoming(p) != 1 || LLVMGetIncomingBlock(p, 0) != l->latch)
            return false;
    /* the blocks: from the head, not through the exit */
    int cap = 0;
    if (!add_block(l, l->head, &cap))
        return false;
    for (int k = 0; k < l->nb; k++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(l->blocks[k]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++) {
            LLVMBasicBlockRef to = LLVMGetSuccessor(t, s);
            if (to != l->exit && !in_loop(l, to) && !add_block(l, to, &cap))
                return false;
        }
    }
    if (!in_loop(l, l->latch))
        return false;
    /* the loop is entered at the head only, and nothing after it uses its values */
    for (int k = 0; k < l->nb; k++) {
        LLVMBasicBlockRef bb = l->blocks[k];
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                if (!LLVMIsAInstruction(user))
                    return false;
                LLVMBasicBlockRef at = LLVMGetInstructionParent(user);
                if (!in_loop(l, at) && !(at == l->exit && LLVMIsAPHINode(user)))
                    return false;
            }
        if (bb == l->head)
            continue;
        for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!LLVMIsAInstruction(user) || !in_loop(l, LLVMGetInstructionParent(user)))
                return false;
        }
    }
    return !defined_in_loop(l, l->n);
}

/* A guard of the loop: `icmp pred (iv + c + U), b` (either order; iv through zext, sext and adds of small
 * constants that do not wrap; U the sum of the uniform terms) with b computed before the loop, pred an
 * ordering one, deciding a branch (decides_branch). */
#define SPLIT_MAX_TERMS 4
typedef struct Guard {
    LLVMValueRef cmp, bound;
    LLVMIntPredicate pred; /* with the item's side on the left */
    long long c;
    LLVMValueRef terms[SPLIT_MAX_TERMS]; /* U's, each of the compare's width */
    int nterms;
} Guard;

/* Whether v is iv + *c + the sum of terms[*nterms]: a term is a value computed before the loop, added at the
 * compare's width (no extension above it) by an add that does not wrap in the compare's order (nsw for a
 * signed one, nuw for an unsigned one), so that the sum is exact in that order. */
static bool affine_in_iv(const Loop *l, LLVMValueRef v, bool is_signed, long long *c, LLVMValueRef *terms, int *nterms)
{
    *c = 0;
    *nterms = 0;
    bool extended = false;
    for (int depth = 0; depth < 12; depth++) {
        if (v == l->iv)
            return true;
        if (!LLVMIsAInstruction(v))
            return false;
        LLVMOpcode op = LLVMGetInstructionOpcode(v);
        if (op == LLVMZExt || op == LLVMSExt) {
            v = LLVMGetOperand(v, 0);
            extended = true;
            continue;
        }
        bool add = op == LLVMAdd && (LLVMGetNSW(v) || LLVMGetNUW(v));
        bool disjoint = op == LLVMOr && LLVMGetIsDisjoint(v);
        LLVMValueRef a = LLVMGetOperand(v, 0), k = LLVMGetOperand(v, 1);
        if (!(add || disjoint))
            return false;
        if (LLVMIsAConstantInt(k)) {
            long long kv = LLVMConstIntGetSExtValue(k);
            if (kv < -(1 << 20) || kv > (1 << 20))
                return false;
            *c += kv;
            v = a;
            continue;
        }
        /* a uniform term: exact only where this add cannot wrap in the compare's order */
        bool exact = op == LLVMAdd && (is_signed ? LLVMGetNSW(v) : LLVMGetNUW(v));
        if (!exact || extended || *nterms == SPLIT_MAX_TERMS)
            return false;
        if (!defined_in_loop(l, a)) {
            terms[(*nterms)++] = a;
            v = k;
        } else if (!defined_in_loop(l, k)) {
            terms[(*nterms)++] = k;
            v = a;
        } else {
            return false;
        }
    }
    return false;
}

static bool signed_pred(LLVMIntPredicate p)
{
    return p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
}

/* Whether v, an i1 of the loop, is a conditional branch's condition there (not the latch's: the loop's own
 * bound), or, with chains, an operand of the i1 `and`, `or` and `select` that make one (simplifycfg folds
 * `a && b` into `select a, b, false`: diffusion2d's `ix in axes(A, 1) && iy in axes(A, 2)`). */
static bool decides_branch(const Loop *l, LLVMValueRef v, bool chains, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u && depth < 8; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user) || !in_loop(l, LLVMGetInstructionParent(user)))
            continue;
        if (LLVMIsABranchInst(user) && LLVMIsConditional(user) && LLVMGetCondition(user) == v &&
            LLVMGetInstructionParent(user) != l->latch)
            return true;
        LLVMOpcode op = LLVMGetInstructionOpcode(user);
        LLVMTypeRef t = LLVMTypeOf(user);
        bool logic = (op == LLVMAnd || op == LLVMOr || op == LLVMSelect) && LLVMGetTypeKind(t) == LLVMIntegerTypeKind &&
                     LLVMGetIntTypeWidth(t) == 1;
        if (chains && logic && decides_branch(l, user, chains, depth + 1))
            return true;
    }
    return false;
}

static bool find_guard(const Loop *l, bool chains, Guard *g)
{
    for (int k = 0; k < l->nb; k++)
        for (LLVMValueRef cmp = LLVMGetFirstInstruction(l->blocks[k]); cmp; cmp = LLVMGetNextInstruction(cmp)) {
            if (!LLVMIsAICmpInst(cmp) || LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(cmp, 0))) != LLVMIntegerTypeKind ||
                !decides_branch(l, cmp, chains, 0))
                continue;
            LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
            LLVMValueRef a = LLVMGetOperand(cmp, 0), b = LLVMGetOperand(cmp, 1), terms[SPLIT_MAX_TERMS];
            long long c;
            int nterms;
            if (!affine_in_iv(l, a, signed_pred(p), &c, terms, &nterms)) {
                LLVMValueRef t = a;
                a = b, b = t;
                static const LLVMIntPredicate swapped[] = {
                    [LLVMIntEQ] = LLVMIntEQ,   [LLVMIntNE] = LLVMIntNE,   [LLVMIntUGT] = LLVMIntULT,
                    [LLVMIntUGE] = LLVMIntULE, [LLVMIntULT] = LLVMIntUGT, [LLVMIntULE] = LLVMIntUGE,
                    [LLVMIntSGT] = LLVMIntSLT, [LLVMIntSGE] = LLVMIntSLE, [LLVMIntSLT] = LLVMIntSGT,
                    [LLVMIntSLE] = LLVMIntSGE,
                };
                p = swapped[p];
                if (!affine_in_iv(l, a, signed_pred(p), &c, terms, &nterms))
                    continue;
            }
            if (p == LLVMIntEQ || p == LLVMIntNE || defined_in_loop(l, b) || LLVMGetIntTypeWidth(LLVMTypeOf(b)) > 64)
                continue;
            bool is_unsigned = p == LLVMIntULT || p == LLVMIntULE || p == LLVMIntUGT || p == LLVMIntUGE;
            if (is_unsigned && c < 0) /* x may be below zero: the unsigned order is not the items' */
                continue;
            *g = (Guard){ cmp, b, p, c, { NULL }, nterms };
            memcpy(g->terms, terms, sizeof terms);
            return true;
        }
    return false;
}

/* In the preheader: the split point S (i32, 0 <= S <= n) where the guard changes, and whether it holds
 * below S (prefix) or from S on. With x = iv + c + U and t0 = c - delta: x < B (delta 0) and x <= B
 * (delta 1) hold for iv < B - U - t0; x >= B (delta 0) and x > B (delta 1) for iv >= B - U - t0. The
 * difference is taken in 128 bits (B and the terms of U extended in the compare's order), where it is
 * exact. */
static LLVMValueRef split_point(LLVMBuilderRef b, const Loop *l, const Guard *g, bool *prefix)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(l->iv));
    LLVMTypeRef i128 = LLVMInt128TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
    LLVMIntPredicate p = g->pred;
    bool is_signed = signed_pred(p);
    *prefix = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntULT || p == LLVMIntULE;
    long long delta = p == LLVMIntSLE || p == LLVMIntULE || p == LLVMIntSGT || p == LLVMIntUGT;
    long long t0 = g->c - delta;
    LLVMValueRef diff = is_signed ? LLVMBuildSExt(b, g->bound, i128, "") : LLVMBuildZExt(b, g->bound, i128, "");
    for (int k = 0; k < g->nterms; k++) {
        LLVMValueRef u = is_signed ? LLVMBuildSExt(b, g->terms[k], i128, "") : LLVMBuildZExt(b, g->terms[k], i128, "");
        diff = LLVMBuildSub(b, diff, u, "");
    }
    diff = LLVMBuildSub(b, diff, LLVMConstInt(i128, (unsigned long long)t0, 1), "");
    /* diff <= 0: S = 0; diff >= n: S = n; else diff */
    LLVMValueRef low = LLVMBuildICmp(b, LLVMIntSLE, diff, LLVMConstInt(i128, 0, 0), "");
    LLVMValueRef high = LLVMBuildICmp(b, LLVMIntSGE, diff, LLVMBuildZExt(b, l->n, i128, ""), "");
    LLVMValueRef s = LLVMBuildSelect(b, high, l->n, LLVMBuildTrunc(b, diff, i32, ""), "");
    return LLVMBuildSelect(b, low, LLVMConstInt(i32, 0, 0), s, "split.at");
}

/* The map from the loop's instructions to their copy's. */
typedef struct Map {
    LLVMValueRef *from, *to;
    int n;
} Map;

static LLVMValueRef mapped(const Map *m, LLVMValueRef v)
{
    for (int t = 0; t < m->n; t++) /* linear: the group entry's x loops are small */
        if (m->from[t] == v)
            return m->to[t];
    return v;
}

static int block_at(const Loop *l, LLVMBasicBlockRef bb)
{
    for (int k = 0; k < l->nb; k++)
        if (l->blocks[k] == bb)
            return k;
    return -1;
}

/* A second copy of the loop's blocks (before the exit), their values and branches mapped to the copy's;
 * the head's phis are left without incoming values (split_loop gives them theirs). */
static bool clone_loop(const Loop *l, LLVMBasicBlockRef *copy, Map *m)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(l->iv));
    int ni = 0;
    for (int k = 0; k < l->nb; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(l->blocks[k]); i; i = LLVMGetNextInstruction(i))
            ni++;
    m->from = malloc((size_t)(ni + 1) * sizeof *m->from);
    m->to = malloc((size_t)(ni + 1) * sizeof *m->to);
    m->n = 0;
    if (!m->from || !m->to)
        return false;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    for (int k = 0; k < l->nb; k++) {
        copy[k] = LLVMInsertBasicBlockInContext(ctx, l->exit, "split.rest");
        LLVMPositionBuilderAtEnd(b, copy[k]);
        for (LLVMValueRef i = LLVMGetFirstInstruction(l->blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef c = LLVMIsAPHINode(i) ? LLVMBuildPhi(b, LLVMTypeOf(i), "") : LLVMInstructionClone(i);
            if (!LLVMIsAPHINode(i))
                LLVMInsertIntoBuilder(b, c);
            m->from[m->n] = i, m->to[m->n++] = c;
        }
    }
    LLVMDisposeBuilder(b);
    for (int j = 0; j < m->n; j++) {
        LLVMValueRef i = m->from[j], c = m->to[j];
        if (LLVMIsAPHINode(i)) {
            if (LLVMGetInstructionParent(i) == l->head)
                continue;
            for (unsigned q = 0; q < LLVMCountIncoming(i); q++) {
                LLVMValueRef v = mapped(m, LLVMGetIncomingValue(i, q));
                int at = block_at(l, LLVMGetIncomingBlock(i, q));
                LLVMBasicBlockRef bb = at >= 0 ? copy[at] : LLVMGetIncomingBlock(i, q);
                LLVMAddIncoming(c, &v, &bb, 1);
            }
            continue;
        }
        int no = LLVMGetNumOperands(c);
        for (int o = 0; o < no; o++) {
            LLVMValueRef v = LLVMGetOperand(c, (unsigned)o);
            if (!LLVMValueIsBasicBlock(v))
                LLVMSetOperand(c, (unsigned)o, mapped(m, v));
        }
        if (LLVMIsATerminatorInst(c))
            for (unsigned s = 0; s < LLVMGetNumSuccessors(c); s++) {
                int at = block_at(l, LLVMGetSuccessor(c, s));
                if (at >= 0)
                    LLVMSetSuccessor(c, s, copy[at]);
            }
    }
    return true;
}

/* Split one loop at its guard's S: pre -> (S != 0 ? the loop over [0, S) : mid); the loop's latch -> mid;
 * mid -> (S < n ? the copy over [S, n) : exit). Values carried around the loop (the head's phis) and out
 * of it (the exit's phis) pass through mid. */
static bool split_loop(const Loop *l, const Guard *g, LLVMMetadataRef mark)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(l->iv));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i1 = LLVMInt1TypeInContext(ctx);
    LLVMBasicBlockRef *copy = calloc((size_t)l->nb, sizeof *copy);
    Map m = { 0 };
    if (!copy || !clone_loop(l, copy, &m)) {
        free(copy), free(m.from), free(m.to);
        return false;
    }
    LLVMBasicBlockRef head2 = copy[block_at(l, l->head)], latch2 = copy[block_at(l, l->latch)];
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMValueRef pre_br = LLVMGetBasicBlockTerminator(l->pre);
    LLVMPositionBuilderBefore(b, pre_br);
    bool prefix;
    LLVMValueRef s = split_point(b, l, g, &prefix);
    LLVMValueRef first = LLVMBuildICmp(b, LLVMIntNE, s, LLVMConstInt(i32, 0, 0), "");
    LLVMBasicBlockRef mid = LLVMInsertBasicBlockInContext(ctx, head2, "split.mid");
    LLVMInstructionEraseFromParent(pre_br);
    LLVMPositionBuilderAtEnd(b, l->pre);
    LLVMBuildCondBr(b, first, l->head, mid);
    /* mid: the values the loop carries, from pre when it did not run, from its latch when it did */
    LLVMPositionBuilderAtEnd(b, mid);
    for (LLVMValueRef p = LLVMGetFirstInstruction(l->head); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
        LLVMValueRef init = s;
        if (p != l->iv) {
            init = LLVMBuildPhi(b, LLVMTypeOf(p), "");
            LLVMValueRef v[2] = { phi_from(p, l->pre), phi_from(p, l->latch) };
            LLVMBasicBlockRef f[2] = { l->pre, l->latch };
            LLVMAddIncoming(init, v, f, 2);
        }
        LLVMValueRef v[2] = { init, mapped(&m, phi_from(p, l->latch)) };
        LLVMBasicBlockRef f[2] = { mid, latch2 };
        LLVMAddIncoming(mapped(&m, p), v, f, 2);
    }
    /* the exit's phis: from mid (the loop ran to n: S == n) and from the copy's latch */
    for (LLVMValueRef p = LLVMGetFirstInstruction(l->exit); p && LLVMIsAPHINode(p);) {
        LLVMValueRef next = LLVMGetNextInstruction(p), v = LLVMGetIncomingValue(p, 0), at_mid = v;
        if (defined_in_loop(l, v)) {
            LLVMValueRef first_at_mid = LLVMGetFirstInstruction(mid); /* none when the loop carries only x */
            if (first_at_mid)
                LLVMPositionBuilderBefore(b, first_at_mid);
            else
                LLVMPositionBuilderAtEnd(b, mid);
            at_mid = LLVMBuildPhi(b, LLVMTypeOf(v), "");
            LLVMValueRef vv[2] = { LLVMGetPoison(LLVMTypeOf(v)), v };
            LLVMBasicBlockRef f[2] = { l->pre, l->latch };
            LLVMAddIncoming(at_mid, vv, f, 2);
        }
        LLVMPositionBuilderBefore(b, p);
        LLVMValueRef q = LLVMBuildPhi(b, LLVMTypeOf(p), "");
        LLVMValueRef vv[2] = { at_mid, mapped(&m, v) };
        LLVMBasicBlockRef f[2] = { mid, latch2 };
        LLVMAddIncoming(q, vv, f, 2);
        LLVMReplaceAllUsesWith(p, q);
        LLVMInstructionEraseFromParent(p);
        p = next;
    }
    LLVMPositionBuilderAtEnd(b, mid);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, s, l->n, ""), head2, l->exit);
    /* the first loop ends at S, into mid */
    LLVMValueRef br = LLVMGetBasicBlockTerminator(l->latch);
    LLVMPositionBuilderBefore(b, br);
    LLVMSetCondition(br, LLVMBuildICmp(b, LLVMIntULT, l->next, s, ""));
    LLVMSetSuccessor(br, 1, mid);
    LLVMSetMetadata(LLVMGetBasicBlockTerminator(latch2), LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9),
                    LLVMMetadataAsValue(ctx, cpu_split_loop_id(ctx, mark)));
    /* the guard decided in each: the same in every item of a copy, wherever its value goes (the branch, the
     * `and` or `select` before it, the exit's phis through mid) */
    LLVMValueRef t = LLVMConstInt(i1, 1, 0), f = LLVMConstInt(i1, 0, 0);
    LLVMReplaceAllUsesWith(g->cmp, prefix ? t : f);
    LLVMReplaceAllUsesWith(mapped(&m, g->cmp), prefix ? f : t);
    free(copy), free(m.from), free(m.to);
    LLVMDisposeBuilder(b);
    return true;
}

LLVMMetadataRef cpu_split_loop_id(LLVMContextRef c, LLVMMetadataRef mark)
{
    LLVMMetadataRef self = LLVMTemporaryMDNode(c, NULL, 0);
    LLVMMetadataRef ops[2] = { self, mark };
    LLVMMetadataRef id = LLVMMDNodeInContext2(c, ops, 2);
    LLVMMetadataReplaceAllUsesWith(self, id); /* frees the temporary */
    return id;
}

LLVMMetadataRef cpu_split_plain_mark(LLVMContextRef c)
{
    LLVMMetadataRef name = LLVMMDStringInContext2(c, "juke.loop.items", 15);
    return LLVMMDNodeInContext2(c, &name, 1);
}

/* Whether br's loop ID holds mark (uniqued: the same node wherever it was made) */
static bool holds_mark(LLVMValueRef br, unsigned loop_kind, LLVMMetadataRef mark)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(br));
    LLVMValueRef id = LLVMGetMetadata(br, loop_kind);
    if (!id)
        return false;
    LLVMValueRef want = LLVMMetadataAsValue(ctx, mark);
    unsigned n = LLVMGetMDNodeNumOperands(id);
    LLVMValueRef *ops = calloc(n + 1, sizeof *ops);
    bool found = false;
    if (ops)
        LLVMGetMDNodeOperands(id, ops);
    for (unsigned k = 1; ops && k < n && !found; k++)
        found = ops[k] == want;
    free(ops);
    return found;
}

int cpu_split_item_loops(LLVMValueRef fn, LLVMMetadataRef mark, bool chains)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(fn));
    unsigned loop_kind = LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9);
    /* the latches first: splitting adds blocks */
    int nl = 0, cap = 0, done = 0;
    LLVMValueRef *latches = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (!t || !LLVMIsABranchInst(t) || !holds_mark(t, loop_kind, mark))
            continue;
        if (nl == cap) {
            cap = cap ? 2 * cap : 8;
            LLVMValueRef *nv = realloc(latches, (size_t)cap * sizeof *nv);
            if (!nv)
                break;
            latches = nv;
        }
        latches[nl++] = t;
    }
    for (int k = 0; k < nl; k++) {
        Loop l;
        Guard g;
        if (find_loop(latches[k], &l) && find_guard(&l, chains, &g) && split_loop(&l, &g, mark))
            done++;
        free(l.blocks);
    }
    free(latches);
    return done;
}
