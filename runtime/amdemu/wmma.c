/* wmma.c: GFX11's wave matrix multiply-accumulate, D = A * B + C on 16x16
 * tiles, one instruction for the whole wave ("RDNA3 Instruction Set
 * Architecture", 7.9 "Wave Matrix Multiply Accumulate").
 *
 * Lane layout, wave32 (lane l, i = l % 16, h = l / 16):
 *   A: lane l holds row i of A, K = 0..15 in order: f16/bf16 two per VGPR
 *      (8 VGPRs), iu8 four per VGPR (4), iu4 eight per VGPR (2), low bits
 *      first; lanes 16-31 hold the same rows as lanes 0-15.
 *   B: lane l holds column i of B, laid out as A's rows.
 *   C, D: 8 VGPRs; VGPR r of lane l is element (row 2r + h, column i). The
 *      f32 and i32 forms take the whole VGPR; the f16 and bf16 forms its low
 *      half, or its high half with op_sel[2], the other half kept from C.
 * iu8/iu4: neg_lo[0] says A is signed, neg_lo[1] B; clamp saturates the sum.
 * The sums are exact (products of 16-bit floats are exact in a double; the
 * 17 terms are added in a double) and rounded once, within the hardware's
 * ulp bounds but not necessarily bit-equal to its answer. wave64 WMMA (other
 * C/D layout) is not modelled: it stops the launch. */
#include <math.h>
#include <string.h>

#include "amdemu.h"

enum { WMMA_F32_F16, WMMA_F32_BF16, WMMA_F16_F16, WMMA_BF16_BF16, WMMA_I32_IU8, WMMA_I32_IU4 };

static double half_to_double(uint16_t h)
{
    _Float16 f;
    memcpy(&f, &h, 2);
    return (double)f;
}

static double bf16_to_double(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return (double)f;
}

static uint16_t double_to_half(double d)
{
    _Float16 h = (_Float16)d;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}

/* round to nearest even, NaN kept quiet */
static uint16_t double_to_bf16(double d)
{
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    if (isnan(f))
        return (uint16_t)((u >> 16) | 0x40);
    return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

/* Element k (K index) of the A row or B column lane l holds, from its first VGPR v0. */
static double float_elem(const AmdWave *w, unsigned v0, int lane, int k, bool bf16)
{
    uint32_t word = w->v[(v0 + (unsigned)k / 2) & 511][lane];
    uint16_t h = (uint16_t)(word >> (k % 2 * 16));
    return bf16 ? bf16_to_double(h) : half_to_double(h);
}

static int64_t int_elem(const AmdWave *w, unsigned v0, int lane, int k, int bits, bool sign)
{
    int per = 32 / bits;
    uint32_t word = w->v[(v0 + (unsigned)(k / per)) & 511][lane];
    uint32_t x = (word >> (k % per * bits)) & ((1u << bits) - 1);
    if (sign && (x >> (bits - 1) & 1))
        return (int64_t)x - ((int64_t)1 << bits);
    return (int64_t)x;
}

int amdemu_x_wmma(AmdWave *w, const AmdDec *d)
{
    if (w->lanes != 32)
        return amdemu_fail(w, d, "wave64 WMMA is not modelled (compile for wave32)");
    for (int i = 0; i < 3; i++)
        if (d->src[i] < 256)
            return amdemu_fail(w, d, "WMMA with a scalar or constant operand is not modelled");
    unsigned a = d->src[0] - 256u, b = d->src[1] - 256u, c = d->src[2] - 256u;
    int kind = (int)d->op->aux;
    bool hi = d->opsel >> 2 & 1;
    uint32_t out[8][32];
    for (int lane = 0; lane < 32; lane++) {
        int i = lane % 16, h = lane / 16;
        for (int r = 0; r < 8; r++) {
            int row = 2 * r + h, col = i;
            uint32_t cw = w->v[(c + (unsigned)r) & 511][lane];
            if (kind == WMMA_I32_IU8 || kind == WMMA_I32_IU4) {
                int bits = kind == WMMA_I32_IU8 ? 8 : 4;
                int64_t sum = (int32_t)cw;
                for (int k = 0; k < 16; k++)
                    sum += int_elem(w, a, row, k, bits, d->neg & 1) * int_elem(w, b, col, k, bits, d->neg >> 1 & 1);
                if (d->clamp)
                    sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
                out[r][lane] = (uint32_t)sum;
                continue;
            }
            bool bf = kind == WMMA_F32_BF16 || kind == WMMA_BF16_BF16;
            double sum = 0;
            for (int k = 0; k < 16; k++)
                sum += float_elem(w, a, row, k, bf) * float_elem(w, b, col, k, bf);
            uint16_t ch = (uint16_t)(cw >> (hi ? 16 : 0));
            uint32_t keep = hi ? cw & 0xffffu : cw & 0xffff0000u;
            int shift = hi ? 16 : 0;
            switch (kind) {
            case WMMA_F32_F16:
            case WMMA_F32_BF16: {
                float cf, r32;
                memcpy(&cf, &cw, 4);
                r32 = (float)(sum + (double)cf);
                memcpy(&out[r][lane], &r32, 4);
                break;
            }
            case WMMA_F16_F16: out[r][lane] = keep | (uint32_t)double_to_half(sum + half_to_double(ch)) << shift; break;
            default: out[r][lane] = keep | (uint32_t)double_to_bf16(sum + bf16_to_double(ch)) << shift; break;
            }
        }
    }
    /* every lane's result lands, whatever EXEC says: the instruction works on the whole wave */
    for (int r = 0; r < 8; r++)
        memcpy(w->v[(d->dst + (unsigned)r) & 511], out[r], sizeof out[r]);
    w->lane_instrs += 32;
    return 0;
}
