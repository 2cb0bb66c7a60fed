/* test_arrayops.c: the array operations of include/juke.h through the C API alone, on the CPU device:
 * device arrays (zeros, ones, fill, from host, rand/randn with a seed), fused broadcasts with singleton
 * dimensions expanded, reductions and matmul by both of its paths. The Python package's tests
 * (python/tests) cover the same through juke.*; this is what a C host sees. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "juke.h"

typedef struct Fixture {
    juke_context *ctx;
    juke_device *dev;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    f->ctx = juke_context_create();
    assert_int_equal(juke_device_open(f->ctx, "cpu", &f->dev), JUKE_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    juke_context_destroy(f->ctx);
    free(f);
    return 0;
}

#define OK(call) assert_int_equal_msg(call, JUKE_OK, f->ctx)
static void assert_int_equal_msg(juke_status st, juke_status want, juke_context *ctx)
{
    if (st != want)
        fail_msg("%s: %s", juke_status_name(st), juke_errmsg(ctx));
}

static void test_creation(void **state)
{
    Fixture *f = *state;
    int64_t dims[2] = { 3, 5 };
    juke_array *z, *o, *v, *h;
    OK(juke_array_zeros(f->dev, JUKE_FLOAT32, 2, dims, &z));
    OK(juke_array_ones(f->dev, JUKE_INT16, 2, dims, &o));
    double seven = 7.5;
    OK(juke_array_full(f->dev, JUKE_FLOAT64, 2, dims, &seven, &v));
    float host[15], back[15];
    for (int i = 0; i < 15; i++)
        host[i] = (float)i * 0.5f + 1.0f;
    OK(juke_array_from_host(f->dev, JUKE_FLOAT32, 2, dims, host, &h));
    OK(juke_array_download(h, back, sizeof back));
    assert_memory_equal(host, back, sizeof back);
    float zb[15];
    int16_t ob[15];
    double vb[15];
    OK(juke_array_download(z, zb, sizeof zb));
    OK(juke_array_download(o, ob, sizeof ob));
    OK(juke_array_download(v, vb, sizeof vb));
    for (int i = 0; i < 15; i++) {
        assert_true(zb[i] == 0.0f);
        assert_int_equal(ob[i], 1);
        assert_true(vb[i] == 7.5);
    }
}

static void test_random(void **state)
{
    Fixture *f = *state;
    int64_t n = 50000;
    juke_array *a, *b, *g;
    OK(juke_array_rand(f->dev, JUKE_FLOAT64, 1, &n, 99, &a));
    OK(juke_array_rand(f->dev, JUKE_FLOAT64, 1, &n, 99, &b));
    OK(juke_array_randn(f->dev, JUKE_FLOAT32, 1, &n, 5, &g));
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    float *z = malloc(n * sizeof *z);
    OK(juke_array_download(a, x, n * sizeof *x));
    OK(juke_array_download(b, y, n * sizeof *y));
    OK(juke_array_download(g, z, n * sizeof *z));
    assert_memory_equal(x, y, n * sizeof *x); /* the same seed, the same numbers */
    double mean = 0, zm = 0, zv = 0;
    for (int64_t i = 0; i < n; i++) {
        assert_true(x[i] >= 0 && x[i] < 1);
        mean += x[i] / n;
        zm += z[i] / n;
    }
    for (int64_t i = 0; i < n; i++)
        zv += (z[i] - zm) * (z[i] - zm) / n;
    assert_true(fabs(mean - 0.5) < 0.01);
    assert_true(fabs(zm) < 0.02 && fabs(zv - 1) < 0.03);
    free(x);
    free(y);
    free(z);
}

/* out .= m .* col .+ s over a 4×3 matrix and a 4×1 column: the column is expanded along dimension 2 */
static void test_broadcast(void **state)
{
    Fixture *f = *state;
    int64_t dm[2] = { 4, 3 }, dc[2] = { 4, 1 };
    float m[12], col[4], out[12];
    for (int i = 0; i < 12; i++)
        m[i] = (float)(i + 1);
    for (int i = 0; i < 4; i++)
        col[i] = (float)(i + 1) * 10.0f;
    juke_array *am, *ac, *ao;
    OK(juke_array_from_host(f->dev, JUKE_FLOAT32, 2, dm, m, &am));
    OK(juke_array_from_host(f->dev, JUKE_FLOAT32, 2, dc, col, &ac));
    OK(juke_array_zeros(f->dev, JUKE_FLOAT32, 2, dm, &ao));
    juke_named_arg ops[] = { { "out", juke_arg_array(ao) },
                             { "m", juke_arg_array(am) },
                             { "col", juke_arg_array(ac) },
                             { "s", juke_arg_f32(0.5f) } };
    OK(juke_broadcast(f->ctx, f->dev, "out .= m .* col .+ s", ops, 4));
    OK(juke_array_download(ao, out, sizeof out));
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 4; i++)
            assert_true(out[i + 4 * j] == m[i + 4 * j] * col[i] + 0.5f);
    char *src;
    OK(juke_broadcast_source(f->ctx, "out .= m .* col .+ s", ops, 4, &src));
    assert_non_null(strstr(src, "col[juke_I1, 1]"));
    juke_free(src);
    juke_kernel *k;
    OK(juke_broadcast_kernel(f->ctx, f->dev, "out .= m .* col .+ s", ops, 4, &k));
    assert_non_null(strstr(juke_kernel_dump(k, JUKE_DUMP_TYPED), "Float32"));
}

static void test_reductions(void **state)
{
    Fixture *f = *state;
    int64_t n = 10007;
    int32_t *h = malloc(n * sizeof *h);
    int64_t sum = 0;
    int32_t mx = INT32_MIN, mn = INT32_MAX;
    for (int64_t i = 0; i < n; i++) {
        h[i] = (int32_t)((i * 7919) % 2001) - 1000;
        sum += h[i];
        mx = h[i] > mx ? h[i] : mx;
        mn = h[i] < mn ? h[i] : mn;
    }
    juke_array *a;
    OK(juke_array_from_host(f->dev, JUKE_INT32, 1, &n, h, &a));
    juke_arg r;
    OK(juke_sum(f->dev, a, &r));
    assert_int_equal(r.type, JUKE_INT64); /* Julia's sum widens Int32 */
    assert_int_equal(r.v.i, sum);
    OK(juke_maximum(f->dev, a, &r));
    assert_int_equal(r.type, JUKE_INT32);
    assert_int_equal(r.v.i, mx);
    OK(juke_minimum(f->dev, a, &r));
    assert_int_equal(r.v.i, mn);
    int64_t sq = 0;
    for (int64_t i = 0; i < n; i++)
        sq += (int64_t)h[i] * h[i];
    juke_arg init = juke_arg_i64(0);
    OK(juke_mapreduce(f->dev, "x -> Int64(x) * x", "(p, q) -> p + q", a, &init, &r));
    assert_int_equal(r.v.i, sq);
    free(h);
}

static void test_matmul(void **state)
{
    Fixture *f = *state;
    enum { M = 19, K = 23, N = 7 };
    int64_t da[2] = { M, K }, db[2] = { K, N }, dc[2] = { M, N };
    double a[M * K], b[K * N], want[M * N], got[M * N];
    for (int i = 0; i < M * K; i++)
        a[i] = (double)(i % 13) - 6;
    for (int i = 0; i < K * N; i++)
        b[i] = (double)(i % 7) * 0.25;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += a[i + M * k] * b[k + K * j];
            want[i + M * j] = s;
        }
    juke_array *ja, *jb, *jc;
    OK(juke_array_from_host(f->dev, JUKE_FLOAT64, 2, da, a, &ja));
    OK(juke_array_from_host(f->dev, JUKE_FLOAT64, 2, db, b, &jb));
    OK(juke_array_zeros(f->dev, JUKE_FLOAT64, 2, dc, &jc));
    for (int flags = 0; flags <= JUKE_MATMUL_KERNEL; flags++) {
        const char *which = NULL;
        OK(juke_matmul(f->dev, jc, ja, jb, flags, &which));
        assert_non_null(which);
        if (flags)
            assert_non_null(strstr(which, "juke tiled kernel"));
        print_message("matmul: %s\n", which);
        OK(juke_array_download(jc, got, sizeof got));
        for (int i = 0; i < M * N; i++)
            assert_true(fabs(got[i] - want[i]) < 1e-9);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_creation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_broadcast, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reductions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_matmul, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
