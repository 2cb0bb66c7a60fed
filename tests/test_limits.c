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
#include "npy.h"

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
    float host[2] = { x, 0 };
    assert_int_equal(juke_array_upload(arr, host, sizeof host), JUKE_OK);
    juke_arg arg = juke_arg_array(arr);
    juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false, NULL };
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
        Buf b = { 0 };
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
        const char *ty[] = { "Vector{Float32}" };
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
    Buf b = { 0 };
    buf_printf(&b, "g1(x) = (x, x)\n");
    for (int i = 2; i <= 28; i++)
        buf_printf(&b, "g%d(x) = g%d(g%d(x))\n", i, i - 1, i - 1);
    buf_printf(&b, "function k(a)\n    t = g28(a[1])\n    a[2] = 1f0\n    return\nend\n");
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "c.jl", b.s, &m), JUKE_OK);
    const char *ty[] = { "Vector{Float32}" };
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
    Buf b = { 0 };
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
    float host[2] = { (float)(rnd() % 1000) + 0.5f, 0 };
    assert_int_equal(juke_array_upload(arr, host, sizeof host), JUKE_OK);
    juke_arg arg = juke_arg_array(arr);
    juke_launch_config cfg = { 0 };
    cfg.groupsize[0] = cfg.groupsize[1] = cfg.groupsize[2] = 1;
    cfg.gridsize[0] = cfg.gridsize[1] = cfg.gridsize[2] = 1;
    assert_int_equal(juke_launch(dev, m, "k", &arg, 1, &cfg), JUKE_OK);
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    float out[2];
    assert_int_equal(juke_array_download(arr, out, sizeof out), JUKE_OK);
    assert_true(out[1] == host[0]);
    const char *ty[] = { "Vector{Float32}" };
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
    Buf b = { 0 };
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

/* ---- 3. bounded reads ------------------------------------------------------ */

/* A scratch directory holding a FIFO (no writer: opening it for reading would block). */
static char *scratch_fifo(char *dir, size_t n, const char *name)
{
    snprintf(dir, n, "/tmp/juke_limits_XXXXXX");
    assert_non_null(mkdtemp(dir));
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(path, "%s/%s", dir, name);
    assert_int_equal(mkfifo(path, 0600), 0);
    return path;
}

static void test_source_not_regular(void **state)
{
    (void)state;
    char dir[64];
    char *fifo = scratch_fifo(dir, sizeof dir, "k.jl");
    const char *paths[] = { "/dev/zero", "/dev/urandom", fifo, dir };
    for (int i = 0; i < 4; i++) {
        juke_context *ctx = juke_context_create();
        juke_module *m = (juke_module *)1;
        assert_int_equal(juke_module_load_file(ctx, paths[i], &m), JUKE_ERR_IO);
        assert_null(m);
        char want[256];
        snprintf(want, sizeof want, "could not read %s: not a regular file", paths[i]);
        assert_string_equal(juke_errmsg(ctx), want);
        juke_context_destroy(ctx);
    }
    unlink(fifo);
    free(fifo);
    rmdir(dir);
}

/* max_source_bytes: a file one byte over is refused with both sizes; one at the limit loads. */
static void test_source_size_limit(void **state)
{
    (void)state;
    char path[] = "/tmp/juke_limits_src_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    Buf b = { 0 };
    buf_printf(&b, "function k(a)\n    a[1] = %df0\n    return\nend\n", (int)(rnd() % 100000));
    size_t pad = 100 + rnd() % 1000;
    for (size_t i = 0; i < pad; i++)
        buf_printf(&b, "#");
    assert_int_equal(write(fd, b.s, b.len), (ssize_t)b.len);
    close(fd);
    juke_context *ctx = juke_context_create();
    juke_options o;
    juke_options_default(&o);
    o.max_source_bytes = b.len - 1;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_OK);
    juke_module *m;
    assert_int_equal(juke_module_load_file(ctx, path, &m), JUKE_ERR_IO);
    char want[256];
    snprintf(want, sizeof want, "could not read %s: file too large (%zu bytes, limit %zu)", path, b.len, b.len - 1);
    assert_string_equal(juke_errmsg(ctx), want);
    o.max_source_bytes = b.len;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_OK);
    assert_int_equal(juke_module_load_file(ctx, path, &m), JUKE_OK);
    assert_int_equal(juke_module_function_count(m), 1);
    juke_context_destroy(ctx);
    unlink(path);
    free(b.s);
}

static void test_npy_not_regular(void **state)
{
    (void)state;
    char dir[64];
    char *fifo = scratch_fifo(dir, sizeof dir, "a.npy");
    const char *paths[] = { "/dev/zero", fifo };
    for (int i = 0; i < 2; i++) {
        NpyArray a;
        char *err = NULL;
        assert_int_equal(npy_read_file(paths[i], &a, &err), -1);
        char want[256];
        snprintf(want, sizeof want, "%s: not a regular file", paths[i]);
        assert_string_equal(err, want);
        free(err);
    }
    unlink(fifo);
    free(fifo);
    rmdir(dir);
}

/* ---- 4. long flat expressions --------------------------------------------- */

/* x + x - 3f0 + x ... with 10,000 terms (rejected as "too deeply nested"
 * before): compiles for the CPU and computes the value, exact in Float32
 * since every partial sum is a small integer. */
static void test_flat_sum(void **state)
{
    (void)state;
    Buf b = { 0 };
    float x = (float)(rnd() % 500 + 1);
    double want = x;
    buf_printf(&b, "function k(a)\n    x = a[1]\n    a[1] = x");
    for (int i = 1; i < 10000; i++) {
        int c = (int)(rnd() % 10);
        bool minus = rnd() % 2;
        if (c == 0)
            buf_printf(&b, minus ? " - x" : " + x");
        else
            buf_printf(&b, minus ? " - %df0" : " + %df0", c);
        want += (minus ? -1 : 1) * (c == 0 ? x : c);
    }
    buf_printf(&b, "\n    return\nend\n");
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "sum.jl", b.s, &m), JUKE_OK);
    assert_true(run_cpu_1(ctx, m, "k", x) == (float)want);
    juke_context_destroy(ctx);
    free(b.s);
}

/* ---- 5. huge error lines --------------------------------------------------- */

/* Display columns of s[0..n): a UTF-8 character is one column. */
static size_t columns(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* A 600 KB line with a bad character at a random place: the message is a few
 * hundred bytes, not the whole line, and the caret stands under the `$`. */
static void test_long_error_line(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        Buf b = { 0 };
        int terms = 100000; /* " + 1f0" each: 600 KB */
        int bad = round == 0 ? 0 : round == 1 ? 30000 + (int)(rnd() % 40000) : terms - 1;
        buf_printf(&b, "function k(a)\n    a[1] = 1f0");
        for (int i = 0; i < terms; i++)
            buf_printf(&b, i == bad ? " + $" : " + 1f0");
        buf_printf(&b, "\n    return\nend\n");
        juke_context *ctx = juke_context_create();
        juke_module *m;
        assert_int_equal(juke_module_load_string(ctx, "long.jl", b.s, &m), JUKE_ERR_COMPILE);
        const char *msg = juke_errmsg(ctx);
        assert_non_null(strstr(msg, "error: syntax: invalid character \"$\""));
        assert_true(strlen(msg) < 600);
        const char *line = strstr(msg, "\n 2 | ");
        assert_non_null(line);
        line += 6;
        const char *caret_line = strstr(line, "\n   | ");
        assert_non_null(caret_line);
        const char *dollar = strchr(line, '$');
        assert_true(dollar && dollar < caret_line);
        caret_line += 6;
        const char *caret = strchr(caret_line, '^');
        assert_non_null(caret);
        assert_int_equal(columns(line, (size_t)(dollar - line)), (size_t)(caret - caret_line));
        juke_context_destroy(ctx);
        free(b.s);
    }
}

/* ---- 6. small thread stacks ----------------------------------------------- */

typedef struct StackCase {
    const char *src;
    bool compile; /* and then compile k(::Vector{Float32}) for the cpu */
    juke_status st;
    char msg[512];
} StackCase;

static void *load_on_thread(void *arg)
{
    StackCase *c = arg;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    c->st = juke_module_load_string(ctx, "deep.jl", c->src, &m);
    if (c->st == JUKE_OK && c->compile) {
        const char *ty[] = { "Vector{Float32}" };
        juke_options o;
        juke_options_default(&o);
        o.target = "cpu";
        juke_kernel *k = NULL;
        c->st = juke_compile(m, "k", ty, 1, &o, &k);
    }
    snprintf(c->msg, sizeof c->msg, "%s", juke_errmsg(ctx));
    juke_context_destroy(ctx);
    return NULL;
}

/* Load src on a thread with this stack size (0: the default); the status. */
static juke_status run_with_stack(const char *src, bool compile, size_t stack, char *msg, size_t n)
{
    StackCase c = { src, compile, JUKE_OK, "" };
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (stack)
        assert_int_equal(pthread_attr_setstacksize(&attr, stack), 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, &attr, load_on_thread, &c), 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    snprintf(msg, n, "%s", c.msg);
    return c.st;
}

static juke_status load_with_stack(const char *src, size_t stack, char *msg, size_t n)
{
    return run_with_stack(src, false, stack, msg, n);
}

/* a[1] = ((((...1f0...)))) or f(f(f(...))) `depth` deep. */
static char *nested_source(int depth, bool calls)
{
    Buf b = { 0 };
    buf_printf(&b, "f(x) = x\nfunction k(a)\n    a[1] = ");
    for (int i = 0; i < depth; i++)
        buf_printf(&b, calls ? "f(" : "(");
    buf_printf(&b, "%df0", (int)(rnd() % 1000));
    for (int i = 0; i < depth; i++)
        buf_printf(&b, ")");
    buf_printf(&b, "\n    return\nend\n");
    return b.s;
}

#if defined(__SANITIZE_ADDRESS__)
#define JK_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JK_TEST_ASAN 1
#endif
#endif
#ifndef JK_TEST_ASAN
#define JK_TEST_ASAN 0
#endif

/* Deep nesting is a located error on 64 KiB, 256 KiB and default stacks
 * (it was a SIGSEGV from depth 150 on 256 KiB); depth 50 loads on 256 KiB. */
static void test_small_stacks(void **state)
{
    (void)state;
    const size_t stacks[] = { 64 * 1024, 256 * 1024, 0 };
    char msg[512];
    for (int s = 0; s < 3; s++)
        for (int calls = 0; calls < 2; calls++) {
            char *src = nested_source(600 + (int)(rnd() % 2000), calls);
            assert_int_equal(load_with_stack(src, stacks[s], msg, sizeof msg), JUKE_ERR_COMPILE);
            assert_non_null(strstr(msg, "deep.jl:3:"));
            assert_non_null(strstr(msg, "error: syntax: expression too deeply nested"));
            assert_non_null(strstr(msg, "\n   |"));
            if (s == 0)
                assert_non_null(strstr(msg, "for the available stack"));
            free(src);
            /* AddressSanitizer's frames are several times larger: depth 50
             * needs more than 256 KiB there */
            if (s > 0 && !(JK_TEST_ASAN && s == 1)) {
                src = nested_source(50, calls);
                assert_int_equal(load_with_stack(src, stacks[s], msg, sizeof msg), JUKE_OK);
                free(src);
            }
        }
}

/* f(Val(N)) calls f(Val(N - 1)) down to f(Val(0)), each a specialisation inferred inside the last, as the
 * prelude's tuple functions recurse once per element: 60 deep compiles on a 256 KiB stack, 200 deep stops
 * there with a located error for the stack (each level takes some 2 KiB), and past 1088 deep on any stack. */
static char *val_chain_source(int depth)
{
    Buf b = { 0 };
    buf_printf(&b, "f(::Val{0}) = 0f0\nf(::Val{N}) where {N} = 1f0 + f(Val(N - 1))\n");
    buf_printf(&b, "function k(a)\n    a[1] = f(Val(%d))\n    return\nend\n", depth);
    return b.s;
}

static void test_deep_calls(void **state)
{
    (void)state;
    char msg[512];
    char *src = val_chain_source(60);
    if (!JK_TEST_ASAN)
        assert_int_equal(run_with_stack(src, true, 256 * 1024, msg, sizeof msg), JUKE_OK);
    free(src);
    src = val_chain_source(200 + (int)(rnd() % 800));
    assert_int_equal(run_with_stack(src, true, 256 * 1024, msg, sizeof msg), JUKE_ERR_COMPILE);
    assert_non_null(strstr(msg, "deep.jl:2:31: error: calls nested too deeply for the available stack"));
    free(src);
    src = val_chain_source(1100 + (int)(rnd() % 200));
    assert_int_equal(run_with_stack(src, true, 0, msg, sizeof msg), JUKE_ERR_COMPILE);
    assert_non_null(strstr(msg, "deep.jl:2:31: error: calls nested more than 1088 deep"));
    free(src);
}

int main(void)
{
    rng = (uint64_t)time(NULL) * 2654435761u | 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tuple_nested_calls),  cmocka_unit_test(test_tuple_function_chain),
        cmocka_unit_test(test_tuple_within_bounds), cmocka_unit_test(test_big_source),
        cmocka_unit_test(test_source_not_regular),  cmocka_unit_test(test_source_size_limit),
        cmocka_unit_test(test_npy_not_regular),     cmocka_unit_test(test_flat_sum),
        cmocka_unit_test(test_long_error_line),     cmocka_unit_test(test_small_stacks),
        cmocka_unit_test(test_deep_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
