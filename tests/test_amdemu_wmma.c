/* test_amdemu_wmma.c FIXTURE: GFX11's WMMA instructions on the AMD ISA
 * emulator against a C reference of D = A * B + C on 16x16 tiles: the
 * kernels of tests/amdemu_wmma.hip (clang-built for gfx1100) run on
 * amdemu:gfx1100, one wave32 workgroup each, on fresh inputs. Products of
 * 16-bit floats are exact in a double, so the reference sums them there and
 * rounds once; the hardware may round the sum differently, the emulator
 * does not (the check allows an ulp of the result's type). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "abi.h"
#include "runtime.h"

static const char *fixture;

typedef struct Env {
    RtDevice *dev;
    RtModule *m;
} Env;

static uint64_t rng = 88172645463325252ull;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

static float uniform(void) /* in [-2, 2), a multiple of 1/64 */
{
    return (float)((int)(next() % 256) - 128) / 64.0f;
}

static double h2d(uint16_t h)
{
    _Float16 f;
    memcpy(&f, &h, 2);
    return f;
}
static uint16_t f2h(float x)
{
    _Float16 f = (_Float16)x;
    uint16_t h;
    memcpy(&h, &f, 2);
    return h;
}
static double b2d(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint16_t f2b(float x) /* exact for the inputs used (few significant bits) */
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return (uint16_t)(u >> 16);
}

/* Run kernel NAME with four device buffers of the given sizes; in[0..2] are uploaded, d downloaded. */
static void run(Env *env, const char *name, const void *a, size_t na, const void *b, size_t nb, const void *c,
                size_t nc, void *d, size_t nd)
{
    char *err = NULL;
    RtFunction *f;
    if (rt_function_get(env->m, name, &f, &err) != 0)
        fail_msg("%s", err);
    const void *host[3] = { a, b, c };
    size_t size[4] = { na, nb, nc, nd };
    void *p[4];
    RtArg args[4];
    for (int i = 0; i < 4; i++) {
        assert_int_equal(rt_alloc(env->dev, size[i], &p[i], &err), 0);
        if (i < 3)
            assert_int_equal(rt_upload(env->dev, p[i], host[i], size[i], &err), 0);
        args[i] = (RtArg){ &p[i], 8, 8 };
    }
    uint32_t grid[3] = { 1, 1, 1 }, group[3] = { 32, 1, 1 };
    JukeExceptionRecord exc;
    if (rt_launch(f, args, 4, grid, group, 0, true, &exc, &err) != 0)
        fail_msg("%s: %s", name, err);
    assert_int_equal(rt_download(env->dev, d, p[3], nd, &err), 0);
    for (int i = 0; i < 4; i++)
        rt_free(env->dev, p[i]);
}

static void test_f32_f16(void **state)
{
    uint16_t a[256], b[256];
    float c[256], d[256];
    for (int i = 0; i < 256; i++)
        a[i] = f2h(uniform()), b[i] = f2h(uniform()), c[i] = uniform() * 3.0f;
    run(*state, "f32_f16", a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            double s = c[m * 16 + n];
            for (int k = 0; k < 16; k++)
                s += h2d(a[m * 16 + k]) * h2d(b[k * 16 + n]);
            if (d[m * 16 + n] != (float)s)
                fail_msg("f32_f16 D[%d][%d] = %.9g, want %.9g", m, n, d[m * 16 + n], (float)s);
        }
}

static void test_f32_bf16(void **state)
{
    uint16_t a[256], b[256];
    float c[256], d[256];
    for (int i = 0; i < 256; i++)
        a[i] = f2b(uniform()), b[i] = f2b(uniform() * 100.0f), c[i] = uniform();
    run(*state, "f32_bf16", a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            double s = c[m * 16 + n];
            for (int k = 0; k < 16; k++)
                s += b2d(a[m * 16 + k]) * b2d(b[k * 16 + n]);
            if (d[m * 16 + n] != (float)s)
                fail_msg("f32_bf16 D[%d][%d] = %.9g, want %.9g", m, n, d[m * 16 + n], (float)s);
        }
}

static void test_f16_f16(void **state)
{
    uint16_t a[256], b[256], c[256], d[256];
    for (int i = 0; i < 256; i++)
        a[i] = f2h(uniform()), b[i] = f2h(uniform()), c[i] = f2h(uniform());
    run(*state, "f16_f16", a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            double s = h2d(c[m * 16 + n]);
            for (int k = 0; k < 16; k++)
                s += h2d(a[m * 16 + k]) * h2d(b[k * 16 + n]);
            if (fabs(h2d(d[m * 16 + n]) - s) > fabs(s) / 1024 + 1e-7)
                fail_msg("f16_f16 D[%d][%d] = %g, want %g", m, n, h2d(d[m * 16 + n]), s);
        }
}

static void test_bf16_bf16(void **state)
{
    uint16_t a[256], b[256], c[256], d[256];
    for (int i = 0; i < 256; i++)
        a[i] = f2b(uniform()), b[i] = f2b(uniform()), c[i] = f2b(uniform());
    run(*state, "bf16_bf16", a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            double s = b2d(c[m * 16 + n]);
            for (int k = 0; k < 16; k++)
                s += b2d(a[m * 16 + k]) * b2d(b[k * 16 + n]);
            if (fabs(b2d(d[m * 16 + n]) - s) > fabs(s) / 128 + 1e-7)
                fail_msg("bf16_bf16 D[%d][%d] = %g, want %g", m, n, b2d(d[m * 16 + n]), s);
        }
}

static void test_i32_iu8(void **state)
{
    uint8_t a[256], b[256];
    int32_t c[256], d[256];
    for (int i = 0; i < 256; i++)
        a[i] = (uint8_t)next(), b[i] = (uint8_t)next(), c[i] = (int32_t)(next() % 100000) - 50000;
    run(*state, "i32_iu8", a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            int64_t s = c[m * 16 + n];
            for (int k = 0; k < 16; k++)
                s += (int64_t)(int8_t)a[m * 16 + k] * b[k * 16 + n]; /* A signed, B unsigned */
            assert_int_equal(d[m * 16 + n], (int32_t)s);
        }
}

static void test_i32_iu4(void **state)
{
    uint8_t a[256], b[256];
    int32_t c[256], d[256];
    for (int i = 0; i < 256; i++)
        a[i] = (uint8_t)(next() & 15), b[i] = (uint8_t)(next() & 15), c[i] = (int32_t)(next() % 1000) - 500;
    c[5] = INT32_MAX - 3; /* saturates (clamp) */
    c[7] = INT32_MIN + 2;
    run(*state, "i32_iu4", a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            int64_t s = c[m * 16 + n];
            for (int k = 0; k < 16; k++) /* A unsigned, B signed nibbles */
                s += (int64_t)a[m * 16 + k] * (b[k * 16 + n] >= 8 ? b[k * 16 + n] - 16 : b[k * 16 + n]);
            s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
            assert_int_equal(d[m * 16 + n], (int32_t)s);
        }
}

static int setup(void **state)
{
    static Env env;
    char *err = NULL;
    if (rt_device_open("amdemu:gfx1100", 0, &env.dev, NULL, &err) != 0) {
        fprintf(stderr, "test_amdemu_wmma: %s\n", err);
        free(err);
        return -1;
    }
    FILE *f = fopen(fixture, "rb");
    if (!f)
        return -1;
    static uint8_t img[1 << 20];
    size_t size = fread(img, 1, sizeof img, f);
    fclose(f);
    if (rt_module_load(env.dev, img, size, &env.m, &err) != 0) {
        fprintf(stderr, "test_amdemu_wmma: %s\n", err);
        free(err);
        return -1;
    }
    *state = &env;
    return 0;
}

static int teardown(void **state)
{
    Env *env = *state;
    rt_module_unload(env->m);
    rt_device_close(env->dev);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_amdemu_wmma FIXTURE\n");
        return 2;
    }
    fixture = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_f16),   cmocka_unit_test(test_f32_bf16), cmocka_unit_test(test_f16_f16),
        cmocka_unit_test(test_bf16_bf16), cmocka_unit_test(test_i32_iu8),  cmocka_unit_test(test_i32_iu4),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
