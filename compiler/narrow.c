/* narrow.c: 64-bit compares narrowed to 32 bits, a pass of juke's own over
 * the optimised LLVM IR of a launch-class variant (llvm_optimize runs it
 * after checkopt when TargetOptions.index32 holds, then instcombine).
 *
 * Julia's Int is 64-bit, so a guard `ix <= size(A, 1)` and a bounds check
 * compare i64s. In the 32-bit class the launch guarantees facts that bound
 * every operand: each device array's dims and length are below 2^31 (a GPU
 * kernel's array parameters are recognised here; the CPU's, read from
 * memory, carry llvm.assume from codegen.c) and, in the small-grid class,
 * each workgroup id is below 2^20 (the caller names the target's intrinsic;
 * the CPU's id carries it as !range). LLVM does not narrow a compare of a
 * zero-extended index against a size that is only known to be small: it
 * keeps two 64-bit compares (two ISETP on NVIDIA, a 64-bit VALU compare on
 * AMD). This pass computes a signed interval for each operand of an i64
 * compare and, when both lie in [-2^31, 2^31), compares their low 32 bits
 * instead. Truncation keeps both the signed and the unsigned order of such
 * values, so the result is the same bit for bit.
 *
 * Which compares: every one, or (guards = false, NVPTX) only those that
 * decide a bounds check; there the small grid's fact, when a check needed
 * it, is then given to LLVM too (!range on the ids). Measured on the H200
 * (bench/RESULTS.md §15).
 *
 * Requires: verified IR; keeps it valid (the caller runs instcombine to fold
 * the truncations into the narrow values, and dce for the wide compares). */
#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "narrow.h"

enum { DEPTH = 16, ASSUME_MAX = 256 };

typedef struct Range {
    int64_t lo, hi; /* the value's signed interpretation at its width lies in [lo, hi] */
} Range;

typedef struct Memo {
    LLVMValueRef *key; /* open addressing by pointer */
    Range *val;
    size_t cap, n;
} Memo;

typedef struct Narrow {
    LLVMContextRef ctx;
    unsigned md_range, md_prof;
    const char *group_id;             /* the small-grid class: this intrinsic's value is below SMALL_GRID_MAX */
    LLVMValueRef assumed[ASSUME_MAX]; /* a value an llvm.assume bounds, and the bound */
    Range assumed_range[ASSUME_MAX];
    int nassumed;
    LLVMValueRef wide[ASSUME_MAX], narrow[ASSUME_MAX]; /* low32's */
    int ntrunc;
    bool guards;        /* narrow every compare, not only the bounds checks' */
    bool with_group_id; /* whether range_of uses group_id's fact (a memo for each) */
    bool exact;         /* no wrap flag trusted: a range holds whatever the earlier checks decided */
    Memo memo[2];
} Narrow;

static Range full(unsigned bits)
{
    if (bits >= 64)
        return (Range){ INT64_MIN, INT64_MAX };
    return (Range){ -((int64_t)1 << (bits - 1)), ((int64_t)1 << (bits - 1)) - 1 };
}

static Range meet(Range a, Range b)
{
    Range r = { a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi };
    return r.lo <= r.hi ? r : a; /* contradictory facts: keep the first (the code is unreachable then) */
}

static unsigned width(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

/* [lo, hi] as computed exactly, kept if it fits the type's width; else the
 * type's range (nsw: a wrapping result is poison, so the fitting part is all
 * a well-defined program sees). */
static Range fit(__int128 lo, __int128 hi, unsigned bits, bool nsw)
{
    Range f = full(bits);
    if (lo >= f.lo && hi <= f.hi)
        return (Range){ (int64_t)lo, (int64_t)hi };
    if (nsw && hi >= f.lo && lo <= f.hi)
        return (Range){ lo > f.lo ? (int64_t)lo : f.lo, hi < f.hi ? (int64_t)hi : f.hi };
    return f;
}

static size_t memo_slot(const Memo *m, LLVMValueRef v)
{
    size_t h = ((uintptr_t)v >> 4) * 0x9e3779b97f4a7c15ull;
    for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1))
        if (m->key[i] == v || !m->key[i])
            return i;
}

static void memo_put(Memo *m, LLVMValueRef v, Range r)
{
    if (2 * (m->n + 1) > m->cap) {
        Memo g = { calloc(m->cap * 2, sizeof *g.key), calloc(m->cap * 2, sizeof *g.val), m->cap * 2, 0 };
        if (!g.key || !g.val) {
            free(g.key);
            free(g.val);
            return; /* no memo: only slower */
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i]) {
                size_t s = memo_slot(&g, m->key[i]);
                g.key[s] = m->key[i];
                g.val[s] = m->val[i];
                g.n++;
            }
        free(m->key);
        free(m->val);
        *m = g;
    }
    size_t s = memo_slot(m, v);
    if (!m->key[s])
        m->n++;
    m->key[s] = v;
    m->val[s] = r;
}

/* The !range [lo, hi) of a call or load (one pair), met with r. */
static Range md_range(Narrow *nw, LLVMValueRef v, Range r)
{
    LLVMValueRef md = LLVMGetMetadata(v, nw->md_range);
    if (!md || LLVMGetMDNodeNumOperands(md) != 2)
        return r;
    LLVMValueRef ops[2];
    LLVMGetMDNodeOperands(md, ops);
    if (!LLVMIsAConstantInt(ops[0]) || !LLVMIsAConstantInt(ops[1]))
        return r;
    int64_t lo = LLVMConstIntGetSExtValue(ops[0]), hi = LLVMConstIntGetSExtValue(ops[1]);
    return lo < hi ? meet(r, (Range){ lo, hi - 1 }) : r; /* a wrapped range: not used */
}

static Range range_of(Narrow *nw, LLVMValueRef v, int depth);

/* Whether v is a dim or the length of a kernel's array argument, { ptr, [N x i64], i64 } (abi.h): the
 * 32-bit class's launch has checked that each is below 2^31. (The CPU's kernel reads its arguments from
 * memory: there codegen.c states the same as llvm.assume.) */
static bool is_array_size(LLVMValueRef v)
{
    LLVMValueRef agg = LLVMGetOperand(v, 0);
    unsigned n = LLVMGetNumIndices(v);
    const unsigned *ix = LLVMGetIndices(v);
    if (n == 1 && ix[0] != 2 && LLVMIsAExtractValueInst(agg) && LLVMGetNumIndices(agg) == 1 &&
        LLVMGetIndices(agg)[0] == 1)
        agg = LLVMGetOperand(agg, 0); /* a dim: (A.1)[k] */
    else if (!(n == 1 && ix[0] == 2) && !(n == 2 && ix[0] == 1))
        return false;
    if (!LLVMIsAArgument(agg))
        return false;
    LLVMTypeRef t = LLVMTypeOf(agg);
    if (LLVMGetTypeKind(t) != LLVMStructTypeKind || LLVMCountStructElementTypes(t) != 3)
        return false;
    LLVMTypeRef f0 = LLVMStructGetTypeAtIndex(t, 0), f1 = LLVMStructGetTypeAtIndex(t, 1),
                f2 = LLVMStructGetTypeAtIndex(t, 2);
    return LLVMGetTypeKind(f0) == LLVMPointerTypeKind && LLVMGetTypeKind(f1) == LLVMArrayTypeKind &&
           LLVMGetTypeKind(f2) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(f2) == 64;
}

/* Whether call i calls a function whose name starts with prefix. */
static bool is_call_prefixed(LLVMValueRef i, const char *prefix)
{
    LLVMValueRef f = LLVMGetCalledValue(i);
    size_t n = 0, k = strlen(prefix);
    const char *s = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &n) : NULL;
    return s && n >= k && memcmp(s, prefix, k) == 0;
}

static Range range_op(Narrow *nw, LLVMValueRef v, unsigned bits, int depth)
{
    Range f = full(bits);
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    LLVMValueRef a = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
    LLVMValueRef b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    switch (op) {
    case LLVMZExt: {
        unsigned sb = width(a);
        Range s = range_of(nw, a, depth + 1);
        if (LLVMGetNNeg(v) && s.lo < 0)
            s = meet((Range){ 0, full(sb).hi }, s);
        if (s.lo >= 0)
            return s;
        return sb < 64 ? (Range){ 0, (int64_t)(((uint64_t)1 << sb) - 1) } : f;
    }
    case LLVMSExt: return range_of(nw, a, depth + 1);
    case LLVMTrunc: {
        Range s = range_of(nw, a, depth + 1);
        return s.lo >= f.lo && s.hi <= f.hi ? s : f;
    }
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul: {
        Range x = range_of(nw, a, depth + 1), y = range_of(nw, b, depth + 1);
        bool nsw = LLVMGetNSW(v) && !nw->exact;
        if (op == LLVMAdd)
            return fit((__int128)x.lo + y.lo, (__int128)x.hi + y.hi, bits, nsw);
        if (op == LLVMSub)
            return fit((__int128)x.lo - y.hi, (__int128)x.hi - y.lo, bits, nsw);
        __int128 p[4] = { (__int128)x.lo * y.lo, (__int128)x.lo * y.hi, (__int128)x.hi * y.lo, (__int128)x.hi * y.hi };
        __int128 lo = p[0], hi = p[0];
        for (int i = 1; i < 4; i++) {
            lo = p[i] < lo ? p[i] : lo;
            hi = p[i] > hi ? p[i] : hi;
        }
        /* a product of two 64-bit bounds can exceed even __int128's range only past 2^126: not here */
        return fit(lo, hi, bits, nsw);
    }
    case LLVMAnd: {
        Range x = range_of(nw, a, depth + 1), y = range_of(nw, b, depth + 1);
        if (x.lo >= 0 && y.lo >= 0)
            return (Range){ 0, x.hi < y.hi ? x.hi : y.hi };
        if (x.lo >= 0 || y.lo >= 0)
            return (Range){ 0, x.lo >= 0 ? x.hi : y.hi };
        return f;
    }
    case LLVMLShr:
    case LLVMAShr: {
        Range x = range_of(nw, a, depth + 1);
        if (!LLVMIsAConstantInt(b) || x.lo < 0)
            return f;
        uint64_t s = LLVMConstIntGetZExtValue(b);
        return s < bits ? (Range){ x.lo >> s, x.hi >> s } : f;
    }
    case LLVMShl: {
        Range x = range_of(nw, a, depth + 1);
        if (!LLVMIsAConstantInt(b) || x.lo < 0 || LLVMConstIntGetZExtValue(b) >= 62)
            return f;
        unsigned s = (unsigned)LLVMConstIntGetZExtValue(b);
        return fit((__int128)x.lo << s, (__int128)x.hi << s, bits, LLVMGetNSW(v) && !nw->exact);
    }
    case LLVMUDiv:
    case LLVMSDiv: {
        Range x = range_of(nw, a, depth + 1), y = range_of(nw, b, depth + 1);
        if (x.lo < 0 || y.lo <= 0)
            return f;
        return (Range){ x.lo / y.hi, x.hi / y.lo };
    }
    case LLVMSelect: {
        Range x = range_of(nw, LLVMGetOperand(v, 1), depth + 1), y = range_of(nw, LLVMGetOperand(v, 2), depth + 1);
        return (Range){ x.lo < y.lo ? x.lo : y.lo, x.hi > y.hi ? x.hi : y.hi };
    }
    case LLVMExtractValue: return is_array_size(v) ? (Range){ 0, ((int64_t)1 << 31) - 1 } : f;
    case LLVMCall:
        if (nw->with_group_id && is_call_prefixed(v, nw->group_id))
            f = meet(f, (Range){ 0, SMALL_GRID_MAX - 1 });
        return md_range(nw, v, f);
    case LLVMLoad: return md_range(nw, v, f);
    default: return f;
    }
}

/* The signed interval v lies in (its type's whole range when nothing is known). */
static Range range_of(Narrow *nw, LLVMValueRef v, int depth)
{
    unsigned bits = width(v);
    if (!bits || bits > 64)
        return full(64);
    if (LLVMIsAConstantInt(v))
        return (Range){ LLVMConstIntGetSExtValue(v), LLVMConstIntGetSExtValue(v) };
    if (!LLVMIsAInstruction(v) && !LLVMIsAArgument(v))
        return full(bits);
    Memo *memo = &nw->memo[nw->with_group_id];
    size_t s = memo_slot(memo, v);
    if (memo->key[s] == v)
        return memo->val[s];
    Range r = LLVMIsAInstruction(v) && depth <= DEPTH ? range_op(nw, v, bits, depth) : full(bits);
    for (int i = 0; i < nw->nassumed; i++)
        if (nw->assumed[i] == v)
            r = meet(r, nw->assumed_range[i]);
    if (depth <= DEPTH)
        memo_put(&nw->memo[nw->with_group_id], v, r);
    return r;
}

static bool is_call_to(LLVMValueRef i, const char *name)
{
    if (!LLVMIsACallInst(i))
        return false;
    LLVMValueRef f = LLVMGetCalledValue(i);
    size_t n = 0;
    const char *s = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &n) : NULL;
    return s && n == strlen(name) && memcmp(s, name, n) == 0;
}

/* The bound an assumed `v PRED c` (or `c PRED v`) puts on v. */
static void take_assume(Narrow *nw, LLVMValueRef cond)
{
    if (!LLVMIsAICmpInst(cond) || nw->nassumed >= ASSUME_MAX)
        return;
    LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
    LLVMValueRef v = LLVMGetOperand(cond, 0), c = LLVMGetOperand(cond, 1);
    if (!LLVMIsAConstantInt(c) || width(v) > 64 || !width(v))
        return;
    int64_t k = LLVMConstIntGetSExtValue(c);
    Range r = full(width(v));
    switch (p) {
    case LLVMIntULT:
        if (k <= 0)
            return;
        r = (Range){ 0, k - 1 };
        break;
    case LLVMIntULE:
        if (k < 0)
            return;
        r = (Range){ 0, k };
        break;
    case LLVMIntSLT:
        if (k == INT64_MIN)
            return;
        r.hi = k - 1;
        break;
    case LLVMIntSLE: r.hi = k; break;
    case LLVMIntSGT:
        if (k == INT64_MAX)
            return;
        r.lo = k + 1;
        break;
    case LLVMIntSGE: r.lo = k; break;
    default: return;
    }
    nw->assumed[nw->nassumed] = v;
    nw->assumed_range[nw->nassumed++] = r;
}

static bool fits32(Range r)
{
    return r.lo >= INT32_MIN && r.hi <= INT32_MAX;
}

/* A builder placed right after v's definition (at the entry for an argument): a narrow value built there
 * dominates every use of v. */
static LLVMBuilderRef after(Narrow *nw, LLVMValueRef v, LLVMValueRef fn)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(nw->ctx);
    if (LLVMIsAInstruction(v)) {
        LLVMValueRef at = LLVMGetNextInstruction(v);
        while (at && LLVMIsAPHINode(at))
            at = LLVMGetNextInstruction(at);
        LLVMPositionBuilderBefore(b, at);
    } else {
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
    }
    return b;
}

/* v's low 32 bits, one value per v (so that a guard and a check compare one SSA value, as checkopt needs):
 * an extension's source is itself; an add, sub or mul is rebuilt in 32 bits right after v (the low half of
 * a sum or product is that of its operands' low halves), so that no truncation of a wide value is left for instcombine to widen the compare
 * back to 64 bits; anything else is truncated. */
static LLVMValueRef low32(Narrow *nw, LLVMValueRef v, LLVMValueRef fn, int depth)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(nw->ctx);
    if (LLVMIsAConstantInt(v))
        return LLVMConstInt(i32, (unsigned long long)LLVMConstIntGetSExtValue(v), 1);
    if ((LLVMIsAZExtInst(v) || LLVMIsASExtInst(v)) && width(LLVMGetOperand(v, 0)) == 32)
        return LLVMGetOperand(v, 0);
    for (int i = 0; i < nw->ntrunc; i++)
        if (nw->wide[i] == v)
            return nw->narrow[i];
    LLVMOpcode op = LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMRet;
    LLVMValueRef r;
    if (depth < DEPTH && (op == LLVMAdd || op == LLVMSub || op == LLVMMul)) {
        LLVMValueRef a = LLVMGetOperand(v, 0), c = LLVMGetOperand(v, 1);
        LLVMValueRef x = low32(nw, a, fn, depth + 1), y = low32(nw, c, fn, depth + 1);
        LLVMBuilderRef b = after(nw, v, fn);
        r = op == LLVMAdd   ? LLVMBuildAdd(b, x, y, "")
            : op == LLVMSub ? LLVMBuildSub(b, x, y, "")
                            : LLVMBuildMul(b, x, y, "");
        LLVMDisposeBuilder(b);
        /* flags on the adds only (what checkopt.c needs to see a guard imply a check): on a multiply, LLVM
         * used them to narrow the wide index arithmetic too, which cost diffusion2d's @inbounds kernel 1 % on
         * the H200 (ctaid.x * ntid.x left the uniform datapath) */
        Range ra = range_of(nw, a, 0), rc = range_of(nw, c, 0);
        if (LLVMIsAInstruction(r) && op != LLVMMul && fits32(range_of(nw, v, 0)) && fits32(ra) && fits32(rc)) {
            LLVMSetNSW(r, 1);
            if (op == LLVMAdd && ra.lo >= 0 && rc.lo >= 0)
                LLVMSetNUW(r, 1);
        }
    } else {
        LLVMBuilderRef b = after(nw, v, fn);
        r = LLVMBuildTrunc(b, v, i32, "");
        LLVMDisposeBuilder(b);
    }
    if (nw->ntrunc < ASSUME_MAX) {
        nw->wide[nw->ntrunc] = v;
        nw->narrow[nw->ntrunc++] = r;
    }
    return r;
}

/* !range [0, SMALL_GRID_MAX) on every workgroup id of fn. */
static void mark_group_ids(Narrow *nw, LLVMValueRef fn)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(nw->ctx);
    LLVMMetadataRef r[2] = { LLVMValueAsMetadata(LLVMConstInt(i32, 0, 0)),
                             LLVMValueAsMetadata(LLVMConstInt(i32, SMALL_GRID_MAX, 0)) };
    LLVMValueRef md = LLVMMetadataAsValue(nw->ctx, LLVMMDNodeInContext2(nw->ctx, r, 2));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMIsACallInst(i) && width(i) == 32 && is_call_prefixed(i, nw->group_id))
                LLVMSetMetadata(i, nw->md_range, md);
}

/* Whether condition c decides a bounds check (codegen.c's branch weights 1 : 2^20, either way), directly or
 * through the or / and / not / freeze of checkopt.c's merged checks (a chain as long as the run of checks:
 * six accesses of two indices each in a stencil). */
static bool feeds_check(Narrow *nw, LLVMValueRef c, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(c); u && depth < DEPTH; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsABranchInst(user)) {
            LLVMValueRef md = LLVMGetMetadata(user, nw->md_prof);
            if (md && LLVMGetMDNodeNumOperands(md) == 3) {
                LLVMValueRef ops[3];
                LLVMGetMDNodeOperands(md, ops);
                uint64_t w0 = LLVMIsAConstantInt(ops[1]) ? LLVMConstIntGetZExtValue(ops[1]) : 0;
                uint64_t w1 = LLVMIsAConstantInt(ops[2]) ? LLVMConstIntGetZExtValue(ops[2]) : 0;
                if ((w0 == 1 && w1 == 1u << 20) || (w0 == 1u << 20 && w1 == 1))
                    return true;
            }
        } else if (LLVMIsAInstruction(user) &&
                   (LLVMGetInstructionOpcode(user) == LLVMOr || LLVMGetInstructionOpcode(user) == LLVMAnd ||
                    LLVMGetInstructionOpcode(user) == LLVMXor || LLVMGetInstructionOpcode(user) == LLVMFreeze ||
                    LLVMGetInstructionOpcode(user) == LLVMSelect) &&
                   feeds_check(nw, user, depth + 1)) {
            return true;
        }
    }
    return false;
}

static int narrow_function(Narrow *nw, LLVMValueRef fn)
{
    nw->nassumed = nw->ntrunc = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (is_call_to(i, "llvm.assume"))
                take_assume(nw, LLVMGetOperand(i, 0));
    int changed = 0;
    bool used_group_id = false;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(nw->ctx);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            if (!LLVMIsAICmpInst(i) || width(LLVMGetOperand(i, 0)) != 64)
                continue;
            LLVMValueRef x = LLVMGetOperand(i, 0), y = LLVMGetOperand(i, 1);
            if (LLVMIsAConstantInt(x) && LLVMIsAConstantInt(y))
                continue;
            bool assumed = false; /* the class's own facts stay as they are */
            for (LLVMUseRef u = LLVMGetFirstUse(i); u && !assumed; u = LLVMGetNextUse(u))
                assumed = is_call_to(LLVMGetUser(u), "llvm.assume");
            /* without narrow_guards, bounds checks only: a guard narrowed to 32 bits let ptxas move
             * diffusion2d's ctaid.x * ntid.x off the H200's uniform datapath, which cost its @inbounds
             * kernel 1 % (bench/RESULTS.md §15) */
            if (assumed || (!nw->guards && !feeds_check(nw, i, 0)))
                continue;
            nw->with_group_id = false;
            bool fits = fits32(range_of(nw, x, 0)) && fits32(range_of(nw, y, 0));
            if (!fits && nw->group_id) {
                nw->with_group_id = true;
                fits = fits32(range_of(nw, x, 0)) && fits32(range_of(nw, y, 0));
                used_group_id |= fits;
            }
            if (!fits)
                continue;
            LLVMValueRef x32 = low32(nw, x, fn, 0), y32 = low32(nw, y, fn, 0);
            LLVMPositionBuilderBefore(b, i);
            LLVMValueRef n = LLVMBuildICmp(b, LLVMGetICmpPredicate(i), x32, y32, "");
            LLVMReplaceAllUsesWith(i, n); /* the wide one is left to dce: no address of a memo key is reused */
            changed++;
        }
    }
    /* a check needed the small grid's fact: LLVM gets it too (the instcombine that follows narrows the index
     * arithmetic of the checks and addresses; measured on the H200: checked diffusion2d 2 % faster, where
     * the same in a kernel without checks, which needs it nowhere, cost 1 %) */
    if (used_group_id)
        mark_group_ids(nw, fn);
    LLVMDisposeBuilder(b);
    return changed;
}

int narrow_run(LLVMModuleRef mod, const char *group_id, bool guards)
{
    Narrow nw = { .ctx = LLVMGetModuleContext(mod), .group_id = group_id, .guards = guards };
    nw.md_range = LLVMGetMDKindIDInContext(nw.ctx, "range", 5);
    nw.md_prof = LLVMGetMDKindIDInContext(nw.ctx, "prof", 4);
    bool ok = true;
    for (int m = 0; m < 2; m++) {
        nw.memo[m].cap = 256;
        nw.memo[m].key = calloc(nw.memo[m].cap, sizeof *nw.memo[m].key);
        nw.memo[m].val = calloc(nw.memo[m].cap, sizeof *nw.memo[m].val);
        ok = ok && nw.memo[m].key && nw.memo[m].val;
    }
    int changed = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); ok && fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        changed += narrow_function(&nw, fn);
        for (int m = 0; m < 2; m++) { /* values of one function only */
            memset(nw.memo[m].key, 0, nw.memo[m].cap * sizeof *nw.memo[m].key);
            nw.memo[m].n = 0;
        }
    }
    for (int m = 0; m < 2; m++) {
        free(nw.memo[m].key);
        free(nw.memo[m].val);
    }
    return changed;
}

/* ---- a merged check's compares that others imply ----
 * checkopt.c merges a run of checks into one branch on the `or` of their conditions; a stencil's
 * A[ix, iy+1], A[ix+1, iy+1], A[ix+2, iy+1] give three compares of one index against one size, of which the
 * one of the largest offset fails whenever another does, and the guard `iy ∈ axes(A_new, 2)` before it makes
 * the store's check false. In the 32-bit class the launch's facts bound every index exactly (no wrap flag is
 * trusted: a compare merged here runs whatever the earlier checks decided), so such a compare can leave the
 * merged `or`. The cold path keeps every check's own compare and record (checkopt.c's dispatch blocks), so
 * the error is exactly as before. Measured on the H200: checked diffusion2d Float32 1.049× of @inbounds to
 * 1.026× (bench/RESULTS.md §19b). */

enum { LIN_TERMS = 4, LEAF_MAX = 32, GUARD_MAX = 16, GUARD_UP = 8 };

/* v as the exact sum of terms (opaque values) and a constant, when every add on the way wraps nowhere. */
typedef struct Lin {
    LLVMValueRef term[LIN_TERMS];
    int n;
    int64_t c;
    bool ok;
} Lin;

static void lin_add(Narrow *nw, LLVMValueRef v, Lin *l, int depth)
{
    if (!l->ok)
        return;
    if (LLVMIsAConstantInt(v)) {
        l->c += LLVMConstIntGetSExtValue(v);
        return;
    }
    Range f = full(width(v));
    if (LLVMIsAInstruction(v) && depth < DEPTH) {
        LLVMValueRef a = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
        switch (LLVMGetInstructionOpcode(v)) {
        case LLVMAdd: {
            Range x = range_of(nw, a, 0), y = range_of(nw, LLVMGetOperand(v, 1), 0);
            /* exact, and its nuw (if any) holds: a negative addend would make it poison */
            if ((__int128)x.lo + y.lo >= f.lo && (__int128)x.hi + y.hi <= f.hi &&
                (!LLVMGetNUW(v) || (x.lo >= 0 && y.lo >= 0))) {
                lin_add(nw, a, l, depth + 1);
                lin_add(nw, LLVMGetOperand(v, 1), l, depth + 1);
                return;
            }
            break;
        }
        case LLVMZExt:
            if (range_of(nw, a, 0).lo >= 0) {
                lin_add(nw, a, l, depth + 1);
                return;
            }
            break;
        case LLVMSExt: lin_add(nw, a, l, depth + 1); return;
        case LLVMTrunc: {
            Range s = range_of(nw, a, 0);
            if (s.lo >= f.lo && s.hi <= f.hi) {
                lin_add(nw, a, l, depth + 1);
                return;
            }
            break;
        }
        default: break;
        }
    }
    if (l->n == LIN_TERMS) {
        l->ok = false;
        return;
    }
    int i = l->n++;
    while (i > 0 && (uintptr_t)l->term[i - 1] > (uintptr_t)v) { /* sorted: equal sums have equal arrays */
        l->term[i] = l->term[i - 1];
        i--;
    }
    l->term[i] = v;
}

static Lin lin_of(Narrow *nw, LLVMValueRef v)
{
    Lin l = { .ok = true };
    lin_add(nw, v, &l, 0);
    return l;
}

/* Whether a and b have the same terms; *d = b - a (their constants' difference). */
static bool lin_diff(const Lin *a, const Lin *b, int64_t *d)
{
    if (!a->ok || !b->ok || a->n != b->n || (a->c > 0 && b->c < INT64_MIN + a->c) ||
        (a->c < 0 && b->c > INT64_MAX + a->c))
        return false;
    for (int i = 0; i < a->n; i++)
        if (a->term[i] != b->term[i])
            return false;
    *d = b->c - a->c;
    return true;
}

/* A merged check's compare `x >=u n` (or `n <=u x`), both non-negative: the exact relation x >= n. */
typedef struct Leaf {
    LLVMValueRef v; /* the or's operand (the compare, or its freeze) */
    Lin x, n;
    bool cmp, drop;
} Leaf;

static void collect_leaves(LLVMValueRef v, bool frozen, LLVMValueRef *out, bool *out_frozen, int *n, int depth)
{
    bool is_or = LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMOr;
    LLVMValueRef in = LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMFreeze ? LLVMGetOperand(v, 0) : NULL;
    if (is_or && depth < DEPTH) {
        collect_leaves(LLVMGetOperand(v, 0), frozen, out, out_frozen, n, depth + 1);
        collect_leaves(LLVMGetOperand(v, 1), frozen, out, out_frozen, n, depth + 1);
    } else if (in && LLVMIsAInstruction(in) && LLVMGetInstructionOpcode(in) == LLVMOr && depth < DEPTH) {
        /* a later check of two indices: freeze (a | b), each part frozen alone when rebuilt */
        collect_leaves(in, true, out, out_frozen, n, depth + 1);
    } else if (*n < LEAF_MAX) {
        out_frozen[*n] = frozen;
        out[(*n)++] = v;
    } else {
        *n = LEAF_MAX + 1; /* too many: leave the check alone */
    }
}

/* The compare `x >=u n` that leaf l decides, when both sides are known non-negative. */
static bool leaf_of(Narrow *nw, LLVMValueRef v, Leaf *l)
{
    l->v = v;
    l->cmp = l->drop = false;
    if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMFreeze)
        v = LLVMGetOperand(v, 0);
    if (!LLVMIsAICmpInst(v))
        return false;
    LLVMIntPredicate p = LLVMGetICmpPredicate(v);
    LLVMValueRef x = LLVMGetOperand(v, 0), n = LLVMGetOperand(v, 1);
    if (p == LLVMIntULE) {
        LLVMValueRef t = x;
        x = n;
        n = t;
    } else if (p != LLVMIntUGE) {
        return false;
    }
    if (range_of(nw, x, 0).lo < 0 || range_of(nw, n, 0).lo < 0)
        return false;
    l->x = lin_of(nw, x);
    l->n = lin_of(nw, n);
    l->cmp = l->x.ok && l->n.ok;
    return l->cmp;
}

/* A fact `p <= m` (exact, both sides' sums) that holds where a branch from block `from` lands on `to`. */
typedef struct Guard {
    Lin p, m;
} Guard;

static void guard_facts(Narrow *nw, LLVMValueRef c, bool val, Guard *g, int *n, int depth)
{
    if (!LLVMIsAInstruction(c) || depth > DEPTH || *n >= GUARD_MAX)
        return;
    LLVMOpcode op = LLVMGetInstructionOpcode(c);
    if (op == LLVMAnd && val) {
        guard_facts(nw, LLVMGetOperand(c, 0), true, g, n, depth + 1);
        guard_facts(nw, LLVMGetOperand(c, 1), true, g, n, depth + 1);
        return;
    }
    if (op == LLVMSelect && val) { /* a && b as select a, b, false */
        LLVMValueRef f = LLVMGetOperand(c, 2);
        if (LLVMIsAConstantInt(f) && LLVMConstIntGetZExtValue(f) == 0) {
            guard_facts(nw, LLVMGetOperand(c, 0), true, g, n, depth + 1);
            guard_facts(nw, LLVMGetOperand(c, 1), true, g, n, depth + 1);
        }
        return;
    }
    if (op != LLVMICmp)
        return;
    LLVMIntPredicate p = LLVMGetICmpPredicate(c);
    LLVMValueRef a = LLVMGetOperand(c, 0), b = LLVMGetOperand(c, 1);
    if (!val) { /* not (a < b) is b <= a, and so on */
        switch (p) {
        case LLVMIntSLT: p = LLVMIntSGE; break;
        case LLVMIntSLE: p = LLVMIntSGT; break;
        case LLVMIntSGT: p = LLVMIntSLE; break;
        case LLVMIntSGE: p = LLVMIntSLT; break;
        case LLVMIntULT: p = LLVMIntUGE; break;
        case LLVMIntULE: p = LLVMIntUGT; break;
        case LLVMIntUGT: p = LLVMIntULE; break;
        case LLVMIntUGE: p = LLVMIntULT; break;
        default: return;
        }
    }
    if (p == LLVMIntSGT || p == LLVMIntSGE || p == LLVMIntUGT || p == LLVMIntUGE) {
        LLVMValueRef t = a;
        a = b;
        b = t;
        p = p == LLVMIntSGT ? LLVMIntSLT : p == LLVMIntSGE ? LLVMIntSLE : p == LLVMIntUGT ? LLVMIntULT : LLVMIntULE;
    }
    bool is_unsigned = p == LLVMIntULT || p == LLVMIntULE;
    if (!(p == LLVMIntSLT || p == LLVMIntSLE || is_unsigned))
        return;
    if (is_unsigned && (range_of(nw, a, 0).lo < 0 || range_of(nw, b, 0).lo < 0))
        return; /* the unsigned order is the exact one only for non-negative values */
    Guard f = { lin_of(nw, a), lin_of(nw, b) };
    if (!f.p.ok || !f.m.ok)
        return;
    if (p == LLVMIntSLT || p == LLVMIntULT) { /* a < b: a + 1 <= b */
        if (f.p.c == INT64_MAX)
            return;
        f.p.c++;
    }
    g[(*n)++] = f;
}

/* The block whose terminator alone branches to b, or NULL. */
static LLVMBasicBlockRef only_pred(LLVMValueRef fn, LLVMBasicBlockRef b)
{
    LLVMBasicBlockRef found = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++)
            if (LLVMGetSuccessor(t, s) == b) {
                if (found && found != bb)
                    return NULL;
                found = bb;
            }
    }
    return found;
}

/* The facts of the conditional branches on the chain of single predecessors above block b. */
static int guards_above(Narrow *nw, LLVMValueRef fn, LLVMBasicBlockRef b, Guard *g)
{
    int n = 0;
    for (int up = 0; up < GUARD_UP; up++) {
        LLVMBasicBlockRef p = only_pred(fn, b);
        LLVMValueRef t = p ? LLVMGetBasicBlockTerminator(p) : NULL;
        if (!t)
            break;
        if (LLVMIsABranchInst(t) && LLVMIsConditional(t) && LLVMGetSuccessor(t, 0) != LLVMGetSuccessor(t, 1))
            guard_facts(nw, LLVMGetCondition(t), LLVMGetSuccessor(t, 0) == b, g, &n, 0);
        b = p;
    }
    return n;
}

/* Whether br is a check whose true edge is the cold one (checkopt.c's merged form). */
static bool cold_on_true(Narrow *nw, LLVMValueRef br)
{
    if (!LLVMIsABranchInst(br) || !LLVMIsConditional(br))
        return false;
    LLVMValueRef md = LLVMGetMetadata(br, nw->md_prof);
    if (!md || LLVMGetMDNodeNumOperands(md) != 3)
        return false;
    LLVMValueRef ops[3];
    LLVMGetMDNodeOperands(md, ops);
    uint64_t w0 = LLVMIsAConstantInt(ops[1]) ? LLVMConstIntGetZExtValue(ops[1]) : 0;
    uint64_t w1 = LLVMIsAConstantInt(ops[2]) ? LLVMConstIntGetZExtValue(ops[2]) : 0;
    return w0 == 1 && w1 == 1u << 20;
}

static int drop_implied_function(Narrow *nw, LLVMValueRef fn, LLVMBuilderRef bld)
{
    nw->nassumed = nw->ntrunc = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (is_call_to(i, "llvm.assume"))
                take_assume(nw, LLVMGetOperand(i, 0));
    int dropped = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
        if (!br || !cold_on_true(nw, br))
            continue;
        LLVMValueRef cond = LLVMGetCondition(br), vs[LEAF_MAX];
        bool frozen[LEAF_MAX];
        int n = 0;
        collect_leaves(cond, false, vs, frozen, &n, 0);
        if (n < 2 || n > LEAF_MAX)
            continue;
        Leaf lf[LEAF_MAX];
        for (int i = 0; i < n; i++)
            leaf_of(nw, vs[i], &lf[i]);
        Guard g[GUARD_MAX];
        int ng = guards_above(nw, fn, bb, g);
        int kept = n;
        for (int i = 0; i < n; i++) {
            if (!lf[i].cmp)
                continue;
            int64_t d;
            /* false where the guards hold: x <= p - d' <= m - d' with p <= m, n == m, d' >= 1 */
            for (int k = 0; k < ng && !lf[i].drop; k++)
                lf[i].drop = lin_diff(&lf[i].n, &g[k].m, &d) && d == 0 && lin_diff(&lf[i].x, &g[k].p, &d) && d >= 1;
            /* implied by another kept compare of one size: x >= n gives x + d >= n */
            for (int j = 0; j < n && !lf[i].drop; j++)
                lf[i].drop = j != i && lf[j].cmp && !lf[j].drop && lin_diff(&lf[i].n, &lf[j].n, &d) && d == 0 &&
                             lin_diff(&lf[i].x, &lf[j].x, &d) && (d > 0 || (d == 0 && j < i));
            kept -= lf[i].drop;
        }
        if (kept == n)
            continue;
        LLVMPositionBuilderBefore(bld, br);
        LLVMValueRef c = NULL;
        for (int i = 0; i < n; i++) {
            if (lf[i].drop)
                continue;
            LLVMValueRef v = frozen[i] ? LLVMBuildFreeze(bld, lf[i].v, "") : lf[i].v;
            c = c ? LLVMBuildOr(bld, c, v, "") : v;
        }
        LLVMSetCondition(br, c ? c : LLVMConstInt(LLVMInt1TypeInContext(nw->ctx), 0, 0));
        dropped += n - kept;
    }
    return dropped;
}

int narrow_drop_implied(LLVMModuleRef mod, const char *group_id)
{
    Narrow nw = {
        .ctx = LLVMGetModuleContext(mod), .group_id = group_id, .with_group_id = group_id != NULL, .exact = true
    };
    nw.md_range = LLVMGetMDKindIDInContext(nw.ctx, "range", 5);
    nw.md_prof = LLVMGetMDKindIDInContext(nw.ctx, "prof", 4);
    Memo *m = &nw.memo[nw.with_group_id];
    m->cap = 256;
    m->key = calloc(m->cap, sizeof *m->key);
    m->val = calloc(m->cap, sizeof *m->val);
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(nw.ctx);
    int dropped = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); m->key && m->val && fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        dropped += drop_implied_function(&nw, fn, bld);
        memset(m->key, 0, m->cap * sizeof *m->key);
        m->n = 0;
    }
    LLVMDisposeBuilder(bld);
    free(m->key);
    free(m->val);
    return dropped;
}
