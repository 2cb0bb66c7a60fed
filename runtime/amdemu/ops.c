/* ops.c: the instruction table of the GFX9 ISA (gfx90a, gfx942) as far as
 * it is modelled: one row per opcode per encoding, each with its semantics,
 * a lane function (the generic SALU/VALU executors of exec.c call it per
 * lane) or an executor of its own (branches, memory, lane-crossing ops).
 * Semantics follow AMD's "CDNA3 Instruction Set Architecture" manual. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "amdemu.h"

/* ---- bit helpers --------------------------------------------------------- */

static inline float f32(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t bf32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}
static inline uint64_t bf64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static inline float h2f(uint16_t h)
{
    _Float16 f;
    memcpy(&f, &h, 2);
    return (float)f;
}
static inline uint16_t f2h(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
/* a double rounded once to a half (through a float it could round twice) */
static inline uint16_t d2h(double d)
{
    _Float16 h = (_Float16)d;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}

#define U32(i) ((uint32_t)l->s[i])
#define I32(i) ((int32_t)l->s[i])
#define U64(i) (l->s[i])
#define I64(i) ((int64_t)l->s[i])
#define F32(i) f32(l->s[i])
#define F64(i) f64(l->s[i])
#define H16(i) h2f((uint16_t)l->s[i])

/* Lane functions: name them by what they compute, shared by SALU and VALU rows. */
#define LANE(name, body)                                                                                               \
    static void name(AmdLane *l)                                                                                       \
    {                                                                                                                  \
        body;                                                                                                          \
    }

/* ---- integer ---------------------------------------------------------------- */

LANE(l_mov, l->d = U64(0))
LANE(l_add_u64, l->d = U64(0) + U64(1))
LANE(l_sub_u64, l->d = U64(0) - U64(1))
LANE(l_mul_u64, l->d = U64(0) * U64(1))
LANE(l_mov_s1, l->d = U64(1))
LANE(l_not32, l->d = ~U32(0); l->cout = l->d != 0)
LANE(l_not64, l->d = ~U64(0); l->cout = l->d != 0)
static void l_brev32(AmdLane *l)
{
    uint32_t v = U32(0), r = 0;
    for (int i = 0; i < 32; i++, v >>= 1)
        r = r << 1 | (v & 1);
    l->d = r;
}
LANE(l_bcnt1_32, l->d = (uint32_t)__builtin_popcount(U32(0)); l->cout = l->d != 0)
LANE(l_bcnt1_64, l->d = (uint64_t)__builtin_popcountll(U64(0)); l->cout = l->d != 0)
LANE(l_bcnt_u32, l->d = (uint32_t)__builtin_popcount(U32(0)) + U32(1))
LANE(l_ff1_32, l->d = U32(0) ? (uint32_t)__builtin_ctz(U32(0)) : 0xffffffffu)
LANE(l_ff1_64, l->d = U64(0) ? (uint32_t)__builtin_ctzll(U64(0)) : 0xffffffffu)
LANE(l_ffbh_u32, l->d = U32(0) ? (uint32_t)__builtin_clz(U32(0)) : 0xffffffffu)
LANE(l_ffbh_u64, l->d = U64(0) ? (uint32_t)__builtin_clzll(U64(0)) : 0xffffffffu)
static void l_ffbh_i64(AmdLane *l)
{
    int64_t v = I64(0);
    uint64_t u = v < 0 ? ~(uint64_t)v : (uint64_t)v;
    l->d = (v == 0 || v == -1) ? 0xffffffffu : (uint32_t)(__builtin_clzll(u) - 1);
}
static void l_ffbh_i32(AmdLane *l)
{
    int32_t v = I32(0);
    uint32_t u = v < 0 ? ~(uint32_t)v : (uint32_t)v;
    l->d = (v == 0 || v == -1) ? 0xffffffffu : (uint32_t)(__builtin_clz(u) - 1);
}
LANE(l_sext_i8, l->d = (uint32_t)(int32_t)(int8_t)U32(0))
LANE(l_sext_i16, l->d = (uint32_t)(int32_t)(int16_t)U32(0))
LANE(l_bitset1, l->d = U32(1) | (1u << (U32(0) & 31)); l->s[1] = 0)
LANE(l_bitset0, l->d = U32(1) & ~(1u << (U32(0) & 31)); l->s[1] = 0)
LANE(l_abs_i32, int32_t v = I32(0); l->d = (uint32_t)(v < 0 ? -(int64_t)v : v); l->cout = l->d != 0)
LANE(l_add_u32, uint64_t r = (uint64_t)U32(0) + U32(1); l->d = (uint32_t)r; l->cout = (uint32_t)(r >> 32))
LANE(l_sub_u32, l->d = U32(0) - U32(1); l->cout = U32(1) > U32(0))
LANE(l_subrev_u32, l->d = U32(1) - U32(0); l->cout = U32(0) > U32(1))
LANE(l_addc_u32, uint64_t r = (uint64_t)U32(0) + U32(1) + l->cin; l->d = (uint32_t)r; l->cout = (uint32_t)(r >> 32))
LANE(l_subb_u32, l->d = U32(0) - U32(1) - l->cin; l->cout = (uint64_t)U32(1) + l->cin > U32(0))
LANE(l_subbrev_u32, l->d = U32(1) - U32(0) - l->cin; l->cout = (uint64_t)U32(0) + l->cin > U32(1))
static void l_add_i32(AmdLane *l)
{
    int32_t r;
    l->cout = __builtin_add_overflow(I32(0), I32(1), &r);
    l->d = (uint32_t)r;
}
static void l_sub_i32(AmdLane *l)
{
    int32_t r;
    l->cout = __builtin_sub_overflow(I32(0), I32(1), &r);
    l->d = (uint32_t)r;
}
LANE(l_mul_i32, l->d = U32(0) * U32(1))
LANE(l_mul_hi_u32, l->d = (uint32_t)(((uint64_t)U32(0) * U32(1)) >> 32))
LANE(l_mul_hi_i32, l->d = (uint32_t)(((int64_t)I32(0) * I32(1)) >> 32))
LANE(l_mul_u24, l->d = (U32(0) & 0xffffff) * (U32(1) & 0xffffff))
LANE(l_mul_hi_u24, l->d = (uint32_t)(((uint64_t)(U32(0) & 0xffffff) * (U32(1) & 0xffffff)) >> 32))
LANE(l_mad_u24, l->d = (U32(0) & 0xffffff) * (U32(1) & 0xffffff) + U32(2))
LANE(l_mad_u16, l->d = (uint16_t)(U32(0) * U32(1) + U32(2)))
/* the low 24 bits as a signed number */
#define I24(x) ((int32_t)((uint32_t)(x) << 8) >> 8)
LANE(l_mul_i24, l->d = (uint32_t)((int64_t)I24(U32(0)) * I24(U32(1))))
LANE(l_mad_i24, l->d = (uint32_t)((int64_t)I24(U32(0)) * I24(U32(1))) + U32(2))
static void l_mad_u64_u32(AmdLane *l)
{
    unsigned __int128 r = (unsigned __int128)((uint64_t)U32(0) * U32(1)) + U64(2);
    l->d = (uint64_t)r;
    l->cout = (uint32_t)(r >> 64);
}
LANE(l_min_i32, l->d = (uint32_t)(I32(0) < I32(1) ? I32(0) : I32(1)); l->cout = I32(0) <= I32(1))
LANE(l_min_u32, l->d = U32(0) < U32(1) ? U32(0) : U32(1); l->cout = U32(0) <= U32(1))
LANE(l_max_i32, l->d = (uint32_t)(I32(0) > I32(1) ? I32(0) : I32(1)); l->cout = I32(0) >= I32(1))
LANE(l_max_u32, l->d = U32(0) > U32(1) ? U32(0) : U32(1); l->cout = U32(0) >= U32(1))
LANE(l_cselect, l->d = l->cin ? U64(0) : U64(1); l->cout = l->cin)
/* s_cmovk_i32: the immediate where SCC is set, else the destination as it was (read into operand 0) */
LANE(l_cmovk, l->d = l->cin ? U64(1) : U64(0))
LANE(l_cndmask, l->d = l->cin ? U32(1) : U32(0))
LANE(l_and32, l->d = U32(0) & U32(1); l->cout = l->d != 0)
LANE(l_and64, l->d = U64(0) & U64(1); l->cout = l->d != 0)
LANE(l_or32, l->d = U32(0) | U32(1); l->cout = l->d != 0)
LANE(l_or64, l->d = U64(0) | U64(1); l->cout = l->d != 0)
LANE(l_xor32, l->d = U32(0) ^ U32(1); l->cout = l->d != 0)
LANE(l_xor64, l->d = U64(0) ^ U64(1); l->cout = l->d != 0)
LANE(l_andn2_32, l->d = U32(0) & ~U32(1); l->cout = l->d != 0)
LANE(l_orn2_32, l->d = U32(0) | ~U32(1); l->cout = l->d != 0)
LANE(l_xnor32, l->d = ~(U32(0) ^ U32(1)))
LANE(l_andn2_64, l->d = U64(0) & ~U64(1); l->cout = l->d != 0)
LANE(l_orn2_64, l->d = U64(0) | ~U64(1); l->cout = l->d != 0)
LANE(l_lshl32, l->d = U32(0) << (U32(1) & 31); l->cout = l->d != 0)
LANE(l_lshl64, l->d = U64(0) << (U32(1) & 63); l->cout = l->d != 0)
LANE(l_lshr32, l->d = U32(0) >> (U32(1) & 31); l->cout = l->d != 0)
LANE(l_lshr64, l->d = U64(0) >> (U32(1) & 63); l->cout = l->d != 0)
LANE(l_ashr32, l->d = (uint32_t)(I32(0) >> (U32(1) & 31)); l->cout = l->d != 0)
LANE(l_ashr64, l->d = (uint64_t)(I64(0) >> (U32(1) & 63)); l->cout = l->d != 0)
/* the VALU's reversed shifts: src1 shifted by src0 */
LANE(l_lshlrev32, l->d = U32(1) << (U32(0) & 31))
LANE(l_lshrrev32, l->d = U32(1) >> (U32(0) & 31))
LANE(l_ashrrev32, l->d = (uint32_t)(I32(1) >> (U32(0) & 31)))
LANE(l_lshlrev64, l->d = U64(1) << (U32(0) & 63))
LANE(l_lshrrev64, l->d = U64(1) >> (U32(0) & 63))
LANE(l_ashrrev64, l->d = (uint64_t)(I64(1) >> (U32(0) & 63)))
LANE(l_lshlrev16, l->d = (uint16_t)((uint16_t)U32(1) << (U32(0) & 15)))
LANE(l_lshrrev16, l->d = (uint16_t)((uint16_t)U32(1) >> (U32(0) & 15)))
LANE(l_add_u16, l->d = (uint16_t)(U32(0) + U32(1)))
LANE(l_sub_u16, l->d = (uint16_t)(U32(0) - U32(1)))
LANE(l_mul_lo_u16, l->d = (uint16_t)(U32(0) * U32(1)))
static void l_bfe_u32(AmdLane *l)
{
    uint32_t off = U32(1) & 31, w = U32(2) & 31;
    l->d = w ? (U32(0) >> off) & ((1u << w) - 1) : 0;
}
static void l_bfe_i32(AmdLane *l)
{
    uint32_t off = U32(1) & 31, w = U32(2) & 31;
    l->d = w ? (uint32_t)(((int32_t)(U32(0) << (32 - off - w > 31 ? 0 : 32 - off - w))) >> (32 - w)) : 0;
    if (off + w > 32)
        l->d = (uint32_t)(I32(0) >> off);
}
/* s_bfe: src1 holds offset [5:0] and width [22:16] */
static void l_s_bfe_u32(AmdLane *l)
{
    uint32_t off = U32(1) & 31, w = (U32(1) >> 16) & 0x7f;
    l->d = w == 0 ? 0 : w >= 32 ? U32(0) >> off : (U32(0) >> off) & ((1u << w) - 1);
    l->cout = l->d != 0;
}
static void l_s_bfe_i32(AmdLane *l)
{
    uint32_t off = U32(1) & 31, w = (U32(1) >> 16) & 0x7f;
    uint32_t v = U32(0) >> off;
    if (w == 0)
        v = 0;
    else if (w < 32)
        v = (uint32_t)((int32_t)(v << (32 - w)) >> (32 - w));
    l->d = v;
    l->cout = v != 0;
}
static void l_s_bfe_u64(AmdLane *l)
{
    uint32_t off = U32(1) & 63, w = (U32(1) >> 16) & 0x7f;
    uint64_t v = U64(0) >> off;
    l->d = w == 0 ? 0 : w >= 64 ? v : v & ((1ull << w) - 1);
    l->cout = l->d != 0;
}
static void l_s_bfe_i64(AmdLane *l)
{
    uint32_t off = U32(1) & 63, w = (U32(1) >> 16) & 0x7f;
    uint64_t v = U64(0) >> off;
    if (w == 0)
        v = 0;
    else if (w < 64)
        v = (uint64_t)((int64_t)(v << (64 - w)) >> (64 - w));
    l->d = v;
    l->cout = v != 0;
}
LANE(l_bfi, l->d = (U32(0) & U32(1)) | (~U32(0) & U32(2)))
/* v_perm_b32: byte i of the result is chosen by byte i of s2 from the eight
 * bytes of s0:s1 (s1 the low dword): 0-7 a byte, 8-11 the sign of bytes
 * 1, 3, 5, 7 spread, 12 zero, 13 and up 0xff. */
static void l_perm(AmdLane *l)
{
    uint64_t data = (uint64_t)U32(0) << 32 | U32(1);
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        unsigned sel = U32(2) >> (8 * i) & 0xff;
        uint32_t b = sel >= 13   ? 0xff
                     : sel == 12 ? 0
                     : sel >= 8  ? ((data >> (16 * (sel - 8) + 15)) & 1) * 0xff
                                 : (uint32_t)(data >> (8 * sel)) & 0xff;
        r |= b << (8 * i);
    }
    l->d = r;
}
LANE(l_alignbit, l->d = (uint32_t)((((uint64_t)U32(0) << 32) | U32(1)) >> (U32(2) & 31)))
static void l_med3_i32(AmdLane *l)
{
    int32_t a = I32(0), b = I32(1), c = I32(2);
    int32_t mx = a > b ? a : b, mn = a < b ? a : b;
    l->d = (uint32_t)(c > mx ? mx : c < mn ? mn : c);
}
#define MIN3(a, b, c) ((a) < (b) ? ((a) < (c) ? (a) : (c)) : ((b) < (c) ? (b) : (c)))
#define MAX3(a, b, c) ((a) > (b) ? ((a) > (c) ? (a) : (c)) : ((b) > (c) ? (b) : (c)))
LANE(l_min3_i32, l->d = (uint32_t)MIN3(I32(0), I32(1), I32(2)))
LANE(l_max3_i32, l->d = (uint32_t)MAX3(I32(0), I32(1), I32(2)))
LANE(l_min3_u32, l->d = MIN3(U32(0), U32(1), U32(2)))
LANE(l_max3_u32, l->d = MAX3(U32(0), U32(1), U32(2)))
static void l_med3_u32(AmdLane *l)
{
    uint32_t a = U32(0), b = U32(1), c = U32(2);
    uint32_t mx = a > b ? a : b, mn = a < b ? a : b;
    l->d = c > mx ? mx : c < mn ? mn : c;
}
/* GFX11 v_maxmin: min(max(s0, s1), s2); v_minmax: max(min(s0, s1), s2) */
LANE(l_maxmin_i32, int32_t m = I32(0) > I32(1) ? I32(0) : I32(1); l->d = (uint32_t)(m < I32(2) ? m : I32(2)))
LANE(l_minmax_i32, int32_t m = I32(0) < I32(1) ? I32(0) : I32(1); l->d = (uint32_t)(m > I32(2) ? m : I32(2)))
LANE(l_maxmin_u32, uint32_t m = U32(0) > U32(1) ? U32(0) : U32(1); l->d = m < U32(2) ? m : U32(2))
LANE(l_minmax_u32, uint32_t m = U32(0) < U32(1) ? U32(0) : U32(1); l->d = m > U32(2) ? m : U32(2))
LANE(l_xor3, l->d = U32(0) ^ U32(1) ^ U32(2))
LANE(l_lshl_or, l->d = (U32(0) << (U32(1) & 31)) | U32(2))
LANE(l_bfm, l->d = ((1u << (U32(0) & 31)) - 1) << (U32(1) & 31))
static void l_mad_i64_i32(AmdLane *l)
{
    __int128 r = (__int128)((int64_t)I32(0) * I32(1)) + (int64_t)U64(2);
    l->d = (uint64_t)r;
    l->cout = r > INT64_MAX || r < INT64_MIN;
}
LANE(l_xad_u32, l->d = (U32(0) ^ U32(1)) + U32(2))
LANE(l_lshl_add_u32, l->d = (U32(0) << (U32(1) & 31)) + U32(2))
LANE(l_add_lshl_u32, l->d = (U32(0) + U32(1)) << (U32(2) & 31))
LANE(l_add3_u32, l->d = U32(0) + U32(1) + U32(2))
LANE(l_and_or, l->d = (U32(0) & U32(1)) | U32(2))
LANE(l_or3, l->d = U32(0) | U32(1) | U32(2))
LANE(l_lshl_add_u64, l->d = (U64(0) << (U32(1) & 63)) + U64(2))
LANE(l_bitcmp0, l->cout = !(U32(0) >> (U32(1) & 31) & 1))
LANE(l_bitcmp1, l->cout = U32(0) >> (U32(1) & 31) & 1)
LANE(l_mbcnt_lo,
     l->d = (uint32_t)__builtin_popcount(U32(0) & (uint32_t)((1ull << (l->lane < 32 ? l->lane : 32)) - 1)) + U32(1))
static void l_mbcnt_hi(AmdLane *l)
{
    int n = l->lane > 32 ? l->lane - 32 : 0;
    l->d = (uint32_t)__builtin_popcount(U32(0) & (uint32_t)((1ull << n) - 1)) + U32(1);
}

/* ---- float ------------------------------------------------------------------- */

/* IEEE-mode min/max: a NaN operand yields the other; -0 < +0. */
static double fmin_hw(double a, double b)
{
    if (isnan(a))
        return isnan(b) ? NAN : b;
    if (isnan(b))
        return a;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static double fmax_hw(double a, double b)
{
    if (isnan(a))
        return isnan(b) ? NAN : b;
    if (isnan(b))
        return a;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}

LANE(l_add_f32, l->d = bf32(F32(0) + F32(1)))
LANE(l_sub_f32, l->d = bf32(F32(0) - F32(1)))
LANE(l_subrev_f32, l->d = bf32(F32(1) - F32(0)))
LANE(l_mul_f32, l->d = bf32(F32(0) * F32(1)))
LANE(l_fma_f32, l->d = bf32(fmaf(F32(0), F32(1), F32(2))))
LANE(l_fma_f16, l->d = d2h(fma(H16(0), H16(1), H16(2))))
static void l_mad_f32(AmdLane *l)
{
    volatile float p = F32(0) * F32(1); /* rounded before the add: v_mac/v_mad are not fused */
    l->d = bf32(p + F32(2));
}
LANE(l_min_f32, l->d = bf32((float)fmin_hw(F32(0), F32(1))))
LANE(l_max_f32, l->d = bf32((float)fmax_hw(F32(0), F32(1))))
LANE(l_add_f64, l->d = bf64(F64(0) + F64(1)))
LANE(l_mul_f64, l->d = bf64(F64(0) * F64(1)))
LANE(l_fma_f64, l->d = bf64(fma(F64(0), F64(1), F64(2))))
LANE(l_min_f64, l->d = bf64(fmin_hw(F64(0), F64(1))))
static void l_min3_f32(AmdLane *l)
{
    l->d = bf32((float)fmin_hw(fmin_hw(F32(0), F32(1)), F32(2)));
}
static void l_max3_f32(AmdLane *l)
{
    l->d = bf32((float)fmax_hw(fmax_hw(F32(0), F32(1)), F32(2)));
}
/* v_med3_f32: a NaN operand gives the min3 of the three; else the middle one. */
static void l_med3_f32(AmdLane *l)
{
    double a = F32(0), b = F32(1), c = F32(2);
    if (isnan(a) || isnan(b) || isnan(c))
        l->d = bf32((float)fmin_hw(fmin_hw(a, b), c));
    else
        l->d = bf32((float)fmax_hw(fmin_hw(a, b), fmin_hw(fmax_hw(a, b), c)));
}
LANE(l_max_f64, l->d = bf64(fmax_hw(F64(0), F64(1))))
/* GFX12's v_minimum / v_maximum (IEEE 754-2019): a NaN operand gives NaN, -0 < +0. */
#define MINMAX_2019(name, T, F, BF, MAX)                                                                               \
    static void name(AmdLane *l)                                                                                       \
    {                                                                                                                  \
        T a = F(l->s[0]), b = F(l->s[1]);                                                                              \
        T r = isnan(a) || isnan(b) ? (T)NAN                                                                            \
              : a == b             ? ((signbit(a) != 0) == (MAX) ? b : a)                                              \
              : (a > b) == (MAX)   ? a                                                                                 \
                                   : b;                                                                                  \
        l->d = BF(r);                                                                                                  \
    }
MINMAX_2019(l_minimum_f32, float, f32, bf32, 0)
MINMAX_2019(l_maximum_f32, float, f32, bf32, 1)
MINMAX_2019(l_minimum_f64, double, f64, bf64, 0)
MINMAX_2019(l_maximum_f64, double, f64, bf64, 1)
LANE(l_ldexp_f32, l->d = bf32(ldexpf(F32(0), I32(1))))
LANE(l_ldexp_f64, l->d = bf64(ldexp(F64(0), I32(1))))
LANE(l_add_f16, l->d = f2h(H16(0) + H16(1)))
LANE(l_sub_f16, l->d = f2h(H16(0) - H16(1)))
LANE(l_mul_f16, l->d = f2h(H16(0) * H16(1)))
LANE(l_min_f16, l->d = f2h((float)fmin_hw(H16(0), H16(1))))
LANE(l_max_f16, l->d = f2h((float)fmax_hw(H16(0), H16(1))))
LANE(l_sqrt_f16, l->d = f2h(sqrtf(H16(0))))
LANE(l_rndne_f16, l->d = f2h(nearbyintf(H16(0))))
LANE(l_floor_f16, l->d = f2h(floorf(H16(0))))
LANE(l_ceil_f16, l->d = f2h(ceilf(H16(0))))
LANE(l_trunc_f16, l->d = f2h(truncf(H16(0))))
LANE(l_pack_b32_f16, l->d = (U32(0) & 0xffff) | (U32(1) & 0xffff) << 16)
LANE(l_cvt_i32_f64, double v = F64(0); l->d = (uint32_t)(isnan(v)             ? 0
                                                         : v >= 2147483647.0  ? INT32_MAX
                                                         : v <= -2147483648.0 ? INT32_MIN
                                                                              : (int32_t)v))
LANE(l_cvt_i32_f32, float v = F32(0); l->d = (uint32_t)(isnan(v)              ? 0
                                                        : v >= 2147483647.0f  ? INT32_MAX
                                                        : v <= -2147483648.0f ? INT32_MIN
                                                                              : (int32_t)v))
LANE(l_cvt_u32_f32, float v = F32(0); l->d = isnan(v) || v <= 0 ? 0 : v >= 4294967295.0f ? UINT32_MAX : (uint32_t)v)
LANE(l_cvt_u32_f64, double v = F64(0); l->d = isnan(v) || v <= 0 ? 0 : v >= 4294967295.0 ? UINT32_MAX : (uint32_t)v)
LANE(l_cvt_f64_i32, l->d = bf64((double)I32(0)))
LANE(l_cvt_f64_u32, l->d = bf64((double)U32(0)))
LANE(l_cvt_f32_i32, l->d = bf32((float)I32(0)))
LANE(l_cvt_f32_u32, l->d = bf32((float)U32(0)))
LANE(l_cvt_f32_ubyte0, l->d = bf32((float)(U32(0) & 0xff)))
LANE(l_cvt_f32_f64, l->d = bf32((float)F64(0)))
LANE(l_cvt_f64_f32, l->d = bf64((double)F32(0)))
LANE(l_cvt_f16_f32, l->d = f2h(F32(0)))
LANE(l_cvt_f32_f16, l->d = bf32(H16(0)))
LANE(l_trunc_f32, l->d = bf32(truncf(F32(0))))
LANE(l_ceil_f32, l->d = bf32(ceilf(F32(0))))
LANE(l_rndne_f32, l->d = bf32(nearbyintf(F32(0))))
LANE(l_floor_f32, l->d = bf32(floorf(F32(0))))
LANE(l_trunc_f64, l->d = bf64(trunc(F64(0))))
LANE(l_ceil_f64, l->d = bf64(ceil(F64(0))))
LANE(l_rndne_f64, l->d = bf64(nearbyint(F64(0))))
LANE(l_floor_f64, l->d = bf64(floor(F64(0))))
/* The hardware approximations, computed exactly (within AMD's ulp bounds). */
LANE(l_exp_f32, l->d = bf32(exp2f(F32(0))))
LANE(l_log_f32, l->d = bf32(log2f(F32(0))))
LANE(l_rcp_f32, l->d = bf32(1.0f / F32(0)))
LANE(l_sqrt_f32, l->d = bf32(sqrtf(F32(0))))
LANE(l_rcp_f64, l->d = bf64(1.0 / F64(0)))
LANE(l_rsq_f32, l->d = bf32((float)(1.0 / sqrt((double)F32(0)))))
LANE(l_sqrt_f64, l->d = bf64(sqrt(F64(0))))
LANE(l_rsq_f64, l->d = bf64(1.0 / sqrt(F64(0))))
static void l_fract_f32(AmdLane *l)
{
    float x = F32(0);
    l->d = bf32(isinf(x) ? NAN : fminf(x - floorf(x), 0x1.fffffep-1f));
}
static void l_fract_f64(AmdLane *l)
{
    double x = F64(0);
    l->d = bf64(isinf(x) ? NAN : fmin(x - floor(x), 0x1.fffffffffffffp-1));
}
LANE(l_frexp_exp_f32, int e = 0; float x = F32(0); if (isfinite(x)) frexpf(x, &e); l->d = (uint32_t)e)
LANE(l_frexp_exp_f64, int e = 0; double x = F64(0); if (isfinite(x)) frexp(x, &e); l->d = (uint32_t)e)
LANE(l_frexp_mant_f32, int e; float x = F32(0); l->d = bf32(isfinite(x) ? frexpf(x, &e) : x))
LANE(l_frexp_mant_f64, int e; double x = F64(0); l->d = bf64(isfinite(x) ? frexp(x, &e) : x))
/* v_trig_preop_f64: the 53 bits of 2/pi that start at bit (src1 & 31) * 53, moved on by how far the biased
 * exponent of src0 exceeds 1077, as an integer scaled by 2^-(53 + shift); scaled up by 2^128 again for an
 * exponent of 1968 or more (ocml scales such arguments down by 2^-128 first). A start past the table gives 0. */
static void l_trig_preop(AmdLane *l)
{
    static const uint32_t two_over_pi[] = {
        0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
        0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
        0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
        0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
        0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046,
    };
    enum { WORDS = sizeof two_over_pi / sizeof two_over_pi[0] };
    int biased = (int)(U64(0) >> 52) & 0x7ff;
    int shift = (int)(U32(1) & 31) * 53;
    if (biased > 1077)
        shift += biased - 1077;
    if (shift / 32 + 2 >= WORDS) {
        l->d = bf64(0.0);
        return;
    }
    uint64_t m = 0;
    for (int i = 0; i < 53; i++) {
        int bit = shift + i;
        m = m << 1 | ((two_over_pi[bit / 32] >> (31 - bit % 32)) & 1);
    }
    int scale = -53 - shift;
    if (biased >= 1968)
        scale += 128;
    l->d = bf64(ldexp((double)m, scale));
}
static int fexp32(float x)
{
    return (int)((bf32(x) >> 23) & 0xff);
}
static int fexp64(double x)
{
    return (int)((bf64(x) >> 52) & 0x7ff);
}
/* v_div_scale, v_div_fmas, v_div_fixup: the three steps around the Newton
 * iteration of LLVM's division expansion (q = num / den):
 *   ds = div_scale(den, den, num); r ~ 1/ds; ns, VCC = div_scale(num, den, num)
 *   q0 = ns * r; e = fma(-ds, q0, ns); q1 = div_fmas(e, r, q0, VCC)
 *   q = div_fixup(q1, den, num)
 * div_scale scales numerator or denominator by 2^±64 (f32) or 2^±128 (f64)
 * so that neither 1/ds nor the quotient leaves the normal range; VCC says
 * the quotient must be scaled back (div_fmas, by the factor the exponent of
 * q0 points to). The branches follow the ISA's pseudocode, which tests
 * "is denormal" in exact arithmetic: here a ratio counts when it lies below
 * the smallest normal (computed wide enough not to flush to zero), and a
 * huge denominator with a tiny quotient is scaled down, not up (up would
 * overflow to infinity). The result is the IEEE quotient. s0 is the value
 * to scale, s1 the denominator, s2 the numerator. */
static bool tiny(long double x, long double least_normal)
{
    return x != 0 && fabsl(x) < least_normal;
}
#define DIV_SCALE(name, T, F, BF, FEXP, LDEXP, K, BIG, MANT, LEAST)                                                    \
    static void name(AmdLane *l)                                                                                       \
    {                                                                                                                  \
        T s0 = F(l->s[0]), s1 = F(l->s[1]), s2 = F(l->s[2]), d = s0;                                                   \
        long double inv = 1.0L / s1, quot = (long double)s2 / s1;                                                      \
        l->cout = 0;                                                                                                   \
        if (s2 == 0 || s1 == 0)                                                                                        \
            d = (T)NAN;                                                                                                \
        else if (FEXP(s2) - FEXP(s1) >= BIG) { /* the quotient near the largest: scale the denominator up */           \
            l->cout = 1;                                                                                               \
            if (s0 == s1)                                                                                              \
                d = LDEXP(s0, K);                                                                                      \
        } else if (fpclassify(s1) == FP_SUBNORMAL)                                                                     \
            d = LDEXP(s0, K);                                                                                          \
        else if (tiny(inv, LEAST) && tiny(quot, LEAST)) { /* huge denominator, tiny quotient */                        \
            l->cout = 1;                                                                                               \
            if (s0 == s1)                                                                                              \
                d = LDEXP(s0, -K);                                                                                     \
        } else if (tiny(inv, LEAST))                                                                                   \
            d = LDEXP(s0, -K);                                                                                         \
        else if (tiny(quot, LEAST)) { /* tiny quotient: scale the numerator up */                                      \
            l->cout = 1;                                                                                               \
            if (s0 == s2)                                                                                              \
                d = LDEXP(s0, K);                                                                                      \
        } else if (FEXP(s2) <= MANT)                                                                                   \
            d = LDEXP(s0, K);                                                                                          \
        l->d = BF(d);                                                                                                  \
    }
DIV_SCALE(l_div_scale_f32, float, f32, bf32, fexp32, ldexpf, 64, 96, 23, 0x1p-126L)
DIV_SCALE(l_div_scale_f64, double, f64, bf64, fexp64, ldexp, 128, 768, 53, 0x1p-1022L)

/* fma(a, b, c) * 2^k rounded once: the fma rounded to odd (toward zero, the
 * last bit set when inexact) keeps enough to round the scaled value right
 * when it lands among the denormals. */
static double fma_scaled(double a, double b, double c, int k)
{
    if (k > 0)
        return ldexp(fma(a, b, c), k);
    fenv_t env;
    feholdexcept(&env);
    fesetround(FE_TOWARDZERO);
    volatile double p = fma(a, b, c);
    bool inexact = fetestexcept(FE_INEXACT) != 0;
    fesetenv(&env);
    double q = p;
    if (inexact && isfinite(q))
        q = f64(bf64(q) | 1);
    return ldexp(q, k);
}
static void l_div_fmas_f32(AmdLane *l)
{
    float s2 = F32(2);
    if (!l->cin) {
        l->d = bf32(fmaf(F32(0), F32(1), s2));
        return;
    }
    /* the product of two floats is exact in a double; the sum rounded to odd there */
    l->d = bf32((float)fma_scaled(F32(0), F32(1), s2, fexp32(s2) > 127 ? 64 : -64));
}
static void l_div_fmas_f64(AmdLane *l)
{
    double s2 = F64(2);
    l->d = bf64(l->cin ? fma_scaled(F64(0), F64(1), s2, fexp64(s2) > 1023 ? 128 : -128) : fma(F64(0), F64(1), s2));
}
/* v_div_fixup: s0 the quotient, s1 the denominator, s2 the numerator; the
 * special cases of IEEE division, and a quotient that overflowed on the way
 * (infinite or NaN from finite operands) is the signed infinity. */
#define DIV_FIXUP(name, T, F, BF, FABS, INF)                                                                           \
    static void name(AmdLane *l)                                                                                       \
    {                                                                                                                  \
        T q = F(l->s[0]), den = F(l->s[1]), num = F(l->s[2]);                                                          \
        int neg = signbit(den) != signbit(num);                                                                        \
        T r;                                                                                                           \
        if (isnan(num))                                                                                                \
            r = num;                                                                                                   \
        else if (isnan(den))                                                                                           \
            r = den;                                                                                                   \
        else if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))                                                 \
            r = (T)NAN;                                                                                                \
        else if (den == 0 || isinf(num))                                                                               \
            r = neg ? -INF : INF;                                                                                      \
        else if (isinf(den) || num == 0)                                                                               \
            r = neg ? (T) - 0.0 : (T)0.0;                                                                              \
        else if (!isfinite(q))                                                                                         \
            r = neg ? -INF : INF;                                                                                      \
        else                                                                                                           \
            r = neg ? -FABS(q) : FABS(q);                                                                              \
        l->d = BF(r);                                                                                                  \
    }
DIV_FIXUP(l_div_fixup_f32, float, f32, bf32, fabsf, INFINITY)
DIV_FIXUP(l_div_fixup_f64, double, f64, bf64, fabs, (double)INFINITY)
static void l_div_fixup_f16(AmdLane *l)
{
    float q = H16(0), den = H16(1), num = H16(2), r;
    int neg = signbit(den) != signbit(num);
    if (isnan(num) || isnan(den) || (den == 0 && num == 0) || (isinf(den) && isinf(num)))
        r = NAN;
    else if (den == 0 || isinf(num))
        r = neg ? -INFINITY : INFINITY;
    else if (isinf(den) || num == 0)
        r = neg ? -0.0f : 0.0f;
    else
        r = neg ? -fabsf(q) : fabsf(q);
    l->d = f2h(r);
}

/* ---- compares: VOPC's condition codes ---------------------------------------- */

/* v_cmp_class: bit i of src1 tests class i of src0. */
static unsigned fclass(double x, bool is_snan)
{
    if (isnan(x))
        return is_snan ? 0 : 1;
    bool n = signbit(x);
    switch (fpclassify(x)) {
    case FP_INFINITE: return n ? 2 : 9;
    case FP_NORMAL: return n ? 3 : 8;
    case FP_SUBNORMAL: return n ? 4 : 7;
    case FP_ZERO: return n ? 5 : 6;
    }
    return 1;
}
LANE(l_class_f32, l->cout = U32(1) >> fclass(F32(0), isnan(F32(0)) && !(U32(0) & 0x400000)) & 1)
LANE(l_class_f64, l->cout = U32(1) >> fclass(F64(0), isnan(F64(0)) && !(U64(0) & (1ull << 51))) & 1)
/* fclass of a half from its bits: its subnormals are normal once widened to a float */
static unsigned fclass_f16(uint16_t h)
{
    unsigned e = h >> 10 & 0x1f, m = h & 0x3ff;
    bool n = h >> 15;
    if (e == 0x1f)
        return m ? (m & 0x200 ? 1 : 0) : (n ? 2 : 9);
    if (e == 0)
        return m ? (n ? 4 : 7) : (n ? 5 : 6);
    return n ? 3 : 8;
}
LANE(l_class_f16, l->cout = U32(1) >> fclass_f16((uint16_t)U32(0)) & 1)

/* Float conditions in VOPC order: f lt eq le gt lg ge o u nge nlg ngt nle neq nlt tru. */
static inline uint32_t fcond(unsigned c, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (c) {
    case 0: return 0;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a < b || a > b;
    case 6: return a >= b;
    case 7: return !un;
    case 8: return un;
    case 9: return !(a >= b);
    case 10: return !(a < b || a > b);
    case 11: return !(a > b);
    case 12: return !(a <= b);
    case 13: return !(a == b);
    case 14: return !(a < b);
    default: return 1;
    }
}
/* Integer conditions: f lt eq le gt ne ge t. */
#define ICOND(c, a, b)                                                                                                 \
    ((c) == 1   ? (a) < (b)                                                                                            \
     : (c) == 2 ? (a) == (b)                                                                                           \
     : (c) == 3 ? (a) <= (b)                                                                                           \
     : (c) == 4 ? (a) > (b)                                                                                            \
     : (c) == 5 ? (a) != (b)                                                                                           \
     : (c) == 6 ? (a) >= (b)                                                                                           \
                : (c) == 7)

#define CMPF(name, T, F)                                                                                               \
    static void name(AmdLane *l)                                                                                       \
    {                                                                                                                  \
        l->cout = fcond(l->aux, (double)F(0), (double)F(1));                                                           \
    }
CMPF(l_cmp_f16, float, H16)
CMPF(l_cmp_f32, float, F32)
CMPF(l_cmp_f64, double, F64)
#define CMPI(name, T)                                                                                                  \
    static void name(AmdLane *l)                                                                                       \
    {                                                                                                                  \
        T a = (T)l->s[0], b = (T)l->s[1];                                                                              \
        l->cout = ICOND(l->aux, a, b);                                                                                 \
    }
CMPI(l_cmp_i16, int16_t)
CMPI(l_cmp_u16, uint16_t)
CMPI(l_cmp_i32, int32_t)
CMPI(l_cmp_u32, uint32_t)
CMPI(l_cmp_i64, int64_t)
CMPI(l_cmp_u64, uint64_t)

/* SOPC compares: aux is the condition (eq lg gt ge lt le for i32 0..5, u32 6..11). */
#define SCMP(name, T, c)                                                                                               \
    static void name(AmdLane *l)                                                                                       \
    {                                                                                                                  \
        T a = (T)l->s[0], b = (T)l->s[1];                                                                              \
        l->cout = (c) == 0   ? a == b                                                                                  \
                  : (c) == 1 ? a != b                                                                                  \
                  : (c) == 2 ? a > b                                                                                   \
                  : (c) == 3 ? a >= b                                                                                  \
                  : (c) == 4 ? a < b                                                                                   \
                             : a <= b;                                                                                 \
    }
SCMP(l_scmp_eq_i32, int32_t, 0)
SCMP(l_scmp_lg_i32, int32_t, 1)
SCMP(l_scmp_gt_i32, int32_t, 2)
SCMP(l_scmp_ge_i32, int32_t, 3)
SCMP(l_scmp_lt_i32, int32_t, 4)
SCMP(l_scmp_le_i32, int32_t, 5)
SCMP(l_scmp_eq_u32, uint32_t, 0)
SCMP(l_scmp_lg_u32, uint32_t, 1)
SCMP(l_scmp_gt_u32, uint32_t, 2)
SCMP(l_scmp_ge_u32, uint32_t, 3)
SCMP(l_scmp_lt_u32, uint32_t, 4)
SCMP(l_scmp_le_u32, uint32_t, 5)
SCMP(l_scmp_eq_u64, uint64_t, 0)
SCMP(l_scmp_lg_u64, uint64_t, 1)

/* ---- executors of their own -------------------------------------------------- */

static int x_nop(AmdWave *w, const AmdDec *d)
{
    return 0;
}

static int x_endpgm(AmdWave *w, const AmdDec *d)
{
    w->state = AMDEMU_DONE;
    return 0;
}

static int x_barrier(AmdWave *w, const AmdDec *d)
{
    w->state = AMDEMU_BARRIER;
    return 0;
}

/* s_trap 2 is llvm.trap; s_trap 3, llvm.debugtrap, goes on: no debugger is attached. */
static int x_trap(AmdWave *w, const AmdDec *d)
{
    if ((d->imm & 0xff) == 3)
        return 0;
    return amdemu_fail(w, d, "the kernel trapped (s_trap %d)", d->imm & 0xff);
}

/* GFX9's GPR indexing mode (the GFX9 ISA manual, S_SET_GPR_IDX_*): M0[7:0] is the index, M0[15:12] which
 * VALU operands it moves (bit 0..2 the sources, 3 the destination); LLVM brackets dynamic indexing into
 * registers with on and off (a @private array's priv[j] in a loop). */
static int x_gpr_idx_on(AmdWave *w, const AmdDec *d)
{
    uint32_t idx = (uint32_t)amdemu_sread(w, d->src[0], false, false, false, d->lit);
    w->s[124] = (w->s[124] & ~0xf0ffu) | (idx & 0xff) | (uint32_t)(d->src[1] & 0xf) << 12;
    w->gpr_idx_en = true;
    return 0;
}

static int x_gpr_idx_off(AmdWave *w, const AmdDec *d)
{
    w->gpr_idx_en = false;
    return 0;
}

static int x_gpr_idx_mode(AmdWave *w, const AmdDec *d)
{
    w->s[124] = (w->s[124] & ~0xf000u) | (uint32_t)(d->imm & 0xf) << 12;
    return 0;
}

/* SOPP branches: aux = 0 always, 1 scc0, 2 scc1, 3 vccz, 4 vccnz, 5 execz, 6 execnz. */
static int x_branch(AmdWave *w, const AmdDec *d)
{
    uint64_t vcc = amdemu_sread(w, 106, w->lanes == 64, false, false, 0);
    uint64_t exec = amdemu_exec_mask(w);
    bool take;
    switch (d->op->aux) {
    case 1: take = !w->scc; break;
    case 2: take = w->scc; break;
    case 3: take = vcc == 0; break;
    case 4: take = vcc != 0; break;
    case 5: take = exec == 0; break;
    case 6: take = exec != 0; break;
    default: take = true;
    }
    if (take)
        w->pc = w->pc + (uint64_t)((int64_t)d->imm * 4); /* pc already points past this instruction */
    return 0;
}

static int x_getpc(AmdWave *w, const AmdDec *d)
{
    amdemu_swrite(w, d->dst, w->pc, true);
    return 0;
}

static int x_setpc(AmdWave *w, const AmdDec *d)
{
    w->pc = amdemu_sread(w, d->src[0], true, false, false, 0);
    return 0;
}

static int x_swappc(AmdWave *w, const AmdDec *d)
{
    uint64_t target = amdemu_sread(w, d->src[0], true, false, false, 0);
    amdemu_swrite(w, d->dst, w->pc, true);
    w->pc = target;
    return 0;
}

/* s_*_saveexec_b64: aux 0 and, 1 or, 2 xor, 3 andn2, 4 orn2. */
static int x_saveexec(AmdWave *w, const AmdDec *d)
{
    bool b64 = !(d->op->flags & O_B32);
    uint64_t s = amdemu_sread(w, d->src[0], b64, false, false, d->lit);
    uint64_t e = amdemu_exec_mask(w), n;
    switch (d->op->aux) {
    case 0: n = s & e; break;
    case 1: n = s | e; break;
    case 2: n = s ^ e; break;
    case 3: n = s & ~e; break;
    default: n = s | ~e; break;
    }
    amdemu_swrite(w, d->dst, e, b64);
    amdemu_set_exec(w, b64 ? n : (uint32_t)n);
    w->scc = amdemu_exec_mask(w) != 0;
    return 0;
}

/* v_movreld_b32 (aux 1: VGPR[D + M0] = S0), v_movrels_b32 (aux 2: D = VGPR[S0 + M0]) and v_movrelsd_b32
 * (aux 3: both): LLVM's indexing of a register array at run time on GFX10+ (GFX9 uses s_set_gpr_idx_on). */
static int x_movrel(AmdWave *w, const AmdDec *d)
{
    unsigned m0 = w->s[w->isa >= AMD_GFX11 ? 125 : 124], aux = d->op->aux; /* M0's operand code */
    if (d->src[0] < 256 && (aux & 2))
        return amdemu_fail(w, d, "v_movrels of a scalar source");
    unsigned dst = (d->dst + (aux & 1 ? m0 : 0)) & 511, src = (d->src[0] - 256 + (aux & 2 ? m0 : 0)) & 511;
    uint32_t s0 = d->src[0] < 256 ? (uint32_t)amdemu_sread(w, d->src[0], false, false, false, d->lit) : 0;
    uint32_t tmp[64];
    for (int k = 0; k < w->lanes; k++)
        tmp[k] = d->src[0] < 256 ? s0 : w->v[src][k];
    for (uint64_t m = amdemu_exec_mask(w); m; m &= m - 1) {
        int lane = __builtin_ctzll(m);
        w->v[dst][lane] = tmp[lane];
    }
    return 0;
}

static int x_readfirstlane(AmdWave *w, const AmdDec *d)
{
    uint64_t e = amdemu_exec_mask(w);
    int lane = e ? __builtin_ctzll(e) : 0;
    uint32_t v = d->src[0] >= 256 ? w->v[d->src[0] - 256][lane]
                                  : (uint32_t)amdemu_sread(w, d->src[0], false, false, false, d->lit);
    amdemu_swrite(w, d->dst, v, false);
    return 0;
}

static int x_readlane(AmdWave *w, const AmdDec *d)
{
    uint32_t lane = (uint32_t)amdemu_sread(w, d->src[1], false, false, false, 0) & (uint32_t)(w->lanes - 1);
    uint32_t v =
        d->src[0] >= 256 ? w->v[d->src[0] - 256][lane] : (uint32_t)amdemu_sread(w, d->src[0], false, false, false, 0);
    amdemu_swrite(w, d->dst, v, false);
    return 0;
}

static int x_waitcnt(AmdWave *w, const AmdDec *d)
{
    return 0; /* memory completes in order: nothing is outstanding */
}

/* s_load_dword{,x2,x4,x8,x16}: aux = dwords. */
/* GFX12's s_load_{i8,u8,i16,u16}: aux = bytes | MEM_SIGNED (defined below). */
static int x_smem_load_sub(AmdWave *w, const AmdDec *d)
{
    uint64_t base = amdemu_sread(w, d->src[0], true, false, false, 0) & 0xffffffffffffull;
    int64_t off = d->imm;
    if (d->saddr)
        off += amdemu_sread(w, d->saddr - 1, false, false, false, 0);
    unsigned bytes = d->op->aux & 0xff;
    const uint8_t *p = amdemu_addr(w, d, base + (uint64_t)off, 0, bytes);
    if (!p)
        return -1;
    uint32_t v = 0;
    memcpy(&v, p, bytes);
    if (d->op->aux & 0x100)
        v = bytes == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
    w->s[d->dst & 127] = v;
    return 0;
}

/* GFX12's v_s_* (exp, log, rcp, rsq, sqrt of f32 and f16): the VALU's
 * operation on one scalar, into an SGPR; abs and neg of the source apply. */
static int x_valu_scalar(AmdWave *w, const AmdDec *d)
{
    bool f16 = d->op->flags & O_F16;
    AmdLane l = { .w = w };
    uint64_t v = amdemu_sread(w, d->src[0], false, false, f16, d->lit);
    uint64_t sign = f16 ? 0x8000u : 0x80000000u;
    if (d->abs & 1)
        v &= ~sign;
    if (d->neg & 1)
        v ^= sign;
    l.s[0] = v;
    d->op->lane(&l);
    if (d->clamp || d->omod)
        return amdemu_fail(w, d, "clamp and omod of v_s_* are not modelled");
    amdemu_swrite(w, d->dst, (uint32_t)l.d & (f16 ? 0xffffu : 0xffffffffu), false);
    w->lane_instrs++;
    return 0;
}

/* GFX12's s_fmaak_f32 (aux 0: s0 * s1 + K), s_fmamk_f32 (1: s0 * K + s1),
 * s_fmac_f32 (2: s0 * s1 + d), s_fmac_f16 (3: on the low halves, the result's high half 0); K the literal.
 * SCC stays. */
static int x_salu_fma(AmdWave *w, const AmdDec *d)
{
    if (d->op->aux == 3) {
        float a = h2f((uint16_t)amdemu_sread(w, d->src[0], false, false, true, d->lit));
        float b = h2f((uint16_t)amdemu_sread(w, d->src[1], false, false, true, d->lit));
        float c = h2f((uint16_t)amdemu_sread(w, d->dst, false, false, true, 0));
        amdemu_swrite(w, d->dst, d2h(fma(a, b, c)), false);
        w->lane_instrs++;
        return 0;
    }
    float a = f32(amdemu_sread(w, d->src[0], false, false, false, d->lit));
    float b = f32(amdemu_sread(w, d->src[1], false, false, false, d->lit));
    float k = f32(d->lit), c = f32(amdemu_sread(w, d->dst, false, false, false, 0));
    float r = d->op->aux == 0 ? fmaf(a, b, k) : d->op->aux == 1 ? fmaf(a, k, b) : fmaf(a, b, c);
    amdemu_swrite(w, d->dst, bf32(r), false);
    w->lane_instrs++;
    return 0;
}

static int x_smem_load(AmdWave *w, const AmdDec *d)
{
    uint64_t base = amdemu_sread(w, d->src[0], true, false, false, 0) & 0xffffffffffffull;
    int64_t off = d->src[2] ? (int64_t)(uint32_t)amdemu_sread(w, d->src[1], false, false, false, 0) : d->imm;
    if (d->saddr)
        off += amdemu_sread(w, d->saddr - 1, false, false, false, 0);
    uint64_t a = (base + (uint64_t)off) & ~3ull;
    const uint32_t *p = amdemu_addr(w, d, a, 0, d->op->aux * 4);
    if (!p)
        return -1;
    for (unsigned i = 0; i < d->op->aux; i++)
        w->s[(d->dst + i) & 127] = p[i];
    return 0;
}

/* s_sleep N: about 64 * N clocks, taken as nanoseconds. */
static int x_sleep(AmdWave *w, const AmdDec *d)
{
    struct timespec ts = { 0, 64 * (long)(d->imm & 0x7f) };
    w->slept += 64u * (uint32_t)(d->imm & 0x7f);
    nanosleep(&ts, NULL);
    return 0;
}

/* s_memtime (aux 0: the shader clock, taken as nanoseconds) and s_memrealtime
 * (aux 1: the 100 MHz constant clock): the host's monotonic clock. */
static int x_memtime(AmdWave *w, const AmdDec *d)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    amdemu_swrite(w, d->dst, d->op->aux ? ns / 10 : ns, true);
    return 0;
}

/* s_sendmsg_rtn_b64 (GFX11): only MSG_RTN_GET_REALTIME (0x83), the 100 MHz clock. */
static int x_sendmsg_rtn(AmdWave *w, const AmdDec *d)
{
    if ((d->src[0] & 0xff) != 0x83)
        return amdemu_fail(w, d, "s_sendmsg_rtn of message 0x%x is not modelled", d->src[0] & 0xff);
    return x_memtime(w, d);
}

/* s_getreg_b32 hwreg(ID, OFFSET, SIZE): only GFX11's HW_REG_SHADER_CYCLES (29),
 * a 20-bit cycle counter that wraps, as on the GPU. Here a cycle is a
 * lane-instruction of the wave plus the cycles it slept: the host's clock
 * would wrap 20 bits in a millisecond, between any two reads. */
static int x_getreg(AmdWave *w, const AmdDec *d)
{
    unsigned id = d->imm & 0x3f, off = (d->imm >> 6) & 0x1f, size = ((d->imm >> 11) & 0x1f) + 1;
    /* GFX11: 29 is a 20-bit counter; GFX12: 29 and 30 the low and high words of a 64-bit one */
    if (w->isa < AMD_GFX11 || (id != 29 && !(id == 30 && w->isa == AMD_GFX12)))
        return amdemu_fail(w, d, "s_getreg_b32 of hardware register %u is not modelled", id);
    uint64_t v = w->lane_instrs + w->slept;
    v = w->isa == AMD_GFX11 ? v & 0xfffff : id == 30 ? v >> 32 : v & 0xffffffffu;
    amdemu_swrite(w, d->dst, (uint32_t)(v >> off) & (size >= 32 ? 0xffffffffu : (1u << size) - 1), false);
    return 0;
}

/* ---- memory ------------------------------------------------------------------- */

/* A host pointer for `bytes` at flat address a of `lane`; NULL after failing the launch. */
void *amdemu_addr(AmdWave *w, const AmdDec *d, uint64_t a, int lane, uint32_t bytes)
{
    AmdGroup *g = w->g;
    uint32_t hi = (uint32_t)(a >> 32), lo = (uint32_t)a;
    if (hi == AMDEMU_SHARED_HI) {
        if ((uint64_t)lo + bytes > g->lds_size) {
            amdemu_fail(w, d, "LDS access at 0x%x (%u bytes) past the %u bytes of the workgroup", lo, bytes,
                        g->lds_size);
            return NULL;
        }
        return g->lds + lo;
    }
    if (hi == AMDEMU_PRIVATE_HI) {
        if ((uint64_t)lo + bytes > g->priv_bytes) {
            amdemu_fail(w, d, "scratch access at 0x%x (%u bytes) past the %u private bytes of a lane", lo, bytes,
                        g->priv_bytes);
            return NULL;
        }
        return g->scratch + ((size_t)w->index * (size_t)w->lanes + (size_t)lane) * g->priv_bytes + lo;
    }
    if (a < 65536 || a >> 47) {
        amdemu_fail(w, d, "memory access at address 0x%llx, lane %d: not memory of this device", (unsigned long long)a,
                    lane);
        return NULL;
    }
    return (void *)(uintptr_t)a;
}

/* amdemu_addr with the common case inline: the apertures lie above 2^47, so
 * an address in [64 KiB, 2^47) is host memory. */
static inline void *lane_ptr(AmdWave *w, const AmdDec *d, uint64_t a, int lane, uint32_t bytes)
{
    if (a >= 65536 && !(a >> 47))
        return (void *)(uintptr_t)a;
    return amdemu_addr(w, d, a, lane, bytes);
}

/* The flat address of lane `lane` of a FLAT/GLOBAL/SCRATCH instruction. */
static inline uint64_t flat_address(AmdWave *w, const AmdDec *d, int lane)
{
    if (d->seg == 2) { /* GLOBAL: saddr 0x7f = off: a 64-bit VGPR address */
        if (d->saddr == 0x7f)
            return (w->v[d->vaddr][lane] | (uint64_t)w->v[(d->vaddr + 1) & 255][lane] << 32) +
                   (uint64_t)(int64_t)d->imm;
        return amdemu_sread(w, d->saddr, true, false, false, 0) + w->v[d->vaddr][lane] + (uint64_t)(int64_t)d->imm;
    }
    if (d->seg == 1) { /* SCRATCH: a per-lane offset from an SGPR and/or a VGPR */
        uint32_t off = (uint32_t)d->imm;
        if (d->saddr != 0x7f)
            off += (uint32_t)amdemu_sread(w, d->saddr, false, false, false, 0);
        if (d->imm1) /* SVE (gfx940, GFX11): the VGPR address is used; without it `off, off` is the offset alone */
            off += w->v[d->vaddr][lane];
        return (uint64_t)AMDEMU_PRIVATE_HI << 32 | off;
    }
    return (w->v[d->vaddr][lane] | (uint64_t)w->v[(d->vaddr + 1) & 255][lane] << 32) + (uint64_t)(int64_t)d->imm;
}

/* Memory rows: aux = bytes | MEM_SIGNED (sign-extended loads) | MEM_D16_HI
 * (the high 16 bits of the data VGPR: stores read it, loads write it and keep
 * the low half) | MEM_D16 (loads write the low 16 bits, keeping the high). */
enum { MEM_SIGNED = 0x100, MEM_D16_HI = 0x200, MEM_D16 = 0x400 };

/* Inlined into each caller, so `addr` is a known function there. */
static inline __attribute__((always_inline)) int mem_load(AmdWave *w, const AmdDec *d,
                                                          uint64_t (*addr)(AmdWave *, const AmdDec *, int))
{
    uint32_t bytes = d->op->aux & 0xff;
    bool sgn = d->op->aux & MEM_SIGNED;
    uint64_t exec = amdemu_exec_mask(w);
    uint64_t prev_a = 0;
    int prev = -1;
    for (int lane = 0; lane < w->lanes; lane++) {
        if (!(exec >> lane & 1))
            continue;
        uint64_t a = addr(w, d, lane);
        if (bytes >= 4 && prev >= 0 && a == prev_a) {
            /* one read of global memory serves every lane of the address, as the GPU's single request does:
               LLVM takes a load from a uniform address to be uniform, so the lanes must not see another
               thread's store in between (scratch addresses are per lane, so they are never shared) */
            for (uint32_t i = 0; i < bytes / 4; i++)
                w->v[(d->dst + i) & 511][lane] = w->v[(d->dst + i) & 511][prev];
            continue;
        }
        const uint8_t *p = lane_ptr(w, d, a, lane, bytes);
        if (!p)
            return -1;
        if (bytes >= 4) {
            for (uint32_t i = 0; i < bytes / 4; i++) {
                if (i + 1 < bytes / 4 && !((uintptr_t)(p + 4 * i) & 7)) {
                    /* an aligned 8 bytes in one read: the GPU's are single-copy atomic (LLVM's atomic i64 loads) */
                    uint64_t v = __atomic_load_n((const uint64_t *)(const void *)(p + 4 * i), __ATOMIC_RELAXED);
                    w->v[(d->dst + i) & 511][lane] = (uint32_t)v;
                    w->v[(d->dst + i + 1) & 511][lane] = (uint32_t)(v >> 32);
                    i++;
                } else
                    memcpy(&w->v[(d->dst + i) & 511][lane], p + 4 * i, 4);
            }
            if (a >= 65536 && !(a >> 47)) {
                prev_a = a;
                prev = lane;
            }
        } else {
            uint32_t v = 0;
            memcpy(&v, p, bytes);
            if (sgn)
                v = bytes == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
            uint32_t old = w->v[d->dst][lane];
            if (d->op->aux & MEM_D16)
                v = (old & 0xffff0000u) | (v & 0xffffu);
            else if (d->op->aux & MEM_D16_HI)
                v = (old & 0xffffu) | v << 16;
            w->v[d->dst][lane] = v;
        }
    }
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

static inline __attribute__((always_inline)) int mem_store(AmdWave *w, const AmdDec *d,
                                                           uint64_t (*addr)(AmdWave *, const AmdDec *, int))
{
    uint32_t bytes = d->op->aux & 0xff;
    uint64_t exec = amdemu_exec_mask(w);
    for (int lane = 0; lane < w->lanes; lane++) {
        if (!(exec >> lane & 1))
            continue;
        uint8_t *p = lane_ptr(w, d, addr(w, d, lane), lane, bytes);
        if (!p)
            return -1;
        if (bytes >= 4) {
            for (uint32_t i = 0; i < bytes / 4; i++) {
                if (i + 1 < bytes / 4 && !((uintptr_t)(p + 4 * i) & 7)) {
                    /* an aligned 8 bytes in one write (LLVM's atomic i64 stores), so no reader sees half */
                    uint64_t v = w->v[(d->vdata + i) & 511][lane] | (uint64_t)w->v[(d->vdata + i + 1) & 511][lane]
                                                                        << 32;
                    __atomic_store_n((uint64_t *)(void *)(p + 4 * i), v, __ATOMIC_RELAXED);
                    i++;
                } else
                    memcpy(p + 4 * i, &w->v[(d->vdata + i) & 511][lane], 4);
            }
        } else {
            uint32_t v = w->v[d->vdata][lane];
            if (d->op->aux & MEM_D16_HI)
                v >>= 16;
            memcpy(p, &v, bytes);
        }
    }
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

static int x_flat_load(AmdWave *w, const AmdDec *d)
{
    return mem_load(w, d, flat_address);
}

static int x_flat_store(AmdWave *w, const AmdDec *d)
{
    return mem_store(w, d, flat_address);
}

/* Atomics: aux = bytes | the operation << 8. */
enum { DS_NEW_FIRST = 0x40 };
enum { A_ADD = 1, A_SUB, A_AND, A_OR, A_XOR, A_SWAP, A_CMPSWAP, A_SMIN, A_SMAX, A_UMIN, A_UMAX, A_FADD, A_INC, A_DEC };

static uint64_t atomic_apply(unsigned op, void *p, uint64_t v, uint64_t cmp, bool b64)
{
    if (b64) {
        uint64_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED), n;
        do {
            switch (op) {
            case A_ADD: n = old + v; break;
            case A_SUB: n = old - v; break;
            case A_AND: n = old & v; break;
            case A_OR: n = old | v; break;
            case A_XOR: n = old ^ v; break;
            case A_SWAP: n = v; break;
            case A_CMPSWAP: n = old == cmp ? v : old; break;
            case A_SMIN: n = (int64_t)v < (int64_t)old ? v : old; break;
            case A_SMAX: n = (int64_t)v > (int64_t)old ? v : old; break;
            case A_UMIN: n = v < old ? v : old; break;
            case A_UMAX: n = v > old ? v : old; break;
            case A_FADD: n = bf64(f64(old) + f64(v)); break;
            default: n = old;
            }
        } while (!__atomic_compare_exchange_n(q, &old, n, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
        return old;
    }
    uint32_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED), n, v32 = (uint32_t)v;
    do {
        switch (op) {
        case A_ADD: n = old + v32; break;
        case A_SUB: n = old - v32; break;
        case A_AND: n = old & v32; break;
        case A_OR: n = old | v32; break;
        case A_XOR: n = old ^ v32; break;
        case A_SWAP: n = v32; break;
        case A_CMPSWAP: n = old == (uint32_t)cmp ? v32 : old; break;
        case A_SMIN: n = (int32_t)v32 < (int32_t)old ? v32 : old; break;
        case A_SMAX: n = (int32_t)v32 > (int32_t)old ? v32 : old; break;
        case A_UMIN: n = v32 < old ? v32 : old; break;
        case A_UMAX: n = v32 > old ? v32 : old; break;
        case A_FADD: n = (uint32_t)bf32(f32(old) + f32(v32)); break;
        case A_INC: n = old >= v32 ? 0 : old + 1; break;
        case A_DEC: n = old == 0 || old > v32 ? v32 : old - 1; break;
        default: n = old;
        }
    } while (!__atomic_compare_exchange_n(q, &old, n, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return old;
}

/* FLAT/GLOBAL atomics: data in vdata (cmpswap: the new value, then the compare value); glc returns the old. */
static int x_flat_atomic(AmdWave *w, const AmdDec *d)
{
    unsigned op = d->op->aux >> 8;
    bool b64 = (d->op->aux & 0xff) == 8;
    uint64_t exec = amdemu_exec_mask(w);
    for (int lane = 0; lane < w->lanes; lane++) {
        if (!(exec >> lane & 1))
            continue;
        void *p = amdemu_addr(w, d, flat_address(w, d, lane), lane, b64 ? 8 : 4);
        if (!p)
            return -1;
        uint64_t v = w->v[d->vdata][lane], cmp = 0;
        int n = b64 ? 2 : 1;
        if (b64)
            v |= (uint64_t)w->v[(d->vdata + 1) & 511][lane] << 32;
        if (op == A_CMPSWAP) {
            cmp = w->v[(d->vdata + n) & 511][lane];
            if (b64)
                cmp |= (uint64_t)w->v[(d->vdata + n + 1) & 511][lane] << 32;
        }
        uint64_t old = atomic_apply(op, p, v, cmp, b64);
        if (d->glc) {
            w->v[d->dst][lane] = (uint32_t)old;
            if (b64)
                w->v[(d->dst + 1) & 511][lane] = (uint32_t)(old >> 32);
        }
    }
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

/* MUBUF: on gfx90a juke's scratch (offen: a per-lane offset in vaddr). */
/* MUBUF scratch (gfx90a): the buffer is swizzled per lane, so soffset (the
 * stack and frame pointers s32/s33 of code with calls) is a wave-scaled byte
 * offset: a lane's own offset times the wave size; the instruction's offset
 * and vaddr (offen) are the lane's own. */
static uint64_t mubuf_address(AmdWave *w, const AmdDec *d, int lane)
{
    uint32_t soff = (uint32_t)amdemu_sread(w, d->src[0], false, false, false, 0);
    uint32_t off = (uint32_t)d->imm + soff / (uint32_t)w->lanes;
    if (d->imm1)
        off += w->v[d->vaddr][lane];
    return (uint64_t)AMDEMU_PRIVATE_HI << 32 | off;
}

static int x_mubuf_load(AmdWave *w, const AmdDec *d)
{
    return mem_load(w, d, mubuf_address);
}

static int x_mubuf_store(AmdWave *w, const AmdDec *d)
{
    return mem_store(w, d, mubuf_address);
}

/* DS: LDS addresses are vaddr + offset; aux = bytes | op << 8 as for atomics. */
static uint64_t ds_address(AmdWave *w, const AmdDec *d, int lane)
{
    return (uint64_t)AMDEMU_SHARED_HI << 32 | (uint32_t)(w->v[d->vaddr][lane] + (uint32_t)(d->imm | d->imm1 << 8));
}

static int x_ds_read(AmdWave *w, const AmdDec *d)
{
    return mem_load(w, d, ds_address);
}

static int x_ds_write(AmdWave *w, const AmdDec *d)
{
    return mem_store(w, d, ds_address);
}

/* ds_read2/ds_write2: two elements at offset0 and offset1, in units of the element size. */
/* read2/write2: aux = bytes | DS_ST64 (the offsets count 64 elements) */
enum { DS_ST64 = 0x1000 };
static int x_ds_2(AmdWave *w, const AmdDec *d, bool write)
{
    uint32_t bytes = d->op->aux & 0xff, stride = d->op->aux & DS_ST64 ? 64 * bytes : bytes;
    uint64_t exec = amdemu_exec_mask(w);
    for (int lane = 0; lane < w->lanes; lane++) {
        if (!(exec >> lane & 1))
            continue;
        uint32_t base = w->v[d->vaddr][lane]; /* read before the first half's result may overwrite it */
        for (int k = 0; k < 2; k++) {
            uint32_t off = (uint32_t)(k ? d->imm1 : d->imm) * stride;
            uint8_t *p = amdemu_addr(w, d, (uint64_t)AMDEMU_SHARED_HI << 32 | (base + off), lane, bytes);
            if (!p)
                return -1;
            for (uint32_t i = 0; i < bytes / 4; i++) {
                if (write)
                    memcpy(p + 4 * i, &w->v[((k ? d->vdata1 : d->vdata) + i) & 511][lane], 4);
                else
                    memcpy(&w->v[(d->dst + k * bytes / 4 + i) & 511][lane], p + 4 * i, 4);
            }
        }
    }
    return 0;
}

static int x_ds_read2(AmdWave *w, const AmdDec *d)
{
    return x_ds_2(w, d, false);
}

static int x_ds_write2(AmdWave *w, const AmdDec *d)
{
    return x_ds_2(w, d, true);
}

static int x_ds_atomic(AmdWave *w, const AmdDec *d)
{
    unsigned op = d->op->aux >> 8;
    bool b64 = (d->op->aux & 0xf) == 8, ret = d->op->aux & 0x80;
    uint64_t exec = amdemu_exec_mask(w);
    for (int lane = 0; lane < w->lanes; lane++) {
        if (!(exec >> lane & 1))
            continue;
        void *p = amdemu_addr(w, d, ds_address(w, d, lane), lane, b64 ? 8 : 4);
        if (!p)
            return -1;
        uint64_t v = w->v[d->vdata][lane], cmp = w->v[d->vdata1][lane];
        if (b64) {
            v |= (uint64_t)w->v[(d->vdata + 1) & 511][lane] << 32;
            cmp |= (uint64_t)w->v[(d->vdata1 + 1) & 511][lane] << 32;
        }
        /* ds_cmpst (GFX9): data0 is the compare value, data1 the new one; ds_cmpstore (GFX11) the reverse */
        if (op == A_CMPSWAP && (d->op->aux & DS_NEW_FIRST)) {
            uint64_t t = v;
            v = cmp;
            cmp = t;
        }
        uint64_t old = op == A_CMPSWAP ? atomic_apply(op, p, cmp, v, b64) : atomic_apply(op, p, v, 0, b64);
        if (ret)
            w->v[d->dst][lane] = (uint32_t)old;
        if (ret && b64)
            w->v[(d->dst + 1) & 511][lane] = (uint32_t)(old >> 32);
    }
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

/* ds_bpermute_b32: each lane reads data0 of the lane its address (bytes) names. */
static int x_ds_bpermute(AmdWave *w, const AmdDec *d)
{
    uint32_t tmp[64];
    uint64_t exec = amdemu_exec_mask(w);
    for (int lane = 0; lane < w->lanes; lane++) {
        int src = (int)(((w->v[d->vaddr][lane] + (uint32_t)(d->imm | d->imm1 << 8)) >> 2) & (uint32_t)(w->lanes - 1));
        tmp[lane] = exec >> src & 1 ? w->v[d->vdata][src] : 0;
    }
    for (int lane = 0; lane < w->lanes; lane++)
        if (exec >> lane & 1)
            w->v[d->dst][lane] = tmp[lane];
    return 0;
}

/* v_accvgpr_read_b32 (aux 0): a VGPR from an AGPR (the AGPRs follow the 256
 * VGPRs); v_accvgpr_write_b32 (aux 1): an AGPR from a VGPR or constant. */
static int x_accvgpr(AmdWave *w, const AmdDec *d)
{
    uint64_t exec = amdemu_exec_mask(w);
    uint32_t *dst = w->v[(d->op->aux ? 256 + d->dst : d->dst) & 511];
    bool vsrc = d->src[0] >= 256;
    const uint32_t *src = vsrc ? w->v[((d->op->aux ? 0 : 256) + d->src[0] - 256) & 511] : NULL;
    uint32_t k = vsrc ? 0 : (uint32_t)amdemu_sread(w, d->src[0], false, false, false, d->lit);
    for (uint64_t m = exec; m; m &= m - 1) {
        int lane = __builtin_ctzll(m);
        dst[lane] = vsrc ? src[lane] : k;
    }
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

/* ds_swizzle_b32: each lane reads the swizzle source (the ADDR operand) of the
 * lane the 16-bit offset names: offset[15] set, a quad permutation as DPP's
 * quad_perm; else within each 32 lanes ((lane & and) | or) ^ xor of the masks
 * in offset[4:0], [9:5], [14:10]. An inactive source lane reads 0. */
static int x_ds_swizzle(AmdWave *w, const AmdDec *d)
{
    uint32_t tmp[64], off = (uint32_t)(d->imm | d->imm1 << 8);
    uint64_t exec = amdemu_exec_mask(w);
    for (int lane = 0; lane < w->lanes; lane++) {
        int src;
        if (off & 0x8000)
            src = (lane & ~3) | (int)(off >> (2 * (lane & 3)) & 3);
        else
            src = (lane & ~31) | (int)((((uint32_t)lane & (off & 31)) | (off >> 5 & 31)) ^ (off >> 10 & 31));
        tmp[lane] = exec >> src & 1 ? w->v[d->vaddr][src] : 0;
    }
    for (int lane = 0; lane < w->lanes; lane++)
        if (exec >> lane & 1)
            w->v[d->dst][lane] = tmp[lane];
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

/* ds_permute_b32: each active lane sends data0 to the lane its address (bytes)
 * names; lanes no one sent to read 0 (the highest sender wins a clash). */
static int x_ds_permute(AmdWave *w, const AmdDec *d)
{
    uint32_t tmp[64] = { 0 };
    uint64_t exec = amdemu_exec_mask(w);
    uint32_t off = (uint32_t)(d->imm | d->imm1 << 8);
    for (int lane = 0; lane < w->lanes; lane++)
        if (exec >> lane & 1)
            tmp[((w->v[d->vaddr][lane] + off) >> 2) & (uint32_t)(w->lanes - 1)] = w->v[d->vdata][lane];
    for (int lane = 0; lane < w->lanes; lane++)
        if (exec >> lane & 1)
            w->v[d->dst][lane] = tmp[lane];
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

/* v_permlane16_b32 (aux 0) and v_permlanex16_b32 (aux 1), GFX10+: lane i of
 * each row of 16 reads src0 of lane sel (in its own row, or for x16 in the
 * other row of its 32), sel the nibble i & 7 of src1 (lanes 0-7) or src2
 * (lanes 8-15). op_sel[0] (FI) reads inactive lanes too; else an inactive
 * source leaves the destination as it was, or writes 0 with op_sel[1] (BC). */
static int x_permlane16(AmdWave *w, const AmdDec *d)
{
    uint32_t lo = (uint32_t)amdemu_sread(w, d->src[1], false, false, false, d->lit);
    uint32_t hi = (uint32_t)amdemu_sread(w, d->src[2], false, false, false, d->lit);
    bool fi = d->opsel & 1, bc = d->opsel >> 1 & 1;
    uint64_t exec = amdemu_exec_mask(w);
    uint32_t tmp[64];
    const uint32_t *src = w->v[(d->src[0] - 256) & 511];
    uint32_t *dst = w->v[d->dst];
    for (int lane = 0; lane < w->lanes; lane++) {
        int i = lane & 15, row = lane >> 4;
        unsigned sel = ((i < 8 ? lo : hi) >> (4 * (i & 7))) & 15;
        int from = (d->op->aux ? row ^ 1 : row) * 16 + (int)sel;
        tmp[lane] = fi || (exec >> from & 1) ? src[from] : bc ? 0 : dst[lane];
    }
    for (int lane = 0; lane < w->lanes; lane++)
        if (exec >> lane & 1)
            dst[lane] = tmp[lane];
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

/* v_writelane_b32: lane src1 (an SGPR or constant) of vdst gets the scalar src0, whatever EXEC. */
static int x_writelane(AmdWave *w, const AmdDec *d)
{
    uint32_t v = (uint32_t)amdemu_sread(w, d->src[0], false, false, false, d->lit);
    uint32_t lane = (uint32_t)amdemu_sread(w, d->src[1], false, false, false, d->lit) & (uint32_t)(w->lanes - 1);
    w->v[d->dst][lane] = v;
    w->lane_instrs++;
    return 0;
}

/* VOP3P packed f32 (gfx90a+): two f32 lanes in a 64-bit register pair. */
static int x_pk_f32(AmdWave *w, const AmdDec *d)
{
    uint64_t exec = amdemu_exec_mask(w);
    unsigned kind = d->op->aux, n = d->op->nsrc;
    for (int lane = 0; lane < w->lanes; lane++) {
        if (!(exec >> lane & 1))
            continue;
        float r[2];
        for (int half = 0; half < 2; half++) {
            float s[3] = { 0, 0, 0 };
            for (unsigned i = 0; i < n; i++) {
                unsigned sel = half ? d->opsel_hi >> i & 1 : d->opsel >> i & 1;
                uint32_t b;
                if (d->src[i] >= 256)
                    b = w->v[(d->src[i] - 256 + sel) & 511][lane];
                else
                    b = (uint32_t)(amdemu_sread(w, d->src[i], true, false, false, 0) >> (32 * sel));
                if (d->src[i] >= 240 && d->src[i] <= 248)
                    b = (uint32_t)amdemu_sread(w, d->src[i], false, false, false, 0);
                s[i] = f32(b);
                if ((half ? d->neg_hi : d->neg) >> i & 1)
                    s[i] = -s[i];
            }
            r[half] = kind == 0 ? s[0] + s[1] : kind == 1 ? s[0] * s[1] : fmaf(s[0], s[1], s[2]);
        }
        w->v[d->dst][lane] = (uint32_t)bf32(r[0]);
        w->v[(d->dst + 1) & 511][lane] = (uint32_t)bf32(r[1]);
    }
    w->lane_instrs += 2u * (uint64_t)__builtin_popcountll(exec);
    return 0;
}

/* v_fma_mix*: each source f32, or (op_sel_hi) the f16 in its low/high (op_sel)
 * half; neg_hi is abs here. aux: 0 mix_f32, 1 mixlo_f16, 2 mixhi_f16. */
static int x_fma_mix(AmdWave *w, const AmdDec *d)
{
    uint64_t exec = amdemu_exec_mask(w);
    for (int lane = 0; lane < w->lanes; lane++) {
        if (!(exec >> lane & 1))
            continue;
        float s[3];
        for (int i = 0; i < 3; i++) {
            bool half = d->opsel_hi >> i & 1;
            uint32_t b = d->src[i] >= 256 ? w->v[d->src[i] - 256][lane]
                                          : (uint32_t)amdemu_sread(w, d->src[i], false, false, half, 0);
            s[i] = half ? h2f((uint16_t)(b >> (d->opsel >> i & 1 ? 16 : 0))) : f32(b);
            if (d->neg_hi >> i & 1)
                s[i] = fabsf(s[i]);
            if (d->neg >> i & 1)
                s[i] = -s[i];
        }
        float r = fmaf(s[0], s[1], s[2]);
        if (d->clamp)
            r = isnan(r) ? 0.0f : r < 0 ? 0.0f : r > 1 ? 1.0f : r;
        uint32_t old = w->v[d->dst][lane];
        switch (d->op->aux) {
        case 0: w->v[d->dst][lane] = (uint32_t)bf32(r); break;
        case 1: w->v[d->dst][lane] = (old & 0xffff0000u) | f2h(r); break;
        default: w->v[d->dst][lane] = (old & 0xffffu) | (uint32_t)f2h(r) << 16; break;
        }
    }
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

/* v_pk_mov_b32: each half of the pair from either dword of src0 / src1 (op_sel). */
static int x_pk_mov(AmdWave *w, const AmdDec *d)
{
    uint64_t exec = amdemu_exec_mask(w);
    for (int lane = 0; lane < w->lanes; lane++) {
        if (!(exec >> lane & 1))
            continue;
        uint32_t r[2];
        for (int i = 0; i < 2; i++) {
            unsigned sel = d->opsel >> i & 1;
            r[i] = d->src[i] >= 256 ? w->v[(d->src[i] - 256 + sel) & 511][lane]
                                    : (uint32_t)(amdemu_sread(w, d->src[i], true, false, false, 0) >> (32 * sel));
        }
        w->v[d->dst][lane] = r[0];
        w->v[(d->dst + 1) & 511][lane] = r[1];
    }
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    return 0;
}

static int x_pk_add_u16(AmdWave *w, const AmdDec *d)
{
    uint64_t exec = amdemu_exec_mask(w);
    for (int lane = 0; lane < w->lanes; lane++) {
        if (!(exec >> lane & 1))
            continue;
        uint32_t s[2];
        for (int i = 0; i < 2; i++)
            s[i] = d->src[i] >= 256 ? w->v[d->src[i] - 256][lane]
                                    : (uint32_t)amdemu_sread(w, d->src[i], false, false, false, 0);
        uint16_t lo = (uint16_t)((s[0] >> (d->opsel & 1 ? 16 : 0)) + (s[1] >> (d->opsel & 2 ? 16 : 0)));
        uint16_t hi = (uint16_t)((s[0] >> (d->opsel_hi & 1 ? 16 : 0)) + (s[1] >> (d->opsel_hi & 2 ? 16 : 0)));
        w->v[d->dst][lane] = lo | (uint32_t)hi << 16;
    }
    return 0;
}

/* ---- lane functions over whole waves ------------------------------------------- */

/* NAME_vec: the lane function NAME on every lane of v, inlined in the loop. */
#define VEC(name)                                                                                                      \
    static void name##_vec(AmdVec *v)                                                                                  \
    {                                                                                                                  \
        uint64_t cout = 0;                                                                                             \
        for (int i = 0; i < v->n; i++) {                                                                               \
            AmdLane l = { .s = { v->s[0][i], v->s[1][i], v->s[2][i] },                                                 \
                          .cin = (uint32_t)(v->cin >> i & 1),                                                          \
                          .aux = v->aux,                                                                               \
                          .lane = i,                                                                                   \
                          .w = v->w };                                                                                 \
            name(&l);                                                                                                  \
            v->d[i] = l.d;                                                                                             \
            cout |= (uint64_t)(l.cout & 1) << i;                                                                       \
        }                                                                                                              \
        v->cout = cout;                                                                                                \
    }
VEC(l_add3_u32)
VEC(l_add_f16)
VEC(l_add_f32)
VEC(l_add_f64)
VEC(l_add_lshl_u32)
VEC(l_add_u16)
VEC(l_add_u32)
VEC(l_addc_u32)
VEC(l_alignbit)
VEC(l_and32)
VEC(l_and_or)
VEC(l_ashrrev32)
VEC(l_ashrrev64)
VEC(l_bcnt_u32)
VEC(l_bfe_i32)
VEC(l_bfe_u32)
VEC(l_bfi)
VEC(l_minimum_f32)
VEC(l_maximum_f32)
VEC(l_minimum_f64)
VEC(l_maximum_f64)
VEC(l_perm)
VEC(l_bfm)
VEC(l_brev32)
VEC(l_ceil_f32)
VEC(l_ceil_f64)
VEC(l_class_f32)
VEC(l_class_f64)
VEC(l_class_f16)
VEC(l_cmp_f16)
VEC(l_cmp_f32)
VEC(l_cmp_f64)
VEC(l_cmp_i16)
VEC(l_cmp_i32)
VEC(l_cmp_i64)
VEC(l_cmp_u16)
VEC(l_cmp_u32)
VEC(l_cmp_u64)
VEC(l_cndmask)
VEC(l_cvt_f16_f32)
VEC(l_cvt_f32_f16)
VEC(l_cvt_f32_f64)
VEC(l_cvt_f32_i32)
VEC(l_cvt_f32_u32)
VEC(l_cvt_f32_ubyte0)
VEC(l_cvt_f64_f32)
VEC(l_cvt_f64_i32)
VEC(l_cvt_f64_u32)
VEC(l_cvt_i32_f32)
VEC(l_cvt_i32_f64)
VEC(l_cvt_u32_f32)
VEC(l_cvt_u32_f64)
VEC(l_div_fixup_f16)
VEC(l_div_fixup_f32)
VEC(l_div_fixup_f64)
VEC(l_div_fmas_f32)
VEC(l_div_fmas_f64)
VEC(l_div_scale_f32)
VEC(l_div_scale_f64)
VEC(l_exp_f32)
VEC(l_ff1_32)
VEC(l_ffbh_i32)
VEC(l_ffbh_u32)
VEC(l_floor_f32)
VEC(l_floor_f64)
VEC(l_fma_f32)
VEC(l_fma_f16)
VEC(l_fma_f64)
VEC(l_fract_f32)
VEC(l_fract_f64)
VEC(l_frexp_exp_f32)
VEC(l_frexp_exp_f64)
VEC(l_frexp_mant_f32)
VEC(l_frexp_mant_f64)
VEC(l_ldexp_f32)
VEC(l_ldexp_f64)
VEC(l_log_f32)
VEC(l_lshl_add_u32)
VEC(l_lshl_add_u64)
VEC(l_lshl_or)
VEC(l_lshlrev32)
VEC(l_lshlrev64)
VEC(l_lshrrev16)
VEC(l_lshlrev16)
VEC(l_maxmin_i32)
VEC(l_minmax_i32)
VEC(l_maxmin_u32)
VEC(l_minmax_u32)
VEC(l_lshrrev32)
VEC(l_lshrrev64)
VEC(l_mad_f32)
VEC(l_mad_i64_i32)
VEC(l_mad_u24)
VEC(l_mad_u16)
VEC(l_mad_u64_u32)
VEC(l_max3_f32)
VEC(l_max3_i32)
VEC(l_max3_u32)
VEC(l_max_f32)
VEC(l_max_f64)
VEC(l_max_i32)
VEC(l_max_u32)
VEC(l_mbcnt_hi)
VEC(l_mbcnt_lo)
VEC(l_med3_f32)
VEC(l_med3_i32)
VEC(l_med3_u32)
VEC(l_min3_f32)
VEC(l_min3_i32)
VEC(l_min3_u32)
VEC(l_min_f16)
VEC(l_min_f32)
VEC(l_min_f64)
VEC(l_min_i32)
VEC(l_min_u32)
VEC(l_mov)
VEC(l_max_f16)
VEC(l_mul_f16)
VEC(l_mul_f32)
VEC(l_mul_f64)
VEC(l_mul_hi_i32)
VEC(l_mul_hi_u24)
VEC(l_mul_hi_u32)
VEC(l_mul_i32)
VEC(l_mul_lo_u16)
VEC(l_mul_u24)
VEC(l_mul_i24)
VEC(l_mad_i24)
VEC(l_not32)
VEC(l_or3)
VEC(l_or32)
VEC(l_pack_b32_f16)
VEC(l_rcp_f32)
VEC(l_rcp_f64)
VEC(l_rndne_f32)
VEC(l_rndne_f64)
VEC(l_rsq_f32)
VEC(l_rsq_f64)
VEC(l_sqrt_f16)
VEC(l_rndne_f16)
VEC(l_floor_f16)
VEC(l_ceil_f16)
VEC(l_trunc_f16)
VEC(l_sqrt_f32)
VEC(l_sqrt_f64)
VEC(l_sub_f16)
VEC(l_sub_f32)
VEC(l_sub_u16)
VEC(l_sub_u32)
VEC(l_subb_u32)
VEC(l_subbrev_u32)
VEC(l_subrev_f32)
VEC(l_subrev_u32)
VEC(l_trig_preop)
VEC(l_trunc_f32)
VEC(l_trunc_f64)
VEC(l_xad_u32)
VEC(l_xnor32)
VEC(l_xor3)
VEC(l_xor32)

/* ---- the table ------------------------------------------------------------------ */

#define S2(n, o, f, fl) { n, F_SOP2, o, 2, fl, NULL, f, 0 }
#define S1(n, o, f, fl) { n, F_SOP1, o, 1, fl, NULL, f, 0 }
#define SC(n, o, f, fl) { n, F_SOPC, o, 2, (fl) | O_NODST, NULL, f, 0 }
#define SK(n, o, f, fl, aux) { n, F_SOPK, o, 2, fl, NULL, f, aux }
#define SP(n, o, x, aux) { n, F_SOPP, o, 0, 0, x, NULL, aux }
#define SX(n, fmt, o, x, aux) { n, fmt, o, 1, 0, x, NULL, aux }
#define V1(n, o, f, fl) { n, F_VOP1, o, 1, fl, NULL, f, 0, f##_vec }
#define V2(n, o, f, fl) { n, F_VOP2, o, 2, fl, NULL, f, 0, f##_vec }
#define V3(n, o, ns, f, fl) { n, F_VOP3, o, ns, fl, NULL, f, 0, f##_vec }
#define VC(n, o, f, fl) { n, F_VOPC, o, 2, (fl) | O_CMP, NULL, f, 0, f##_vec }
#define MEM(n, fmt, o, x, aux) { n, fmt, o, 0, 0, x, NULL, aux }

/* a row whose semantics only another generation's encoding uses (ops_gfx11.c) */
#define NOENC 0xffff

#define B64 (O_S0_64 | O_S1_64 | O_D_64)
#define FLT O_FLOAT
#define FD (O_FLOAT | O_S0_64 | O_S1_64 | O_S2_64 | O_D_64)

static const AmdOp ops[] = {
    /* SOP2 */
    S2("s_add_u32", 0x00, l_add_u32, 0),
    S2("s_sub_u32", 0x01, l_sub_u32, 0),
    S2("s_add_i32", 0x02, l_add_i32, 0),
    S2("s_sub_i32", 0x03, l_sub_i32, 0),
    S2("s_addc_u32", 0x04, l_addc_u32, O_CIN),
    S2("s_subb_u32", 0x05, l_subb_u32, O_CIN),
    S2("s_min_i32", 0x06, l_min_i32, 0),
    S2("s_min_u32", 0x07, l_min_u32, 0),
    S2("s_max_i32", 0x08, l_max_i32, 0),
    S2("s_max_u32", 0x09, l_max_u32, 0),
    S2("s_cselect_b32", 0x0a, l_cselect, O_SCC_KEEP),
    S2("s_cselect_b64", 0x0b, l_cselect, B64 | O_SCC_KEEP),
    S2("s_and_b32", 0x0c, l_and32, 0),
    S2("s_and_b64", 0x0d, l_and64, B64),
    S2("s_or_b32", 0x0e, l_or32, 0),
    S2("s_or_b64", 0x0f, l_or64, B64),
    S2("s_xor_b32", 0x10, l_xor32, 0),
    S2("s_xor_b64", 0x11, l_xor64, B64),
    S2("s_andn2_b32", 0x12, l_andn2_32, 0),
    S2("s_andn2_b64", 0x13, l_andn2_64, B64),
    S2("s_orn2_b32", 0x14, l_orn2_32, 0),
    S2("s_orn2_b64", 0x15, l_orn2_64, B64),
    S2("s_lshl_b32", 0x1c, l_lshl32, 0),
    S2("s_lshl_b64", 0x1d, l_lshl64, O_S0_64 | O_D_64),
    S2("s_lshr_b32", 0x1e, l_lshr32, 0),
    S2("s_lshr_b64", 0x1f, l_lshr64, O_S0_64 | O_D_64),
    S2("s_ashr_i32", 0x20, l_ashr32, 0),
    S2("s_ashr_i64", 0x21, l_ashr64, O_S0_64 | O_D_64),
    S2("s_mul_i32", 0x24, l_mul_i32, O_SCC_KEEP),
    S2("s_bfe_u32", 0x25, l_s_bfe_u32, 0),
    S2("s_bfe_i32", 0x26, l_s_bfe_i32, 0),
    S2("s_bfe_u64", 0x27, l_s_bfe_u64, O_S0_64 | O_D_64),
    S2("s_bfe_i64", 0x28, l_s_bfe_i64, O_S0_64 | O_D_64),
    S2("s_mul_hi_u32", 0x2c, l_mul_hi_u32, O_SCC_KEEP),
    S2("s_mul_hi_i32", 0x2d, l_mul_hi_i32, O_SCC_KEEP),
    /* SOPK: aux 1 = the immediate is zero-extended */
    SK("s_movk_i32", 0x00, l_mov_s1, O_SCC_KEEP, 0),
    SK("s_cmovk_i32", 0x01, l_cmovk, O_SCC_KEEP, 0),
    SK("s_cmpk_eq_i32", 0x02, l_scmp_eq_i32, O_NODST, 0),
    SK("s_cmpk_lg_i32", 0x03, l_scmp_lg_i32, O_NODST, 0),
    SK("s_cmpk_gt_i32", 0x04, l_scmp_gt_i32, O_NODST, 0),
    SK("s_cmpk_ge_i32", 0x05, l_scmp_ge_i32, O_NODST, 0),
    SK("s_cmpk_lt_i32", 0x06, l_scmp_lt_i32, O_NODST, 0),
    SK("s_cmpk_le_i32", 0x07, l_scmp_le_i32, O_NODST, 0),
    SK("s_cmpk_eq_u32", 0x08, l_scmp_eq_u32, O_NODST, 1),
    SK("s_cmpk_lg_u32", 0x09, l_scmp_lg_u32, O_NODST, 1),
    SK("s_cmpk_gt_u32", 0x0a, l_scmp_gt_u32, O_NODST, 1),
    SK("s_cmpk_ge_u32", 0x0b, l_scmp_ge_u32, O_NODST, 1),
    SK("s_cmpk_lt_u32", 0x0c, l_scmp_lt_u32, O_NODST, 1),
    SK("s_cmpk_le_u32", 0x0d, l_scmp_le_u32, O_NODST, 1),
    SK("s_addk_i32", 0x0e, l_add_i32, 0, 0),
    SK("s_mulk_i32", 0x0f, l_mul_i32, O_SCC_KEEP, 0),
    { "s_getreg_b32", F_SOPK, NOENC, 0, 0, x_getreg, NULL, 0 },
    { "s_waitcnt_vscnt", F_SOPK, NOENC, 0, 0, x_waitcnt, NULL, 0 },
    /* SOP1 */
    S1("s_mov_b32", 0x00, l_mov, O_SCC_KEEP),
    S1("s_mov_b64", 0x01, l_mov, O_S0_64 | O_D_64 | O_SCC_KEEP),
    S1("s_not_b32", 0x04, l_not32, 0),
    S1("s_not_b64", 0x05, l_not64, O_S0_64 | O_D_64),
    S1("s_brev_b32", 0x08, l_brev32, O_SCC_KEEP),
    S1("s_bcnt1_i32_b64", 0x0d, l_bcnt1_64, O_S0_64),
    S1("s_ff1_i32_b64", 0x11, l_ff1_64, O_S0_64 | O_SCC_KEEP),
    S1("s_flbit_i32_b32", 0x12, l_ffbh_u32, O_SCC_KEEP),
    S1("s_flbit_i32_b64", 0x13, l_ffbh_u64, O_S0_64 | O_SCC_KEEP),
    S1("s_flbit_i32", 0x14, l_ffbh_i32, O_SCC_KEEP),
    S1("s_flbit_i32_i64", 0x15, l_ffbh_i64, O_S0_64 | O_SCC_KEEP),
    S1("s_sext_i32_i8", 0x16, l_sext_i8, O_SCC_KEEP),
    { "s_bitset0_b32", F_SOP1, 0x18, 2, O_SCC_KEEP, NULL, l_bitset0, 0 },
    { "s_bitset1_b32", F_SOP1, 0x1a, 2, O_SCC_KEEP, NULL, l_bitset1, 0 },
    { "s_getpc_b64", F_SOP1, 0x1c, 0, 0, x_getpc, NULL, 0 },
    { "s_setpc_b64", F_SOP1, 0x1d, 1, 0, x_setpc, NULL, 0 },
    { "s_swappc_b64", F_SOP1, 0x1e, 1, 0, x_swappc, NULL, 0 },
    { "s_and_saveexec_b32", F_SOP1, NOENC, 1, O_B32, x_saveexec, NULL, 0 },
    { "s_or_saveexec_b32", F_SOP1, NOENC, 1, O_B32, x_saveexec, NULL, 1 },
    { "s_xor_saveexec_b32", F_SOP1, NOENC, 1, O_B32, x_saveexec, NULL, 2 },
    { "s_andn2_saveexec_b32", F_SOP1, NOENC, 1, O_B32, x_saveexec, NULL, 3 },
    { "s_orn2_saveexec_b32", F_SOP1, NOENC, 1, O_B32, x_saveexec, NULL, 4 },
    SX("s_sendmsg_rtn_b64", F_SOP1, NOENC, x_sendmsg_rtn, 1),
    S1("s_bcnt1_i32_b32", 0x0c, l_bcnt1_32, 0),
    S1("s_ff1_i32_b32", 0x10, l_ff1_32, O_SCC_KEEP),
    S1("s_sext_i32_i16", 0x17, l_sext_i16, O_SCC_KEEP),
    SX("s_and_saveexec_b64", F_SOP1, 0x20, x_saveexec, 0),
    SX("s_or_saveexec_b64", F_SOP1, 0x21, x_saveexec, 1),
    SX("s_xor_saveexec_b64", F_SOP1, 0x22, x_saveexec, 2),
    SX("s_andn2_saveexec_b64", F_SOP1, 0x23, x_saveexec, 3),
    SX("s_orn2_saveexec_b64", F_SOP1, 0x24, x_saveexec, 4),
    S1("s_abs_i32", 0x30, l_abs_i32, 0),
    /* GFX12's SALU fma with a literal (O_LIT_K: the literal always follows), and v_s_* */
    { "s_fmaak_f32", F_SOP2, NOENC, 2, O_LIT_K, x_salu_fma, NULL, 0 },
    { "s_fmamk_f32", F_SOP2, NOENC, 2, O_LIT_K, x_salu_fma, NULL, 1 },
    { "s_fmac_f32", F_SOP2, NOENC, 2, 0, x_salu_fma, NULL, 2 },
    { "s_fmac_f16", F_SOP2, NOENC, 2, 0, x_salu_fma, NULL, 3 },
    { "v_s_exp_f32", F_VOP3, NOENC, 1, O_FLOAT, x_valu_scalar, l_exp_f32, 0 },
    { "v_s_log_f32", F_VOP3, NOENC, 1, O_FLOAT, x_valu_scalar, l_log_f32, 0 },
    { "v_s_rcp_f32", F_VOP3, NOENC, 1, O_FLOAT, x_valu_scalar, l_rcp_f32, 0 },
    { "v_s_rsq_f32", F_VOP3, NOENC, 1, O_FLOAT, x_valu_scalar, l_rsq_f32, 0 },
    { "v_s_sqrt_f32", F_VOP3, NOENC, 1, O_FLOAT, x_valu_scalar, l_sqrt_f32, 0 },
    { "v_s_sqrt_f16", F_VOP3, NOENC, 1, O_FLOAT | O_F16, x_valu_scalar, l_sqrt_f16, 0 },
    /* GFX12's 64-bit SALU arithmetic */
    { "s_add_nc_u64", F_SOP2, NOENC, 2, O_S0_64 | O_S1_64 | O_D_64 | O_SCC_KEEP, NULL, l_add_u64, 0 },
    { "s_sub_nc_u64", F_SOP2, NOENC, 2, O_S0_64 | O_S1_64 | O_D_64 | O_SCC_KEEP, NULL, l_sub_u64, 0 },
    { "s_mul_u64", F_SOP2, NOENC, 2, O_S0_64 | O_S1_64 | O_D_64 | O_SCC_KEEP, NULL, l_mul_u64, 0 },
    /* SOPC */
    SC("s_cmp_eq_i32", 0x00, l_scmp_eq_i32, 0),
    SC("s_cmp_lg_i32", 0x01, l_scmp_lg_i32, 0),
    SC("s_cmp_gt_i32", 0x02, l_scmp_gt_i32, 0),
    SC("s_cmp_ge_i32", 0x03, l_scmp_ge_i32, 0),
    SC("s_cmp_lt_i32", 0x04, l_scmp_lt_i32, 0),
    SC("s_cmp_le_i32", 0x05, l_scmp_le_i32, 0),
    SC("s_cmp_eq_u32", 0x06, l_scmp_eq_u32, 0),
    SC("s_cmp_lg_u32", 0x07, l_scmp_lg_u32, 0),
    SC("s_cmp_gt_u32", 0x08, l_scmp_gt_u32, 0),
    SC("s_cmp_ge_u32", 0x09, l_scmp_ge_u32, 0),
    SC("s_cmp_lt_u32", 0x0a, l_scmp_lt_u32, 0),
    SC("s_cmp_le_u32", 0x0b, l_scmp_le_u32, 0),
    SC("s_bitcmp0_b32", 0x0c, l_bitcmp0, 0),
    SC("s_bitcmp1_b32", 0x0d, l_bitcmp1, 0),
    SC("s_cmp_eq_u64", 0x12, l_scmp_eq_u64, O_S0_64 | O_S1_64),
    SC("s_cmp_lg_u64", 0x13, l_scmp_lg_u64, O_S0_64 | O_S1_64),
    SX("s_set_gpr_idx_on", F_SOPC, 0x11, x_gpr_idx_on, 0),
    /* SOPP */
    SP("s_set_gpr_idx_off", 0x1c, x_gpr_idx_off, 0),
    SP("s_set_gpr_idx_mode", 0x1d, x_gpr_idx_mode, 0),
    SP("s_nop", 0x00, x_nop, 0),
    SP("s_endpgm", 0x01, x_endpgm, 0),
    SP("s_branch", 0x02, x_branch, 0),
    SP("s_cbranch_scc0", 0x04, x_branch, 1),
    SP("s_cbranch_scc1", 0x05, x_branch, 2),
    SP("s_cbranch_vccz", 0x06, x_branch, 3),
    SP("s_cbranch_vccnz", 0x07, x_branch, 4),
    SP("s_cbranch_execz", 0x08, x_branch, 5),
    SP("s_cbranch_execnz", 0x09, x_branch, 6),
    SP("s_barrier", 0x0a, x_barrier, 0),
    SP("s_waitcnt", 0x0c, x_waitcnt, 0),
    SP("s_sethalt", 0x0d, x_nop, 0),
    SP("s_sleep", 0x0e, x_sleep, 0),
    SP("s_setprio", 0x0f, x_nop, 0),
    SP("s_sendmsg", 0x10, x_nop, 0),
    SP("s_sendmsghalt", 0x11, x_endpgm, 0),
    SP("s_trap", 0x12, x_trap, 0),
    SP("s_icache_inv", 0x13, x_nop, 0),
    /* GFX11's scheduling hints */
    SP("s_set_inst_prefetch_distance", NOENC, x_nop, 0),
    SP("s_clause", NOENC, x_nop, 0),
    SP("s_delay_alu", NOENC, x_nop, 0),
    SP("s_waitcnt_depctr", NOENC, x_waitcnt, 0),
    /* SMEM: aux = dwords */
    MEM("s_load_dword", F_SMEM, 0x00, x_smem_load, 1),
    MEM("s_load_dwordx2", F_SMEM, 0x01, x_smem_load, 2),
    MEM("s_load_dwordx3", F_SMEM, NOENC, x_smem_load, 3),
    MEM("s_load_i8", F_SMEM, NOENC, x_smem_load_sub, 1 | 0x100),
    MEM("s_load_u8", F_SMEM, NOENC, x_smem_load_sub, 1),
    MEM("s_load_i16", F_SMEM, NOENC, x_smem_load_sub, 2 | 0x100),
    MEM("s_load_u16", F_SMEM, NOENC, x_smem_load_sub, 2),
    MEM("s_load_dwordx4", F_SMEM, 0x02, x_smem_load, 4),
    MEM("s_load_dwordx8", F_SMEM, 0x03, x_smem_load, 8),
    MEM("s_load_dwordx16", F_SMEM, 0x04, x_smem_load, 16),
    MEM("s_dcache_inv", F_SMEM, 0x20, x_nop, 0),
    MEM("s_memtime", F_SMEM, 0x24, x_memtime, 0),
    MEM("s_memrealtime", F_SMEM, 0x25, x_memtime, 1),
    MEM("s_dcache_wb", F_SMEM, 0x21, x_nop, 0),
    /* VOP1 */
    V1("v_nop", 0x00, l_mov, 0),
    V1("v_mov_b32", 0x01, l_mov, 0),
    { "v_readfirstlane_b32", F_VOP1, 0x02, 1, 0, x_readfirstlane, NULL, 0 },
    { "v_movreld_b32", F_VOP1, 0x36, 1, 0, x_movrel, NULL, 1 },
    { "v_movrels_b32", F_VOP1, 0x37, 1, 0, x_movrel, NULL, 2 },
    { "v_movrelsd_b32", F_VOP1, NOENC, 1, 0, x_movrel, NULL, 3 }, /* gfx940's 0x38 is v_mov_b64 */
    V1("v_cvt_i32_f64", 0x03, l_cvt_i32_f64, FLT | O_S0_64),
    V1("v_cvt_f64_i32", 0x04, l_cvt_f64_i32, O_D_64),
    V1("v_cvt_f32_i32", 0x05, l_cvt_f32_i32, 0),
    V1("v_cvt_f32_u32", 0x06, l_cvt_f32_u32, 0),
    V1("v_cvt_u32_f32", 0x07, l_cvt_u32_f32, FLT),
    V1("v_cvt_i32_f32", 0x08, l_cvt_i32_f32, FLT),
    V1("v_cvt_f16_f32", 0x0a, l_cvt_f16_f32, FLT),
    V1("v_cvt_f32_f16", 0x0b, l_cvt_f32_f16, FLT | O_F16),
    V1("v_cvt_f32_f64", 0x0f, l_cvt_f32_f64, FLT | O_S0_64),
    V1("v_cvt_f64_f32", 0x10, l_cvt_f64_f32, FLT | O_D_64),
    V1("v_cvt_f32_ubyte0", 0x11, l_cvt_f32_ubyte0, 0),
    V1("v_cvt_u32_f64", 0x15, l_cvt_u32_f64, FLT | O_S0_64),
    V1("v_cvt_f64_u32", 0x16, l_cvt_f64_u32, O_D_64),
    V1("v_trunc_f64", 0x17, l_trunc_f64, FD),
    V1("v_ceil_f64", 0x18, l_ceil_f64, FD),
    V1("v_rndne_f64", 0x19, l_rndne_f64, FD),
    V1("v_floor_f64", 0x1a, l_floor_f64, FD),
    V1("v_fract_f32", 0x1b, l_fract_f32, FLT),
    V1("v_trunc_f32", 0x1c, l_trunc_f32, FLT),
    V1("v_ceil_f32", 0x1d, l_ceil_f32, FLT),
    V1("v_rndne_f32", 0x1e, l_rndne_f32, FLT),
    V1("v_floor_f32", 0x1f, l_floor_f32, FLT),
    V1("v_exp_f32", 0x20, l_exp_f32, FLT),
    V1("v_log_f32", 0x21, l_log_f32, FLT),
    V1("v_rcp_f32", 0x22, l_rcp_f32, FLT),
    V1("v_rcp_iflag_f32", 0x23, l_rcp_f32, FLT),
    V1("v_rcp_f64", 0x25, l_rcp_f64, FD),
    V1("v_rsq_f64", 0x26, l_rsq_f64, FD),
    V1("v_sqrt_f32", 0x27, l_sqrt_f32, FLT),
    V1("v_rsq_f32", 0x24, l_rsq_f32, FLT),
    V1("v_sqrt_f64", 0x28, l_sqrt_f64, FD),
    V1("v_not_b32", 0x2b, l_not32, 0),
    V1("v_bfrev_b32", 0x2c, l_brev32, 0),
    V1("v_ffbh_u32", 0x2d, l_ffbh_u32, 0),
    V1("v_ffbl_b32", 0x2e, l_ff1_32, 0),
    V1("v_ffbh_i32", 0x2f, l_ffbh_i32, 0),
    V1("v_frexp_exp_i32_f64", 0x30, l_frexp_exp_f64, FLT | O_S0_64),
    V1("v_frexp_mant_f64", 0x31, l_frexp_mant_f64, FD),
    V1("v_fract_f64", 0x32, l_fract_f64, FD),
    V1("v_frexp_exp_i32_f32", 0x33, l_frexp_exp_f32, FLT),
    V1("v_frexp_mant_f32", 0x34, l_frexp_mant_f32, FLT),
    V1("v_mov_b64", 0x38, l_mov, O_S0_64 | O_D_64),
    V1("v_sqrt_f16", 0x3e, l_sqrt_f16, FLT | O_F16),
    V1("v_floor_f16", 0x44, l_floor_f16, FLT | O_F16),
    V1("v_ceil_f16", 0x45, l_ceil_f16, FLT | O_F16),
    V1("v_trunc_f16", 0x46, l_trunc_f16, FLT | O_F16),
    V1("v_rndne_f16", 0x47, l_rndne_f16, FLT | O_F16),
    /* VOP2 */
    { "v_cndmask_b32", F_VOP2, 0x00, 2, O_CIN, NULL, l_cndmask, 0, l_cndmask_vec },
    V2("v_add_f32", 0x01, l_add_f32, FLT),
    V2("v_sub_f32", 0x02, l_sub_f32, FLT),
    V2("v_subrev_f32", 0x03, l_subrev_f32, FLT),
    { "v_fmac_f64", F_VOP2, 0x04, 3, FD | O_SRC2_D, NULL, l_fma_f64, 0, l_fma_f64_vec },
    V2("v_mul_f32", 0x05, l_mul_f32, FLT),
    V2("v_mul_i32_i24", 0x06, l_mul_i24, 0),
    V2("v_mul_u32_u24", 0x08, l_mul_u24, 0),
    V2("v_mul_hi_u32_u24", 0x09, l_mul_hi_u24, 0),
    V2("v_min_f32", 0x0a, l_min_f32, FLT),
    V2("v_max_f32", 0x0b, l_max_f32, FLT),
    V2("v_min_i32", 0x0c, l_min_i32, 0),
    V2("v_max_i32", 0x0d, l_max_i32, 0),
    V2("v_min_u32", 0x0e, l_min_u32, 0),
    V2("v_max_u32", 0x0f, l_max_u32, 0),
    V2("v_lshrrev_b32", 0x10, l_lshrrev32, 0),
    V2("v_ashrrev_i32", 0x11, l_ashrrev32, 0),
    V2("v_lshlrev_b32", 0x12, l_lshlrev32, 0),
    V2("v_and_b32", 0x13, l_and32, 0),
    V2("v_or_b32", 0x14, l_or32, 0),
    V2("v_xor_b32", 0x15, l_xor32, 0),
    V2("v_xnor_b32", NOENC, l_xnor32, 0),
    { "v_fmamk_f32", F_VOP2, 0x17, 3, FLT | O_LIT_K, NULL, l_fma_f32, 0, l_fma_f32_vec },
    { "v_fmaak_f32", F_VOP2, 0x18, 3, FLT | O_LIT_K, NULL, l_fma_f32, 1, l_fma_f32_vec },
    { "v_mac_f32", F_VOP2, 0x16, 3, FLT | O_SRC2_D, NULL, l_mad_f32, 0, l_mad_f32_vec },
    V2("v_add_co_u32", 0x19, l_add_u32, O_COUT),
    V2("v_sub_co_u32", 0x1a, l_sub_u32, O_COUT),
    V2("v_subrev_co_u32", 0x1b, l_subrev_u32, O_COUT),
    V2("v_addc_co_u32", 0x1c, l_addc_u32, O_CIN | O_COUT),
    V2("v_subb_co_u32", 0x1d, l_subb_u32, O_CIN | O_COUT),
    V2("v_subbrev_co_u32", 0x1e, l_subbrev_u32, O_CIN | O_COUT),
    V2("v_add_f16", 0x1f, l_add_f16, FLT | O_F16),
    V2("v_sub_f16", 0x20, l_sub_f16, FLT | O_F16),
    V2("v_mul_f16", 0x22, l_mul_f16, FLT | O_F16),
    V2("v_add_u16", 0x26, l_add_u16, 0),
    V2("v_sub_u16", 0x27, l_sub_u16, 0),
    V2("v_mul_lo_u16", 0x29, l_mul_lo_u16, 0),
    V2("v_lshlrev_b16", 0x2a, l_lshlrev16, 0),
    V2("v_lshrrev_b16", 0x2b, l_lshrrev16, 0),
    V2("v_max_f16", 0x2d, l_max_f16, FLT | O_F16),
    V2("v_min_f16", 0x2e, l_min_f16, FLT | O_F16),
    V2("v_add_u32", 0x34, l_add_u32, 0),
    V2("v_sub_u32", 0x35, l_sub_u32, 0),
    V2("v_subrev_u32", 0x36, l_subrev_u32, 0),
    { "v_fmac_f32", F_VOP2, 0x3b, 3, FLT | O_SRC2_D, NULL, l_fma_f32, 0, l_fma_f32_vec },
    { "v_fmac_f16", F_VOP2, NOENC, 3, FLT | O_F16 | O_SRC2_D, NULL, l_fma_f16, 0, l_fma_f16_vec }, /* GFX11's */
    /* VOP3-only */
    V3("v_mad_f32", 0x1c1, 3, l_mad_f32, FLT),
    V3("v_mad_i32_i24", 0x1c2, 3, l_mad_i24, 0),
    V3("v_mad_u32_u24", 0x1c3, 3, l_mad_u24, 0),
    V3("v_bfe_u32", 0x1c8, 3, l_bfe_u32, 0),
    V3("v_bfe_i32", 0x1c9, 3, l_bfe_i32, 0),
    V3("v_bfi_b32", 0x1ca, 3, l_bfi, 0),
    V3("v_perm_b32", 0x1ed, 3, l_perm, 0),
    V3("v_mad_legacy_u16", 0x1eb, 3, l_mad_u16, 0),
    V3("v_mad_u16", 0x204, 3, l_mad_u16, 0),
    V3("v_fma_f32", 0x1cb, 3, l_fma_f32, FLT),
    V3("v_fma_f64", 0x1cc, 3, l_fma_f64, FD),
    V3("v_alignbit_b32", 0x1ce, 3, l_alignbit, 0),
    V3("v_med3_i32", 0x1d7, 3, l_med3_i32, 0),
    V3("v_div_fixup_f32", 0x1de, 3, l_div_fixup_f32, FLT),
    V3("v_div_fixup_f64", 0x1df, 3, l_div_fixup_f64, FD),
    V3("v_div_scale_f32", 0x1e0, 3, l_div_scale_f32, FLT | O_COUT),
    V3("v_div_scale_f64", 0x1e1, 3, l_div_scale_f64, FD | O_COUT),
    V3("v_div_fmas_f32", 0x1e2, 3, l_div_fmas_f32, FLT | O_CIN_VCC),
    V3("v_div_fmas_f64", 0x1e3, 3, l_div_fmas_f64, FD | O_CIN_VCC),
    V3("v_mad_u64_u32", 0x1e8, 3, l_mad_u64_u32, O_S2_64 | O_D_64 | O_COUT),
    V3("v_xad_u32", 0x1f3, 3, l_xad_u32, 0),
    V3("v_lshl_add_u32", 0x1fd, 3, l_lshl_add_u32, 0),
    V3("v_add_lshl_u32", 0x1fe, 3, l_add_lshl_u32, 0),
    V3("v_add3_u32", 0x1ff, 3, l_add3_u32, 0),
    V3("v_and_or_b32", 0x201, 3, l_and_or, 0),
    V3("v_or3_b32", 0x202, 3, l_or3, 0),
    V3("v_xor3_b32", NOENC, 3, l_xor3, 0),
    V3("v_maxmin_i32", NOENC, 3, l_maxmin_i32, 0),
    V3("v_minmax_i32", NOENC, 3, l_minmax_i32, 0),
    V3("v_maxmin_u32", NOENC, 3, l_maxmin_u32, 0),
    V3("v_minmax_u32", NOENC, 3, l_minmax_u32, 0),
    V3("v_lshl_or_b32", 0x200, 3, l_lshl_or, 0),
    V3("v_min3_f32", 0x1d0, 3, l_min3_f32, FLT),
    V3("v_min3_i32", 0x1d1, 3, l_min3_i32, 0),
    V3("v_min3_u32", 0x1d2, 3, l_min3_u32, 0),
    V3("v_max3_f32", 0x1d3, 3, l_max3_f32, FLT),
    V3("v_max3_i32", 0x1d4, 3, l_max3_i32, 0),
    V3("v_max3_u32", 0x1d5, 3, l_max3_u32, 0),
    V3("v_med3_f32", 0x1d6, 3, l_med3_f32, FLT),
    V3("v_med3_u32", 0x1d8, 3, l_med3_u32, 0),
    V3("v_mad_i64_i32", 0x1e9, 3, l_mad_i64_i32, O_S2_64 | O_D_64 | O_COUT),
    V3("v_bfm_b32", 0x293, 2, l_bfm, 0),
    V3("v_fma_f16", 0x206, 3, l_fma_f16, FLT | O_F16),
    V3("v_div_fixup_f16", 0x207, 3, l_div_fixup_f16, FLT | O_F16),
    V3("v_lshl_add_u64", 0x208, 3, l_lshl_add_u64, O_S0_64 | O_S2_64 | O_D_64),
    V3("v_add_f64", 0x280, 2, l_add_f64, FD),
    V3("v_mul_f64", 0x281, 2, l_mul_f64, FD),
    V3("v_min_f64", 0x282, 2, l_min_f64, FD),
    V3("v_minimum_f32", NOENC, 2, l_minimum_f32, FLT),
    V3("v_maximum_f32", NOENC, 2, l_maximum_f32, FLT),
    V3("v_minimum_f64", NOENC, 2, l_minimum_f64, FD),
    V3("v_maximum_f64", NOENC, 2, l_maximum_f64, FD),
    V3("v_max_f64", 0x283, 2, l_max_f64, FD),
    V3("v_ldexp_f64", 0x284, 2, l_ldexp_f64, FLT | O_S0_64 | O_D_64),
    V3("v_mul_lo_u32", 0x285, 2, l_mul_i32, 0),
    V3("v_mul_hi_u32", 0x286, 2, l_mul_hi_u32, 0),
    V3("v_mul_hi_i32", 0x287, 2, l_mul_hi_i32, 0),
    V3("v_ldexp_f32", 0x288, 2, l_ldexp_f32, FLT),
    { "v_readlane_b32", F_VOP3, 0x289, 2, 0, x_readlane, NULL, 0 },
    { "v_writelane_b32", F_VOP3, 0x28a, 2, 0, x_writelane, NULL, 0 },
    { "v_permlane16_b32", F_VOP3, NOENC, 3, 0, x_permlane16, NULL, 0 },
    { "v_permlanex16_b32", F_VOP3, NOENC, 3, 0, x_permlane16, NULL, 1 },
    V3("v_bcnt_u32_b32", 0x28b, 2, l_bcnt_u32, 0),
    V3("v_mbcnt_lo_u32_b32", 0x28c, 2, l_mbcnt_lo, 0),
    V3("v_mbcnt_hi_u32_b32", 0x28d, 2, l_mbcnt_hi, 0),
    V3("v_lshlrev_b64", 0x28f, 2, l_lshlrev64, O_S1_64 | O_D_64),
    V3("v_lshrrev_b64", 0x290, 2, l_lshrrev64, O_S1_64 | O_D_64),
    V3("v_ashrrev_i64", 0x291, 2, l_ashrrev64, O_S1_64 | O_D_64),
    V3("v_trig_preop_f64", 0x292, 2, l_trig_preop, O_S0_64 | O_D_64),
    V3("v_pack_b32_f16", 0x2a0, 2, l_pack_b32_f16, 0),
    /* VOP3P: aux 0 add, 1 mul, 2 fma */
    { "v_pk_add_u16", F_VOP3P, 0x0a, 2, 0, x_pk_add_u16, NULL, 0 },
    { "v_fma_mix_f32", F_VOP3P, 0x20, 3, 0, x_fma_mix, NULL, 0 },
    { "v_fma_mixlo_f16", F_VOP3P, 0x21, 3, 0, x_fma_mix, NULL, 1 },
    { "v_fma_mixhi_f16", F_VOP3P, 0x22, 3, 0, x_fma_mix, NULL, 2 },
    { "v_pk_fma_f32", F_VOP3P, 0x30, 3, 0, x_pk_f32, NULL, 2 },
    { "v_pk_mul_f32", F_VOP3P, 0x31, 2, 0, x_pk_f32, NULL, 1 },
    { "v_pk_add_f32", F_VOP3P, 0x32, 2, 0, x_pk_f32, NULL, 0 },
    { "v_pk_mov_b32", F_VOP3P, 0x33, 2, 0, x_pk_mov, NULL, 0 },
    { "v_accvgpr_read_b32", F_VOP3P, 0x58, 1, 0, x_accvgpr, NULL, 0 },
    { "v_accvgpr_write_b32", F_VOP3P, 0x59, 1, 0, x_accvgpr, NULL, 1 },
    /* GFX11 WMMA (wmma.c): aux = the kind */
    { "v_wmma_f32_16x16x16_f16", F_VOP3P, NOENC, 3, 0, amdemu_x_wmma, NULL, 0 },
    { "v_wmma_f32_16x16x16_bf16", F_VOP3P, NOENC, 3, 0, amdemu_x_wmma, NULL, 1 },
    { "v_wmma_f16_16x16x16_f16", F_VOP3P, NOENC, 3, 0, amdemu_x_wmma, NULL, 2 },
    { "v_wmma_bf16_16x16x16_bf16", F_VOP3P, NOENC, 3, 0, amdemu_x_wmma, NULL, 3 },
    { "v_wmma_i32_16x16x16_iu8", F_VOP3P, NOENC, 3, 0, amdemu_x_wmma, NULL, 4 },
    { "v_wmma_i32_16x16x16_iu4", F_VOP3P, NOENC, 3, 0, amdemu_x_wmma, NULL, 5 },
    /* VOPC class tests (the conditions are generated in amdemu_ops_init) */
    VC("v_cmp_class_f32", 0x10, l_class_f32, 0),
    VC("v_cmp_class_f64", 0x12, l_class_f64, O_S0_64),
    VC("v_cmp_class_f16", 0x14, l_class_f16, 0),
    /* DS: aux = bytes | atomic op << 8 | 0x80 returns */
    MEM("ds_add_u32", F_DS, 0x00, x_ds_atomic, 4 | A_ADD << 8),
    MEM("ds_sub_u32", F_DS, 0x01, x_ds_atomic, 4 | A_SUB << 8),
    MEM("ds_min_i32", F_DS, 0x05, x_ds_atomic, 4 | A_SMIN << 8),
    MEM("ds_max_i32", F_DS, 0x06, x_ds_atomic, 4 | A_SMAX << 8),
    MEM("ds_and_b32", F_DS, 0x09, x_ds_atomic, 4 | A_AND << 8),
    MEM("ds_min_u32", F_DS, 0x07, x_ds_atomic, 4 | A_UMIN << 8),
    MEM("ds_max_u32", F_DS, 0x08, x_ds_atomic, 4 | A_UMAX << 8),
    MEM("ds_add_f32", F_DS, 0x15, x_ds_atomic, 4 | A_FADD << 8),
    MEM("ds_max_rtn_u32", F_DS, 0x28, x_ds_atomic, 4 | 0x80 | A_UMAX << 8),
    MEM("ds_add_u64", F_DS, 0x40, x_ds_atomic, 8 | A_ADD << 8),
    MEM("ds_sub_u64", F_DS, 0x41, x_ds_atomic, 8 | A_SUB << 8),
    MEM("ds_min_i64", F_DS, 0x45, x_ds_atomic, 8 | A_SMIN << 8),
    MEM("ds_max_i64", F_DS, 0x46, x_ds_atomic, 8 | A_SMAX << 8),
    MEM("ds_min_u64", F_DS, 0x47, x_ds_atomic, 8 | A_UMIN << 8),
    MEM("ds_max_u64", F_DS, 0x48, x_ds_atomic, 8 | A_UMAX << 8),
    MEM("ds_and_b64", F_DS, 0x49, x_ds_atomic, 8 | A_AND << 8),
    MEM("ds_or_b64", F_DS, 0x4a, x_ds_atomic, 8 | A_OR << 8),
    MEM("ds_xor_b64", F_DS, 0x4b, x_ds_atomic, 8 | A_XOR << 8),
    MEM("ds_add_rtn_u64", F_DS, 0x60, x_ds_atomic, 8 | 0x80 | A_ADD << 8),
    MEM("ds_wrxchg_rtn_b64", F_DS, 0x6d, x_ds_atomic, 8 | 0x80 | A_SWAP << 8),
    MEM("ds_cmpst_rtn_b64", F_DS, 0x70, x_ds_atomic, 8 | 0x80 | A_CMPSWAP << 8),
    MEM("ds_cmpstore_rtn_b64", F_DS, NOENC, x_ds_atomic, 8 | 0x80 | DS_NEW_FIRST | A_CMPSWAP << 8),
    MEM("ds_write2st64_b32", F_DS, 0x0f, x_ds_write2, 4 | DS_ST64),
    MEM("ds_write2st64_b64", F_DS, 0x4f, x_ds_write2, 8 | DS_ST64),
    MEM("ds_read2st64_b32", F_DS, 0x38, x_ds_read2, 4 | DS_ST64),
    MEM("ds_read2st64_b64", F_DS, 0x78, x_ds_read2, 8 | DS_ST64),
    MEM("ds_or_b32", F_DS, 0x0a, x_ds_atomic, 4 | A_OR << 8),
    MEM("ds_xor_b32", F_DS, 0x0b, x_ds_atomic, 4 | A_XOR << 8),
    MEM("ds_write_b32", F_DS, 0x0d, x_ds_write, 4),
    MEM("ds_write2_b32", F_DS, 0x0e, x_ds_write2, 4),
    MEM("ds_write_b8", F_DS, 0x1e, x_ds_write, 1),
    MEM("ds_write_b16", F_DS, 0x1f, x_ds_write, 2),
    MEM("ds_add_rtn_u32", F_DS, 0x20, x_ds_atomic, 4 | 0x80 | A_ADD << 8),
    MEM("ds_wrxchg_rtn_b32", F_DS, 0x2d, x_ds_atomic, 4 | 0x80 | A_SWAP << 8),
    MEM("ds_cmpst_rtn_b32", F_DS, 0x30, x_ds_atomic, 4 | 0x80 | A_CMPSWAP << 8),
    MEM("ds_cmpstore_rtn_b32", F_DS, NOENC, x_ds_atomic, 4 | 0x80 | DS_NEW_FIRST | A_CMPSWAP << 8),
    MEM("ds_read_b32", F_DS, 0x36, x_ds_read, 4),
    MEM("ds_read2_b32", F_DS, 0x37, x_ds_read2, 4),
    MEM("ds_read_i8", F_DS, 0x39, x_ds_read, 1 | MEM_SIGNED),
    MEM("ds_read_u8", F_DS, 0x3a, x_ds_read, 1),
    MEM("ds_read_i16", F_DS, 0x3b, x_ds_read, 2 | MEM_SIGNED),
    MEM("ds_read_u16", F_DS, 0x3c, x_ds_read, 2),
    MEM("ds_swizzle_b32", F_DS, 0x3d, x_ds_swizzle, 4),
    MEM("ds_permute_b32", F_DS, 0x3e, x_ds_permute, 4),
    MEM("ds_bpermute_b32", F_DS, 0x3f, x_ds_bpermute, 4),
    MEM("ds_write_b64", F_DS, 0x4d, x_ds_write, 8),
    MEM("ds_write2_b64", F_DS, 0x4e, x_ds_write2, 8),
    MEM("ds_read_b64", F_DS, 0x76, x_ds_read, 8),
    MEM("ds_read2_b64", F_DS, 0x77, x_ds_read2, 8),
    MEM("ds_write_b96", F_DS, 0xde, x_ds_write, 12),
    MEM("ds_write_b128", F_DS, 0xdf, x_ds_write, 16),
    MEM("ds_read_b96", F_DS, 0xfe, x_ds_read, 12),
    MEM("ds_read_b128", F_DS, 0xff, x_ds_read, 16),
    /* FLAT / GLOBAL / SCRATCH */
    MEM("load_ubyte", F_FLAT, 0x10, x_flat_load, 1),
    MEM("load_sbyte", F_FLAT, 0x11, x_flat_load, 1 | MEM_SIGNED),
    MEM("load_ushort", F_FLAT, 0x12, x_flat_load, 2),
    MEM("load_sshort", F_FLAT, 0x13, x_flat_load, 2 | MEM_SIGNED),
    MEM("load_dword", F_FLAT, 0x14, x_flat_load, 4),
    MEM("load_dwordx2", F_FLAT, 0x15, x_flat_load, 8),
    MEM("load_dwordx3", F_FLAT, 0x16, x_flat_load, 12),
    MEM("load_dwordx4", F_FLAT, 0x17, x_flat_load, 16),
    MEM("load_ubyte_d16", F_FLAT, 0x20, x_flat_load, 1 | MEM_D16),
    MEM("load_ubyte_d16_hi", F_FLAT, 0x21, x_flat_load, 1 | MEM_D16_HI),
    MEM("load_sbyte_d16", F_FLAT, 0x22, x_flat_load, 1 | MEM_SIGNED | MEM_D16),
    MEM("load_sbyte_d16_hi", F_FLAT, 0x23, x_flat_load, 1 | MEM_SIGNED | MEM_D16_HI),
    MEM("load_short_d16", F_FLAT, 0x24, x_flat_load, 2 | MEM_D16),
    MEM("load_short_d16_hi", F_FLAT, 0x25, x_flat_load, 2 | MEM_D16_HI),
    MEM("store_byte", F_FLAT, 0x18, x_flat_store, 1),
    MEM("store_short", F_FLAT, 0x1a, x_flat_store, 2),
    MEM("store_byte_d16_hi", F_FLAT, 0x19, x_flat_store, 1 | MEM_D16_HI),
    MEM("store_short_d16_hi", F_FLAT, 0x1b, x_flat_store, 2 | MEM_D16_HI),
    MEM("store_dword", F_FLAT, 0x1c, x_flat_store, 4),
    MEM("store_dwordx2", F_FLAT, 0x1d, x_flat_store, 8),
    MEM("store_dwordx3", F_FLAT, 0x1e, x_flat_store, 12),
    MEM("store_dwordx4", F_FLAT, 0x1f, x_flat_store, 16),
    MEM("atomic_swap", F_FLAT, 0x40, x_flat_atomic, 4 | A_SWAP << 8),
    MEM("atomic_cmpswap", F_FLAT, 0x41, x_flat_atomic, 4 | A_CMPSWAP << 8),
    MEM("atomic_add", F_FLAT, 0x42, x_flat_atomic, 4 | A_ADD << 8),
    MEM("atomic_sub", F_FLAT, 0x43, x_flat_atomic, 4 | A_SUB << 8),
    MEM("atomic_smin", F_FLAT, 0x44, x_flat_atomic, 4 | A_SMIN << 8),
    MEM("atomic_umin", F_FLAT, 0x45, x_flat_atomic, 4 | A_UMIN << 8),
    MEM("atomic_smax", F_FLAT, 0x46, x_flat_atomic, 4 | A_SMAX << 8),
    MEM("atomic_umax", F_FLAT, 0x47, x_flat_atomic, 4 | A_UMAX << 8),
    MEM("atomic_and", F_FLAT, 0x48, x_flat_atomic, 4 | A_AND << 8),
    MEM("atomic_or", F_FLAT, 0x49, x_flat_atomic, 4 | A_OR << 8),
    MEM("atomic_xor", F_FLAT, 0x4a, x_flat_atomic, 4 | A_XOR << 8),
    MEM("atomic_inc", F_FLAT, 0x4b, x_flat_atomic, 4 | A_INC << 8),
    MEM("atomic_dec", F_FLAT, 0x4c, x_flat_atomic, 4 | A_DEC << 8),
    MEM("atomic_add_f32", F_FLAT, 0x4d, x_flat_atomic, 4 | A_FADD << 8),
    MEM("atomic_add_f64", F_FLAT, 0x4f, x_flat_atomic, 8 | A_FADD << 8),
    MEM("atomic_swap_x2", F_FLAT, 0x60, x_flat_atomic, 8 | A_SWAP << 8),
    MEM("atomic_cmpswap_x2", F_FLAT, 0x61, x_flat_atomic, 8 | A_CMPSWAP << 8),
    MEM("atomic_add_x2", F_FLAT, 0x62, x_flat_atomic, 8 | A_ADD << 8),
    MEM("atomic_sub_x2", F_FLAT, 0x63, x_flat_atomic, 8 | A_SUB << 8),
    MEM("atomic_smin_x2", F_FLAT, 0x64, x_flat_atomic, 8 | A_SMIN << 8),
    MEM("atomic_umin_x2", F_FLAT, 0x65, x_flat_atomic, 8 | A_UMIN << 8),
    MEM("atomic_smax_x2", F_FLAT, 0x66, x_flat_atomic, 8 | A_SMAX << 8),
    MEM("atomic_umax_x2", F_FLAT, 0x67, x_flat_atomic, 8 | A_UMAX << 8),
    MEM("atomic_and_x2", F_FLAT, 0x68, x_flat_atomic, 8 | A_AND << 8),
    MEM("atomic_or_x2", F_FLAT, 0x69, x_flat_atomic, 8 | A_OR << 8),
    MEM("atomic_xor_x2", F_FLAT, 0x6a, x_flat_atomic, 8 | A_XOR << 8),
    /* MUBUF: scratch on gfx90a; cache controls are no-ops (memory is coherent here) */
    MEM("buffer_load_dword", F_MUBUF, 0x14, x_mubuf_load, 4),
    MEM("buffer_load_dwordx2", F_MUBUF, 0x15, x_mubuf_load, 8),
    MEM("buffer_load_dwordx4", F_MUBUF, 0x17, x_mubuf_load, 16),
    MEM("buffer_store_byte", F_MUBUF, 0x18, x_mubuf_store, 1),
    MEM("buffer_store_short", F_MUBUF, 0x1a, x_mubuf_store, 2),
    MEM("buffer_store_dword", F_MUBUF, 0x1c, x_mubuf_store, 4),
    MEM("buffer_store_dwordx2", F_MUBUF, 0x1d, x_mubuf_store, 8),
    MEM("buffer_store_dwordx4", F_MUBUF, 0x1f, x_mubuf_store, 16),
    MEM("buffer_load_ubyte", F_MUBUF, 0x10, x_mubuf_load, 1),
    MEM("buffer_load_ushort", F_MUBUF, 0x12, x_mubuf_load, 2),
    MEM("buffer_load_sbyte", F_MUBUF, 0x11, x_mubuf_load, 1 | MEM_SIGNED),
    MEM("buffer_load_sshort", F_MUBUF, 0x13, x_mubuf_load, 2 | MEM_SIGNED),
    MEM("buffer_load_dwordx3", F_MUBUF, 0x16, x_mubuf_load, 12),
    MEM("buffer_store_byte_d16_hi", F_MUBUF, 0x19, x_mubuf_store, 1 | MEM_D16_HI),
    MEM("buffer_store_short_d16_hi", F_MUBUF, 0x1b, x_mubuf_store, 2 | MEM_D16_HI),
    MEM("buffer_store_dwordx3", F_MUBUF, 0x1e, x_mubuf_store, 12),
    MEM("buffer_load_ubyte_d16", F_MUBUF, 0x20, x_mubuf_load, 1 | MEM_D16),
    MEM("buffer_load_ubyte_d16_hi", F_MUBUF, 0x21, x_mubuf_load, 1 | MEM_D16_HI),
    MEM("buffer_load_sbyte_d16", F_MUBUF, 0x22, x_mubuf_load, 1 | MEM_SIGNED | MEM_D16),
    MEM("buffer_load_sbyte_d16_hi", F_MUBUF, 0x23, x_mubuf_load, 1 | MEM_SIGNED | MEM_D16_HI),
    MEM("buffer_load_short_d16", F_MUBUF, 0x24, x_mubuf_load, 2 | MEM_D16),
    MEM("buffer_load_short_d16_hi", F_MUBUF, 0x25, x_mubuf_load, 2 | MEM_D16_HI),
    MEM("buffer_wbl2", F_MUBUF, 0x28, x_nop, 0),
    MEM("buffer_inv", F_MUBUF, 0x29, x_nop, 0),
    MEM("buffer_wbinvl1_vol", F_MUBUF, 0x3f, x_nop, 0),
    MEM("buffer_gl0_inv", F_MUBUF, NOENC, x_nop, 0),
    MEM("buffer_gl1_inv", F_MUBUF, NOENC, x_nop, 0),
};

/* The VOPC compare families: each a base opcode per generation and its
 * conditions; a v_cmpx_* is its v_cmp_* plus 16 (GFX9) or 0x80 (GFX11). */
static const struct {
    const char *type;
    uint16_t base[AMD_NISA];
    int nconds;
    AmdLaneFn fn;
    AmdVecFn vec;
    uint32_t flags;
} cmp_families[] = {
    { "f16", { 0x20, 0x00 }, 16, l_cmp_f16, l_cmp_f16_vec, O_FLOAT | O_F16 },
    { "f32", { 0x40, 0x10 }, 16, l_cmp_f32, l_cmp_f32_vec, O_FLOAT },
    { "f64", { 0x60, 0x20 }, 16, l_cmp_f64, l_cmp_f64_vec, O_FLOAT | O_S0_64 | O_S1_64 },
    { "i16", { 0xa0, 0x30 }, 8, l_cmp_i16, l_cmp_i16_vec, 0 },
    { "u16", { 0xa8, 0x38 }, 8, l_cmp_u16, l_cmp_u16_vec, 0 },
    { "i32", { 0xc0, 0x40 }, 8, l_cmp_i32, l_cmp_i32_vec, 0 },
    { "u32", { 0xc8, 0x48 }, 8, l_cmp_u32, l_cmp_u32_vec, 0 },
    { "i64", { 0xe0, 0x50 }, 8, l_cmp_i64, l_cmp_i64_vec, O_S0_64 | O_S1_64 },
    { "u64", { 0xe8, 0x58 }, 8, l_cmp_u64, l_cmp_u64_vec, O_S0_64 | O_S1_64 },
};
static const char *const fconds[] = { "f", "lt",  "eq",  "le",  "gt",  "lg",  "ge",  "o",
                                      "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru" };
static const char *const iconds[] = { "f", "lt", "eq", "le", "gt", "ne", "ge", "t" };
/* v_cmp_class_f32/f64/f16 on GFX11 (GFX9's are rows of the table) */
static const struct {
    const char *sem;
    uint16_t op;
} gfx11_class[] = { { "v_cmp_class_f32", 0x7e }, { "v_cmp_class_f64", 0x7f }, { "v_cmp_class_f16", 0x7d } };

enum { NCMP = AMD_NISA * 2 * (3 * 16 + 6 * 8), NG11 = 512, NG12 = 128, NCLASS = 4 };
static AmdOp cmp_ops[NCMP];
static char cmp_names[NCMP / AMD_NISA][24];
static AmdOp gfx11_ops[NG11 + NCLASS + 19];
static AmdOp gfx12_ops[NG12];
static AmdOp scmp_float[2][16];
static char scmp_names[2][16][24];
static const AmdOp *lookup[AMD_NISA][F_NFMT][1024];

/* The row of ops[] named `name`, or NULL. */
static const AmdOp *op_named(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

/* A GFX11 (or GFX12) row: the semantics of ops[]'s row `sem` under that name and opcode. */
static void add_row(AmdIsa isa, AmdOp *r, AmdFmt fmt, unsigned op, const char *name, const char *sem)
{
    const AmdOp *s = op_named(sem ? sem : name);
    if (!s)
        return; /* a table error: the instruction stays unknown and stops a launch that runs it */
    *r = *s;
    r->name = name;
    /* GFX12's SALU float operations have VALU semantics, and leave SCC alone */
    if ((fmt == F_SOP1 || fmt == F_SOP2) && s->fmt != F_SOP1 && s->fmt != F_SOP2 && s->lane)
        r->flags |= O_SCC_KEEP;
    r->fmt = fmt;
    r->op = (uint16_t)op;
    if (fmt != F_VOPD)
        lookup[isa][fmt][op] = r;
}
static void add_gfx11(AmdOp *r, AmdFmt fmt, unsigned op, const char *name, const char *sem)
{
    add_row(AMD_GFX11, r, fmt, op, name, sem);
}

void amdemu_ops_init(void)
{
    int n = 0;
    for (size_t f = 0; f < sizeof cmp_families / sizeof cmp_families[0]; f++)
        for (int x = 0; x < 2; x++)
            for (int c = 0; c < cmp_families[f].nconds; c++, n++) {
                int k = n % (NCMP / AMD_NISA);
                snprintf(cmp_names[k], sizeof cmp_names[k], "v_cmp%s_%s_%s", x ? "x" : "",
                         cmp_families[f].nconds == 16 ? fconds[c] : iconds[c], cmp_families[f].type);
                for (int isa = 0; isa <= AMD_GFX11; isa++) {
                    AmdOp *r = &cmp_ops[isa * (NCMP / AMD_NISA) + k];
                    unsigned op = cmp_families[f].base[isa] + (unsigned)c + (x ? (isa == AMD_GFX9 ? 16 : 0x80) : 0);
                    /* GFX10+ v_cmpx writes EXEC only */
                    uint32_t xfl = x ? O_CMPX | (isa == AMD_GFX9 ? 0 : O_EXEC_ONLY) : 0;
                    *r = (AmdOp){ cmp_names[k],
                                  F_VOPC,
                                  (uint16_t)op,
                                  2,
                                  cmp_families[f].flags | O_CMP | xfl,
                                  NULL,
                                  cmp_families[f].fn,
                                  (uint32_t)c,
                                  cmp_families[f].vec };
                    lookup[isa][F_VOPC][op] = r;
                }
            }
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if ((ops[i].lane || ops[i].exec) && ops[i].op < 1024)
            lookup[AMD_GFX9][ops[i].fmt][ops[i].op] = &ops[i];
    size_t g = 0;
    for (size_t i = 0; i < amdemu_gfx11_count && g < NG11; i++, g++)
        add_gfx11(&gfx11_ops[g], amdemu_gfx11[i].fmt, amdemu_gfx11[i].op, amdemu_gfx11[i].name, amdemu_gfx11[i].sem);
    for (size_t i = 0; i < sizeof gfx11_class / sizeof gfx11_class[0]; i++, g++)
        add_gfx11(&gfx11_ops[g], F_VOPC, gfx11_class[i].op, gfx11_class[i].sem, NULL);
    for (unsigned i = 0; i < 19; i++, g++)
        if (amdemu_gfx11_vopd[i]) {
            add_gfx11(&gfx11_ops[g], F_VOPD, i, amdemu_gfx11_vopd[i], NULL);
            /* executed as the VOP1/VOP2 operation it names */
            const AmdOp *s = op_named(amdemu_gfx11_vopd[i]);
            if (s) {
                gfx11_ops[g].fmt = s->fmt;
                lookup[AMD_GFX11][F_VOPD][i] = &gfx11_ops[g];
            }
        }
    /* GFX12: GFX11's rows, then its own differences; the SALU float compares
     * s_cmp_COND_f32 (0x41..0x4e) and _f16 (0x51..0x5e) are the VOPC conditions into SCC */
    memcpy(lookup[AMD_GFX12], lookup[AMD_GFX11], sizeof lookup[AMD_GFX11]);
    for (int h = 0; h < 2; h++)
        for (int c = 1; c < 15; c++) {
            AmdOp *r = &scmp_float[h][c];
            snprintf(scmp_names[h][c], sizeof scmp_names[h][c], "s_cmp_%s_f%d", fconds[c], h ? 16 : 32);
            *r = (AmdOp){ scmp_names[h][c],          F_SOPC, (uint16_t)(0x40 + 16 * h + c), 2,
                          O_NODST | (h ? O_F16 : 0), NULL,   h ? l_cmp_f16 : l_cmp_f32,     (uint32_t)c };
            lookup[AMD_GFX12][F_SOPC][r->op] = r;
        }
    for (size_t i = 0; i < amdemu_gfx12_count && i < NG12; i++) {
        const AmdEnc *e = &amdemu_gfx12[i];
        if (e->sem && strcmp(e->sem, "-") == 0)
            lookup[AMD_GFX12][e->fmt][e->op] = NULL;
        else
            add_row(AMD_GFX12, &gfx12_ops[i], e->fmt, e->op, e->name, e->sem);
    }
}

const AmdOp *amdemu_op(AmdIsa isa, AmdFmt fmt, unsigned op)
{
    return op < 1024 ? lookup[isa][fmt][op] : NULL;
}
