/* addr32.c: element addresses of the 32-bit class formed from one 32-bit
 * index widened once, a pass of juke's own over the optimised LLVM IR of a
 * launch-class variant on NVPTX (llvm_optimize runs it last, after narrow.c:
 * no pass after it infers wrap flags).
 *
 * Codegen marks each kernel parameter that is a device array of the 32-bit
 * class with two or more dimensions (ADDR32_ATTR: its element size). Every
 * access to it is checked or under @inbounds, so its element index lies in
 * [0, length), and length < 2^31; an address from pointer(A) may lie
 * anywhere, so a module that takes one is left alone (ADDR32_RAW). A load's
 * element index may not survive -O3 as one value (instcombine splits GEPs,
 * GVN merges loads and drops unknown metadata), but its address is still a
 * chain of GEPs from the array's data pointer, whose offset divided by the
 * element size (rounded down) is that index. Julia's index
 * arithmetic is 64-bit, and LLVM's NVPTX code generation
 * (SeparateConstOffsetFromGEP) splits a zero-extended `row * dim + x` back
 * into 64-bit adds wherever the add is nuw: each row then costs a 64-bit add
 * pair besides its multiply, and x a 64-bit shift and add. nvcc forms
 * `row * dim + x` in 32 bits and widens it in the one IMAD.WIDE that adds
 * the base. This pass does the same: the access's address is rebuilt from
 * the low 32 bits of the element index (add, sub, mul, shl, the bitwise
 * operations and the extensions act on low halves alone), with no wrap flags, so no later pass traces into it, and its
 * constant part in a GEP of its own, which folds into the load's immediate
 * offset. As the index is in [0, 2^31), sign-extending the low half of
 * (index - c), 0 <= c < 2^31, gives back index - c: the address is the same
 * bit for bit.
 *
 * Requires: verified IR; keeps it valid (the old GEPs are left to dce). */
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addr32.h"

enum { DEPTH = 24, MEMO_MAX = 128 };

/* A value's low 32 bits as var + c (mod 2^32); var NULL stands for 0. */
typedef struct Lin {
    LLVMValueRef var;
    uint32_t c;
} Lin;

typedef struct Addr32 {
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTypeRef i32;
    LLVMValueRef key[MEMO_MAX]; /* what this block has already rebuilt */
    Lin val[MEMO_MAX];
    int nmemo;
} Addr32;

static unsigned width(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

static LLVMValueRef c32(Addr32 *a, uint32_t c)
{
    return LLVMConstInt(a->i32, c, 0);
}

/* l as one i32 value */
static LLVMValueRef whole(Addr32 *a, Lin l)
{
    if (!l.var)
        return c32(a, l.c);
    return l.c ? LLVMBuildAdd(a->b, l.var, c32(a, l.c), "") : l.var;
}

static LLVMValueRef add_var(Addr32 *a, LLVMValueRef x, LLVMValueRef y)
{
    return !x ? y : !y ? x : LLVMBuildAdd(a->b, x, y, "");
}

/* v itself as a 32-bit leaf: its low half */
static Lin leaf(Addr32 *a, LLVMValueRef v)
{
    return (Lin){ width(v) > 32 ? LLVMBuildTrunc(a->b, v, a->i32, "") : v, 0 };
}

static Lin low32(Addr32 *a, LLVMValueRef v, int depth);

static Lin low32_op(Addr32 *a, LLVMValueRef v, int depth)
{
    LLVMValueRef x = LLVMGetOperand(v, 0), y = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAnd:
        if (LLVMIsAConstantInt(y) && (uint32_t)LLVMConstIntGetZExtValue(y) == UINT32_MAX)
            return low32(a, x, depth + 1); /* a zero extension of the low half */
        /* bitwise: of the low halves */
        __attribute__((fallthrough));
    case LLVMXor:
        return (Lin){ LLVMBuildBinOp(a->b, LLVMGetInstructionOpcode(v), whole(a, low32(a, x, depth + 1)),
                                     whole(a, low32(a, y, depth + 1)), ""),
                      0 };
    case LLVMOr:
        if (!LLVMGetIsDisjoint(v))
            return (Lin){ LLVMBuildOr(a->b, whole(a, low32(a, x, depth + 1)), whole(a, low32(a, y, depth + 1)), ""),
                          0 };
        /* a disjoint or is an add */
        __attribute__((fallthrough));
    case LLVMAdd: {
        Lin l = low32(a, x, depth + 1), r = low32(a, y, depth + 1);
        return (Lin){ add_var(a, l.var, r.var), l.c + r.c };
    }
    case LLVMSub: {
        Lin l = low32(a, x, depth + 1), r = low32(a, y, depth + 1);
        LLVMValueRef var = !r.var ? l.var : LLVMBuildSub(a->b, l.var ? l.var : c32(a, 0), r.var, "");
        return (Lin){ var, l.c - r.c };
    }
    case LLVMShl:
        if (!LLVMIsAConstantInt(y) || LLVMConstIntGetZExtValue(y) >= 32)
            return leaf(a, v);
        y = LLVMConstInt(LLVMTypeOf(x), 1ull << LLVMConstIntGetZExtValue(y), 0);
        /* a multiply by 2^k */
        __attribute__((fallthrough));
    case LLVMMul: {
        Lin l = low32(a, x, depth + 1), r = low32(a, y, depth + 1);
        if (!l.var || !r.var) { /* a constant factor distributes over var + c */
            Lin k = l.var ? r : l, o = l.var ? l : r;
            return (Lin){ o.var ? LLVMBuildMul(a->b, o.var, c32(a, k.c), "") : NULL, o.c * k.c };
        }
        return (Lin){ LLVMBuildMul(a->b, whole(a, l), whole(a, r), ""), 0 };
    }
    case LLVMZExt:
    case LLVMSExt:
        if (width(x) == 32)
            return low32(a, x, depth + 1);
        return (Lin){ LLVMGetInstructionOpcode(v) == LLVMZExt ? LLVMBuildZExt(a->b, x, a->i32, "")
                                                              : LLVMBuildSExt(a->b, x, a->i32, ""),
                      0 };
    case LLVMTrunc: return width(x) >= 32 ? low32(a, x, depth + 1) : leaf(a, v);
    case LLVMSelect: {
        Lin l = low32(a, y, depth + 1), r = low32(a, LLVMGetOperand(v, 2), depth + 1);
        return (Lin){ LLVMBuildSelect(a->b, x, whole(a, l), whole(a, r), ""), 0 };
    }
    default: return leaf(a, v);
    }
}

/* v's low 32 bits (v of 32 or 64 bits), rebuilt before the builder's position from values that dominate it */
static Lin low32(Addr32 *a, LLVMValueRef v, int depth)
{
    if (LLVMIsAConstantInt(v))
        return (Lin){ NULL, (uint32_t)LLVMConstIntGetZExtValue(v) };
    if (!LLVMIsAInstruction(v) || depth > DEPTH)
        return leaf(a, v);
    for (int i = 0; i < a->nmemo; i++)
        if (a->key[i] == v)
            return a->val[i];
    Lin l = low32_op(a, v, depth);
    if (a->nmemo < MEMO_MAX) {
        a->key[a->nmemo] = v;
        a->val[a->nmemo++] = l;
    }
    return l;
}

/* The element size of the array whose data pointer p is: field 0 of a kernel parameter that codegen marked
 * (ADDR32_ATTR); 0 when p is no such pointer. */
static uint64_t array_elsize(LLVMValueRef p)
{
    if (!LLVMIsAExtractValueInst(p) || LLVMGetNumIndices(p) != 1 || LLVMGetIndices(p)[0] != 0)
        return 0;
    LLVMValueRef arg = LLVMGetOperand(p, 0);
    if (!LLVMIsAArgument(arg))
        return 0;
    LLVMValueRef fn = LLVMGetParamParent(arg);
    unsigned k = 0;
    for (LLVMValueRef q = LLVMGetFirstParam(fn); q && q != arg; q = LLVMGetNextParam(q))
        k++;
    LLVMAttributeRef at = LLVMGetStringAttributeAtIndex(fn, k + 1, ADDR32_ATTR, sizeof ADDR32_ATTR - 1);
    if (!at)
        return 0;
    unsigned n;
    const char *v = LLVMGetStringAttributeValue(at, &n);
    uint64_t size = 0;
    for (unsigned i = 0; i < n && v[i] >= '0' && v[i] <= '9'; i++)
        size = size * 10 + (uint64_t)(v[i] - '0');
    return size;
}

/* The address p of a load or store, rebuilt before it when it is a chain of one-index GEPs down to a marked
 * array's data pointer: in units of the element size s, the chain's offset is var + c + r/s (r the bytes left
 * of the constant part, 0 <= r < s), whose floor is the element index, in [0, 2^31). NULL: not such a chain. */
static LLVMValueRef rebuild(Addr32 *a, LLVMTargetDataRef td, LLVMValueRef p)
{
    LLVMValueRef gep[DEPTH];
    int n = 0;
    for (; LLVMIsAGetElementPtrInst(p) && LLVMGetNumOperands(p) == 2; p = LLVMGetOperand(p, 0)) {
        if (n == DEPTH)
            return NULL;
        gep[n++] = p;
    }
    uint64_t size = array_elsize(p);
    if (!n || !size)
        return NULL;
    LLVMTypeRef et = NULL; /* the element type of the variable indices */
    int64_t bytes = 0;     /* the constant indices' offset */
    for (int i = 0; i < n; i++) {
        LLVMTypeRef t = LLVMGetGEPSourceElementType(gep[i]);
        uint64_t s = LLVMTypeIsSized(t) ? LLVMABISizeOfType(td, t) : 0;
        LLVMValueRef k = LLVMGetOperand(gep[i], 1);
        if (LLVMIsAConstantInt(k)) {
            int64_t c = LLVMConstIntGetSExtValue(k);
            if (c > INT32_MAX || c < INT32_MIN || s > INT32_MAX)
                return NULL;
            bytes += c * (int64_t)s;
        } else if (s == size) {
            et = t;
        } else {
            return NULL; /* an index in other units than the array's elements */
        }
    }
    if (!et)
        return NULL; /* a constant address: nothing to form */
    int64_t q = bytes >= 0 ? bytes / (int64_t)size : -((-bytes + (int64_t)size - 1) / (int64_t)size);
    int64_t r = bytes - q * (int64_t)size;
    Lin sum = { NULL, (uint32_t)q };
    for (int i = n - 1; i >= 0; i--) {
        LLVMValueRef k = LLVMGetOperand(gep[i], 1);
        if (LLVMIsAConstantInt(k))
            continue;
        Lin l = low32(a, k, 0);
        sum = (Lin){ add_var(a, sum.var, l.var), sum.c + l.c };
    }
    if ((int32_t)sum.c < 0) { /* index - c would not fit: all of it in the variable part */
        sum.var = whole(a, sum);
        sum.c = 0;
    }
    LLVMTypeRef i64 = LLVMInt64TypeInContext(a->ctx);
    if (sum.var) { /* index - c may be negative: this one is not inbounds */
        LLVMValueRef k = LLVMBuildSExt(a->b, sum.var, i64, "");
        p = LLVMBuildGEP2(a->b, et, p, &k, 1, "");
    }
    if (sum.c) {
        LLVMValueRef k = LLVMConstInt(i64, sum.c, 0);
        p = LLVMBuildGEP2(a->b, et, p, &k, 1, "");
    }
    if (r) {
        LLVMValueRef k = LLVMConstInt(i64, (unsigned long long)r, 0);
        p = LLVMBuildGEP2(a->b, LLVMInt8TypeInContext(a->ctx), p, &k, 1, "");
    }
    return p;
}

static int addr32_function(Addr32 *a, LLVMTargetDataRef td, LLVMValueRef fn)
{
    int changed = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        a->nmemo = 0;
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(in);
            if (op != LLVMLoad && op != LLVMStore)
                continue;
            unsigned slot = op == LLVMLoad ? 0 : 1;
            LLVMPositionBuilderBefore(a->b, in);
            LLVMValueRef p = rebuild(a, td, LLVMGetOperand(in, slot));
            if (p) {
                LLVMSetOperand(in, slot, p);
                changed++;
            }
        }
    }
    return changed;
}

bool addr32_applies(LLVMModuleRef mod)
{
    if (LLVMGetNamedMetadataNumOperands(mod, ADDR32_RAW) > 0)
        return false;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        for (unsigned k = 0, n = LLVMCountParams(fn); k < n; k++)
            if (LLVMGetStringAttributeAtIndex(fn, k + 1, ADDR32_ATTR, sizeof ADDR32_ATTR - 1))
                return true;
    return false;
}

int addr32_run(LLVMModuleRef mod)
{
    if (LLVMGetNamedMetadataNumOperands(mod, ADDR32_RAW) > 0)
        return 0;
    Addr32 a = { .ctx = LLVMGetModuleContext(mod) };
    a.i32 = LLVMInt32TypeInContext(a.ctx);
    a.b = LLVMCreateBuilderInContext(a.ctx);
    int changed = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            changed += addr32_function(&a, LLVMGetModuleDataLayout(mod), fn);
    LLVMDisposeBuilder(a.b);
    return changed;
}
