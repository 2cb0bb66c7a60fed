/* builtins_wmma_emit.c: emit rule of the matrix-core multiply (builtins.def's BI_WMMA_MMA). The fragments are
 * base/wmma.jl's structs, { { 16 x half } } for A and B and { { 8 x float } } for C and D; the target's hook
 * (TargetOps.wmma) multiplies their vectors: v_wmma_f32_16x16x16_f16 on gfx11, the lanes of a wave of 32
 * exchanging their rows on the CPU. Elsewhere it is a compile error that names the target. */
#include "codegen_impl.h"

#include <string.h>

/* The n values of fragment f (a struct of one tuple) as an LLVM vector of et. */
static LLVMValueRef frag_vector(CG *g, LLVMValueRef f, LLVMTypeRef et, unsigned n)
{
    LLVMValueRef d = LLVMBuildExtractValue(g->b, f, 0, "");
    LLVMValueRef v = LLVMGetUndef(LLVMVectorType(et, n));
    for (unsigned i = 0; i < n; i++)
        v = LLVMBuildInsertElement(g->b, v, LLVMBuildExtractValue(g->b, d, i, ""), ci32(g, i), "");
    return v;
}

/* Why the target has no WMMA, for the compile error. */
static const char *wmma_missing(const TargetCtx *tc)
{
    const char *proc = tc->proc;
    if (proc && strncmp(proc, "gfx11", 5) == 0)
        return "runs WMMA in waves of 32, and this compile asks for waves of 64";
    if (proc && strncmp(proc, "gfx12", 5) == 0)
        return "has WMMA with another fragment layout, which juke does not support yet";
    if (proc && (strncmp(proc, "gfx90a", 6) == 0 || strncmp(proc, "gfx94", 5) == 0 || strncmp(proc, "gfx908", 6) == 0))
        return "has MFMA (v_mfma_*), CDNA's matrix cores, which AMDGPU.jl's WMMA does not use";
    if (proc && strncmp(proc, "gfx", 3) == 0)
        return "has no matrix cores";
    return "has no AMDGPU matrix cores";
}

/* wmma_mma(a, b, c): the C fragment D = A * B + C. */
LLVMValueRef emit_wmma_mma(CG *g, IrInst *in)
{
    LLVMTypeRef h = LLVMHalfTypeInContext(g->ctx), f = LLVMFloatTypeInContext(g->ctx);
    LLVMValueRef a = frag_vector(g, arg(g, in, 0), h, 16), b = frag_vector(g, arg(g, in, 1), h, 16);
    LLVMValueRef c = frag_vector(g, arg(g, in, 2), f, 8);
    LLVMValueRef d = g->ops->wmma ? g->ops->wmma(g->tc, g->b, a, b, c, in->loc) : NULL;
    LLVMTypeRef rt = lt(g, in->type);
    if (!d) {
        const TargetInfo *ti = target_by_kind(g->tc->opts->kind);
        const char *proc = g->tc->proc ? g->tc->proc : ti ? ti->name : "?";
        diag_error(g->d, in->loc, "WMMA needs a gfx11 AMDGPU target (v_wmma_*, wave32): %s %s", proc,
                   wmma_missing(g->tc));
        g->failed = true;
        return LLVMGetUndef(rt);
    }
    LLVMValueRef t = LLVMGetUndef(LLVMStructGetTypeAtIndex(rt, 0));
    for (unsigned i = 0; i < 8; i++)
        t = LLVMBuildInsertValue(g->b, t, LLVMBuildExtractElement(g->b, d, ci32(g, i), ""), i, "");
    return LLVMBuildInsertValue(g->b, LLVMGetUndef(rt), t, 0, "");
}
