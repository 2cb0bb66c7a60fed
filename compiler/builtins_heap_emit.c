/* builtins_heap_emit.c: emit rules (LLVM IR) of the device heap (rows in builtins.def). malloc and free are
 * lock-free functions of the module, parsed from IR text, over the heap runtime/abi.h lays out ("the device
 * heap"); the exception buffer says where the heap is. */
#include <stdio.h>

#include "abi.h"
#include "codegen_impl.h"

/* The module's malloc (which == BI_MALLOC) or free, and the marker that tells the runtime to give the code
 * object a heap. */
static LLVMValueRef heap_function(CG *g, BuiltinId which)
{
    unsigned as = g->ops->as_global;
    char scope[64], text[8192];
    atomic_scope(g, scope, sizeof scope);
    if (!LLVMGetNamedGlobal(g->mod, JUKE_HEAP_MARKER)) {
        LLVMValueRef mk = LLVMAddGlobalInAddressSpace(g->mod, i32(g), JUKE_HEAP_MARKER, as);
        LLVMSetInitializer(mk, ci32(g, 1));
        LLVMSetLinkage(mk, LLVMExternalLinkage);
        LLVMSetGlobalConstant(mk, 1);
    }
    if (which == BI_MALLOC) {
        /* the class: the least c with 16 << c >= n (a loop rather than ctlz, which juke's AMD emulator lacks); pop
         * its list, else cut a block at the top. The list head and the top are read with an atomic `or 0`, not a
         * load: every lane of a wave reads the same address, and LLVM takes a load from a uniform address to give
         * every lane one value (branching on it as a scalar), which holds on the GPU but not in an emulator that
         * runs the lanes one by one while other workgroups' threads change the heap; an atomic is per lane. */
        snprintf(text, sizeof text,
                 "define hidden ptr addrspace(%1$u) @__juke_malloc(ptr addrspace(%1$u) %%exc, i64 %%n) {\n"
                 "entry:\n"
                 "  %%hp = getelementptr i8, ptr addrspace(%1$u) %%exc, i64 %2$d\n"
                 "  %%heapi = load i64, ptr addrspace(%1$u) %%hp, align 8\n"
                 "  %%bp = getelementptr i8, ptr addrspace(%1$u) %%exc, i64 %3$d\n"
                 "  %%bytes = load i64, ptr addrspace(%1$u) %%bp, align 8\n"
                 "  %%noheap = icmp eq i64 %%heapi, 0\n"
                 "  br i1 %%noheap, label %%fail, label %%cls\n"
                 "cls:\n"
                 "  %%c = phi i64 [ 0, %%entry ], [ %%cn, %%clsnext ]\n"
                 "  %%csz = shl i64 16, %%c\n"
                 "  %%fits = icmp uge i64 %%csz, %%n\n"
                 "  br i1 %%fits, label %%start, label %%clsnext\n"
                 "clsnext:\n"
                 "  %%cn = add i64 %%c, 1\n"
                 "  %%big = icmp uge i64 %%cn, %4$d\n"
                 "  br i1 %%big, label %%fail, label %%cls\n"
                 "start:\n"
                 "  %%heap = inttoptr i64 %%heapi to ptr addrspace(%1$u)\n"
                 "  %%ho = shl i64 %%c, 3\n"
                 "  %%ho8 = add i64 %%ho, 8\n"
                 "  %%headp = getelementptr i8, ptr addrspace(%1$u) %%heap, i64 %%ho8\n"
                 "  br label %%pop\n"
                 "pop:\n"
                 "  %%h = atomicrmw or ptr addrspace(%1$u) %%headp, i64 0 %5$s acquire, align 8\n"
                 "  %%off = and i64 %%h, 4294967295\n"
                 "  %%empty = icmp eq i64 %%off, 0\n"
                 "  br i1 %%empty, label %%bump, label %%trypop\n"
                 "trypop:\n"
                 "  %%blk = getelementptr i8, ptr addrspace(%1$u) %%heap, i64 %%off\n"
                 "  %%nextp = getelementptr i8, ptr addrspace(%1$u) %%blk, i64 8\n"
                 "  %%next = load atomic i64, ptr addrspace(%1$u) %%nextp %5$s monotonic, align 8\n"
                 "  %%tag = lshr i64 %%h, 32\n"
                 "  %%tag1 = add i64 %%tag, 1\n"
                 "  %%tagh = shl i64 %%tag1, 32\n"
                 "  %%nh = or i64 %%tagh, %%next\n"
                 "  %%r = cmpxchg ptr addrspace(%1$u) %%headp, i64 %%h, i64 %%nh %5$s acq_rel acquire, align 8\n"
                 "  %%ok = extractvalue { i64, i1 } %%r, 1\n"
                 "  br i1 %%ok, label %%gotfree, label %%pop\n"
                 "gotfree:\n"
                 "  %%up = getelementptr i8, ptr addrspace(%1$u) %%blk, i64 16\n"
                 "  ret ptr addrspace(%1$u) %%up\n"
                 "bump:\n"
                 "  %%sz = shl i64 16, %%c\n"
                 "  %%need = add i64 %%sz, 16\n"
                 "  br label %%cut\n"
                 "cut:\n"
                 "  %%t = atomicrmw or ptr addrspace(%1$u) %%heap, i64 0 %5$s monotonic, align 8\n"
                 "  %%nt = add i64 %%t, %%need\n"
                 "  %%over = icmp ugt i64 %%nt, %%bytes\n"
                 "  br i1 %%over, label %%fail, label %%trycut\n"
                 "trycut:\n"
                 "  %%r2 = cmpxchg ptr addrspace(%1$u) %%heap, i64 %%t, i64 %%nt %5$s monotonic monotonic, align 8\n"
                 "  %%ok2 = extractvalue { i64, i1 } %%r2, 1\n"
                 "  br i1 %%ok2, label %%gotnew, label %%cut\n"
                 "gotnew:\n"
                 "  %%nb = getelementptr i8, ptr addrspace(%1$u) %%heap, i64 %%t\n"
                 "  store i64 %%c, ptr addrspace(%1$u) %%nb, align 8\n"
                 "  %%up2 = getelementptr i8, ptr addrspace(%1$u) %%nb, i64 16\n"
                 "  ret ptr addrspace(%1$u) %%up2\n"
                 "fail:\n"
                 "  ret ptr addrspace(%1$u) null\n"
                 "}\n",
                 as, JUKE_HEAP_DESC_OFFSET, JUKE_HEAP_DESC_OFFSET + 8, JUKE_HEAP_CLASSES, scope);
        return atomic_helper(g, "__juke_malloc", text);
    }
    /* free: NULL and pointers outside the heap's blocks do nothing; push the block onto its class's list */
    snprintf(text, sizeof text,
             "define hidden void @__juke_free(ptr addrspace(%1$u) %%exc, ptr addrspace(%1$u) %%p) {\n"
             "entry:\n"
             "  %%hp = getelementptr i8, ptr addrspace(%1$u) %%exc, i64 %2$d\n"
             "  %%heapi = load i64, ptr addrspace(%1$u) %%hp, align 8\n"
             "  %%bp = getelementptr i8, ptr addrspace(%1$u) %%exc, i64 %3$d\n"
             "  %%bytes = load i64, ptr addrspace(%1$u) %%bp, align 8\n"
             "  %%pi = ptrtoint ptr addrspace(%1$u) %%p to i64\n"
             "  %%blki = sub i64 %%pi, 16\n"
             "  %%off = sub i64 %%blki, %%heapi\n"
             "  %%rel = sub i64 %%off, %4$d\n"
             "  %%span = sub i64 %%bytes, %4$d\n"
             "  %%out = icmp uge i64 %%rel, %%span\n"
             "  %%null = icmp eq i64 %%pi, 0\n"
             "  %%skip = or i1 %%out, %%null\n"
             "  br i1 %%skip, label %%done, label %%go\n"
             "go:\n"
             "  %%heap = inttoptr i64 %%heapi to ptr addrspace(%1$u)\n"
             "  %%blk = getelementptr i8, ptr addrspace(%1$u) %%heap, i64 %%off\n"
             "  %%c = load i64, ptr addrspace(%1$u) %%blk, align 8\n"
             "  %%ho = shl i64 %%c, 3\n"
             "  %%ho8 = add i64 %%ho, 8\n"
             "  %%headp = getelementptr i8, ptr addrspace(%1$u) %%heap, i64 %%ho8\n"
             "  %%nextp = getelementptr i8, ptr addrspace(%1$u) %%blk, i64 8\n"
             "  br label %%push\n"
             "push:\n"
             "  %%h = load atomic i64, ptr addrspace(%1$u) %%headp %5$s monotonic, align 8\n"
             "  %%hl = and i64 %%h, 4294967295\n"
             "  store atomic i64 %%hl, ptr addrspace(%1$u) %%nextp %5$s monotonic, align 8\n"
             "  %%tag = lshr i64 %%h, 32\n"
             "  %%tag1 = add i64 %%tag, 1\n"
             "  %%tagh = shl i64 %%tag1, 32\n"
             "  %%nh = or i64 %%tagh, %%off\n"
             "  %%r = cmpxchg ptr addrspace(%1$u) %%headp, i64 %%h, i64 %%nh %5$s release monotonic, align 8\n"
             "  %%ok = extractvalue { i64, i1 } %%r, 1\n"
             "  br i1 %%ok, label %%done, label %%push\n"
             "done:\n"
             "  ret void\n"
             "}\n",
             as, JUKE_HEAP_DESC_OFFSET, JUKE_HEAP_DESC_OFFSET + 8, JUKE_HEAP_STATE_BYTES, scope);
    return atomic_helper(g, "__juke_free", text);
}

/* malloc(n): the heap's block for n bytes, NULL when the heap has none; free(p). */
LLVMValueRef emit_malloc(CG *g, IrInst *in)
{
    LLVMValueRef fn = heap_function(g, in->builtin);
    LLVMTypeRef gp = LLVMPointerTypeInContext(g->ctx, g->ops->as_global);
    if (!fn)
        return in->builtin == BI_MALLOC ? LLVMConstNull(gp) : unit_v(g);
    if (in->builtin == BI_MALLOC) {
        LLVMTypeRef pt[2] = { gp, i64(g) };
        LLVMValueRef args[2] = { g->tc->cur_exc,
                                 conv_wrap(g, arg(g, in, 0), aty(g, in, 0), ty_prim(g->types, TY_INT64)) };
        return LLVMBuildCall2(g->b, LLVMFunctionType(gp, pt, 2, 0), fn, args, 2, "");
    }
    LLVMTypeRef pt[2] = { gp, gp };
    LLVMValueRef args[2] = { g->tc->cur_exc, arg(g, in, 0) };
    LLVMBuildCall2(g->b, LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), pt, 2, 0), fn, args, 2, "");
    return unit_v(g);
}

/* ROCDeviceArray(dims, p): the array value { p, dims, length } (codegen.c's layout); of a local pointer,
 * { p, dims, length, length }: the memory it holds is what dims say, as unchecked as the pointer was. */
LLVMValueRef emit_wrap_array(CG *g, IrInst *in)
{
    const Type *dt = aty(g, in, 0), *i64t = ty_prim(g->types, TY_INT64);
    LLVMValueRef d = arg(g, in, 0), dims[JUKE_EXC_MAXDIMS];
    int nd = in->type->ndims;
    for (int k = 0; k < nd; k++)
        dims[k] = dt->kind == TY_TUPLE
                      ? conv_wrap(g, LLVMBuildExtractValue(g->b, d, (unsigned)k, ""), dt->fields[k], i64t)
                      : conv_wrap(g, d, dt, i64t);
    LLVMValueRef v = LLVMGetUndef(lt(g, in->type)), len = ci64(g, 1);
    LLVMValueRef darr = LLVMGetUndef(LLVMArrayType2(i64(g), (uint64_t)nd));
    for (int k = 0; k < nd; k++) {
        darr = LLVMBuildInsertValue(g->b, darr, dims[k], (unsigned)k, "");
        len = LLVMBuildMul(g->b, len, dims[k], "");
    }
    v = LLVMBuildInsertValue(g->b, v, arg(g, in, 1), 0, "");
    v = LLVMBuildInsertValue(g->b, v, darr, 1, "");
    v = LLVMBuildInsertValue(g->b, v, len, 2, "");
    return in->type->kind == TY_LOCALARRAY ? LLVMBuildInsertValue(g->b, v, len, 3, "") : v;
}
