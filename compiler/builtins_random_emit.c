/* builtins_random_emit.c: emit rules (LLVM IR) of device random numbers (rows in builtins.def).
 *
 * The generator is Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011), a
 * counter-based generator: each draw is a pure function of a 64-bit key and a 128-bit counter, so it is plain
 * integer code that every target computes alike. Each work-item owns one stream:
 *   key     = the launch's seed (the kernel's __juke_seed argument; docs/abi.md), or Random.seed!'s argument;
 *   counter = (draws so far by this work-item, 64 bits; its 0-based global linear id, 64 bits).
 * A draw uses one counter value and yields 128 bits. The state lives in the kernel's frame (CG.rng_state, see
 * codegen.c): [3 x i64] = { key, draws, global id }. */
#include "codegen_impl.h"

enum { RNG_KEY, RNG_DRAWS, RNG_GID };

static LLVMValueRef rng_field(CG *g, int k)
{
    LLVMValueRef ix[2] = { ci32(g, 0), ci32(g, k) };
    return LLVMBuildGEP2(g->b, LLVMArrayType2(i64(g), 3), g->rng_state, ix, 2, "");
}

/* The 0-based global linear id of the work-item (x fastest, then y, z; groups likewise). */
static LLVMValueRef global_linear_id(CG *g)
{
    LLVMValueRef item = ci64(g, 0), group = ci64(g, 0), gsize = ci64(g, 1);
    for (int d = 2; d >= 0; d--) {
        LLVMValueRef dim = LLVMBuildZExt(g->b, g->ops->workgroup_dim(g->tc, g->b, d), i64(g), "");
        LLVMValueRef ngroups = LLVMBuildZExt(g->b, g->ops->grid_groups(g->tc, g->b, d), i64(g), "");
        LLVMValueRef wi = LLVMBuildZExt(g->b, g->ops->workitem_id(g->tc, g->b, d), i64(g), "");
        LLVMValueRef wg = LLVMBuildZExt(g->b, g->ops->workgroup_id(g->tc, g->b, d), i64(g), "");
        item = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, item, dim, ""), wi, "");
        group = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, group, ngroups, ""), wg, "");
        gsize = LLVMBuildMul(g->b, gsize, dim, "");
    }
    return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, group, gsize, ""), item, "");
}

/* The kernel's entry: the state of this work-item's stream, keyed by seed (an i64). */
void rng_init(CG *g, LLVMValueRef seed)
{
    g->rng_state = LLVMBuildAlloca(g->b, LLVMArrayType2(i64(g), 3), "rng");
    LLVMBuildStore(g->b, seed, rng_field(g, RNG_KEY));
    LLVMBuildStore(g->b, ci64(g, 0), rng_field(g, RNG_DRAWS));
    LLVMBuildStore(g->b, global_linear_id(g), rng_field(g, RNG_GID));
}

static LLVMValueRef u32c(CG *g, uint32_t v)
{
    return LLVMConstInt(i32(g), v, 0);
}

static LLVMValueRef lo32(CG *g, LLVMValueRef v)
{
    return LLVMBuildTrunc(g->b, v, i32(g), "");
}
static LLVMValueRef hi32(CG *g, LLVMValueRef v)
{
    return LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, v, ci64(g, 32), ""), i32(g), "");
}

/* The next 128 bits of the stream, as four 32-bit words w[0..3]; advances the draw counter. */
static void philox_next(CG *g, LLVMValueRef w[4])
{
    LLVMValueRef key = LLVMBuildLoad2(g->b, i64(g), rng_field(g, RNG_KEY), "");
    LLVMValueRef draws = LLVMBuildLoad2(g->b, i64(g), rng_field(g, RNG_DRAWS), "");
    LLVMValueRef gid = LLVMBuildLoad2(g->b, i64(g), rng_field(g, RNG_GID), "");
    LLVMBuildStore(g->b, LLVMBuildAdd(g->b, draws, ci64(g, 1), ""), rng_field(g, RNG_DRAWS));
    LLVMValueRef c[4] = { lo32(g, draws), hi32(g, draws), lo32(g, gid), hi32(g, gid) };
    LLVMValueRef k0 = lo32(g, key), k1 = hi32(g, key);
    const uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k0 = LLVMBuildAdd(g->b, k0, u32c(g, W0), "");
            k1 = LLVMBuildAdd(g->b, k1, u32c(g, W1), "");
        }
        LLVMValueRef p0 = LLVMBuildMul(g->b, ci64(g, (int64_t)M0), LLVMBuildZExt(g->b, c[0], i64(g), ""), "");
        LLVMValueRef p1 = LLVMBuildMul(g->b, ci64(g, (int64_t)M1), LLVMBuildZExt(g->b, c[2], i64(g), ""), "");
        LLVMValueRef n0 = LLVMBuildXor(g->b, LLVMBuildXor(g->b, hi32(g, p1), c[1], ""), k0, "");
        LLVMValueRef n2 = LLVMBuildXor(g->b, LLVMBuildXor(g->b, hi32(g, p0), c[3], ""), k1, "");
        c[0] = n0;
        c[1] = lo32(g, p1);
        c[2] = n2;
        c[3] = lo32(g, p0);
    }
    for (int i = 0; i < 4; i++)
        w[i] = c[i];
}

static LLVMValueRef join64(CG *g, LLVMValueRef lo, LLVMValueRef hi)
{
    return LLVMBuildOr(g->b, LLVMBuildZExt(g->b, lo, i64(g), ""),
                       LLVMBuildShl(g->b, LLVMBuildZExt(g->b, hi, i64(g), ""), ci64(g, 32), ""), "");
}

/* A uniform float of type ft (Float32 or Float64) from the bits: in [0, 1), or in (0, 1] when open_zero.
 * Float32 takes 24 bits of w32, Float64 53 bits of w64: every value k * 2^-24 (2^-53) equally likely. */
static LLVMValueRef uniform(CG *g, const Type *ft, LLVMValueRef w32, LLVMValueRef w64, bool open_zero)
{
    bool f64 = ft->kind == TY_FLOAT64;
    LLVMValueRef k = f64 ? LLVMBuildLShr(g->b, w64, ci64(g, 11), "") : LLVMBuildLShr(g->b, w32, ci32(g, 8), "");
    if (open_zero)
        k = LLVMBuildAdd(g->b, k, f64 ? ci64(g, 1) : ci32(g, 1), "");
    LLVMValueRef f = LLVMBuildUIToFP(g->b, k, prim_t(g, ft), "");
    return LLVMBuildFMul(g->b, f, fconst(g, ft, f64 ? 0x1p-53 : 0x1p-24), "");
}

/* rand(), rand(T), randn(T), randexp(T): one draw each. */
LLVMValueRef emit_rand(CG *g, IrInst *in)
{
    const Type *t = in->optype;
    LLVMValueRef w[4];
    philox_next(g, w);
    if (in->builtin == BI_RAND && !ty_is_float(t)) {
        if (t->kind == TY_BOOL)
            return LLVMBuildTrunc(g->b, w[0], i1(g), "");
        return t->bits <= 32 ? LLVMBuildTrunc(g->b, w[0], prim_t(g, t), "") : join64(g, w[0], w[1]);
    }
    /* Float16 is drawn as a Float32 and rounded; for rand that keeps 11 bits: k * 2^-11 */
    const Type *ft = t->kind == TY_FLOAT16 ? ty_prim(g->types, TY_FLOAT32) : t;
    LLVMValueRef r;
    if (in->builtin == BI_RAND) {
        if (t->kind == TY_FLOAT16) {
            LLVMValueRef k = LLVMBuildLShr(g->b, w[0], ci32(g, 21), "");
            r = LLVMBuildFMul(g->b, LLVMBuildUIToFP(g->b, k, prim_t(g, ft), ""), fconst(g, ft, 0x1p-11), "");
        } else {
            r = uniform(g, ft, w[0], join64(g, w[0], w[1]), false);
        }
    } else if (in->builtin == BI_RANDEXP) {
        /* inversion: -log(u), u uniform in (0, 1] */
        LLVMValueRef u = uniform(g, ft, w[0], join64(g, w[0], w[1]), true);
        r = LLVMBuildFNeg(g->b, call_math(g, "log", ft, &u, 1), "");
    } else {
        /* Box-Muller: sqrt(-2 log u1) cos(2 pi u2), u1 in (0, 1], u2 in [0, 1) */
        LLVMValueRef u1 = uniform(g, ft, w[0], join64(g, w[0], w[1]), true);
        LLVMValueRef u2 = uniform(g, ft, w[2], join64(g, w[2], w[3]), false);
        LLVMValueRef l = call_math(g, "log", ft, &u1, 1);
        LLVMValueRef rad = intr1(g, "llvm.sqrt", LLVMBuildFMul(g->b, fconst(g, ft, -2.0), l, ""));
        LLVMValueRef th = LLVMBuildFMul(g->b, fconst(g, ft, 6.283185307179586), u2, "");
        r = LLVMBuildFMul(g->b, rad, call_math(g, "cos", ft, &th, 1), "");
    }
    return ft == t ? r : LLVMBuildFPTrunc(g->b, r, prim_t(g, t), "");
}

/* Random.seed!(seed): this work-item's stream restarts with key seed % UInt64 (its id stays in the counter). */
LLVMValueRef emit_seed(CG *g, IrInst *in)
{
    if (in->nargs == 1) { /* Random.seed!(): the clock's value, which differs launch to launch */
        LLVMValueRef none[2] = { NULL, NULL };
        LLVMValueRef t = g->ops->exec_control ? g->ops->exec_control(g->tc, g->b, BI_MEMREALTIME, none) : NULL;
        LLVMBuildStore(g->b, t ? t : ci64(g, 0), rng_field(g, RNG_KEY));
        LLVMBuildStore(g->b, ci64(g, 0), rng_field(g, RNG_DRAWS));
        return unit_v(g);
    }
    const Type *st = aty(g, in, 0);
    LLVMValueRef s = arg(g, in, 0);
    if (st->bits < 64)
        s = ty_is_signed(st) ? LLVMBuildSExt(g->b, s, i64(g), "") : LLVMBuildZExt(g->b, s, i64(g), "");
    LLVMBuildStore(g->b, s, rng_field(g, RNG_KEY));
    LLVMBuildStore(g->b, ci64(g, 0), rng_field(g, RNG_DRAWS));
    return unit_v(g);
}
