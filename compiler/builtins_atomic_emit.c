/* builtins_atomic_emit.c: emit rules (LLVM IR) of atomics (rows in builtins.def).
 * LLVM-C 19 cannot set an atomic's sync scope, so each atomic is a tiny always-inline helper parsed from IR
 * text with syncscope("agent") on GPUs. */
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <string.h>

#include "codegen_impl.h"

/* The syncscope clause of a device-wide atomic on this target ("" for LLVM's
 * default, the system scope), from the target's row in targets.c. */
void atomic_scope(CG *g, char *buf, size_t n)
{
    const char *scope = target_by_kind(g->tc->opts->kind)->atomic_scope;
    if (scope && *scope)
        snprintf(buf, n, "syncscope(\"%s\")", scope);
    else
        buf[0] = 0;
}

LLVMValueRef atomic_helper(CG *g, const char *name, const char *text)
{
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (fn)
        return fn;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "atomic");
    LLVMModuleRef m2 = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(g->ctx, buf, &m2, &msg)) {
        diag_plain(g->d, DIAG_INTERNAL, "atomic helper: %s", msg ? msg : "parse error");
        LLVMDisposeMessage(msg);
        g->failed = true;
        return NULL;
    }
    LLVMSetDataLayout(m2, LLVMGetDataLayoutStr(g->mod));
    LLVMSetTarget(m2, LLVMGetTarget(g->mod));
    LLVMLinkModules2(g->mod, m2);
    fn = LLVMGetNamedFunction(g->mod, name);
    if (fn)
        LLVMSetLinkage(fn, LLVMInternalLinkage);
    return fn;
}

static LLVMValueRef atomic_float_minmax(CG *g, bool max, const Type *elem, unsigned as, LLVMValueRef p, LLVMValueRef v);

/* atomicrmw `op` on the element at p (address space as); returns the old value. */
static LLVMValueRef atomic_rmw(CG *g, BuiltinId id, const Type *elem, unsigned as, LLVMValueRef p, LLVMValueRef v)
{
    bool fl = ty_is_float(elem), sg = ty_is_signed(elem);
    if (fl && (id == BI_ATOMIC_MAX || id == BI_ATOMIC_MIN))
        return atomic_float_minmax(g, id == BI_ATOMIC_MAX, elem, as, p, v);
    const char *op;
    switch (id) {
    case BI_ATOMIC_ADD: op = fl ? "fadd" : "add"; break;
    case BI_ATOMIC_SUB: op = fl ? "fsub" : "sub"; break;
    case BI_ATOMIC_AND: op = "and"; break;
    case BI_ATOMIC_OR: op = "or"; break;
    case BI_ATOMIC_XOR: op = "xor"; break;
    case BI_ATOMIC_MAX: op = sg ? "max" : "umax"; break; /* floats: atomic_float_minmax */
    case BI_ATOMIC_MIN: op = sg ? "min" : "umin"; break;
    case BI_ATOMIC_INC: op = "uinc_wrap"; break;
    case BI_ATOMIC_DEC: op = "udec_wrap"; break;
    default: op = "xchg"; break;
    }
    char *tyname = LLVMPrintTypeToString(mem_t(g, elem));
    char name[128], text[1024];
    snprintf(name, sizeof name, "__juke_atomic_%s_%s_as%u", op, tyname, as);
    char scope[64];
    atomic_scope(g, scope, sizeof scope);
    snprintf(text, sizeof text,
             "define hidden %s @%s(ptr addrspace(%u) %%p, %s %%v) alwaysinline {\n"
             "  %%o = atomicrmw %s ptr addrspace(%u) %%p, %s %%v %s monotonic, align %u\n"
             "  ret %s %%o\n}\n",
             tyname, name, as, tyname, op, as, tyname, scope, elem_align(elem), tyname);
    LLVMDisposeMessage(tyname);
    LLVMValueRef fn = atomic_helper(g, name, text);
    if (!fn)
        return LLVMGetUndef(prim_t(g, elem));
    LLVMTypeRef pt[2] = { LLVMPointerTypeInContext(g->ctx, as), mem_t(g, elem) };
    LLVMTypeRef fty = LLVMFunctionType(mem_t(g, elem), pt, 2, 0);
    LLVMValueRef cargs[2] = { p, to_mem(g, v, elem) };
    return from_mem(g, LLVMBuildCall2(g->b, fty, fn, cargs, 2, ""), elem);
}

/* atomic_cas!(p, cmp, new): cmpxchg on the element's bits (floats compare
 * bitwise, as AMDGPU.jl does); returns the old value. */
static LLVMValueRef atomic_cas(CG *g, const Type *elem, unsigned as, LLVMValueRef p, LLVMValueRef cmp, LLVMValueRef nv)
{
    LLVMTypeRef ity = LLVMIntTypeInContext(g->ctx, elem->kind == TY_BOOL ? 8 : (unsigned)elem->bits);
    char name[128], text[1024];
    unsigned bits = LLVMGetIntTypeWidth(ity);
    snprintf(name, sizeof name, "__juke_atomic_cas_i%u_as%u", bits, as);
    char scope[64];
    atomic_scope(g, scope, sizeof scope);
    snprintf(text, sizeof text,
             "define hidden i%u @%s(ptr addrspace(%u) %%p, i%u %%c, i%u %%n) alwaysinline {\n"
             "  %%r = cmpxchg ptr addrspace(%u) %%p, i%u %%c, i%u %%n %s monotonic monotonic, align %u\n"
             "  %%o = extractvalue { i%u, i1 } %%r, 0\n"
             "  ret i%u %%o\n}\n",
             bits, name, as, bits, bits, as, bits, bits, scope, elem_align(elem), bits, bits);
    LLVMValueRef fn = atomic_helper(g, name, text);
    if (!fn)
        return LLVMGetUndef(prim_t(g, elem));
    LLVMValueRef c = to_mem(g, cmp, elem), n = to_mem(g, nv, elem);
    if (ty_is_float(elem)) {
        c = LLVMBuildBitCast(g->b, c, ity, "");
        n = LLVMBuildBitCast(g->b, n, ity, "");
    }
    LLVMTypeRef pt[3] = { LLVMPointerTypeInContext(g->ctx, as), ity, ity };
    LLVMValueRef cargs[3] = { p, c, n };
    LLVMValueRef old = LLVMBuildCall2(g->b, LLVMFunctionType(ity, pt, 3, 0), fn, cargs, 3, "");
    if (ty_is_float(elem))
        old = LLVMBuildBitCast(g->b, old, prim_t(g, elem), "");
    return from_mem(g, old, elem);
}

/* Julia's max or min of the float at p and v, stored atomically: a compare-and-swap loop around float_min_max
 * (NaN wins, -0.0 < 0.0), where atomicrmw fmax/fmin are maxnum/minnum, which drop a NaN and let either zero
 * win. Returns the old value. */
static LLVMValueRef atomic_float_minmax(CG *g, bool max, const Type *elem, unsigned as, LLVMValueRef p, LLVMValueRef v)
{
    LLVMTypeRef ft = prim_t(g, elem), it = LLVMIntTypeInContext(g->ctx, (unsigned)elem->bits);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "fminmax.loop");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "fminmax.done");
    LLVMValueRef first = LLVMBuildLoad2(g->b, ft, p, ""); /* a guess: the exchange checks it */
    LLVMBuildBr(g->b, loop);
    LLVMPositionBuilderAtEnd(g->b, loop);
    LLVMValueRef old = LLVMBuildPhi(g->b, ft, "");
    LLVMValueRef got = atomic_cas(g, elem, as, p, old, float_min_max(g, max, elem, old, v));
    LLVMValueRef same =
        LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildBitCast(g->b, got, it, ""), LLVMBuildBitCast(g->b, old, it, ""), "");
    LLVMBasicBlockRef end = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(old, &first, &pre, 1);
    LLVMAddIncoming(old, &got, &end, 1);
    LLVMBuildCondBr(g->b, same, done, loop);
    LLVMPositionBuilderAtEnd(g->b, done);
    return old;
}

/* AMDGPU.@atomic A[i] op= v (returns the new value) and the pointer API
 * atomic_add!(pointer(A, i), v) (returns the old one, as AMDGPU.jl does). */
LLVMValueRef emit_atomic_rmw(CG *g, IrInst *in)
{
    const Type *at = aty(g, in, 0), *elem = at->elem;
    int n = in->nargs - 1;
    LLVMValueRef v = conv_checked(g, arg(g, in, n - 1), aty(g, in, n - 1), elem, in->loc);
    if (at->kind == TY_PTR)
        return atomic_rmw(g, in->builtin, elem, ptr_as(g, at), arg(g, in, 0), v);
    LLVMValueRef p = elem_ptr(g, in, at, arg(g, in, 0), 1, n - 2, (in->flags & IRF_INBOUNDS) != 0);
    unsigned as = at->kind == TY_ARRAY ? g->ops->as_global : g->ops->as_local;
    LLVMValueRef old = atomic_rmw(g, in->builtin, elem, as, p, v);
    bool fl = ty_is_float(elem), sg = ty_is_signed(elem);
    /* the value after the update */
    switch (in->builtin) {
    case BI_ATOMIC_ADD: return fl ? LLVMBuildFAdd(g->b, old, v, "") : LLVMBuildAdd(g->b, old, v, "");
    case BI_ATOMIC_SUB: return fl ? LLVMBuildFSub(g->b, old, v, "") : LLVMBuildSub(g->b, old, v, "");
    case BI_ATOMIC_AND: return LLVMBuildAnd(g->b, old, v, "");
    case BI_ATOMIC_OR: return LLVMBuildOr(g->b, old, v, "");
    case BI_ATOMIC_XOR: return LLVMBuildXor(g->b, old, v, "");
    case BI_ATOMIC_MAX:
        return fl ? float_min_max(g, true, elem, old, v)
                  : LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, sg ? LLVMIntSGT : LLVMIntUGT, old, v, ""), old, v, "");
    case BI_ATOMIC_MIN:
        return fl ? float_min_max(g, false, elem, old, v)
                  : LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, sg ? LLVMIntSLT : LLVMIntULT, old, v, ""), old, v, "");
    default: return v;
    }
}

/* The LLVM value of `atomic_cas!`. */
LLVMValueRef emit_atomic_cas(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    const Type *pt = aty(g, in, 0);
    LLVMValueRef c = conv_checked(g, arg(g, in, 1), aty(g, in, 1), t, in->loc);
    LLVMValueRef nv = conv_checked(g, arg(g, in, 2), aty(g, in, 2), t, in->loc);
    return atomic_cas(g, t, ptr_as(g, pt), arg(g, in, 0), c, nv);
}

/* fence(order, scope): LLVM's fence. Only AMDGPU narrows it to the scope (wavefront, workgroup, agent); NVPTX and
 * the CPU fence the whole system, which orders at least as much. */
LLVMValueRef emit_fence(CG *g, IrInst *in)
{
    const char *order = atomic_tag(aty(g, in, 0), "AtomicOrdering");
    const char *scope = atomic_tag(aty(g, in, 1), "SyncScope");
    const TargetInfo *ti = target_by_kind(g->tc->opts->kind);
    bool scoped = ti && ti->atomic_scope && *ti->atomic_scope && strcmp(scope, "system") != 0;
    char name[96], text[512], clause[64] = "";
    if (scoped)
        snprintf(clause, sizeof clause, "syncscope(\"%s\") ", scope);
    snprintf(name, sizeof name, "__juke_fence_%s_%s", order, scoped ? scope : "system");
    snprintf(text, sizeof text, "define hidden void @%s() alwaysinline {\n  fence %s%s\n  ret void\n}\n", name, clause,
             order);
    LLVMValueRef fn = atomic_helper(g, name, text);
    if (fn)
        LLVMBuildCall2(g->b, LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), NULL, 0, 0), fn, NULL, 0, "");
    return unit_v(g);
}

/* UnsafeAtomics.load(ptr[, order]) / store!(ptr, x[, order]): LLVM's atomic load and store of that ordering
 * (system scope: at least as strong as any narrower one), naturally aligned. */
LLVMValueRef emit_atomic_load_store(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    bool store = in->builtin == BI_ATOMIC_STORE;
    int nv = store ? 2 : 1;
    const char *o = in->nargs - 1 > nv ? atomic_tag(aty(g, in, nv), "AtomicOrdering") : "seq_cst";
    LLVMAtomicOrdering ord = strcmp(o, "unordered") == 0   ? LLVMAtomicOrderingUnordered
                             : strcmp(o, "monotonic") == 0 ? LLVMAtomicOrderingMonotonic
                             : strcmp(o, "acquire") == 0   ? LLVMAtomicOrderingAcquire
                             : strcmp(o, "release") == 0   ? LLVMAtomicOrderingRelease
                                                           : LLVMAtomicOrderingSequentiallyConsistent;
    unsigned align = elem_align(t);
    if (!store) {
        LLVMValueRef v = LLVMBuildLoad2(g->b, mem_t(g, t), arg(g, in, 0), "");
        LLVMSetOrdering(v, ord);
        LLVMSetAlignment(v, align);
        return from_mem(g, v, t);
    }
    LLVMValueRef v = conv_checked(g, arg(g, in, 1), aty(g, in, 1), t, in->loc);
    LLVMValueRef st = LLVMBuildStore(g->b, to_mem(g, v, t), arg(g, in, 0));
    LLVMSetOrdering(st, ord);
    LLVMSetAlignment(st, align);
    return unit_v(g);
}
