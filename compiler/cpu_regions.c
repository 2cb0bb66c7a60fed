/* cpu_regions.c: a kernel with barriers as regions between them, for the CPU device's workgroup loops
 * (pocl's work-item loops, in the form of a resumable work-item).
 *
 * requires: fn is a copy of the kernel body, `i32 fn(args..., exception, JukeCpuState *st, i32 mode, ptr uniform,
 * i32 x, i32 y, i32 z)` (cpu_regions.h), not yet optimised (juke's code generator keeps variables in allocas),
 * with every function that reaches a barrier inlined into it; barriers are calls of the module's barrier
 * helper, exit_item calls of its exit helper.
 * guarantees: fn runs work-item (x, y, z) from where it stopped to its next barrier, return or exit, returns
 * where it stopped and records it in the group's status array: st->spill[lin] (u32, lin the item's linear
 * index) is 0 before the item starts, k (1..nbarriers) when it waits at barrier k, CPU_REGION_RETURNED or
 * CPU_REGION_EXITED at the end. In a round of mode k the item stores its status only when it stops elsewhere
 * than at k: the group entry runs a round in mode k only when every item waited at k, so the array holds k
 * already; or, where the group entry keeps the array (cpu_regions_owns_status), only at a stop that is not
 * silent (silent_stops), the array zero between rounds. The values an item needs after a barrier (the allocas live where a barrier resumes, after every
 * value used outside its block went to an alloca) sit in per-item slots of st->spill, slot A for n items at
 * n * off(A), the item's own at lin * size(A); those alike in every item in `uniform` (below). The item reads
 * its index from its parameters, never from st->item, and stores it there only before a call that is given
 * the state (the runtime's exit_item reads it). The group driver (target_cpu.c) runs
 * every item of the group to its next stop, round after round, and the runtime checks between rounds that
 * all the items that did not end wait at the same barrier (runtime/dev_cpu.c, cpu_region_round). The item
 * resumes where its status says when mode is CPU_REGION_ANY, else at barrier `mode` (the round's, when all
 * items wait at one barrier): the group entry calls fn with a constant mode per round kind, so that each
 * round's loop holds one region, without a dispatch, for LLVM to vectorise. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>

#include "cpu_regions.h"

typedef struct Rg {
    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMValueRef fn;
    LLVMBuilderRef b;
    LLVMTypeRef i32, i64, ptr;
    LLVMValueRef status; /* this item's status slot, computed in the dispatch block */
} Rg;

/* Every instruction that calls `callee` in fn, or NULL when there are none (*n = 0). */
static LLVMValueRef *calls_of(LLVMValueRef fn, LLVMValueRef callee, int *n)
{
    LLVMValueRef *v = NULL;
    int cnt = 0, cap = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (LLVMGetInstructionOpcode(i) != LLVMCall || LLVMGetCalledValue(i) != callee)
                continue;
            if (cnt == cap) {
                cap = cap ? 2 * cap : 8;
                LLVMValueRef *nv = realloc(v, (size_t)cap * sizeof *v);
                if (!nv) {
                    free(v);
                    *n = -1;
                    return NULL;
                }
                v = nv;
            }
            v[cnt++] = i;
        }
    *n = cnt;
    return v;
}

/* Move the instructions of bb before `stop` (all when NULL) to the end of `to`. */
static void move_head(Rg *g, LLVMBasicBlockRef bb, LLVMValueRef stop, LLVMBasicBlockRef to)
{
    LLVMPositionBuilderAtEnd(g->b, to);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && i != stop;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        LLVMInstructionRemoveFromParent(i);
        LLVMInsertIntoBuilder(g->b, i);
        i = next;
    }
}

/* Every branch to `from` in fn, except from `skip`, goes to `to` instead. */
static void retarget(LLVMValueRef fn, LLVMBasicBlockRef from, LLVMBasicBlockRef to, LLVMBasicBlockRef skip)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (bb == skip)
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++)
            if (LLVMGetSuccessor(t, s) == from)
                LLVMSetSuccessor(t, s, to);
    }
}

/* Replace the operand(s) of `user` equal to `from` with `to`. */
static void replace_operand(LLVMValueRef user, LLVMValueRef from, LLVMValueRef to)
{
    int n = LLVMGetNumOperands(user);
    for (int k = 0; k < n; k++)
        if (LLVMGetOperand(user, (unsigned)k) == from)
            LLVMSetOperand(user, (unsigned)k, to);
}

static LLVMValueRef first_non_phi(LLVMBasicBlockRef bb)
{
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i && LLVMGetInstructionOpcode(i) == LLVMPHI)
        i = LLVMGetNextInstruction(i);
    return i;
}

/* A phi becomes an alloca (in `entry`): each predecessor stores its value before its terminator, and a load
 * at the top of the phi's block replaces it. */
static void demote_phi(Rg *g, LLVMValueRef phi, LLVMBasicBlockRef entry)
{
    LLVMTypeRef t = LLVMTypeOf(phi);
    LLVMPositionBuilder(g->b, entry, LLVMGetFirstInstruction(entry));
    LLVMValueRef slot = LLVMBuildAlloca(g->b, t, "phi.slot");
    unsigned n = LLVMCountIncoming(phi);
    for (unsigned k = 0; k < n; k++) {
        LLVMBasicBlockRef pred = LLVMGetIncomingBlock(phi, k);
        LLVMPositionBuilderBefore(g->b, LLVMGetBasicBlockTerminator(pred));
        LLVMBuildStore(g->b, LLVMGetIncomingValue(phi, k), slot);
    }
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(phi);
    LLVMPositionBuilderBefore(g->b, first_non_phi(bb));
    LLVMValueRef v = LLVMBuildLoad2(g->b, t, slot, "");
    LLVMReplaceAllUsesWith(phi, v);
    LLVMInstructionEraseFromParent(phi);
}

/* A value used outside its block becomes an alloca: stored after its definition, loaded before each use
 * elsewhere. */
static bool demote_value(Rg *g, LLVMValueRef v, LLVMBasicBlockRef entry)
{
    LLVMBasicBlockRef home = LLVMGetInstructionParent(v);
    int nusers = 0, cap = 0;
    LLVMValueRef *users = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user) || LLVMGetInstructionParent(user) == home)
            continue;
        if (nusers == cap) {
            cap = cap ? 2 * cap : 4;
            LLVMValueRef *nu = realloc(users, (size_t)cap * sizeof *nu);
            if (!nu) {
                free(users);
                return false;
            }
            users = nu;
        }
        users[nusers++] = user;
    }
    if (nusers == 0)
        return true;
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMPositionBuilder(g->b, entry, LLVMGetFirstInstruction(entry));
    LLVMValueRef slot = LLVMBuildAlloca(g->b, t, "val.slot");
    LLVMValueRef after = LLVMGetNextInstruction(v);
    LLVMPositionBuilderBefore(g->b, after);
    LLVMBuildStore(g->b, v, slot);
    for (int k = 0; k < nusers; k++) {
        bool dup = false;
        for (int j = 0; j < k; j++)
            dup |= users[j] == users[k];
        if (dup)
            continue;
        LLVMPositionBuilderBefore(g->b, users[k]);
        replace_operand(users[k], v, LLVMBuildLoad2(g->b, t, slot, ""));
    }
    free(users);
    return true;
}

/* ---- liveness of the allocas ---------------------------------------------------------------------- */

typedef struct Bits {
    uint64_t *w;
    size_t nwords;
} Bits;

static bool bit(const uint64_t *s, size_t i)
{
    return s[i / 64] >> (i % 64) & 1;
}
static void set_bit(uint64_t *s, size_t i)
{
    s[i / 64] |= (uint64_t)1 << (i % 64);
}

static int block_index(LLVMBasicBlockRef *blocks, int nb, LLVMBasicBlockRef bb)
{
    for (int i = 0; i < nb; i++)
        if (blocks[i] == bb)
            return i;
    return -1;
}

static int alloca_index(LLVMValueRef *allocas, int na, LLVMValueRef p)
{
    for (int i = 0; i < na; i++)
        if (allocas[i] == p)
            return i;
    return -1;
}

/* Mark in `need` the allocas whose value may be read after one of the resume blocks is entered: live-in at
 * a resume block, by a backward dataflow where a load reads a slot, a store of the whole slot writes it, and
 * any other use (a pointer taken, a part stored) keeps the slot in memory for good. */
static bool live_across(Rg *g, LLVMValueRef *allocas, int na, LLVMBasicBlockRef *resume, int nresume, bool *need)
{
    int nb = (int)LLVMCountBasicBlocks(g->fn);
    LLVMBasicBlockRef *blocks = malloc((size_t)nb * sizeof *blocks);
    size_t nw = ((size_t)na + 63) / 64;
    uint64_t *ue = calloc((size_t)nb * nw, 8), *kill = calloc((size_t)nb * nw, 8), *in = calloc((size_t)nb * nw, 8);
    if (!blocks || !ue || !kill || !in) {
        free(blocks), free(ue), free(kill), free(in);
        return false;
    }
    LLVMGetBasicBlocks(g->fn, blocks);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(g->m);
    for (int bi = 0; bi < nb; bi++) {
        uint64_t *u = ue + (size_t)bi * nw, *k = kill + (size_t)bi * nw;
        for (LLVMValueRef i = LLVMGetFirstInstruction(blocks[bi]); i; i = LLVMGetNextInstruction(i)) {
            int nops = LLVMGetNumOperands(i);
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            for (int o = 0; o < nops; o++) {
                int a = alloca_index(allocas, na, LLVMGetOperand(i, (unsigned)o));
                if (a < 0)
                    continue;
                if (op == LLVMLoad) {
                    if (!bit(k, (size_t)a))
                        set_bit(u, (size_t)a);
                } else if (op == LLVMStore && o == 1) {
                    LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(i, 0));
                    LLVMTypeRef at = LLVMGetAllocatedType(allocas[a]);
                    if (LLVMABISizeOfType(td, vt) == LLVMABISizeOfType(td, at) && !LLVMGetVolatile(i))
                        set_bit(k, (size_t)a);
                } else {
                    need[a] = true; /* its address escapes, or it is stored in part */
                }
            }
        }
    }
    /* in(b) = ue(b) | (out(b) & ~kill(b)), out(b) = the union of in(s) over its successors */
    uint64_t *out = calloc(nw ? nw : 1, 8);
    if (!out) {
        free(blocks), free(ue), free(kill), free(in);
        return false;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int bi = nb - 1; bi >= 0; bi--) {
            memset(out, 0, nw * 8);
            LLVMValueRef t = LLVMGetBasicBlockTerminator(blocks[bi]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned s = 0; s < ns; s++) {
                int si = block_index(blocks, nb, LLVMGetSuccessor(t, s));
                for (size_t w = 0; si >= 0 && w < nw; w++)
                    out[w] |= in[(size_t)si * nw + w];
            }
            for (size_t w = 0; w < nw; w++) {
                uint64_t v = ue[(size_t)bi * nw + w] | (out[w] & ~kill[(size_t)bi * nw + w]);
                if (v != in[(size_t)bi * nw + w]) {
                    in[(size_t)bi * nw + w] = v;
                    changed = true;
                }
            }
        }
    }
    for (int r = 0; r < nresume; r++) {
        int ri = block_index(blocks, nb, resume[r]);
        for (int a = 0; ri >= 0 && a < na; a++)
            if (bit(in + (size_t)ri * nw, (size_t)a))
                need[a] = true;
    }
    free(out), free(blocks), free(ue), free(kill), free(in);
    return true;
}

/* ---- values every resume can compute again ---------------------------------------------------------- */

/* Whether p is the state parameter st, or a GEP of it with constant indices, reached through GEPs only. */
static bool points_into_state(LLVMValueRef p, LLVMValueRef st)
{
    while (p != st) {
        if (!LLVMIsAGetElementPtrInst(p) && !(LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr))
            return false;
        int n = LLVMGetNumOperands(p);
        for (int k = 1; k < n; k++)
            if (!LLVMIsAConstantInt(LLVMGetOperand(p, (unsigned)k)))
                return false;
        p = LLVMGetOperand(p, 0);
    }
    return true;
}

/* Whether i, given operands alike in every item, computes alike: arithmetic, comparisons, casts. */
static bool pure_op(LLVMOpcode op)
{
    switch (op) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMURem:
    case LLVMSRem:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
    case LLVMFAdd:
    case LLVMFSub:
    case LLVMFMul:
    case LLVMFDiv:
    case LLVMFRem:
    case LLVMFNeg:
    case LLVMICmp:
    case LLVMFCmp:
    case LLVMSelect:
    case LLVMGetElementPtr:
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMFPToUI:
    case LLVMFPToSI:
    case LLVMUIToFP:
    case LLVMSIToFP:
    case LLVMFPTrunc:
    case LLVMFPExt:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
    case LLVMExtractValue:
    case LLVMInsertValue:
    case LLVMExtractElement:
    case LLVMInsertElement:
    case LLVMShuffleVector:
    case LLVMFreeze: return true;
    default: return false;
    }
}

/* Whether i computes the same value wherever it runs, given its operands: arithmetic that cannot trap (a
 * division may, where the kernel guards it), and loads of the state, which the body never writes (the group
 * entry sets st->item before it runs an item). */
static bool recomputable(LLVMValueRef i, LLVMValueRef st)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMLoad)
        return !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic &&
               points_into_state(LLVMGetOperand(i, 0), st);
    return pure_op(op) && op != LLVMUDiv && op != LLVMSDiv && op != LLVMURem && op != LLVMSRem;
}

/* Whether v is available at the end of the dispatch block d: a constant, a parameter, or d's own. */
static bool available_in(LLVMValueRef v, LLVMBasicBlockRef d)
{
    if (!LLVMIsAInstruction(v))
        return !LLVMValueIsBasicBlock(v);
    return LLVMGetInstructionParent(v) == d;
}

/* Move to the end of d every instruction that depends only on the parameters and the state (the kernel's
 * arguments, the group's and the item's indices, local memory's address and what is computed from them), so
 * that the item computes them again at each resume instead of keeping them in its slots: they stay uniform
 * (or a function of the item's index) for the optimiser, which hoists them out of the group entry's loops. */
static void hoist_recomputable(Rg *g, LLVMBasicBlockRef d, LLVMValueRef st)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(d); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
                LLVMValueRef next = LLVMGetNextInstruction(i);
                bool ok = recomputable(i, st);
                int n = LLVMGetNumOperands(i);
                for (int k = 0; ok && k < n; k++)
                    ok = available_in(LLVMGetOperand(i, (unsigned)k), d);
                if (ok) {
                    LLVMInstructionRemoveFromParent(i);
                    LLVMPositionBuilderAtEnd(g->b, d);
                    LLVMInsertIntoBuilder(g->b, i);
                    changed = true;
                }
                i = next;
            }
    }
}

static long state_offset(LLVMValueRef p, LLVMValueRef st, LLVMTypeRef state_ty, LLVMTargetDataRef td);

/* ---- the item's index from the parameters ------------------------------------------------------------ */

/* Whether p is st or a GEP or cast of it. */
static bool based_on_state(LLVMValueRef p, LLVMValueRef st)
{
    while (p != st) {
        if (!LLVMIsAGetElementPtrInst(p) && !LLVMIsABitCastInst(p) && !LLVMIsAAddrSpaceCastInst(p))
            return false;
        p = LLVMGetOperand(p, 0);
    }
    return true;
}

/* st->item[k] = ids[k], k = 0, 1, 2, at the builder. */
static void store_ids(Rg *g, LLVMTypeRef state_ty, LLVMValueRef st, LLVMValueRef *ids)
{
    for (unsigned k = 0; k < 3; k++) {
        LLVMValueRef idx[3] = { LLVMConstInt(g->i32, 0, 0), LLVMConstInt(g->i32, 0, 0), LLVMConstInt(g->i32, k, 0) };
        LLVMBuildStore(g->b, ids[k], LLVMBuildInBoundsGEP2(g->b, state_ty, st, idx, 3, ""));
    }
}

/* The body's loads of its index (st->item[k], i32) read the parameters ids[k] instead; a call given the state
 * finds the index stored there just before it; any other reading of those bytes (a load of another type,
 * the state's address stored) finds it stored in the dispatch block d, at every resume. false: out of
 * memory. */
static bool ids_from_params(Rg *g, LLVMValueRef st, LLVMTypeRef state_ty, LLVMValueRef *ids, LLVMBasicBlockRef d)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(g->m);
    int n = 0, cap = 16;
    LLVMValueRef *users = malloc((size_t)cap * sizeof *users);
    if (!users)
        return false;
    /* the users of st and of its GEPs and casts (each once: a call given st twice is one user) */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            int nops = LLVMGetNumOperands(i);
            bool uses = false;
            for (int o = 0; o < nops && !uses; o++) {
                LLVMValueRef v = LLVMGetOperand(i, (unsigned)o);
                uses = v == st || (LLVMIsAInstruction(v) && based_on_state(v, st));
            }
            if (!uses || LLVMIsAGetElementPtrInst(i) || LLVMIsABitCastInst(i) || LLVMIsAAddrSpaceCastInst(i))
                continue;
            if (n == cap) {
                cap *= 2;
                LLVMValueRef *nu = realloc(users, (size_t)cap * sizeof *nu);
                if (!nu) {
                    free(users);
                    return false;
                }
                users = nu;
            }
            users[n++] = i;
        }
    bool at_entry = false;
    for (int k = 0; k < n; k++) {
        LLVMValueRef i = users[k];
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        if (op == LLVMLoad) {
            long off = state_offset(LLVMGetOperand(i, 0), st, state_ty, td);
            bool plain = !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic;
            if ((off == 0 || off == 4 || off == 8) && plain && LLVMTypeOf(i) == g->i32) {
                LLVMReplaceAllUsesWith(i, ids[off / 4]);
                LLVMInstructionEraseFromParent(i);
            } else if (off < 12) { /* -1: not a constant offset */
                at_entry = true;
            }
        } else if (op == LLVMCall) {
            LLVMPositionBuilderBefore(g->b, i);
            store_ids(g, state_ty, st, ids);
        } else if (op != LLVMStore || !based_on_state(LLVMGetOperand(i, 1), st) || LLVMGetOperand(i, 0) == st) {
            at_entry = true; /* the state's address escapes */
        }
    }
    free(users);
    if (at_entry) {
        LLVMPositionBuilderAtEnd(g->b, d);
        store_ids(g, state_ty, st, ids);
    }
    return true;
}

/* ---- values every work-item of the group holds alike ----------------------------------------------------- */

typedef struct PtrSet {
    const void **k;
    size_t cap; /* a power of two, at least twice the entries */
} PtrSet;

static size_t ps_slot(const PtrSet *s, const void *p)
{
    size_t h = (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull) & (s->cap - 1);
    while (s->k[h] && s->k[h] != p)
        h = (h + 1) & (s->cap - 1);
    return h;
}

/* The byte offset into the state that p points at, or -1 when it is not a constant one. */
static long state_offset(LLVMValueRef p, LLVMValueRef st, LLVMTypeRef state_ty, LLVMTargetDataRef td)
{
    if (p == st)
        return 0;
    if (!LLVMIsAGetElementPtrInst(p) || LLVMGetOperand(p, 0) != st)
        return -1;
    int n = LLVMGetNumOperands(p);
    for (int k = 1; k < n; k++)
        if (!LLVMIsAConstantInt(LLVMGetOperand(p, (unsigned)k)))
            return -1;
    LLVMTypeRef src = LLVMGetGEPSourceElementType(p);
    if (src == state_ty && n >= 3 && LLVMConstIntGetZExtValue(LLVMGetOperand(p, 1)) == 0) {
        unsigned f = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(p, 2));
        return (long)LLVMOffsetOfElement(td, state_ty, f);
    }
    if (n == 2 && LLVMGetTypeKind(src) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(src) == 8)
        return (long)LLVMConstIntGetSExtValue(LLVMGetOperand(p, 1));
    return -1;
}

/* Whether i calls an LLVM intrinsic that reads no memory and has no effect (min, max, abs, overflow
 * checks, ...): its result depends on its arguments alone. */
static bool pure_intrinsic(LLVMValueRef i)
{
    static const char *const names[] = { "llvm.smax.",
                                         "llvm.smin.",
                                         "llvm.umax.",
                                         "llvm.umin.",
                                         "llvm.abs.",
                                         "llvm.fabs.",
                                         "llvm.minnum.",
                                         "llvm.maxnum.",
                                         "llvm.ctlz.",
                                         "llvm.cttz.",
                                         "llvm.ctpop.",
                                         "llvm.sadd.with.overflow.",
                                         "llvm.ssub.with.overflow.",
                                         "llvm.smul.with.overflow.",
                                         "llvm.uadd.with.overflow.",
                                         "llvm.usub.with.overflow.",
                                         "llvm.umul.with.overflow.",
                                         "llvm.copysign.",
                                         "llvm.sqrt.",
                                         "llvm.floor.",
                                         "llvm.ceil.",
                                         "llvm.trunc.",
                                         "llvm.rint.",
                                         "llvm.round." };
    LLVMValueRef callee = LLVMGetInstructionOpcode(i) == LLVMCall ? LLVMGetCalledValue(i) : NULL;
    size_t len = 0;
    const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : "";
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (strncmp(name, names[k], strlen(names[k])) == 0)
            return true;
    return false;
}

typedef struct Uni {
    Rg *g;
    LLVMValueRef st;
    LLVMTypeRef state_ty;
    LLVMTargetDataRef td;
    LLVMValueRef *allocas;
    int na, nb;
    LLVMBasicBlockRef *blocks;
    PtrSet div;              /* the instructions whose value may differ between items */
    const LLVMValueRef *ids; /* the item's index (parameters): differ */
    bool *div_alloca, *div_block, *live;
    uint64_t *pdom; /* nb x nw: postdominators among the live blocks */
    size_t nw;
} Uni;

static bool value_divergent(Uni *u, LLVMValueRef v)
{
    if (v == u->ids[0] || v == u->ids[1] || v == u->ids[2])
        return true;
    return LLVMIsAInstruction(v) && u->div.k[ps_slot(&u->div, v)] == v;
}

/* One pass over the instructions: marks what is divergent given what is marked; true when it marked more. */
static bool mark_divergent(Uni *u)
{
    bool changed = false;
    for (int bi = 0; bi < u->nb; bi++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(u->blocks[bi]); i; i = LLVMGetNextInstruction(i)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            int n = LLVMGetNumOperands(i);
            if (op == LLVMStore) {
                int a = alloca_index(u->allocas, u->na, LLVMGetOperand(i, 1));
                if (a >= 0 && !u->div_alloca[a] && u->live[bi] &&
                    (u->div_block[bi] || value_divergent(u, LLVMGetOperand(i, 0)))) {
                    u->div_alloca[a] = true;
                    changed = true;
                }
                continue;
            }
            if (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind || LLVMIsATerminatorInst(i) || value_divergent(u, i))
                continue;
            bool div;
            if (op == LLVMLoad) {
                LLVMValueRef p = LLVMGetOperand(i, 0);
                int a = alloca_index(u->allocas, u->na, p);
                div = LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic ||
                      (a >= 0 ? u->div_alloca[a] : state_offset(p, u->st, u->state_ty, u->td) < 12);
            } else if (pure_op(op) || pure_intrinsic(i)) {
                div = false;
                for (int k = 0; k < n && !div; k++)
                    div = value_divergent(u, LLVMGetOperand(i, (unsigned)k));
            } else {
                div = true; /* calls, allocas, phis, ... */
            }
            if (div) {
                u->div.k[ps_slot(&u->div, i)] = i;
                changed = true;
            }
        }
    return changed;
}

/* The blocks control dependent on a branch whose condition is divergent (among the live blocks); true when
 * it marked more. The dispatch switch counts only when `dispatch_divergent` (two barriers of one source
 * place: items may resume at either in one round). */
static bool mark_divergent_blocks(Uni *u, LLVMBasicBlockRef d, bool dispatch_divergent)
{
    bool changed = false;
    for (int pi = 0; pi < u->nb; pi++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(u->blocks[pi]);
        if (!u->live[pi] || !t || LLVMGetNumSuccessors(t) < 2 || (u->blocks[pi] == d && !dispatch_divergent))
            continue;
        LLVMOpcode op = LLVMGetInstructionOpcode(t);
        if ((op != LLVMBr && op != LLVMSwitch) || (u->blocks[pi] != d && !value_divergent(u, LLVMGetOperand(t, 0))))
            continue;
        unsigned ns = LLVMGetNumSuccessors(t);
        for (int bi = 0; bi < u->nb; bi++) {
            if (!u->live[bi] || u->div_block[bi] || (bi != pi && bit(u->pdom + (size_t)pi * u->nw, (size_t)bi)))
                continue;
            bool dep = false;
            for (unsigned s = 0; s < ns && !dep; s++) {
                int si = block_index(u->blocks, u->nb, LLVMGetSuccessor(t, s));
                dep = si >= 0 && u->live[si] && bit(u->pdom + (size_t)si * u->nw, (size_t)bi);
            }
            if (dep) {
                u->div_block[bi] = true;
                changed = true;
            }
        }
    }
    return changed;
}

/* The status K of bb's stop (`store K, status; ret`), or false when bb is no stop. */
static bool stop_status(Rg *g, LLVMBasicBlockRef bb, uint32_t *k)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb), prev = t ? LLVMGetPreviousInstruction(t) : NULL;
    if (!t || LLVMGetInstructionOpcode(t) != LLVMRet || !prev || LLVMGetInstructionOpcode(prev) != LLVMStore ||
        LLVMGetOperand(prev, 1) != g->status || !LLVMIsAConstantInt(LLVMGetOperand(prev, 0)))
        return false;
    *k = (uint32_t)LLVMConstIntGetZExtValue(LLVMGetOperand(prev, 0));
    return true;
}

/* silent[b] for each block b (in fn's order): b is a stop at a barrier or a return that every item of a
 * round that reaches one of the silent stops reaches, so that its status need not be recorded (the group
 * entry knows it, cpu_regions.h): no branch that may go different ways in different items decides, directly
 * or through another such branch, whether an item gets there. Branches on values alike in every item
 * (find_uniform's) decide alike for every item that has not left before, and the dispatch's switch on the
 * mode is alike in a round of one mode. Post-dominance counts the paths to those stops, not to an exit (an
 * exception, a cancelled launch: the item leaves, and its stop is never silent). false: out of memory. */
static bool silent_stops(Uni *u, LLVMBasicBlockRef d, bool *silent)
{
    int nb = u->nb;
    size_t nw = u->nw;
    bool *stop = calloc((size_t)nb + 1, 1), *reach = calloc((size_t)nb + 1, 1), *div = calloc((size_t)nb + 1, 1);
    uint64_t *pdom = malloc((size_t)nb * nw * 8 + 8), *tmp = malloc(nw * 8 + 8);
    bool ok = stop && reach && div && pdom && tmp;
    for (int bi = 0; ok && bi < nb; bi++) {
        uint32_t k;
        stop[bi] = reach[bi] = stop_status(u->g, u->blocks[bi], &k) && k != CPU_REGION_EXITED;
        memset(pdom + (size_t)bi * nw, stop[bi] ? 0 : 0xff, nw * 8);
        if (stop[bi])
            set_bit(pdom + (size_t)bi * nw, (size_t)bi);
    }
    for (bool changed = ok; changed;) { /* reach: such a stop is reachable from the block */
        changed = false;
        for (int bi = nb - 1; bi >= 0; bi--) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(u->blocks[bi]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned k = 0; k < ns && !reach[bi]; k++) {
                int si = block_index(u->blocks, nb, LLVMGetSuccessor(t, k));
                if (si >= 0 && reach[si])
                    reach[bi] = changed = true;
            }
        }
    }
    for (bool changed = ok; changed;) { /* pdom(b) = {b} | the intersection of pdom(s) over b's successors */
        changed = false;
        for (int bi = nb - 1; bi >= 0; bi--) {
            if (!reach[bi] || stop[bi])
                continue;
            memset(tmp, 0xff, nw * 8);
            LLVMValueRef t = LLVMGetBasicBlockTerminator(u->blocks[bi]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned k = 0; k < ns; k++) {
                int si = block_index(u->blocks, nb, LLVMGetSuccessor(t, k));
                for (size_t w = 0; si >= 0 && reach[si] && w < nw; w++)
                    tmp[w] &= pdom[(size_t)si * nw + w];
            }
            set_bit(tmp, (size_t)bi);
            if (memcmp(tmp, pdom + (size_t)bi * nw, nw * 8) != 0) {
                memcpy(pdom + (size_t)bi * nw, tmp, nw * 8);
                changed = true;
            }
        }
    }
    /* div: the blocks control dependent on a divergent branch, or on a branch in such a block */
    for (bool changed = ok; changed;) {
        changed = false;
        for (int pi = 0; pi < nb; pi++) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(u->blocks[pi]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            if (!reach[pi] || ns < 2)
                continue;
            LLVMOpcode op = LLVMGetInstructionOpcode(t);
            bool cond = op == LLVMBr || op == LLVMSwitch;
            bool branch_div = div[pi] || (u->blocks[pi] != d && (!cond || value_divergent(u, LLVMGetOperand(t, 0))));
            for (int bi = 0; branch_div && bi < nb; bi++) {
                if (!reach[bi] || div[bi] || (bi != pi && bit(pdom + (size_t)pi * nw, (size_t)bi)))
                    continue;
                bool dep = false;
                for (unsigned k = 0; k < ns && !dep; k++) {
                    int si = block_index(u->blocks, nb, LLVMGetSuccessor(t, k));
                    dep = si >= 0 && reach[si] && bit(pdom + (size_t)si * nw, (size_t)bi);
                }
                if (dep)
                    div[bi] = changed = true;
            }
        }
    }
    for (int bi = 0; ok && bi < nb; bi++)
        silent[bi] = stop[bi] && !div[bi];
    free(stop), free(reach), free(div), free(pdom), free(tmp);
    return ok;
}

/* Which allocas (of allocas[na]) hold the same value in every item of the group whenever an item reaches a
 * barrier (the blocks that stop at one, `store K, status; ret`): stored only values computed alike (from the arguments, the
 * state but the item's index, constants, such allocas) in blocks every item runs alike. Items that leave
 * (return, exit, an exception) before a barrier do not count. */
static bool find_uniform(Rg *g, LLVMValueRef st, LLVMTypeRef state_ty, const LLVMValueRef *ids, LLVMValueRef *allocas,
                         int na, LLVMBasicBlockRef d, bool dispatch_divergent, bool *uniform, bool *silent)
{
    Uni u = { .g = g,
              .st = st,
              .state_ty = state_ty,
              .td = LLVMGetModuleDataLayout(g->m),
              .ids = ids,
              .allocas = allocas,
              .na = na };
    u.nb = (int)LLVMCountBasicBlocks(g->fn);
    u.nw = ((size_t)u.nb + 63) / 64;
    size_t ninstr = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            ninstr++;
    for (u.div.cap = 16; u.div.cap < 2 * ninstr + 2; u.div.cap *= 2)
        ;
    u.blocks = malloc((size_t)u.nb * sizeof *u.blocks);
    u.div.k = calloc(u.div.cap, sizeof *u.div.k);
    u.div_alloca = calloc((size_t)na + 1, 1);
    u.div_block = calloc((size_t)u.nb, 1);
    u.live = calloc((size_t)u.nb, 1);
    u.pdom = malloc((size_t)u.nb * u.nw * 8 + 8);
    uint64_t *tmp = malloc(u.nw * 8 + 8);
    bool ok = u.blocks && u.div.k && u.div_alloca && u.div_block && u.live && u.pdom && tmp;
    if (ok) {
        LLVMGetBasicBlocks(g->fn, u.blocks);
        /* live: the blocks from which a barrier's stop is reachable; those stops end in `ret` after the
         * status store of a barrier (1..nbarriers) */
        for (int bi = 0; bi < u.nb; bi++) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(u.blocks[bi]);
            LLVMValueRef prev = t ? LLVMGetPreviousInstruction(t) : NULL;
            u.live[bi] = t && LLVMGetInstructionOpcode(t) == LLVMRet && prev &&
                         LLVMGetInstructionOpcode(prev) == LLVMStore && LLVMGetOperand(prev, 1) == g->status &&
                         LLVMIsAConstantInt(LLVMGetOperand(prev, 0)) &&
                         LLVMConstIntGetZExtValue(LLVMGetOperand(prev, 0)) >= 1 &&
                         LLVMConstIntGetZExtValue(LLVMGetOperand(prev, 0)) < CPU_REGION_ANY;
            memset(u.pdom + (size_t)bi * u.nw, u.live[bi] ? 0 : 0xff, u.nw * 8);
            if (u.live[bi])
                set_bit(u.pdom + (size_t)bi * u.nw, (size_t)bi);
        }
        bool *stop = malloc((size_t)u.nb + 1);
        ok = stop != NULL;
        if (ok)
            memcpy(stop, u.live, (size_t)u.nb);
        for (bool changed = ok; changed;) {
            changed = false;
            for (int bi = u.nb - 1; bi >= 0; bi--) {
                LLVMValueRef t = LLVMGetBasicBlockTerminator(u.blocks[bi]);
                unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
                for (unsigned s = 0; s < ns && !u.live[bi]; s++) {
                    int si = block_index(u.blocks, u.nb, LLVMGetSuccessor(t, s));
                    if (si >= 0 && u.live[si])
                        u.live[bi] = changed = true;
                }
            }
        }
        /* pdom(b) = {b} | the intersection of pdom(s) over b's live successors */
        for (bool changed = ok; changed;) {
            changed = false;
            for (int bi = u.nb - 1; bi >= 0; bi--) {
                if (!u.live[bi] || stop[bi])
                    continue;
                memset(tmp, 0xff, u.nw * 8);
                LLVMValueRef t = LLVMGetBasicBlockTerminator(u.blocks[bi]);
                unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
                for (unsigned s = 0; s < ns; s++) {
                    int si = block_index(u.blocks, u.nb, LLVMGetSuccessor(t, s));
                    for (size_t w = 0; si >= 0 && u.live[si] && w < u.nw; w++)
                        tmp[w] &= u.pdom[(size_t)si * u.nw + w];
                }
                set_bit(tmp, (size_t)bi);
                if (memcmp(tmp, u.pdom + (size_t)bi * u.nw, u.nw * 8) != 0) {
                    memcpy(u.pdom + (size_t)bi * u.nw, tmp, u.nw * 8);
                    changed = true;
                }
            }
        }
        free(stop);
        /* an alloca whose address is used otherwise than loaded from or stored to in whole differs */
        LLVMTargetDataRef td = u.td;
        for (int a = 0; ok && a < na; a++)
            for (LLVMUseRef us = LLVMGetFirstUse(allocas[a]); us; us = LLVMGetNextUse(us)) {
                LLVMValueRef user = LLVMGetUser(us);
                LLVMOpcode op = LLVMIsAInstruction(user) ? LLVMGetInstructionOpcode(user) : LLVMRet;
                bool whole = op == LLVMLoad || (op == LLVMStore && LLVMGetOperand(user, 1) == allocas[a] &&
                                                LLVMABISizeOfType(td, LLVMTypeOf(LLVMGetOperand(user, 0))) ==
                                                    LLVMABISizeOfType(td, LLVMGetAllocatedType(allocas[a])));
                if (!whole || (op == LLVMLoad && LLVMTypeOf(user) != LLVMGetAllocatedType(allocas[a])))
                    u.div_alloca[a] = true;
            }
        while (ok) {
            bool more = mark_divergent(&u);
            more |= mark_divergent_blocks(&u, d, dispatch_divergent);
            if (!more)
                break;
        }
        for (int a = 0; ok && a < na; a++)
            uniform[a] = !u.div_alloca[a];
        ok = ok && silent_stops(&u, d, silent);
    }
    free(u.blocks), free(u.div.k), free(u.div_alloca), free(u.div_block), free(u.live), free(u.pdom), free(tmp);
    return ok;
}

/* Every stop of the item (a barrier's, a return's, an exit's: `store K, status; ret`) branches to one block
 * that returns the status from a phi and stores it: two stores of the status in blocks that meet, once the
 * item is inlined into the group entry's loop, are merged by LLVM into one that leaves the access group.
 * Without `owns` (cpu_regions_owns_status) it stores unless mode is the same k (cpu_regions.c's header); with
 * it, in mode CPU_REGION_ANY and at the stops that are not silent[] (silent_stops; *quiet is then the phi
 * that says which stop it was). The stop block (its terminator the branch to the store), or NULL when out
 * of memory. */
static LLVMBasicBlockRef merge_stops(Rg *g, LLVMValueRef mode, bool owns, const bool *silent, LLVMValueRef *quiet)
{
    int n = 0, cap = 0, bi = 0;
    LLVMBasicBlockRef *from = NULL;
    LLVMValueRef *val = NULL, *sil = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb), bi++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb), prev = t ? LLVMGetPreviousInstruction(t) : NULL;
        if (!t || LLVMGetInstructionOpcode(t) != LLVMRet || !prev || LLVMGetInstructionOpcode(prev) != LLVMStore ||
            LLVMGetOperand(prev, 1) != g->status)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 8;
            LLVMBasicBlockRef *nf = realloc(from, (size_t)cap * sizeof *nf);
            from = nf ? nf : from;
            LLVMValueRef *nv = nf ? realloc(val, (size_t)cap * sizeof *nv) : NULL;
            val = nv ? nv : val;
            LLVMValueRef *ns = nv ? realloc(sil, (size_t)cap * sizeof *ns) : NULL;
            sil = ns ? ns : sil;
            if (!nf || !nv || !ns) {
                free(from), free(val), free(sil);
                return NULL;
            }
        }
        from[n] = bb;
        sil[n] = LLVMConstInt(LLVMInt1TypeInContext(g->c), owns && silent[bi], 0);
        val[n++] = LLVMGetOperand(prev, 0);
        LLVMInstructionEraseFromParent(t);
        LLVMInstructionEraseFromParent(prev);
    }
    LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(g->c, g->fn, "regions.stop");
    for (int k = 0; k < n; k++) {
        LLVMPositionBuilderAtEnd(g->b, from[k]);
        LLVMBuildBr(g->b, stop);
    }
    LLVMBasicBlockRef write = LLVMAppendBasicBlockInContext(g->c, g->fn, "regions.record");
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(g->c, g->fn, "regions.return");
    LLVMPositionBuilderAtEnd(g->b, stop);
    LLVMValueRef phi = LLVMBuildPhi(g->b, g->i32, "stop.status");
    LLVMAddIncoming(phi, val, from, (unsigned)n);
    *quiet = LLVMBuildPhi(g->b, LLVMInt1TypeInContext(g->c), "stop.silent");
    LLVMAddIncoming(*quiet, sil, from, (unsigned)n);
    LLVMValueRef any = LLVMBuildICmp(g->b, LLVMIntEQ, mode, LLVMConstInt(g->i32, CPU_REGION_ANY, 0), "");
    LLVMValueRef moved = owns ? LLVMBuildNot(g->b, *quiet, "") : LLVMBuildICmp(g->b, LLVMIntNE, phi, mode, "");
    LLVMBuildCondBr(g->b, LLVMBuildOr(g->b, any, moved, ""), write, out);
    LLVMPositionBuilderAtEnd(g->b, write);
    LLVMBuildStore(g->b, phi, g->status);
    LLVMBuildBr(g->b, out);
    LLVMPositionBuilderAtEnd(g->b, out);
    LLVMBuildRet(g->b, phi);
    free(from), free(val), free(sil);
    return stop;
}

/* ---- cancel checks outside loops --------------------------------------------------------------------- */

/* Whether bb lies on a cycle of fn (a loop that no barrier cuts: a barrier's block returns). */
static bool on_cycle(LLVMValueRef fn, LLVMBasicBlockRef bb)
{
    int nb = (int)LLVMCountBasicBlocks(fn), top = 0;
    LLVMBasicBlockRef *blocks = malloc((size_t)nb * sizeof *blocks), *stack = malloc((size_t)nb * sizeof *stack);
    bool *seen = calloc((size_t)nb, sizeof *seen), found = true; /* out of memory: keep the check */
    if (blocks && stack && seen) {
        found = false;
        LLVMGetBasicBlocks(fn, blocks);
        stack[top++] = bb;
        while (top > 0 && !found) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(stack[--top]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned k = 0; k < ns && !found; k++) {
                LLVMBasicBlockRef s = LLVMGetSuccessor(t, k);
                int si = block_index(blocks, nb, s);
                found = s == bb;
                if (si >= 0 && !seen[si]) {
                    seen[si] = true;
                    stack[top++] = s;
                }
            }
        }
    }
    free(blocks), free(stack), free(seen);
    return found;
}

/* Whether i is a cancel check's read of the flag: an atomic load through a pointer read from the state. */
static bool is_cancel_read(LLVMValueRef i, LLVMValueRef st)
{
    if (LLVMGetInstructionOpcode(i) != LLVMLoad || LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic)
        return false;
    LLVMValueRef p = LLVMGetOperand(i, 0);
    return LLVMIsALoadInst(p) && points_into_state(LLVMGetOperand(p, 0), st);
}

/* A cancel check outside every loop of the resumable item reads the flag only when mode is CPU_REGION_ANY,
 * and sees 0 otherwise: a round of items that all resume at one barrier (mode that barrier) runs each item
 * through code without loops, and the group entry, which reads the flag once per round, runs the round in
 * mode CPU_REGION_ANY once it is set, where every check reads it. So the checks leave the rounds LLVM
 * vectorises, and a cancelled launch still stops at the first check an item meets. */
static bool uniform_cancel_checks(Rg *g, LLVMValueRef st, LLVMValueRef mode)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef rd = NULL;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !rd; i = LLVMGetNextInstruction(i))
            if (is_cancel_read(i, st))
                rd = i;
        if (!rd || on_cycle(g->fn, bb))
            continue;
        /* bb = pre: ...; br any, read, bb   read: rd; br bb   bb: phi [rd, read], [0, pre]; ... */
        LLVMBasicBlockRef pre = LLVMInsertBasicBlockInContext(g->c, bb, "cancel.pre");
        LLVMBasicBlockRef read = LLVMInsertBasicBlockInContext(g->c, bb, "cancel.read");
        move_head(g, bb, rd, pre);
        retarget(g->fn, bb, pre, pre);
        LLVMPositionBuilderAtEnd(g->b, pre);
        LLVMValueRef any = LLVMBuildICmp(g->b, LLVMIntEQ, mode, LLVMConstInt(g->i32, CPU_REGION_ANY, 0), "");
        LLVMBuildCondBr(g->b, any, read, bb);
        LLVMInstructionRemoveFromParent(rd);
        LLVMPositionBuilderAtEnd(g->b, read);
        LLVMInsertIntoBuilder(g->b, rd);
        LLVMBuildBr(g->b, bb);
        LLVMPositionBuilderBefore(g->b, LLVMGetFirstInstruction(bb));
        LLVMValueRef phi = LLVMBuildPhi(g->b, LLVMTypeOf(rd), "cancel");
        LLVMReplaceAllUsesWith(rd, phi);
        LLVMValueRef vals[2] = { rd, LLVMConstInt(LLVMTypeOf(rd), 0, 0) };
        LLVMBasicBlockRef from[2] = { read, pre };
        LLVMAddIncoming(phi, vals, from, 2);
        bb = read; /* the rest of bb may hold another check: the loop visits bb next */
    }
    return true;
}

/* ---- work-items of one region run in parallel ---------------------------------------------------------- */

/* A distinct empty node, as an access group must be (the C API makes only uniqued nodes: one is parsed
 * into a module of its own; metadata belongs to the context, so it outlives that module). NULL on failure. */
static LLVMMetadataRef distinct_empty_node(LLVMContextRef c)
{
    static const char text[] = "!juke.ag = !{!0}\n!0 = distinct !{}\n";
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, sizeof text - 1, "juke.ag");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    if (!buf || LLVMParseIRInContext(c, buf, &m, &msg)) { /* the parser takes buf either way */
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMValueRef node = NULL;
    if (LLVMGetNamedMetadataNumOperands(m, "juke.ag") == 1)
        LLVMGetNamedMetadataOperands(m, "juke.ag", &node);
    LLVMMetadataRef md = node ? LLVMValueAsMetadata(node) : NULL;
    LLVMDisposeModule(m);
    return md;
}

LLVMMetadataRef cpu_regions_parallel(LLVMContextRef c, LLVMMetadataRef access_group)
{
    LLVMMetadataRef prop[2] = { LLVMMDStringInContext2(c, "llvm.loop.parallel_accesses", 27), access_group };
    return LLVMMDNodeInContext2(c, prop, 2);
}

/* Whether p points into an alloca of fn (through GEPs and casts): after inlining, one alloca of the group
 * entry serves every work-item in turn, so its accesses are not the items' own. */
static bool based_on_alloca(LLVMValueRef p)
{
    for (;;) {
        if (LLVMIsAAllocaInst(p))
            return true;
        if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
            p = LLVMGetOperand(p, 0);
        else
            return LLVMIsAPHINode(p) || LLVMIsASelectInst(p); /* may be one: assume so */
    }
}

static bool is_scope_decl(LLVMValueRef i)
{
    LLVMValueRef callee = LLVMGetInstructionOpcode(i) == LLVMCall ? LLVMGetCalledValue(i) : NULL;
    size_t len = 0;
    const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : "";
    return strncmp(name, "llvm.experimental.noalias.scope.decl", 36) == 0;
}

void cpu_regions_drop_scope_decls(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            if (is_scope_decl(i))
                LLVMInstructionEraseFromParent(i);
            i = next;
        }
}

/* Put fn's plain loads and stores (and its scope declarations) in one access group: the work-items of a
 * region do not race on local, global or their own spill memory in a correct kernel, as pocl's work-item
 * loops assume. Accesses to allocas, atomics and volatile ones stay out, and so do calls. */
static void tag_parallel_accesses(Rg *g, LLVMMetadataRef ag)
{
    unsigned kind = LLVMGetMDKindIDInContext(g->c, "llvm.access.group", 17);
    LLVMValueRef agv = LLVMMetadataAsValue(g->c, ag);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            bool tag = false;
            if (op == LLVMLoad || op == LLVMStore) {
                LLVMValueRef p = LLVMGetOperand(i, op == LLVMLoad ? 0 : 1);
                tag = !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic && !based_on_alloca(p);
            } else {
                tag = is_scope_decl(i);
            }
            if (tag)
                LLVMSetMetadata(i, kind, agv);
        }
}

/* ---- the transformation ------------------------------------------------------------------------------- */

/* A u32 of the state; the group's size (field 2) is invariant, as the group entry's own loads of it say, so
 * that the optimiser finds the item's linear index here and in the group entry alike. */
static LLVMValueRef state_u32(Rg *g, LLVMTypeRef state_ty, LLVMValueRef st, unsigned field, unsigned elem)
{
    LLVMValueRef idx[3] = { LLVMConstInt(g->i32, 0, 0), LLVMConstInt(g->i32, field, 0), LLVMConstInt(g->i32, elem, 0) };
    LLVMValueRef v = LLVMBuildLoad2(g->b, g->i32, LLVMBuildInBoundsGEP2(g->b, state_ty, st, idx, 3, ""), "");
    if (field == 2) {
        LLVMValueRef empty = LLVMMetadataAsValue(g->c, LLVMMDNodeInContext2(g->c, NULL, 0));
        LLVMSetMetadata(v, LLVMGetMDKindIDInContext(g->c, "invariant.load", 14), empty);
        LLVMSetMetadata(v, LLVMGetMDKindIDInContext(g->c, "noundef", 7), empty);
    }
    return v;
}

bool cpu_regions_transform(LLVMModuleRef m, LLVMValueRef fn, LLVMTypeRef state_ty, LLVMValueRef barrier_fn,
                           LLVMValueRef exit_fn, CpuRegions *out)
{
    memset(out, 0, sizeof *out);
    int nbar, nexit;
    LLVMValueRef *bars = calls_of(fn, barrier_fn, &nbar);
    if (nbar <= 0) {
        free(bars);
        return false;
    }
    LLVMValueRef *exits = calls_of(fn, exit_fn, &nexit);
    if (nexit < 0) {
        free(bars);
        return false;
    }
    /* what the transformation cannot express: allocas of a size known only at run time */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == LLVMAlloca && !LLVMIsConstant(LLVMGetOperand(i, 0))) {
                free(bars), free(exits);
                return false;
            }
    Rg g = { .c = LLVMGetModuleContext(m), .m = m, .fn = fn };
    g.i32 = LLVMInt32TypeInContext(g.c);
    g.i64 = LLVMInt64TypeInContext(g.c);
    g.ptr = LLVMPointerTypeInContext(g.c, 0);
    g.b = LLVMCreateBuilderInContext(g.c);
    out->locs = calloc((size_t)nbar + 1, sizeof *out->locs);
    LLVMBasicBlockRef *resume = calloc((size_t)nbar, sizeof *resume);
    if (!out->locs || !resume) {
        free(bars), free(exits), free(resume);
        LLVMDisposeBuilder(g.b);
        return false;
    }
    out->nbarriers = (uint32_t)nbar;
    unsigned np = LLVMCountParams(fn);
    unsigned first = np - CPU_REGION_EXTRA_PARAMS;
    LLVMValueRef st = LLVMGetParam(fn, first - 1), mode = LLVMGetParam(fn, first), snap = LLVMGetParam(fn, first + 1);
    LLVMValueRef ids[3] = { LLVMGetParam(fn, first + 2), LLVMGetParam(fn, first + 3), LLVMGetParam(fn, first + 4) };
    LLVMValueRef ret0 = LLVMConstInt(g.i32, 0, 0); /* the stops' placeholder returns (merge_stops) */

    /* the dispatch block D: allocas, the item's linear index and status slot */
    LLVMBasicBlockRef start = LLVMGetEntryBasicBlock(fn);
    LLVMBasicBlockRef d = LLVMInsertBasicBlockInContext(g.c, start, "regions.dispatch");
    for (LLVMBasicBlockRef bb = start; bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            if (LLVMGetInstructionOpcode(i) == LLVMAlloca) {
                LLVMPositionBuilderAtEnd(g.b, d);
                LLVMInstructionRemoveFromParent(i);
                LLVMInsertIntoBuilder(g.b, i);
            }
            i = next;
        }
    LLVMPositionBuilderAtEnd(g.b, d);
    LLVMValueRef item[3], dim[3];
    for (unsigned k = 0; k < 3; k++) {
        item[k] = ids[k];
        dim[k] = state_u32(&g, state_ty, st, 2, k);
    }
    LLVMValueRef lin = LLVMBuildAdd(
        g.b, LLVMBuildMul(g.b, LLVMBuildAdd(g.b, LLVMBuildMul(g.b, item[2], dim[1], ""), item[1], ""), dim[0], ""),
        item[0], "lin");
    LLVMValueRef nitems = LLVMBuildMul(g.b, LLVMBuildMul(g.b, dim[0], dim[1], ""), dim[2], "");
    LLVMValueRef sidx[2] = { LLVMConstInt(g.i32, 0, 0), LLVMConstInt(g.i32, CPU_STATE_SPILL_FIELD, 0) };
    LLVMValueRef spill = LLVMBuildLoad2(g.b, g.ptr, LLVMBuildInBoundsGEP2(g.b, state_ty, st, sidx, 2, ""), "spill");
    LLVMValueRef lin64 = LLVMBuildZExt(g.b, lin, g.i64, "");
    g.status = LLVMBuildInBoundsGEP2(g.b, g.i32, spill, &lin64, 1, "status");

    /* split each barrier's block: the part up to the barrier records it and returns; the rest is where the
     * item resumes */
    for (int k = 0; k < nbar; k++) {
        LLVMValueRef call = bars[k];
        uint64_t line = LLVMConstIntGetZExtValue(LLVMGetOperand(call, 1));
        uint64_t col = LLVMConstIntGetZExtValue(LLVMGetOperand(call, 2));
        out->locs[k + 1] = line << 32 | col;
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
        LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(g.c, bb, "regions.tobarrier");
        move_head(&g, bb, call, head);
        retarget(fn, bb, head, head);
        if (bb == start)
            start = head;
        /* an earlier barrier that resumes right at this one (two barriers in a row) resumes at head */
        for (int j = 0; j < k; j++)
            if (resume[j] == bb)
                resume[j] = head;
        resume[k] = bb;
        LLVMPositionBuilderAtEnd(g.b, head);
        LLVMBuildStore(g.b, LLVMConstInt(g.i32, (unsigned)k + 1, 0), g.status);
        LLVMBuildRet(g.b, ret0);
        LLVMInstructionEraseFromParent(call);
    }
    /* returns and exits record themselves */
    for (int k = 0; k < nexit; k++) {
        LLVMValueRef next = LLVMGetNextInstruction(exits[k]);
        if (!next || LLVMGetInstructionOpcode(next) != LLVMUnreachable)
            continue; /* left to the runtime: it ends the group */
        LLVMPositionBuilderBefore(g.b, exits[k]);
        LLVMBuildStore(g.b, LLVMConstInt(g.i32, CPU_REGION_EXITED, 0), g.status);
        LLVMBuildRet(g.b, ret0);
        LLVMInstructionEraseFromParent(next);
        LLVMInstructionEraseFromParent(exits[k]);
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (bb == d || !t || LLVMGetInstructionOpcode(t) != LLVMRet)
            continue;
        LLVMValueRef prev = LLVMGetPreviousInstruction(t);
        if (prev && LLVMGetInstructionOpcode(prev) == LLVMStore && LLVMGetOperand(prev, 1) == g.status)
            continue; /* a barrier's or an exit's */
        LLVMPositionBuilderBefore(g.b, t);
        LLVMBuildStore(g.b, LLVMConstInt(g.i32, CPU_REGION_RETURNED, 0), g.status);
    }
    bool ok = ids_from_params(&g, st, state_ty, ids, d);
    hoist_recomputable(&g, d, st);
    /* the dispatch: by the item's status */
    LLVMPositionBuilderAtEnd(g.b, d);
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g.c, fn, "regions.ended");
    LLVMValueRef any = LLVMBuildICmp(g.b, LLVMIntEQ, mode, LLVMConstInt(g.i32, CPU_REGION_ANY, 0), "");
    LLVMValueRef k = LLVMBuildSelect(g.b, any, LLVMBuildLoad2(g.b, g.i32, g.status, ""), mode, "resume");
    LLVMValueRef sw = LLVMBuildSwitch(g.b, k, done, (unsigned)nbar + 1);
    LLVMAddCase(sw, LLVMConstInt(g.i32, 0, 0), start);
    for (int r = 0; r < nbar; r++)
        LLVMAddCase(sw, LLVMConstInt(g.i32, (unsigned)r + 1, 0), resume[r]);
    LLVMPositionBuilderAtEnd(g.b, done);
    LLVMBuildRet(g.b, k); /* an item that ended: its status stays */

    /* every value used outside its block goes through an alloca (phis first) */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMGetInstructionOpcode(i) == LLVMPHI;) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            demote_phi(&g, i, d);
            i = next;
        }
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(d); bb && ok; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && ok; i = LLVMGetNextInstruction(i))
            if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind && !LLVMIsATerminatorInst(i))
                ok = demote_value(&g, i, d);

    /* the allocas live across a barrier move to per-item slots of the spill */
    int na = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(d); i; i = LLVMGetNextInstruction(i))
        na += LLVMGetInstructionOpcode(i) == LLVMAlloca;
    LLVMValueRef *allocas = calloc((size_t)na + 1, sizeof *allocas);
    bool *need = calloc((size_t)na + 1, sizeof *need);
    ok = ok && allocas && need;
    if (ok) {
        na = 0;
        for (LLVMValueRef i = LLVMGetFirstInstruction(d); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == LLVMAlloca)
                allocas[na++] = i;
        ok = live_across(&g, allocas, na, resume, nbar, need);
    }
    /* values alike in every item keep one slot per group; two barriers of one source place let items
     * resume at either in one round */
    bool *uniform = calloc((size_t)na + 1, sizeof *uniform), shared_place = false;
    for (int k = 1; k <= nbar; k++)
        for (int j = 1; j < k; j++)
            shared_place |= out->locs[j] == out->locs[k];
    bool owns = cpu_regions_owns_status(out);
    bool *silent = calloc(LLVMCountBasicBlocks(fn) + 1, sizeof *silent);
    ok = ok && uniform && silent && find_uniform(&g, st, state_ty, ids, allocas, na, d, shared_place, uniform, silent);
    LLVMValueRef quiet = NULL;
    LLVMBasicBlockRef stop = ok ? merge_stops(&g, mode, owns, silent, &quiet) : NULL;
    free(silent);
    ok = ok && stop;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    uint64_t off = 4; /* the status array */
    /* the slots' addresses right after the status slot's: the instructions hoisted into d may use them (a
     * constant-index GEP of an alloca) */
    LLVMPositionBuilderBefore(g.b, LLVMGetNextInstruction(g.status));
    LLVMValueRef n64 = ok ? LLVMBuildZExt(g.b, nitems, g.i64, "") : NULL;
    for (int a = 0; ok && a < na; a++) {
        if (!need[a] || uniform[a])
            continue;
        LLVMTypeRef t = LLVMGetAllocatedType(allocas[a]);
        uint64_t size = LLVMABISizeOfType(td, t), align = LLVMABIAlignmentOfType(td, t);
        align = align < 1 ? 1 : align;
        off = (off + align - 1) / align * align;
        LLVMValueRef base = LLVMBuildMul(g.b, n64, LLVMConstInt(g.i64, off, 0), "");
        LLVMValueRef at = LLVMBuildAdd(g.b, base, LLVMBuildMul(g.b, lin64, LLVMConstInt(g.i64, size, 0), ""), "");
        LLVMValueRef p = LLVMBuildInBoundsGEP2(g.b, LLVMInt8TypeInContext(g.c), spill, &at, 1, "item.slot");
        LLVMReplaceAllUsesWith(allocas[a], p);
        LLVMInstructionEraseFromParent(allocas[a]);
        off += size;
        out->nslots++;
    }
    /* the group's values: each uniform alloca stays the item's own while it runs; it starts from the
     * round's snapshot, uniform[0, group_bytes), and wherever the item stops at a barrier it goes to
     * uniform[group_bytes + its offset], every item storing the same value; the group entry makes that
     * the next round's snapshot (so that no item reads what another wrote in the same round) */
    uint64_t goff = 0;
    for (int a = 0; ok && a < na; a++)
        if (need[a] && uniform[a]) {
            LLVMTypeRef t = LLVMGetAllocatedType(allocas[a]);
            uint64_t align = LLVMABIAlignmentOfType(td, t);
            align = align < 1 ? 1 : align;
            goff = (goff + align - 1) / align * align + LLVMABISizeOfType(td, t);
        }
    out->group_bytes = (uint32_t)((goff + 15) / 16 * 16);
    goff = 0;
    for (int a = 0; ok && a < na; a++) {
        if (!need[a] || !uniform[a])
            continue;
        LLVMTypeRef t = LLVMGetAllocatedType(allocas[a]), i8 = LLVMInt8TypeInContext(g.c);
        uint64_t size = LLVMABISizeOfType(td, t), align = LLVMABIAlignmentOfType(td, t);
        align = align < 1 ? 1 : align;
        goff = (goff + align - 1) / align * align;
        LLVMValueRef o = LLVMConstInt(g.i64, goff, 0), left = LLVMConstInt(g.i64, out->group_bytes + goff, 0);
        LLVMBuildStore(g.b, LLVMBuildLoad2(g.b, t, LLVMBuildInBoundsGEP2(g.b, i8, snap, &o, 1, ""), "snap"),
                       allocas[a]);
        /* at every stop: a return's or an exit's ends the group's rounds (all items end, or the runtime
         * reports the others' barrier as divergent), so its value is never read */
        LLVMBuilderRef b2 = LLVMCreateBuilderInContext(g.c);
        LLVMPositionBuilderBefore(b2, LLVMGetBasicBlockTerminator(stop));
        LLVMValueRef slot = LLVMBuildInBoundsGEP2(b2, i8, snap, &left, 1, "group.value");
        LLVMBuildStore(b2, LLVMBuildLoad2(b2, t, allocas[a], ""), slot);
        LLVMDisposeBuilder(b2);
        goff += size;
        out->nslots++;
        out->uniform_slots++;
    }
    /* with owns: a silent stop or-s its status into uniform[2 * group_bytes] (every item that stops at one
     * stops at the same), any other stop a 1 into uniform[2 * group_bytes + 4] (it recorded its status) */
    if (ok && owns) {
        LLVMTypeRef i8 = LLVMInt8TypeInContext(g.c);
        LLVMBuilderRef b2 = LLVMCreateBuilderInContext(g.c);
        LLVMPositionBuilderBefore(b2, LLVMGetBasicBlockTerminator(stop));
        LLVMValueRef so = LLVMConstInt(g.i64, CPU_REGION_SILENT_AT(out->group_bytes), 0);
        LLVMValueRef ro = LLVMConstInt(g.i64, CPU_REGION_RECORDED_AT(out->group_bytes), 0);
        LLVMValueRef sp = LLVMBuildInBoundsGEP2(b2, i8, snap, &so, 1, "silent.status");
        LLVMValueRef rp = LLVMBuildInBoundsGEP2(b2, i8, snap, &ro, 1, "recorded");
        LLVMValueRef status = LLVMGetFirstInstruction(stop);
        /* or-ed in, reductions the round's loops vectorise with the items (the silent stops' statuses are alike) */
        LLVMValueRef zero = LLVMConstInt(g.i32, 0, 0);
        LLVMValueRef sv = LLVMBuildSelect(b2, quiet, status, zero, "");
        LLVMBuildStore(b2, LLVMBuildOr(b2, LLVMBuildLoad2(b2, g.i32, sp, ""), sv, ""), sp);
        LLVMValueRef rv = LLVMBuildZExt(b2, LLVMBuildNot(b2, quiet, ""), g.i32, "");
        LLVMBuildStore(b2, LLVMBuildOr(b2, LLVMBuildLoad2(b2, g.i32, rp, ""), rv, ""), rp);
        LLVMDisposeBuilder(b2);
    }
    out->spill_bytes = (uint32_t)off;
    ok = ok && uniform_cancel_checks(&g, st, mode);
    out->access_group = ok ? distinct_empty_node(g.c) : NULL;
    if (out->access_group)
        tag_parallel_accesses(&g, out->access_group);
    free(allocas), free(need), free(uniform), free(bars), free(exits), free(resume);
    LLVMDisposeBuilder(g.b);
    return ok;
}
