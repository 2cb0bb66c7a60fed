/* builtins_wave_emit.c: emit rules of the wavefront operations (rows in builtins.def), built once for every
 * target from the target's few wavefront primitives (TargetOps.wave: the active mask, a ballot, the lane,
 * reading a 32-bit value from another lane), and of the reducing and grid-wide synchronisations.
 *
 * Reductions and scans fold the active lanes' values in lane order, lowest first, starting from the
 * operator's identity: every target computes the same floating-point sums, bit for bit (the CPU device
 * included, whose lanes are fibers). Lanes that are not active (returned, or in another branch) take no
 * part: they contribute nothing and receive nothing. */
#include "codegen_impl.h"

#include <string.h>

static LLVMValueRef prim(CG *g, WavePrim p, LLVMValueRef x, LLVMValueRef y, SrcLoc loc)
{
    return g->ops->wave(g->tc, g->b, p, x, y, loc);
}

/* v (of type t, a primitive) as an integer of 32 bits, or of its own width past 32 (64, 128). */
static LLVMValueRef to_bits(CG *g, LLVMValueRef v, const Type *t)
{
    unsigned w = t->kind == TY_BOOL ? 1 : (unsigned)t->bits;
    LLVMTypeRef it = LLVMIntTypeInContext(g->ctx, w);
    if (ty_is_float(t))
        v = LLVMBuildBitCast(g->b, v, it, "");
    return w >= 32 ? v : LLVMBuildZExt(g->b, v, i32(g), "");
}

static LLVMValueRef from_bits(CG *g, LLVMValueRef v, const Type *t)
{
    unsigned w = t->kind == TY_BOOL ? 1 : (unsigned)t->bits;
    if (w < 32)
        v = LLVMBuildTrunc(g->b, v, LLVMIntTypeInContext(g->ctx, w), "");
    return ty_is_float(t) ? LLVMBuildBitCast(g->b, v, prim_t(g, t), "") : v;
}

/* x (of type t) as the lane `lane` holds it (p: WAVE_READ, WAVE_READ_UNIFORM or WAVE_READ_FIRST); a 64- or
 * 128-bit value travels as 32-bit words. */
static LLVMValueRef read_lane(CG *g, WavePrim p, LLVMValueRef x, const Type *t, LLVMValueRef lane, SrcLoc loc)
{
    LLVMValueRef bits = to_bits(g, x, t);
    LLVMTypeRef wt = LLVMTypeOf(bits);
    unsigned w = LLVMGetIntTypeWidth(wt);
    if (w <= 32)
        return from_bits(g, prim(g, p, bits, lane, loc), t);
    LLVMValueRef r = LLVMConstInt(wt, 0, 0);
    for (unsigned k = 0; k < w; k += 32) {
        LLVMValueRef word = LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, bits, LLVMConstInt(wt, k, 0), ""), i32(g), "");
        word = LLVMBuildZExt(g->b, prim(g, p, word, lane, loc), wt, "");
        r = LLVMBuildOr(g->b, r, LLVMBuildShl(g->b, word, LLVMConstInt(wt, k, 0), ""), "");
    }
    return from_bits(g, r, t);
}

/* The number of active lanes below this one (AMDGPU.jl's activelane(), __ockl_activelane_u32): the lane
 * index when the whole wave is active. */
static LLVMValueRef active_lane(CG *g, SrcLoc loc)
{
    LLVMValueRef mask = prim(g, WAVE_MASK, NULL, NULL, loc);
    LLVMValueRef lane = LLVMBuildZExt(g->b, prim(g, WAVE_LANE, NULL, NULL, loc), i64(g), "");
    LLVMValueRef below = LLVMBuildSub(g->b, LLVMBuildShl(g->b, ci64(g, 1), lane, ""), ci64(g, 1), "");
    return LLVMBuildTrunc(g->b, intr1(g, "llvm.ctpop", LLVMBuildAnd(g->b, mask, below, "")), i32(g), "");
}

LLVMValueRef emit_wavefrontsize(CG *g, IrInst *in)
{
    (void)in;
    return ci32(g, g->tc->wavefront_size);
}

LLVMValueRef emit_activelane(CG *g, IrInst *in)
{
    return active_lane(g, in->loc);
}

/* ballot(pred) and activemask() (ballot(true)); ballot_sync(mask, pred) = ballot(pred) & mask, any_sync its
 * being nonzero, all_sync its being mask (AMDGPU.jl's wavefront_sync.jl). */
LLVMValueRef emit_ballot(CG *g, IrInst *in)
{
    if (in->builtin == BI_ACTIVEMASK)
        return prim(g, WAVE_MASK, NULL, NULL, in->loc);
    if (in->builtin == BI_BALLOT)
        return prim(g, WAVE_BALLOT, arg(g, in, 0), NULL, in->loc);
    LLVMValueRef mask = arg(g, in, 0);
    LLVMValueRef v = LLVMBuildAnd(g->b, prim(g, WAVE_BALLOT, arg(g, in, 1), NULL, in->loc), mask, "");
    if (in->builtin == BI_BALLOT_SYNC)
        return v;
    if (in->builtin == BI_ANY_SYNC)
        return LLVMBuildICmp(g->b, LLVMIntNE, v, ci64(g, 0), "");
    return LLVMBuildICmp(g->b, LLVMIntEQ, v, mask, "");
}

LLVMValueRef emit_readfirstlane(CG *g, IrInst *in)
{
    return read_lane(g, WAVE_READ_FIRST, arg(g, in, 0), aty(g, in, 0), NULL, in->loc);
}

/* an integer argument as i32, wrapping as AMDGPU.jl's Cint(...) % does */
static LLVMValueRef as_i32(CG *g, IrInst *in, int k)
{
    return conv_wrap(g, arg(g, in, k), aty(g, in, k), ty_prim(g->types, TY_INT32));
}

/* The shuffles, with AMDGPU.jl's lane arithmetic: `self` is activelane(), width (default the wave size) splits
 * the wave into segments; a source outside the segment (shfl_up/down/xor) reads the lane itself, shfl's lane
 * is taken modulo width. The lane read is taken modulo the wave size, as ds_bpermute does. bpermute(addr, v)
 * reads lane addr ÷ 4. */
LLVMValueRef emit_shfl(CG *g, IrInst *in)
{
    SrcLoc loc = in->loc;
    /* the _sync forms: the mask first, then as the plain ones */
    BuiltinId op = in->builtin;
    int o = 0;
    switch (op) {
    case BI_SHFL_SYNC: op = BI_SHFL, o = 1; break;
    case BI_SHFL_UP_SYNC: op = BI_SHFL_UP, o = 1; break;
    case BI_SHFL_DOWN_SYNC: op = BI_SHFL_DOWN, o = 1; break;
    case BI_SHFL_XOR_SYNC: op = BI_SHFL_XOR, o = 1; break;
    default: break;
    }
    const Type *t = aty(g, in, o);
    LLVMValueRef ws = ci32(g, g->tc->wavefront_size);
    if (in->builtin == BI_BPERMUTE) {
        LLVMValueRef lane = LLVMBuildAShr(g->b, as_i32(g, in, 0), ci32(g, 2), "");
        lane = LLVMBuildAnd(g->b, lane, LLVMBuildSub(g->b, ws, ci32(g, 1), ""), "");
        return read_lane(g, WAVE_READ, arg(g, in, 1), aty(g, in, 1), lane, loc);
    }
    LLVMValueRef self = active_lane(g, loc);
    LLVMValueRef d = as_i32(g, in, o + 1);
    LLVMValueRef w = in->nargs > o + 3 ? as_i32(g, in, o + 2) : ws;
    LLVMValueRef wm1 = LLVMBuildSub(g->b, w, ci32(g, 1), "");
    LLVMValueRef seg = LLVMBuildAnd(g->b, self, LLVMBuildNot(g->b, wm1, ""), ""); /* self & ~(w - 1) */
    LLVMValueRef src;
    switch (op) {
    case BI_SHFL: src = LLVMBuildAdd(g->b, LLVMBuildAnd(g->b, d, wm1, ""), seg, ""); break;
    case BI_SHFL_UP: {
        LLVMValueRef s = LLVMBuildSub(g->b, self, d, "");
        src = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, s, seg, ""), self, s, "");
        break;
    }
    case BI_SHFL_DOWN: {
        LLVMValueRef pos = LLVMBuildAnd(g->b, self, wm1, "");
        LLVMValueRef out = LLVMBuildICmp(g->b, LLVMIntSGE, LLVMBuildAdd(g->b, pos, d, ""), w, "");
        src = LLVMBuildSelect(g->b, out, self, LLVMBuildAdd(g->b, self, d, ""), "");
        break;
    }
    default: { /* BI_SHFL_XOR */
        LLVMValueRef x = LLVMBuildXor(g->b, self, d, "");
        LLVMValueRef end = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, self, w, ""), LLVMBuildNot(g->b, wm1, ""), "");
        src = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSGE, x, end, ""), self, x, "");
        break;
    }
    }
    src = LLVMBuildAnd(g->b, src, LLVMBuildSub(g->b, ws, ci32(g, 1), ""), "");
    return read_lane(g, WAVE_READ, arg(g, in, o), t, src, loc);
}

/* permute(addr, v): v goes to lane addr ÷ 4 (modulo the wave size), as ds_permute_b32 pushes it; a lane no
 * active lane sends to gets 0, one that several send to the value of the highest of them. Every target
 * computes it alike, with a loop over the active lanes (lowest first) that reads each one's destination and
 * value. */
LLVMValueRef emit_permute(CG *g, IrInst *in)
{
    SrcLoc loc = in->loc;
    LLVMValueRef ws = ci32(g, g->tc->wavefront_size);
    LLVMValueRef dest = LLVMBuildAShr(g->b, as_i32(g, in, 0), ci32(g, 2), "");
    dest = LLVMBuildAnd(g->b, dest, LLVMBuildSub(g->b, ws, ci32(g, 1), ""), "");
    LLVMValueRef v = arg(g, in, 1);
    LLVMValueRef mask = prim(g, WAVE_MASK, NULL, NULL, loc);
    LLVMValueRef self = prim(g, WAVE_LANE, NULL, NULL, loc);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "permute.head");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "permute.body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "permute.done");
    LLVMBuildBr(g->b, head);
    LLVMPositionBuilderAtEnd(g->b, head);
    LLVMValueRef m = LLVMBuildPhi(g->b, i64(g), "");
    LLVMValueRef res = LLVMBuildPhi(g->b, i32(g), "");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, m, ci64(g, 0), ""), done, body);
    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef cargs[2] = { m, LLVMConstInt(i1(g), 0, 0) };
    LLVMTypeRef it = i64(g);
    LLVMValueRef l = LLVMBuildTrunc(g->b, intrinsic(g, "llvm.cttz", &it, 1, cargs, 2), i32(g), "");
    LLVMValueRef to = prim(g, WAVE_READ_UNIFORM, dest, l, loc);
    LLVMValueRef x = prim(g, WAVE_READ_UNIFORM, v, l, loc);
    LLVMValueRef res2 = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, to, self, ""), x, res, "");
    LLVMValueRef m2 = LLVMBuildAnd(g->b, m, LLVMBuildSub(g->b, m, ci64(g, 1), ""), "");
    LLVMBasicBlockRef end = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, head);
    LLVMValueRef zero = ci32(g, 0);
    LLVMAddIncoming(m, &mask, &pre, 1);
    LLVMAddIncoming(m, &m2, &end, 1);
    LLVMAddIncoming(res, &zero, &pre, 1);
    LLVMAddIncoming(res, &res2, &end, 1);
    LLVMPositionBuilderAtEnd(g->b, done);
    return res;
}

/* The operator a wfred/wfscan call names (its typing checked it is one of these). */
static BuiltinId reduce_op(CG *g, IrInst *in)
{
    const BuiltinRow *r = builtin_lookup(aty(g, in, 0)->name);
    return r ? r->id : BI_NONE;
}

/* op's identity for t: op(identity, x) == x bit for bit (-0.0 for a float sum, so that -0.0 survives). */
static LLVMValueRef identity(CG *g, BuiltinId op, const Type *t)
{
    bool f = ty_is_float(t), s = ty_is_signed(t);
    int bits = t->bits;
    switch (op) {
    case BI_ADD: return f ? fconst(g, t, -0.0) : iconst(g, t, 0);
    case BI_MUL: return f ? fconst(g, t, 1.0) : iconst(g, t, 1);
    case BI_MAX:
        if (f)
            return fconst(g, t, -INFINITY);
        return LLVMConstInt(prim_t(g, t), s ? (uint64_t)1 << (bits - 1) : 0, 0);
    case BI_MIN:
        if (f)
            return fconst(g, t, INFINITY);
        return LLVMConstInt(prim_t(g, t), s ? ((uint64_t)1 << (bits - 1)) - 1 : ~(uint64_t)0, 0);
    case BI_AND: return LLVMConstAllOnes(prim_t(g, t));
    default: return iconst(g, t, 0); /* | ⊻ */
    }
}

static LLVMValueRef apply(CG *g, BuiltinId op, const Type *t, LLVMValueRef x, LLVMValueRef y)
{
    bool f = ty_is_float(t);
    switch (op) {
    case BI_ADD: return f ? LLVMBuildFAdd(g->b, x, y, "") : LLVMBuildAdd(g->b, x, y, "");
    case BI_MUL: return f ? LLVMBuildFMul(g->b, x, y, "") : LLVMBuildMul(g->b, x, y, "");
    case BI_MAX: return emit_minmax(g, true, t, x, y);
    case BI_MIN: return emit_minmax(g, false, t, x, y);
    case BI_AND: return LLVMBuildAnd(g->b, x, y, "");
    case BI_OR: return LLVMBuildOr(g->b, x, y, "");
    default: return LLVMBuildXor(g->b, x, y, "");
    }
}

/* wfred(op, x) and wfscan(op, x[, inclusive]): a loop over the active lanes, lowest first, that every lane
 * runs alike (the mask is the same in every active lane): acc = op(acc, x of that lane). A scan keeps acc
 * (inclusive) or acc before it (exclusive) when the loop reaches its own lane. */
LLVMValueRef emit_wfreduce(CG *g, IrInst *in)
{
    SrcLoc loc = in->loc;
    const Type *t = in->optype;
    BuiltinId op = reduce_op(g, in);
    bool scan = in->builtin == BI_WFSCAN;
    LLVMValueRef x = arg(g, in, 1);
    LLVMValueRef inclusive = scan && in->nargs > 3 ? arg(g, in, 2) : LLVMConstInt(i1(g), 1, 0);
    LLVMValueRef id = identity(g, op, t);
    LLVMValueRef mask = prim(g, WAVE_MASK, NULL, NULL, loc);
    LLVMValueRef self = scan ? prim(g, WAVE_LANE, NULL, NULL, loc) : NULL;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "wave.head");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "wave.body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "wave.done");
    LLVMBuildBr(g->b, head);
    LLVMPositionBuilderAtEnd(g->b, head);
    LLVMValueRef m = LLVMBuildPhi(g->b, i64(g), "");
    LLVMValueRef acc = LLVMBuildPhi(g->b, prim_t(g, t), "");
    LLVMValueRef res = scan ? LLVMBuildPhi(g->b, prim_t(g, t), "") : NULL;
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, m, ci64(g, 0), ""), done, body);
    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef zf = LLVMConstInt(i1(g), 0, 0);
    LLVMValueRef cargs[2] = { m, zf };
    LLVMTypeRef it = i64(g);
    LLVMValueRef l = LLVMBuildTrunc(g->b, intrinsic(g, "llvm.cttz", &it, 1, cargs, 2), i32(g), "");
    LLVMValueRef v = read_lane(g, WAVE_READ_UNIFORM, x, t, l, loc);
    LLVMValueRef acc2 = apply(g, op, t, acc, v);
    LLVMValueRef res2 = NULL;
    if (scan) {
        LLVMValueRef mine = LLVMBuildICmp(g->b, LLVMIntEQ, l, self, "");
        res2 = LLVMBuildSelect(g->b, mine, LLVMBuildSelect(g->b, inclusive, acc2, acc, ""), res, "");
    }
    LLVMValueRef m2 = LLVMBuildAnd(g->b, m, LLVMBuildSub(g->b, m, ci64(g, 1), ""), "");
    LLVMBasicBlockRef end = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, head);
    LLVMAddIncoming(m, &mask, &pre, 1);
    LLVMAddIncoming(m, &m2, &end, 1);
    LLVMAddIncoming(acc, &id, &pre, 1);
    LLVMAddIncoming(acc, &acc2, &end, 1);
    if (scan) {
        LLVMAddIncoming(res, &id, &pre, 1);
        LLVMAddIncoming(res, &res2, &end, 1);
    }
    LLVMPositionBuilderAtEnd(g->b, done);
    return scan ? res : acc;
}

/* wfany(x), wfall(x), wfsame(x): whether x is nonzero in any / every active lane, or the same in all. */
LLVMValueRef emit_wfvote(CG *g, IrInst *in)
{
    SrcLoc loc = in->loc;
    LLVMValueRef x = arg(g, in, 0);
    const Type *t = aty(g, in, 0);
    if (in->builtin == BI_WFSAME) {
        LLVMValueRef first = read_lane(g, WAVE_READ_FIRST, x, t, NULL, loc);
        LLVMValueRef same = prim(g, WAVE_BALLOT, LLVMBuildICmp(g->b, LLVMIntEQ, x, first, ""), NULL, loc);
        return LLVMBuildICmp(g->b, LLVMIntEQ, same, prim(g, WAVE_MASK, NULL, NULL, loc), "");
    }
    LLVMValueRef nz = LLVMBuildICmp(g->b, LLVMIntNE, x, LLVMConstNull(LLVMTypeOf(x)), "");
    LLVMValueRef votes = prim(g, WAVE_BALLOT, nz, NULL, loc);
    if (in->builtin == BI_WFANY)
        return LLVMBuildICmp(g->b, LLVMIntNE, votes, ci64(g, 0), "");
    return LLVMBuildICmp(g->b, LLVMIntEQ, votes, prim(g, WAVE_MASK, NULL, NULL, loc), "");
}

LLVMValueRef emit_sync_wavefront(CG *g, IrInst *in)
{
    prim(g, WAVE_SYNC, NULL, NULL, in->loc);
    return unit_v(g);
}

/* sync_workgroup_count/and/or(pred): a barrier that counts the work-items whose pred is nonzero. Where the
 * target has no such barrier (AMDGPU, CPU), through a counter in local memory: barrier (the last call's
 * readers are done), the first work-item clears it, barrier, each work-item adds its vote, barrier, all
 * read it. */
LLVMValueRef emit_sync_reduce(CG *g, IrInst *in)
{
    SrcLoc loc = in->loc;
    int kind = in->builtin == BI_SYNC_WORKGROUP_COUNT ? SYNC_REDUCE_COUNT
               : in->builtin == BI_SYNC_WORKGROUP_AND ? SYNC_REDUCE_AND
                                                      : SYNC_REDUCE_OR;
    LLVMValueRef x = arg(g, in, 0);
    LLVMValueRef pred =
        LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntNE, x, LLVMConstNull(LLVMTypeOf(x)), ""), i32(g), "");
    g->tc->uses_barrier = true;
    if (g->ops->barrier_reduce)
        return g->ops->barrier_reduce(g->tc, g->b, kind, pred, loc);
    LLVMValueRef cnt = g->ops->static_local(g->tc, g->b, "sync_count", 4, 4);
    LLVMValueRef size = ci32(g, 1), id = ci32(g, 0);
    for (int d = 2; d >= 0; d--) {
        LLVMValueRef dim = g->ops->workgroup_dim(g->tc, g->b, d);
        id = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, id, dim, ""), g->ops->workitem_id(g->tc, g->b, d), "");
        size = LLVMBuildMul(g->b, size, dim, "");
    }
    g->ops->barrier(g->tc, g->b, loc);
    LLVMBasicBlockRef clear = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "sync.clear");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "sync.join");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, id, ci32(g, 0), ""), clear, join);
    LLVMPositionBuilderAtEnd(g->b, clear);
    LLVMSetAlignment(LLVMBuildStore(g->b, ci32(g, 0), cnt), 4);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
    g->ops->barrier(g->tc, g->b, loc);
    LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpAdd, cnt, pred, LLVMAtomicOrderingMonotonic, 0);
    g->ops->barrier(g->tc, g->b, loc);
    LLVMValueRef n = LLVMBuildLoad2(g->b, i32(g), cnt, "");
    LLVMSetAlignment(n, 4);
    if (kind == SYNC_REDUCE_COUNT)
        return n;
    LLVMValueRef r = kind == SYNC_REDUCE_AND ? LLVMBuildICmp(g->b, LLVMIntEQ, n, size, "")
                                             : LLVMBuildICmp(g->b, LLVMIntNE, n, ci32(g, 0), "");
    return LLVMBuildZExt(g->b, r, i32(g), "");
}

/* sync_grid(): on GPUs a barrier over the grid's workgroups in global memory, which only a cooperative
 * launch (every workgroup resident at once) can pass: the first work-item of each group adds one to a
 * counter; the last to arrive resets it and bumps the generation the others spin on. */
LLVMValueRef emit_sync_grid(CG *g, IrInst *in)
{
    SrcLoc loc = in->loc;
    g->tc->uses_grid_sync = true;
    if (g->ops->grid_sync) {
        g->ops->grid_sync(g->tc, g->b, loc);
        return unit_v(g);
    }
    LLVMTypeRef pair = LLVMArrayType2(i32(g), 2);
    LLVMValueRef bar = LLVMGetNamedGlobal(g->mod, "__juke_grid_barrier");
    if (!bar) {
        bar = LLVMAddGlobalInAddressSpace(g->mod, pair, "__juke_grid_barrier", g->ops->as_global);
        LLVMSetInitializer(bar, LLVMConstNull(pair));
        LLVMSetLinkage(bar, LLVMInternalLinkage);
        LLVMSetAlignment(bar, 8);
    }
    LLVMValueRef idx[2] = { ci32(g, 0), ci32(g, 1) };
    LLVMValueRef count = bar, gen = LLVMBuildInBoundsGEP2(g->b, pair, bar, idx, 2, "");
    LLVMValueRef groups = ci32(g, 1), first = ci32(g, 0);
    for (int d = 0; d < 3; d++) {
        groups = LLVMBuildMul(g->b, groups, g->ops->grid_groups(g->tc, g->b, d), "");
        first = LLVMBuildOr(g->b, first, g->ops->workitem_id(g->tc, g->b, d), "");
    }
    g->ops->barrier(g->tc, g->b, loc);
    g->tc->uses_barrier = true;
    LLVMBasicBlockRef lead = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "grid.lead");
    LLVMBasicBlockRef last = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "grid.last");
    LLVMBasicBlockRef spin = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "grid.spin");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "grid.join");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, first, ci32(g, 0), ""), lead, join);
    LLVMPositionBuilderAtEnd(g->b, lead);
    LLVMValueRef g0 = LLVMBuildLoad2(g->b, i32(g), gen, "");
    LLVMSetOrdering(g0, LLVMAtomicOrderingAcquire);
    LLVMSetAlignment(g0, 4);
    LLVMValueRef old =
        LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpAdd, count, ci32(g, 1), LLVMAtomicOrderingAcquireRelease, 0);
    LLVMValueRef is_last = LLVMBuildICmp(g->b, LLVMIntEQ, old, LLVMBuildSub(g->b, groups, ci32(g, 1), ""), "");
    LLVMBuildCondBr(g->b, is_last, last, spin);
    LLVMPositionBuilderAtEnd(g->b, last);
    LLVMValueRef st = LLVMBuildStore(g->b, ci32(g, 0), count);
    LLVMSetOrdering(st, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(st, 4);
    LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpAdd, gen, ci32(g, 1), LLVMAtomicOrderingRelease, 0);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, spin);
    LLVMValueRef now = LLVMBuildLoad2(g->b, i32(g), gen, "");
    LLVMSetOrdering(now, LLVMAtomicOrderingAcquire);
    LLVMSetAlignment(now, 4);
    LLVMSetVolatile(now, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, now, g0, ""), spin, join);
    LLVMPositionBuilderAtEnd(g->b, join);
    g->ops->barrier(g->tc, g->b, loc);
    return unit_v(g);
}
