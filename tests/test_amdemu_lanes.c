/* test_amdemu_lanes.c FIXTURE ARCH: the AMD ISA emulator's lane-crossing
 * instructions (DPP16 with its row and bank masks and bound_ctrl, DPP8,
 * ds_swizzle, ds_permute, ds_bpermute, v_permlane16/x16) against their
 * definitions in AMD's ISA manuals, written out here lane by lane: the kernel
 * of tests/amdemu_lanes.hip, clang-built for ARCH, runs on amdemu:ARCH with
 * every lane of one wave active. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "abi.h"
#include "runtime.h"

static const char *fixture, *arch;

enum { NCASE = 16 };

static int src(int l)
{
    return 100 + 3 * l;
}

/* DPP16 as the manual defines it: the source lane, or -1 for an invalid one. */
static int dpp_from(unsigned c, int l, int n)
{
    int row = l / 16 * 16, i = l % 16;
    if (c < 0x100)
        return l / 4 * 4 + (int)(c >> (2 * (l % 4)) & 3);
    if (c >= 0x101 && c <= 0x10f) /* row_shl:k: lane i reads i + k of its row */
        return i + (int)(c - 0x100) < 16 ? l + (int)(c - 0x100) : -1;
    if (c >= 0x111 && c <= 0x11f) /* row_shr:k: lane i reads i - k */
        return i - (int)(c - 0x110) >= 0 ? l - (int)(c - 0x110) : -1;
    if (c >= 0x121 && c <= 0x12f) /* row_ror:k */
        return row + (i - (int)(c - 0x120) + 16) % 16;
    if (c >= 0x150 && c <= 0x15f) /* row_share:k: every lane reads lane k of its row */
        return row + (int)(c - 0x150);
    if (c >= 0x160 && c <= 0x16f) /* row_xmask:k */
        return row + (i ^ (int)(c - 0x160));
    switch (c) {
    case 0x134: return (l + 1) % n; /* wave_rol:1 */
    case 0x138: return l - 1;       /* wave_shr:1 */
    case 0x140: return row + 15 - i;
    case 0x141: return l / 8 * 8 + 7 - l % 8;
    case 0x142: return row ? row - 1 : -1; /* row_bcast:15 */
    case 0x143: return l >= 32 ? 31 : -1;  /* row_bcast:31 */
    }
    return -2;
}

/* __builtin_amdgcn_update_dpp(-1, x, ...): a lane of a disabled row or bank,
 * or with an invalid source and no bound_ctrl, keeps -1. */
static int dpp(unsigned c, unsigned rm, unsigned bm, int bc, int l, int n)
{
    if (!(rm >> (l / 16) & 1) || !(bm >> (l / 4 % 4) & 1))
        return -1;
    int f = dpp_from(c, l, n);
    return f >= 0 && f < n ? src(f) : bc ? 0 : -1;
}

static int expected(int k, int l, int n, int gfx11)
{
    static const unsigned ctrl[7][4] = {
        { 0x1b, 0xf, 0xf, 0 },  { 0x101, 0xf, 0xf, 0 }, { 0x113, 0xf, 0xf, 1 }, { 0x12f, 0xf, 0xf, 0 },
        { 0x140, 0xf, 0xf, 0 }, { 0x141, 0xa, 0xf, 0 }, { 0x111, 0xf, 0x5, 0 },
    };
    if (k < 7)
        return dpp(ctrl[k][0], ctrl[k][1], ctrl[k][2], (int)ctrl[k][3], l, n);
    if (gfx11) {
        switch (k) {
        case 7: return dpp(0x153, 0xf, 0xf, 0, l, n);
        case 8: return dpp(0x165, 0xf, 0xf, 0, l, n);
        case 9: return src(l / 8 * 8 + 7 - l % 8);                                /* dpp8:[7,6,5,4,3,2,1,0] */
        case 10: return src(l / 16 * 16 + (l % 16 < 8 ? 7 - l % 8 : 15 - l % 8)); /* nibbles 0x89abcdef01234567 */
        case 11: return src((l / 16 ^ 1) * 16 + l % 16);                          /* the other row, same position */
        }
    } else {
        switch (k) {
        case 7: return dpp(0x138, 0xf, 0xf, 0, l, n);
        case 8: return dpp(0x134, 0xf, 0xf, 0, l, n);
        case 9: return dpp(0x142, 0xa, 0xf, 0, l, n);
        case 10: return dpp(0x143, 0xc, 0xf, 0, l, n);
        case 11: return 0;
        }
    }
    switch (k) {
    case 12: return src(l / 4 * 4 + 3 - l % 4);        /* swizzle quad_perm [3,2,1,0] */
    case 13: return src(l / 32 * 32 + ((l % 32) ^ 3)); /* swizzle: and 0x1f, or 0, xor 3 */
    case 14: return src((l + 5) % n);                  /* bpermute: read from l + 5 */
    case 15: return src((l - 7 + n) % n);              /* permute: lane l + 7 gets l's value */
    }
    return -3;
}

static void test_lanes(void **state)
{
    (void)state;
    char *err = NULL;
    RtDevice *dev;
    char spec[64];
    snprintf(spec, sizeof spec, "amdemu:%s", arch);
    assert_int_equal(rt_device_open(spec, 0, &dev, NULL, &err), 0);
    FILE *f = fopen(fixture, "rb");
    assert_non_null(f);
    static uint8_t img[1 << 20];
    size_t size = fread(img, 1, sizeof img, f);
    fclose(f);
    RtModule *m;
    RtFunction *fn;
    assert_int_equal(rt_module_load(dev, img, size, &m, &err), 0);
    assert_int_equal(rt_function_get(m, "lanes", &fn, &err), 0);
    int gfx11 = strncmp(arch, "gfx11", 5) == 0, n = gfx11 ? 32 : 64;
    void *p;
    assert_int_equal(rt_alloc(dev, sizeof(int) * NCASE * 64, &p, &err), 0);
    RtArg args[] = { { &p, 8, 8 } };
    uint32_t grid[3] = { 1, 1, 1 }, group[3] = { (uint32_t)n, 1, 1 };
    JukeExceptionRecord exc;
    if (rt_launch(fn, args, 1, grid, group, 0, true, &exc, &err) != 0)
        fail_msg("%s", err);
    int out[NCASE * 64];
    assert_int_equal(rt_download(dev, out, p, sizeof(int) * NCASE * (size_t)n, &err), 0);
    int bad = 0;
    for (int k = 0; k < NCASE; k++)
        for (int l = 0; l < n; l++)
            if (out[k * n + l] != expected(k, l, n, gfx11) && bad++ < 10)
                fprintf(stderr, "case %d lane %d: %d, want %d\n", k, l, out[k * n + l], expected(k, l, n, gfx11));
    assert_int_equal(bad, 0);
    rt_free(dev, p);
    rt_module_unload(m);
    rt_device_close(dev);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_amdemu_lanes FIXTURE ARCH\n");
        return 2;
    }
    fixture = argv[1];
    arch = argv[2];
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_lanes) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
