/* exec.c: decoding GFX9 instructions and running workgroups of waves.
 * A workgroup's waves run one at a time, each until it ends or reaches
 * s_barrier; when every live wave waits at the barrier they all go on. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "amdemu.h"

/* ---- operands ------------------------------------------------------------ */

uint64_t amdemu_exec_mask(const AmdWave *w)
{
    return w->lanes == 64 ? (uint64_t)w->s[126] | (uint64_t)w->s[127] << 32 : w->s[126];
}

void amdemu_set_exec(AmdWave *w, uint64_t m)
{
    w->s[126] = (uint32_t)m;
    w->s[127] = w->lanes == 64 ? (uint32_t)(m >> 32) : 0;
}

/* Inline float constants 240..248 as f16, f32 or f64 bits. */
static uint64_t inline_float(unsigned code, bool f64, bool f16)
{
    static const double vals[] = { 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0 };
    static const uint16_t h[] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118 };
    if (f16)
        return h[code - 240];
    if (code == 248)
        return f64 ? 0x3fc45f306dc9c882ull : 0x3e22f983u;
    double v = vals[code - 240];
    if (f64) {
        uint64_t b;
        memcpy(&b, &v, 8);
        return b;
    }
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* A scalar operand: an SGPR (pair for w64), inline constant or literal. */
uint64_t amdemu_sread(AmdWave *w, unsigned code, bool w64, bool f64, bool f16, uint32_t lit)
{
    if (code < 128) {
        if (code == 126 && w->lanes == 32 && w64)
            return w->s[126];
        return w64 && code < 127 ? (uint64_t)w->s[code] | (uint64_t)w->s[code + 1] << 32 : w->s[code];
    }
    if (code == 128)
        return 0;
    if (code <= 192)
        return code - 128;
    if (code <= 208) {
        int64_t v = -(int64_t)(code - 192);
        return w64 ? (uint64_t)v : (uint32_t)v;
    }
    if (code >= 240 && code <= 248)
        return inline_float(code, w64, f16); /* a 64-bit operand takes the f64 constant, integer or not */
    switch (code) {
    case 235: return (uint64_t)AMDEMU_SHARED_HI << (w64 ? 32 : 0);
    case 236: return 0;
    case 237: return (uint64_t)AMDEMU_PRIVATE_HI << (w64 ? 32 : 0);
    case 238: return 0;
    case 251: return (w->s[106] | (w->lanes == 64 ? w->s[107] : 0)) == 0;
    case 252: return amdemu_exec_mask(w) == 0;
    case 253: return w->scc;
    case 255: return f64 ? (uint64_t)lit << 32 : lit;
    }
    return 0;
}

void amdemu_swrite(AmdWave *w, unsigned code, uint64_t v, bool w64)
{
    if (code >= 128 || (code == 124 && w->isa >= AMD_GFX11))
        return; /* a constant, or GFX11's null, as destination */
    w->s[code] = (uint32_t)v;
    if (w64 && code < 127)
        w->s[code + 1] = (uint32_t)(v >> 32);
    if (w->lanes == 32 && (code == 126 || code == 127))
        w->s[127] = 0;
}

int amdemu_fail(AmdWave *w, const AmdDec *d, const char *fmt, ...)
{
    AmdGroup *g = w->g;
    if (g->err)
        return -1;
    char msg[512], ins[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ins[0] = '\0';
    if (d)
        amdemu_disasm(d, ins, sizeof ins);
    const AmdKernel *k = g->l->k;
    uint64_t off = w->pc - (uint64_t)(uintptr_t)k->img->base;
    if (asprintf(&g->err, "amdemu: %s: %s at offset 0x%llx of the code object (%s), wave %d of workgroup (%u,%u,%u)",
                 k->name, msg, (unsigned long long)off, ins[0] ? ins : "?", w->index, g->id[0], g->id[1], g->id[2]) < 0)
        g->err = NULL;
    return -1;
}

/* ---- decoding ------------------------------------------------------------ */

/* DPP16 controls: quad_perm, row_shl/shr/ror, row_mirror, row_half_mirror;
 * GFX9 also the wave shifts and rotates and row_bcast15/31; GFX10+ row_share
 * and row_xmask. */
static bool dpp16_known(unsigned c, AmdIsa isa)
{
    if (c <= 0xff || (c >= 0x101 && c <= 0x10f) || (c >= 0x111 && c <= 0x11f) || (c >= 0x121 && c <= 0x12f) ||
        c == 0x140 || c == 0x141)
        return true;
    if (isa == AMD_GFX9)
        return c == 0x130 || c == 0x134 || c == 0x138 || c == 0x13c || c == 0x142 || c == 0x143;
    return c >= 0x150 && c <= 0x16f;
}

/* DPP16: the lane that lane `lane` of an n-lane wave reads src0 from, or -1
 * (out of its row or the wave: an invalid lane). */
static int dpp16_lane(unsigned c, int lane, int n)
{
    int row = lane & ~15, i = lane & 15, k = (int)(c & 15);
    if (c <= 0xff)
        return (lane & ~3) | (int)(c >> (2 * (lane & 3)) & 3);
    switch (c & ~15u) {
    case 0x100: return i + k < 16 ? lane + k : -1; /* row_shl */
    case 0x110: return i - k >= 0 ? lane - k : -1; /* row_shr */
    case 0x120: return row + ((i - k) & 15);       /* row_ror */
    case 0x150: return row + k;                    /* row_share */
    case 0x160: return row + (i ^ k);              /* row_xmask */
    }
    switch (c) {
    case 0x130: return lane + 1 < n ? lane + 1 : -1; /* wave_shl */
    case 0x134: return (lane + 1) % n;               /* wave_rol */
    case 0x138: return lane > 0 ? lane - 1 : -1;     /* wave_shr */
    case 0x13c: return (lane + n - 1) % n;           /* wave_ror */
    case 0x140: return row + 15 - i;                 /* row_mirror */
    case 0x141: return (lane & ~7) + 7 - (lane & 7); /* row_half_mirror */
    case 0x142: return row >= 16 ? row - 1 : -1;     /* row_bcast15: the previous row's last lane */
    case 0x143: return lane >= 32 ? 31 : -1;         /* row_bcast31 */
    }
    return -1;
}

/* VOPD (GFX11): X and Y, each a VOP2/VOP1 operation, in two dwords (and a
 * shared literal). vdstY's low bit is the complement of vdstX's. */
static int decode_vopd(const uint32_t *p, AmdDec *d)
{
    static const AmdOp vopd_row = { "v_dual", F_VOPD, 0, 0, 0, NULL, NULL, 0 };
    uint32_t w = p[0], w1 = p[1];
    d->w1 = w1;
    d->size = 2;
    unsigned opx = (w >> 22) & 0xf, opy = (w >> 17) & 0x1f;
    d->dual[0] = amdemu_op(AMD_GFX11, F_VOPD, opx);
    d->dual[1] = amdemu_op(AMD_GFX11, F_VOPD, opy);
    d->dsrc[0][0] = w & 0x1ff;
    d->dsrc[0][1] = 256 + ((w >> 9) & 0xff);
    d->dsrc[1][0] = w1 & 0x1ff;
    d->dsrc[1][1] = 256 + ((w1 >> 9) & 0xff);
    d->ddst[0] = (w1 >> 24) & 0xff;
    d->ddst[1] = (uint16_t)((((w1 >> 17) & 0x7f) << 1) | (~d->ddst[0] & 1));
    if (!d->dual[0] || !d->dual[1]) {
        d->why = "this VOPD operation is not modelled";
        return -1;
    }
    bool lit =
        d->dsrc[0][0] == 255 || d->dsrc[1][0] == 255 || (d->dual[0]->flags & O_LIT_K) || (d->dual[1]->flags & O_LIT_K);
    if (lit)
        d->lit = p[2], d->size = 3;
    d->op = &vopd_row;
    return 0;
}

/* The 64-bit encodings of GFX11 (RDNA3); the 32-bit ones are GFX9's layouts. */
static int decode64_gfx11(const uint32_t *p, AmdDec *d, AmdFmt *fmtp, unsigned *opp)
{
    uint32_t w = p[0], w1 = p[1];
    d->w1 = w1;
    d->size = 2;
    unsigned op = 0;
    AmdFmt fmt;
    if (w >> 26 == 0x3d) { /* SMEM: the offset and an SGPR offset (null: none) are both added */
        fmt = F_SMEM;
        op = (w >> 18) & 0xff;
        d->src[0] = (w & 0x3f) << 1;
        d->dst = (w >> 6) & 0x7f;
        d->glc = (w >> 14) & 1;
        d->imm = ((int32_t)(w1 << 11)) >> 11;
        if ((w1 >> 25) != 124)
            d->saddr = 1 + (w1 >> 25);
    } else if (w >> 24 == 0xcc) { /* VOP3P */
        fmt = F_VOP3P;
        op = (w >> 16) & 0x7f;
        d->dst = w & 0xff;
        d->src[0] = w1 & 0x1ff;
        d->src[1] = (w1 >> 9) & 0x1ff;
        d->src[2] = (w1 >> 18) & 0x1ff;
        d->neg = (w1 >> 29) & 7;
        d->neg_hi = (w >> 8) & 7;
        d->opsel = (w >> 11) & 7;
        d->opsel_hi = ((w1 >> 27) & 3) | (((w >> 14) & 1) << 2);
        d->clamp = (w >> 15) & 1;
    } else if (w >> 26 == 0x35) { /* VOP3: VOPC 0x000, VOP2 0x100, VOP1 0x180, VOP3-only 0x200 on */
        op = (w >> 16) & 0x3ff;
        d->dst = w & 0xff;
        d->src[0] = w1 & 0x1ff;
        d->src[1] = (w1 >> 9) & 0x1ff;
        d->src[2] = (w1 >> 18) & 0x1ff;
        d->neg = (w1 >> 29) & 7;
        d->clamp = (w >> 15) & 1;
        d->omod = (w1 >> 27) & 3;
        d->abs = (w >> 8) & 7;
        d->opsel = (w >> 11) & 0xf;
        d->sdst = (w >> 8) & 0x7f;
        if (op < 0x100) {
            fmt = F_VOPC;
            d->sdst = d->dst;
        } else if (op < 0x180) {
            fmt = F_VOP2, op -= 0x100;
        } else if (op < 0x200) {
            fmt = F_VOP1, op -= 0x180;
        } else {
            fmt = F_VOP3;
        }
        d->vop3 = fmt != F_VOP3;
        if (d->src[0] == 250 || d->src[0] == 233 || d->src[0] == 234) { /* VOP3 DPP: a third dword */
            uint32_t x = p[2];
            d->size = 3;
            d->dpp = x;
            d->dpp_on = d->src[0] == 250 ? 1 : d->src[0] == 233 ? 2 : 3;
            d->src[0] = 256 + (x & 0xff);
            if (d->dpp_on == 1 && !dpp16_known((x >> 8) & 0x1ff, AMD_GFX11)) {
                d->why = "this DPP control is not modelled";
                return -1;
            }
        }
    } else if (w >> 26 == 0x32) {
        return decode_vopd(p, d);
    } else if (w >> 26 == 0x36) { /* DS */
        fmt = F_DS;
        op = (w >> 18) & 0xff;
        d->imm = w & 0xff;
        d->imm1 = (w >> 8) & 0xff;
        d->vaddr = w1 & 0xff;
        d->vdata = (w1 >> 8) & 0xff;
        d->vdata1 = (w1 >> 16) & 0xff;
        d->dst = (w1 >> 24) & 0xff;
        if ((w >> 17) & 1) {
            d->why = "GDS is not modelled";
            return -1;
        }
    } else if (w >> 26 == 0x37) { /* FLAT, SCRATCH, GLOBAL: saddr null (124) is off */
        fmt = F_FLAT;
        op = (w >> 18) & 0x7f;
        d->seg = (w >> 16) & 3;
        d->glc = (w >> 14) & 1;
        d->imm = d->seg ? ((int32_t)(w << 19)) >> 19 : (int32_t)(w & 0xfff);
        d->vaddr = w1 & 0xff;
        d->vdata = (w1 >> 8) & 0xff;
        d->saddr = (w1 >> 16) & 0x7f;
        if (d->saddr == 124)
            d->saddr = 0x7f;
        d->imm1 = (w1 >> 23) & 1; /* SCRATCH: SVE, the VGPR address is used */
        d->dst = (w1 >> 24) & 0xff;
    } else if (w >> 26 == 0x38) { /* MUBUF: only the cache controls are modelled */
        fmt = F_MUBUF;
        op = (w >> 18) & 0xff;
    } else {
        d->size = 1;
        return -1;
    }
    *fmtp = fmt;
    *opp = op;
    return 1;
}

/* GFX12's memory encodings (RDNA4 ISA, 15.3 SMEM, 15.11 VFLAT/VGLOBAL/VSCRATCH),
 * else GFX11's layouts:
 *   SMEM   w0: sbase [5:0] (pairs), sdata [12:6], op [18:13], 0x3d [31:26];
 *          w1: offset [23:0] signed, soffset [31:25] (null: none)
 *   VFLAT  w0: saddr [6:0] (null: off), op [21:14], seg [25:24] (0 flat,
 *          1 scratch, 2 global), 0x3b [31:26]; w1: vdst [7:0], SVE [17],
 *          th [22:20] (atomics: bit 20 returns), vdata [30:23]; w2: vaddr
 *          [7:0], offset [31:8] signed */
static int decode64_gfx12(const uint32_t *p, AmdDec *d, AmdFmt *fmtp, unsigned *opp)
{
    uint32_t w = p[0], w1 = p[1];
    if (w >> 26 == 0x3d) {
        d->w1 = w1;
        d->size = 2;
        *fmtp = F_SMEM;
        *opp = (w >> 13) & 0x3f;
        d->src[0] = (w & 0x3f) << 1;
        d->dst = (w >> 6) & 0x7f;
        d->imm = ((int32_t)(w1 << 8)) >> 8;
        if ((w1 >> 25) != 124)
            d->saddr = 1 + (w1 >> 25);
        return 1;
    }
    if (w >> 26 == 0x3b) {
        uint32_t w2 = p[2];
        d->w1 = w1;
        d->size = 3;
        *fmtp = F_FLAT;
        *opp = (w >> 14) & 0xff;
        d->seg = (w >> 24) & 3;
        if (d->seg == 3)
            return -1;
        d->saddr = w & 0x7f;
        if (d->saddr == 124)
            d->saddr = 0x7f;
        d->dst = w1 & 0xff;
        d->imm1 = (w1 >> 17) & 1;
        d->glc = (w1 >> 20) & 1;
        d->vdata = (w1 >> 23) & 0xff;
        d->vaddr = w2 & 0xff;
        d->imm = (int32_t)w2 >> 8;
        return 1;
    }
    return decode64_gfx11(p, d, fmtp, opp);
}

/* The fields of one instruction at p; 0 or -1 for an encoding not modelled
 * (d->op NULL, d->w0 set so the error can name it). */
int amdemu_decode(const uint32_t *p, AmdDec *d, AmdIsa isa)
{
    memset(d, 0, sizeof *d);
    uint32_t w = p[0];
    d->w0 = w;
    d->size = 1;
    unsigned op = 0;
    AmdFmt fmt;
    if (w >> 25 == 0x3f) { /* VOP1 */
        fmt = F_VOP1;
        op = (w >> 9) & 0xff;
        d->src[0] = w & 0x1ff;
        d->dst = (w >> 17) & 0xff;
    } else if (w >> 25 == 0x3e) { /* VOPC */
        fmt = F_VOPC;
        op = (w >> 17) & 0xff;
        d->src[0] = w & 0x1ff;
        d->src[1] = 256 + ((w >> 9) & 0xff);
        d->sdst = 106;
    } else if (w >> 31 == 0) { /* VOP2 */
        fmt = F_VOP2;
        op = (w >> 25) & 0x3f;
        d->src[0] = w & 0x1ff;
        d->src[1] = 256 + ((w >> 9) & 0xff);
        d->dst = (w >> 17) & 0xff;
        d->sdst = 106;
        d->src[2] = 106; /* carry in: VCC */
    } else if (w >> 30 == 2) {
        unsigned t = w >> 23;
        if (t == 0x17d) {
            fmt = F_SOP1;
            op = (w >> 8) & 0xff;
            d->src[0] = w & 0xff;
            d->dst = (w >> 16) & 0x7f;
        } else if (t == 0x17e) {
            fmt = F_SOPC;
            op = (w >> 16) & 0x7f;
            d->src[0] = w & 0xff;
            d->src[1] = (w >> 8) & 0xff;
        } else if (t == 0x17f) {
            fmt = F_SOPP;
            op = (w >> 16) & 0x7f;
            d->imm = (int16_t)(w & 0xffff);
        } else if (w >> 28 == 0xb) {
            fmt = F_SOPK;
            op = (w >> 23) & 0x1f;
            d->dst = (w >> 16) & 0x7f;
            d->imm = (int16_t)(w & 0xffff);
        } else {
            fmt = F_SOP2;
            op = (w >> 23) & 0x7f;
            d->src[0] = w & 0xff;
            d->src[1] = (w >> 8) & 0xff;
            d->dst = (w >> 16) & 0x7f;
        }
    } else if (isa >= AMD_GFX11) {
        int rc = isa == AMD_GFX12 ? decode64_gfx12(p, d, &fmt, &op) : decode64_gfx11(p, d, &fmt, &op);
        if (rc <= 0)
            return rc;
    } else {
        uint32_t w1 = p[1];
        d->w1 = w1;
        d->size = 2;
        switch (w >> 26) {
        case 0x30: /* SMEM */
            fmt = F_SMEM;
            op = (w >> 18) & 0xff;
            d->src[0] = (w & 0x3f) << 1;
            d->dst = (w >> 6) & 0x7f;
            d->glc = (w >> 16) & 1;
            if ((w >> 17) & 1)
                d->imm = ((int32_t)(w1 << 11)) >> 11; /* 21-bit signed */
            else
                d->src[1] = w1 & 0xff, d->imm = 0, d->src[2] = 1; /* offset in an SGPR */
            if ((w >> 14) & 1)
                d->saddr = 1 + ((w1 >> 25) & 0x7f); /* soffset + 1 */
            break;
        case 0x34: /* VOP3, VOP3P */
            op = (w >> 16) & 0x3ff;
            d->dst = w & 0xff;
            d->src[0] = w1 & 0x1ff;
            d->src[1] = (w1 >> 9) & 0x1ff;
            d->src[2] = (w1 >> 18) & 0x1ff;
            d->neg = (w1 >> 29) & 7;
            if (op >= 0x380) {
                fmt = F_VOP3P;
                op &= 0x7f;
                d->neg_hi = (w >> 8) & 7;
                d->opsel = (w >> 11) & 7;
                d->opsel_hi = ((w1 >> 27) & 3) | (((w >> 14) & 1) << 2);
                d->clamp = (w >> 15) & 1;
                break;
            }
            d->clamp = (w >> 15) & 1;
            d->omod = (w1 >> 27) & 3;
            d->abs = (w >> 8) & 7;
            d->opsel = (w >> 11) & 0xf;
            d->sdst = (w >> 8) & 0x7f; /* VOP3b (carry ops) */
            if (op < 0x100) {
                fmt = F_VOPC;
                d->sdst = d->dst;
            } else if (op < 0x140) {
                fmt = F_VOP2, op -= 0x100;
            } else if (op < 0x1c0) {
                fmt = F_VOP1, op -= 0x140;
            } else {
                fmt = F_VOP3;
            }
            d->vop3 = fmt != F_VOP3;
            break;
        case 0x36: /* DS */
            fmt = F_DS;
            op = (w >> 17) & 0xff;
            d->imm = w & 0xff;
            d->imm1 = (w >> 8) & 0xff;
            d->vaddr = w1 & 0xff;
            d->vdata = (w1 >> 8) & 0xff;
            d->vdata1 = (w1 >> 16) & 0xff;
            d->dst = (w1 >> 24) & 0xff;
            if ((w >> 16) & 1)
                return -1; /* GDS */
            break;
        case 0x37: /* FLAT, SCRATCH, GLOBAL */
            fmt = F_FLAT;
            op = (w >> 18) & 0x7f;
            d->seg = (w >> 14) & 3;
            d->glc = (w >> 16) & 1;
            d->imm = d->seg ? ((int32_t)(w << 19)) >> 19 : (int32_t)(w & 0xfff);
            d->imm1 = (w >> 13) & 1; /* SCRATCH on gfx940: SVE, the VGPR address is used */
            d->vaddr = w1 & 0xff;
            d->vdata = (w1 >> 8) & 0xff;
            d->saddr = (w1 >> 16) & 0x7f;
            d->dst = (w1 >> 24) & 0xff;
            break;
        case 0x38: /* MUBUF */
            fmt = F_MUBUF;
            op = (w >> 18) & 0x7f;
            d->imm = w & 0xfff;
            d->imm1 = (w >> 12) & 1; /* offen */
            d->glc = (w >> 14) & 1;
            d->vaddr = w1 & 0xff;
            d->vdata = (w1 >> 8) & 0xff;
            d->saddr = ((w1 >> 16) & 0x1f) << 2; /* srsrc */
            d->src[0] = (w1 >> 24) & 0xff;       /* soffset */
            d->dst = d->vdata;
            break;
        default: d->size = 1; return -1;
        }
    }
    const AmdOp *row = amdemu_op(isa, fmt, op);
    if (!row)
        return -1;
    d->op = row;
    if ((row->flags & O_COUT) && (fmt == F_VOP3 || d->vop3))
        d->abs = 0; /* VOP3b: those bits are the carry's SGPR */
    /* a literal follows the SALU/VALU encodings that name operand 255 */
    bool lit = false;
    if (fmt == F_SOP2 || fmt == F_SOPC)
        lit = d->src[0] == 255 || d->src[1] == 255 || (row->flags & O_LIT_K);
    else if (fmt == F_SOP1)
        lit = d->src[0] == 255;
    else if ((fmt == F_VOP1 || fmt == F_VOP2 || fmt == F_VOPC) && !d->vop3)
        lit = d->src[0] == 255 || (row->flags & O_LIT_K);
    else if (isa >= AMD_GFX11 && !d->dpp_on && (fmt == F_VOP3P || fmt == F_VOP3 || d->vop3)) /* GFX10+: literals */
        lit = d->src[0] == 255 || d->src[1] == 255 || d->src[2] == 255;
    if ((row->flags & O_COUT) && (fmt == F_VOP3 || d->vop3))
        d->opsel = 0; /* VOP3b: the carry's SGPR */
    if (isa >= AMD_GFX11 && (fmt == F_VOP3 || d->vop3) && d->opsel && !row->exec && !(row->flags & O_F16) &&
        !strstr(row->name, "16")) {
        d->op = NULL;
        d->why = "VOP3 op_sel is not modelled for this instruction";
        return -1;
    }
    if (lit) {
        d->lit = p[d->size];
        d->w1 = d->lit;
        d->size++;
    }
    if ((fmt == F_VOP1 || fmt == F_VOP2 || fmt == F_VOPC) && !d->vop3 &&
        (d->src[0] == 250 || (isa >= AMD_GFX11 && (d->src[0] == 233 || d->src[0] == 234)))) {
        /* DPP: src0's VGPR and the lane pattern in a second dword */
        uint32_t x = p[1];
        d->w1 = x;
        d->size = 2;
        d->dpp = x;
        d->dpp_on = d->src[0] == 250 ? 1 : d->src[0] == 233 ? 2 : 3;
        d->src[0] = 256 + (x & 0xff);
        if (d->dpp_on == 1) { /* src0/src1 neg and abs */
            d->neg = (uint8_t)(((x >> 20) & 1) | ((x >> 22) & 1) << 1);
            d->abs = (uint8_t)(((x >> 21) & 1) | ((x >> 23) & 1) << 1);
        }
        if (d->dpp_on == 1 && !dpp16_known((x >> 8) & 0x1ff, isa)) {
            d->op = NULL;
            d->why = "this DPP control is not modelled";
            return -1;
        }
    }
    if ((fmt == F_VOP1 || fmt == F_VOP2 || fmt == F_VOPC) && !d->vop3 && d->src[0] == 249 && isa == AMD_GFX9) {
        /* SDWA: sub-dword selects of src0/src1/dst in a second dword */
        uint32_t s = p[1];
        d->size = 2;
        d->w1 = s;
        d->sdwa = s;
        d->sdwa_on = 1;
        d->src[0] = (s & 0xff) + ((s >> 23) & 1 ? 0 : 256);
        if ((s >> 31) & 1)
            d->src[1] -= 256; /* src1 an SGPR */
        if (fmt == F_VOPC && ((s >> 15) & 1))
            d->sdst = (s >> 8) & 0x7f;
        if (fmt != F_VOPC && ((s >> 14) & 3)) {
            d->op = NULL;
            d->why = "SDWA output modifier not modelled";
            return -1;
        }
        d->clamp = fmt != F_VOPC && ((s >> 13) & 1);
        d->abs = (uint8_t)(((s >> 21) & 1) | ((s >> 29) & 1) << 1);
        d->neg = (uint8_t)(((s >> 20) & 1) | ((s >> 28) & 1) << 1);
    }
    return 0;
}

static const char *const fmt_names[F_NFMT] = { "SOP2", "SOPK", "SOP1", "SOPC",  "SOPP", "SMEM", "VOP2",
                                               "VOP1", "VOPC", "VOP3", "VOP3P", "DS",   "FLAT", "MUBUF" };

/* A short description: the mnemonic, else the raw dwords and the encoding. */
int amdemu_disasm(const AmdDec *d, char *buf, size_t cap)
{
    if (d->op && d->op->fmt == F_VOPD)
        return snprintf(buf, cap, "v_dual_%s :: v_dual_%s (%08x %08x)", d->dual[0]->name + 2, d->dual[1]->name + 2,
                        d->w0, d->w1);
    if (d->op)
        return snprintf(buf, cap, d->size > 1 ? "%s%s%s (%08x %08x)" : "%s%s%s (%08x)",
                        d->op->fmt == F_FLAT ? (d->seg == 2   ? "global_"
                                                : d->seg == 1 ? "scratch_"
                                                              : "flat_")
                                             : "",
                        d->op->name, d->vop3 ? "_e64" : "", d->w0, d->w1);
    unsigned w = d->w0;
    const char *enc = w >> 25 == 0x3f   ? "VOP1"
                      : w >> 25 == 0x3e ? "VOPC"
                      : w >> 31 == 0    ? "VOP2"
                      : w >> 30 == 2    ? "SOP"
                      : w >> 26 == 0x30 ? "SMEM"
                      : w >> 26 == 0x34 ? "VOP3"
                      : w >> 26 == 0x36 ? "DS"
                      : w >> 26 == 0x37 ? "FLAT"
                      : w >> 26 == 0x38 ? "MUBUF"
                                        : "unknown";
    (void)fmt_names;
    return snprintf(buf, cap, "%s encoding %08x %08x", enc, d->w0, d->w1);
}

/* ---- the generic executors --------------------------------------------------- */

static uint64_t float_mods(uint64_t v, int i, const AmdDec *d, uint32_t flags, bool w64)
{
    /* applied whatever the row's type: the assembler accepts abs/neg only where the
     * hardware applies them (v_cndmask_b32_e64 |v1| included) */
    int bit = w64 ? 63 : (flags & O_F16) ? 15 : 31;
    if (d->abs >> i & 1)
        v &= ~(1ull << bit);
    if (d->neg >> i & 1)
        v ^= 1ull << bit;
    return v;
}

static uint64_t clamp_float(uint64_t v, uint32_t flags)
{
    if (flags & O_D_64) {
        double x;
        memcpy(&x, &v, 8);
        x = isnan(x) ? 0.0 : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
        memcpy(&v, &x, 8);
        return v;
    }
    float x;
    uint32_t b = (uint32_t)v;
    memcpy(&x, &b, 4);
    x = isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    memcpy(&b, &x, 4);
    return b;
}

/* SDWA operand select: 0..3 a byte, 4..5 a word, 6 the dword; sext: sign-extend. */
static uint64_t sdwa_select(uint64_t v, unsigned sel, unsigned sext)
{
    if (sel >= 6)
        return v;
    unsigned bits = sel < 4 ? 8 : 16, shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
    uint32_t x = (uint32_t)(v >> shift) & ((1u << bits) - 1);
    if (sext && (x >> (bits - 1) & 1))
        x |= ~((1u << bits) - 1);
    return x;
}

/* SDWA destination: the result into the selected bits; the others zeroed
 * (unused 0), sign-extended (1) or kept (2). */
static uint32_t sdwa_dst(uint32_t old, uint32_t v, unsigned sel, unsigned unused)
{
    if (sel >= 6)
        return v;
    unsigned bits = sel < 4 ? 8 : 16, shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
    uint32_t mask = ((1u << bits) - 1) << shift;
    uint32_t r = (v << shift) & mask;
    if (unused == 2)
        return r | (old & ~mask);
    if (unused == 1 && (v >> (bits - 1) & 1))
        return r | (~0u << (shift + bits));
    return r;
}

/* DPP: src0 of every lane from the lane its pattern names (before the
 * modifiers, which apply after). Returns the lanes that write: those of the
 * enabled rows and banks whose source is valid; an invalid source (outside the
 * row or wave, or an inactive lane unless FI) reads 0 if bound_ctrl, else the
 * lane does not write. */
static uint64_t dpp_gather(AmdWave *w, const AmdDec *d, uint64_t *s, unsigned code, bool w64, uint64_t exec)
{
    int n = w->lanes;
    uint32_t x = d->dpp;
    unsigned c = (x >> 8) & 0x1ff;
    bool bc = (x >> 19) & 1, fi = d->dpp_on == 3 || (w->isa >= AMD_GFX11 && d->dpp_on == 1 && ((x >> 18) & 1));
    unsigned row_mask = d->dpp_on == 1 ? x >> 28 : 0xf, bank_mask = d->dpp_on == 1 ? (x >> 24) & 0xf : 0xf;
    const uint32_t *lo = w->v[(code - 256) & 511], *hi = w->v[(code - 255) & 511];
    uint64_t tmp[64], writes = 0;
    for (int lane = 0; lane < n; lane++) {
        int from = d->dpp_on == 1 ? dpp16_lane(c, lane, n) : (lane & ~7) | (int)(x >> (8 + 3 * (lane & 7)) & 7);
        bool valid = from >= 0 && from < n && (fi || (exec >> from & 1));
        tmp[lane] = valid ? lo[from] | (w64 ? (uint64_t)hi[from] << 32 : 0) : 0;
        bool on = (row_mask >> (lane >> 4) & 1) && (bank_mask >> ((lane >> 2) & 3) & 1);
        if (on && (valid || bc))
            writes |= 1ull << lane;
    }
    memcpy(s, tmp, sizeof tmp);
    return writes;
}

/* VOP1, VOP2, VOPC, VOP3: the row's lane function on every active lane. */
static int exec_valu(AmdWave *w, const AmdDec *d)
{
    const AmdOp *r = d->op;
    uint32_t fl = r->flags;
    if (d->omod)
        return amdemu_fail(w, d, "output modifier (omod) not modelled");
    bool w64[3] = { fl & O_S0_64, fl & O_S1_64, fl & O_S2_64 };
    bool isv[3] = { false, false, false };
    uint64_t sval[3] = { 0, 0, 0 };
    int nsrc = r->nsrc;
    uint16_t src[3] = { d->src[0], d->src[1], d->src[2] };
    if (fl & O_LIT_K) { /* fmamk: s0 * K + s1; fmaak: s0 * s1 + K */
        if (r->aux == 0)
            src[2] = src[1], src[1] = 255;
        else
            src[2] = 255;
    }
    unsigned dst = d->dst;
    if (w->gpr_idx_en) { /* GFX9's GPR indexing mode: the VGPR operands M0[15:12] names move by M0[7:0] */
        unsigned idx = w->s[124] & 0xff, mode = w->s[124] >> 12 & 0xf;
        for (int i = 0; i < 3; i++)
            if ((mode >> i & 1) && src[i] >= 256)
                src[i] = (uint16_t)(src[i] + idx);
        if (mode & 8)
            dst += idx;
    }
    if (fl & O_SRC2_D)
        src[2] = 256 + dst;
    for (int i = 0; i < nsrc; i++) {
        if (src[i] >= 256)
            isv[i] = true;
        else
            sval[i] = amdemu_sread(w, src[i], w64[i], w64[i] && (fl & O_FLOAT), fl & O_F16, d->lit);
    }
    uint64_t exec = amdemu_exec_mask(w);
    uint64_t cin = 0;
    if (fl & O_CIN_VCC)
        cin = amdemu_sread(w, 106, true, false, false, 0);
    else if (fl & O_CIN)
        cin = amdemu_sread(w, d->vop3 ? src[2] : 106, true, false, false, 0);
    bool dw64 = fl & O_D_64;
    /* only VOP3 and SDWA carry abs/neg */
    bool mods = (d->vop3 || r->fmt == F_VOP3 || d->sdwa_on || d->dpp_on) && (d->abs || d->neg);
    bool write_d = !(fl & O_CMP);
    /* VOP3 op_sel on 16-bit operations: bit i takes the high half of source i,
     * bit 3 writes the high half of the destination */
    unsigned opsel = (d->vop3 || r->fmt == F_VOP3) ? d->opsel : 0;
    bool plain = !mods && !d->sdwa_on && !(d->clamp && (fl & O_FLOAT)) && !opsel;
    int n = w->lanes;
    AmdVec v;
    v.cin = cin;
    v.aux = r->aux;
    v.n = n;
    v.w = w;
    /* the sources of every lane: inactive lanes compute too, their results are dropped */
    uint64_t dpp_writes = ~0ull;
    for (int i = 0; i < nsrc; i++) {
        uint64_t *s = v.s[i];
        if (i == 0 && d->dpp_on) {
            dpp_writes = dpp_gather(w, d, s, src[0], w64[0], exec);
        } else if (!isv[i]) {
            for (int k = 0; k < n; k++)
                s[k] = sval[i];
        } else if (w64[i]) {
            const uint32_t *lo = w->v[(src[i] - 256) & 511], *hi = w->v[(src[i] - 255) & 511];
            for (int k = 0; k < n; k++)
                s[k] = lo[k] | (uint64_t)hi[k] << 32;
        } else {
            const uint32_t *lo = w->v[(src[i] - 256) & 511];
            for (int k = 0; k < n; k++)
                s[k] = lo[k];
        }
        if (!plain)
            for (int k = 0; k < n; k++) {
                uint64_t x = s[k];
                if (opsel >> i & 1)
                    x >>= 16;
                if (d->sdwa_on && i < 2)
                    x = sdwa_select(x, d->sdwa >> (i ? 24 : 16) & 7, d->sdwa >> (i ? 27 : 19) & 1);
                if (mods)
                    x = float_mods(x, i, d, fl, w64[i]);
                s[k] = x;
            }
    }
    exec &= dpp_writes;
    if (r->vec) {
        r->vec(&v);
    } else { /* a row without a wave loop: its lane function lane by lane */
        v.cout = 0;
        for (uint64_t m = exec; m; m &= m - 1) {
            int lane = __builtin_ctzll(m);
            AmdLane l = { .s = { v.s[0][lane], v.s[1][lane], v.s[2][lane] },
                          .cin = (uint32_t)(cin >> lane & 1),
                          .aux = r->aux,
                          .lane = lane,
                          .w = w };
            r->lane(&l);
            v.d[lane] = l.d;
            v.cout |= (uint64_t)(l.cout & 1) << lane;
        }
    }
    uint64_t cout = v.cout & exec;
    if (write_d) {
        uint32_t *dlo = w->v[dst & 511], *dhi = w->v[(dst + 1) & 511];
        if (!plain)
            for (uint64_t m = exec; m; m &= m - 1) {
                int lane = __builtin_ctzll(m);
                uint64_t x = v.d[lane];
                if (d->clamp && (fl & O_FLOAT))
                    x = clamp_float(x, fl);
                if (d->sdwa_on)
                    x = sdwa_dst(dlo[lane], (uint32_t)x, d->sdwa >> 8 & 7, d->sdwa >> 11 & 3);
                if (opsel & 8)
                    x = (dlo[lane] & 0xffffu) | (uint32_t)x << 16;
                v.d[lane] = x;
            }
        uint64_t full = n == 64 ? ~0ull : (1ull << n) - 1;
        if (exec == full) {
            for (int k = 0; k < n; k++)
                dlo[k] = (uint32_t)v.d[k];
            if (dw64)
                for (int k = 0; k < n; k++)
                    dhi[k] = (uint32_t)(v.d[k] >> 32);
        } else {
            for (uint64_t m = exec; m; m &= m - 1) {
                int lane = __builtin_ctzll(m);
                dlo[lane] = (uint32_t)v.d[lane];
                if (dw64)
                    dhi[lane] = (uint32_t)(v.d[lane] >> 32);
            }
        }
    }
    w->lane_instrs += (uint64_t)__builtin_popcountll(exec);
    if ((fl & (O_COUT | O_CMP)) && !(fl & O_EXEC_ONLY))
        amdemu_swrite(w, d->sdst, cout, w->lanes == 64);
    if (fl & O_CMPX)
        amdemu_set_exec(w, cout);
    return 0;
}

/* SOP2, SOP1, SOPC, SOPK: the row's function once, SCC as the carry. */
static int exec_salu(AmdWave *w, const AmdDec *d)
{
    const AmdOp *r = d->op;
    uint32_t fl = r->flags;
    AmdLane l = { .w = w, .cin = w->scc, .aux = r->aux };
    if (d->op->fmt == F_SOPK) {
        l.s[0] = amdemu_sread(w, d->dst, fl & O_S0_64, false, false, 0);
        l.s[1] = r->aux ? (uint32_t)(uint16_t)d->imm : (uint64_t)(int64_t)d->imm;
        if (!(fl & O_S1_64))
            l.s[1] = (uint32_t)l.s[1];
    } else {
        /* a SOP1 of two operands (s_bitset1) reads its destination too */
        for (int i = 0; i < r->nsrc; i++)
            l.s[i] = amdemu_sread(w, i && r->fmt == F_SOP1 ? d->dst : d->src[i], fl & (i ? O_S1_64 : O_S0_64), false,
                                  fl & O_F16, d->lit);
    }
    r->lane(&l);
    if (!(fl & O_NODST))
        amdemu_swrite(w, d->dst, l.d, fl & O_D_64);
    if (!(fl & O_SCC_KEEP))
        w->scc = l.cout & 1;
    w->lane_instrs++;
    return 0;
}

/* VOPD: X and Y read their operands before either writes. X runs into a
 * spare VGPR (the AGPR file, unused on GFX11), Y into its destination, then
 * X's result moves to its own. */
static int exec_vopd(AmdWave *w, const AmdDec *d)
{
    enum { SPARE = 511 };
    uint64_t exec = amdemu_exec_mask(w);
    for (int k = 0; k < 2; k++) {
        AmdDec sub;
        memset(&sub, 0, sizeof sub);
        sub.op = d->dual[k];
        sub.size = d->size;
        sub.src[0] = d->dsrc[k][0];
        sub.src[1] = d->dsrc[k][1];
        sub.src[2] = 106; /* v_cndmask's mask: VCC */
        sub.sdst = 106;
        sub.lit = d->lit;
        sub.dst = k == 0 ? SPARE : d->ddst[1];
        if (k == 0 && (sub.op->flags & O_SRC2_D)) /* fmac: the accumulator is X's destination */
            memcpy(w->v[SPARE], w->v[d->ddst[0]], sizeof w->v[SPARE]);
        if (exec_valu(w, &sub) != 0)
            return -1;
    }
    for (uint64_t m = exec; m; m &= m - 1) {
        int lane = __builtin_ctzll(m);
        w->v[d->ddst[0]][lane] = w->v[SPARE][lane];
    }
    return 0;
}

static const AmdExecFn generic[F_NFMT] = {
    [F_VOPD] = exec_vopd, [F_SOP2] = exec_salu, [F_SOPK] = exec_salu, [F_SOP1] = exec_salu, [F_SOPC] = exec_salu,
    [F_VOP1] = exec_valu, [F_VOP2] = exec_valu, [F_VOPC] = exec_valu, [F_VOP3] = exec_valu,
};

/* ---- running a workgroup --------------------------------------------------- */

static const AmdDec *fetch(AmdWave *w)
{
    AmdImage *img = w->g->l->k->img;
    uint64_t off = w->pc - (uint64_t)(uintptr_t)img->base;
    if (off >= img->size || (off & 3)) {
        amdemu_fail(w, NULL, "the program counter left the code object");
        return NULL;
    }
    size_t i = off / 4;
    if (!__atomic_load_n(&img->dvalid[i], __ATOMIC_ACQUIRE)) {
        /* threads may decode the same instruction at once: each writes the same fields */
        AmdDec dec;
        amdemu_decode((const uint32_t *)(img->base + off), &dec, img->isa);
        pthread_mutex_lock(&img->lock);
        if (!img->dvalid[i]) {
            img->dcache[i] = dec;
            __atomic_store_n(&img->dvalid[i], 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&img->lock);
    }
    const AmdDec *d = &img->dcache[i];
    if (!d->op) {
        amdemu_fail(w, d, "%s", d->why ? d->why : "unknown or unmodelled instruction");
        return NULL;
    }
    return d;
}

static void trace_line(AmdWave *w, const AmdDec *d, const uint32_t *s_before, uint64_t pc)
{
    char ins[160];
    amdemu_disasm(d, ins, sizeof ins);
    AmdGroup *g = w->g;
    fprintf(stderr, "amdemu: g(%u,%u,%u) w%d pc=0x%llx exec=%016llx %s", g->id[0], g->id[1], g->id[2], w->index,
            (unsigned long long)(pc - (uint64_t)(uintptr_t)g->l->k->img->base), (unsigned long long)amdemu_exec_mask(w),
            ins);
    for (int i = 0; i < 128; i++)
        if (w->s[i] != s_before[i])
            fprintf(stderr, " s%d=%08x", i, w->s[i]);
    const AmdOp *r = d->op;
    if (r->fmt >= F_VOP2 && r->fmt <= F_VOP3P && !(r->flags & O_CMP)) {
        int n = r->flags & O_D_64 ? 2 : 1;
        for (int k = 0; k < n; k++) {
            unsigned reg = (d->dst + k) & 511;
            fprintf(stderr, " v%u=[", reg);
            for (int lane = 0; lane < w->lanes && lane < 4; lane++)
                fprintf(stderr, "%s%08x", lane ? " " : "", w->v[reg][lane]);
            fprintf(stderr, "%s]", w->lanes > 4 ? " ..." : "");
        }
    }
    if (r->fmt == F_DS || r->fmt == F_FLAT || r->fmt == F_SMEM) {
        unsigned reg = d->dst;
        if (r->fmt != F_SMEM)
            fprintf(stderr, " v%u[0]=%08x", reg, w->v[reg][0]);
    }
    fputc('\n', stderr);
}

/* Run one wave until it ends, waits at a barrier, fails or has run a time
 * slice (so that a wave spinning on a flag another wave of its group sets
 * lets that wave run). */
static int run_wave(AmdWave *w, int slice_len)
{
    bool trace = w->g->l->trace;
    uint32_t before[128];
    for (int slice = 0; w->state == AMDEMU_RUN && slice < slice_len; slice++) {
        const AmdDec *d = fetch(w);
        if (!d)
            return -1;
        uint64_t pc = w->pc;
        if (trace)
            memcpy(before, w->s, sizeof before);
        AmdExecFn f = d->op->exec ? d->op->exec : generic[d->op->fmt];
        if (!f)
            return amdemu_fail(w, d, "instruction without semantics");
        uint64_t next = pc + 4u * d->size;
        w->pc = next;
        int rc = f(w, d);
        if (trace)
            trace_line(w, d, before, pc);
        if (rc != 0) {
            w->pc = pc;
            return -1;
        }
    }
    return 0;
}

/* The initial SGPRs and VGPRs of a wave (AMDGPUUsage "Initial Kernel
 * Execution State"): user SGPRs in the descriptor's order, then the
 * workgroup ids, then the scratch wave offset; work-item ids packed in v0. */
static void wave_init(AmdWave *w, AmdGroup *g, int index)
{
    const AmdLaunch *l = g->l;
    const AmdKernel *k = l->k;
    memset(w->s, 0, sizeof w->s);
    w->index = index;
    w->g = g;
    w->lanes = l->wave_size;
    w->isa = k->img->isa;
    w->pc = k->entry;
    w->scc = 0;
    w->state = AMDEMU_RUN;
    int n = 0;
    uint64_t kernarg = (uint64_t)(uintptr_t)l->kernarg, disp = (uint64_t)(uintptr_t)l->dispatch;
    if (k->props & 1) { /* private segment buffer: base 0, this emulator's scratch is per lane */
        w->s[n + 2] = 0xffffffffu;
        n += 4;
    }
    if (k->props & 2)
        w->s[n] = (uint32_t)disp, w->s[n + 1] = (uint32_t)(disp >> 32), n += 2;
    if (k->props & 4)
        n += 2; /* queue pointer: none */
    if (k->props & 8)
        w->s[n] = (uint32_t)kernarg, w->s[n + 1] = (uint32_t)(kernarg >> 32), n += 2;
    if (k->props & 16)
        n += 2; /* dispatch id 0 */
    if (k->props & 32)
        n += 2; /* flat scratch init: per-lane scratch needs no base */
    if (k->props & 64)
        w->s[n++] = g->priv_bytes;
    int user = (k->rsrc2 >> 1) & 0x1f;
    n = user > n ? user : n;
    for (int i = 0; i < 3; i++)
        if (k->rsrc2 >> (7 + i) & 1)
            w->s[n++] = g->id[i];
    if (k->rsrc2 >> 10 & 1)
        w->s[n++] = 0; /* workgroup info */
    if (k->rsrc2 & 1)
        w->s[n++] = 0; /* private segment wave offset */
    if (w->isa == AMD_GFX9)
        w->s[124] = 0xffffffffu; /* M0 (GFX11: 125; 124 is null and reads 0) */
    if (w->isa == AMD_GFX12) {   /* architected workgroup ids: ttmp9 = x, ttmp7 = y | z << 16 */
        w->s[108 + 9] = g->id[0];
        w->s[108 + 7] = (g->id[1] & 0xffff) | g->id[2] << 16;
    }
    int vgpr_ids = (k->rsrc2 >> 11) & 3;
    uint32_t bx = l->block[0], by = l->block[1];
    uint32_t total = bx * by * l->block[2];
    uint64_t exec = 0;
    for (int lane = 0; lane < w->lanes; lane++) {
        uint32_t t = (uint32_t)index * (uint32_t)w->lanes + (uint32_t)lane;
        if (t >= total)
            continue;
        exec |= 1ull << lane;
        uint32_t x = t % bx, y = (t / bx) % by, z = t / (bx * by);
        w->v[0][lane] = x | (vgpr_ids >= 1 ? y << 10 : 0) | (vgpr_ids >= 2 ? z << 20 : 0);
    }
    amdemu_set_exec(w, exec);
}

static void group_start(AmdGroup *g)
{
    memset(g->lds, 0, g->lds_size);
    for (int i = 0; i < g->nwaves; i++)
        wave_init(&g->waves[i], g, i);
}

/* Run each live wave of the group for a slice of slice_len instructions, and
 * release the barrier when every live wave waits there: 1 when the group has
 * ended, 0 while it runs, -1 when it failed. */
static int group_step(AmdGroup *g, int slice_len)
{
    int live = 0, waiting = 0;
    for (int i = 0; i < g->nwaves; i++) {
        AmdWave *w = &g->waves[i];
        if (w->state == AMDEMU_RUN && run_wave(w, slice_len) != 0)
            return -1;
        if (w->state != AMDEMU_DONE)
            live++;
        if (w->state == AMDEMU_BARRIER)
            waiting++;
    }
    if (live == 0)
        return 1;
    if (waiting == live)
        for (int i = 0; i < g->nwaves; i++)
            if (g->waves[i].state == AMDEMU_BARRIER)
                g->waves[i].state = AMDEMU_RUN;
    return 0;
}

/* A workgroup's waves take turns, each for a long slice: switching is rare,
 * and a wave spinning on a flag another wave of its group sets still lets
 * that wave run. */
static int run_group(AmdGroup *g)
{
    group_start(g);
    int rc;
    while ((rc = group_step(g, 100000)) == 0)
        ;
    return rc < 0 ? -1 : 0;
}

/* A launch's workgroups, taken in turn by its threads. */
typedef struct Runner {
    const AmdLaunch *l;
    uint32_t ngroups;
    uint32_t next; /* atomic: the next group to run */
    int stop;      /* atomic: a group failed */
    pthread_mutex_t lock;
    char *err; /* the failure of the lowest-numbered group that failed */
    uint32_t err_group;
    uint64_t lane_instrs;
    uint64_t cpu_ns; /* the threads' CPU time: the rate per core on a loaded machine too */
} Runner;

static void group_free(AmdGroup *g)
{
    for (int i = 0; g->waves && i < g->nwaves; i++)
        free(g->waves[i].v);
    free(g->waves);
    free(g->lds);
    free(g->scratch);
}

static int group_alloc(AmdGroup *g, const AmdLaunch *l)
{
    const AmdKernel *k = l->k;
    uint32_t threads = l->block[0] * l->block[1] * l->block[2];
    memset(g, 0, sizeof *g);
    g->l = l;
    g->nwaves = (int)((threads + (uint32_t)l->wave_size - 1) / (uint32_t)l->wave_size);
    g->lds_size = k->group_fixed + l->shmem;
    g->priv_bytes = k->private_fixed;
    if (k->props >> 11 & 1) /* uses a dynamic stack: room for calls */
        g->priv_bytes += 16384;
    g->waves = calloc((size_t)g->nwaves, sizeof *g->waves);
    g->lds = calloc(1, g->lds_size ? g->lds_size : 1);
    g->scratch = calloc((size_t)g->nwaves * (size_t)l->wave_size, g->priv_bytes ? g->priv_bytes : 1);
    int rc = g->waves && g->lds && g->scratch ? 0 : -1;
    for (int i = 0; rc == 0 && i < g->nwaves; i++)
        if (!(g->waves[i].v = calloc(512, sizeof *g->waves[i].v)))
            rc = -1;
    if (rc != 0)
        group_free(g);
    return rc;
}

static void runner_fail(Runner *r, uint32_t group, char *msg)
{
    pthread_mutex_lock(&r->lock);
    if (!r->err || group < r->err_group) {
        free(r->err);
        r->err = msg;
        r->err_group = group;
    } else {
        free(msg);
    }
    __atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&r->lock);
}

/* Group i of the launch, numbered x fastest. */
static void group_id(AmdGroup *g, uint32_t i)
{
    const AmdLaunch *l = g->l;
    g->id[0] = i % l->grid[0];
    g->id[1] = (i / l->grid[0]) % l->grid[1];
    g->id[2] = i / (l->grid[0] * l->grid[1]);
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec cpu;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    return (uint64_t)cpu.tv_sec * 1000000000u + (uint64_t)cpu.tv_nsec;
}

/* A cooperative launch: every workgroup resident at once, as the grid barrier
 * of sync_grid() needs (hip.c refused a grid larger than the device holds).
 * One thread runs the groups in turn, each for short slices, so that a group
 * spinning at the grid barrier soon lets the others reach it. */
static void run_cooperative(Runner *r)
{
    const AmdLaunch *l = r->l;
    uint64_t cpu0 = thread_cpu_ns();
    AmdGroup *gs = calloc(r->ngroups, sizeof *gs);
    uint8_t *done = calloc(r->ngroups, 1);
    uint32_t n = 0;
    while (gs && done && n < r->ngroups && group_alloc(&gs[n], l) == 0)
        n++;
    if (n < r->ngroups) {
        runner_fail(r, 0, strdup("amdemu: out of memory for the workgroups of a cooperative launch"));
    } else {
        for (uint32_t i = 0; i < n; i++) {
            group_id(&gs[i], i);
            group_start(&gs[i]);
        }
        for (uint32_t left = n; left > 0 && !r->stop;)
            for (uint32_t i = 0; i < n && !r->stop; i++) {
                int rc = done[i] ? 1 : group_step(&gs[i], 1000);
                if (rc < 0) {
                    runner_fail(r, i, gs[i].err ? gs[i].err : strdup("amdemu: the launch failed"));
                    gs[i].err = NULL;
                } else if (rc == 1 && !done[i]) {
                    done[i] = 1;
                    left--;
                }
            }
    }
    for (uint32_t i = 0; i < n; i++) {
        for (int j = 0; j < gs[i].nwaves; j++)
            r->lane_instrs += gs[i].waves[j].lane_instrs;
        group_free(&gs[i]);
    }
    free(gs);
    free(done);
    r->cpu_ns += thread_cpu_ns() - cpu0;
}

static void *runner_thread(void *arg)
{
    Runner *r = arg;
    const AmdLaunch *l = r->l;
    struct timespec cpu;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    uint64_t cpu0 = (uint64_t)cpu.tv_sec * 1000000000u + (uint64_t)cpu.tv_nsec;
    AmdGroup g;
    if (group_alloc(&g, l) != 0) {
        char *msg = NULL;
        if (asprintf(&msg, "amdemu: out of memory for a workgroup of %u work-items",
                     l->block[0] * l->block[1] * l->block[2]) < 0)
            msg = NULL;
        runner_fail(r, 0, msg);
        return NULL;
    }
    while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
        uint32_t i = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
        if (i >= r->ngroups)
            break;
        group_id(&g, i);
        if (run_group(&g) != 0) {
            runner_fail(r, i, g.err ? g.err : strdup("amdemu: the launch failed"));
            g.err = NULL;
            break;
        }
    }
    uint64_t n = 0;
    for (int i = 0; i < g.nwaves; i++)
        n += g.waves[i].lane_instrs;
    __atomic_fetch_add(&r->lane_instrs, n, __ATOMIC_RELAXED);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    __atomic_fetch_add(&r->cpu_ns, (uint64_t)cpu.tv_sec * 1000000000u + (uint64_t)cpu.tv_nsec - cpu0, __ATOMIC_RELAXED);
    group_free(&g);
    return NULL;
}

/* Threads: $JUKE_AMDEMU_THREADS, else one per core, at most one per group;
 * one when tracing, so the trace reads in order. */
static int runner_threads(const AmdLaunch *l, uint32_t ngroups)
{
    const char *e = getenv("JUKE_AMDEMU_THREADS");
    long n = e && *e ? strtol(e, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    if (l->trace || n < 1)
        n = 1;
    if (n > 64)
        n = 64;
    return (int)(n < (long)ngroups ? n : (long)ngroups);
}

int amdemu_run(const AmdLaunch *l, char **err)
{
    const AmdKernel *k = l->k;
    Runner r = { .l = l, .ngroups = l->grid[0] * l->grid[1] * l->grid[2] };
    pthread_mutex_init(&r.lock, NULL);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int nthreads = l->cooperative ? 1 : runner_threads(l, r.ngroups);
    pthread_t tids[64];
    int started = 0;
    for (int i = 1; i < nthreads; i++)
        if (pthread_create(&tids[started], NULL, runner_thread, &r) == 0)
            started++;
    if (l->cooperative)
        run_cooperative(&r);
    else
        runner_thread(&r);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (getenv("JUKE_AMDEMU_STATS"))
        fprintf(stderr,
                "amdemu: %s: %llu lane-instructions in %.3f s on %d thread%s (%.1f M/s; %.3f s of CPU, %.1f M/s "
                "per core)\n",
                k->name, (unsigned long long)r.lane_instrs, secs, started + 1, started ? "s" : "",
                secs > 0 ? (double)r.lane_instrs / secs / 1e6 : 0.0, (double)r.cpu_ns * 1e-9,
                r.cpu_ns ? (double)r.lane_instrs / ((double)r.cpu_ns * 1e-9) / 1e6 : 0.0);
    pthread_mutex_destroy(&r.lock);
    if (r.stop) {
        *err = r.err ? r.err : strdup("amdemu: the launch failed");
        return -1;
    }
    return 0;
}
