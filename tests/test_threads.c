/* test_threads.c: contexts and kernels used from several threads, as juke.h
 * documents ("a context may be used from several threads at once;
 * compilation and the kernel cache are internally locked; a module, device or
 * array may be shared between threads; launches on one device are
 * serialised"). Eight threads compile and launch different kernels, and the
 * same kernel with different element types, on the CPU device:
 *   - shared: one context, one module and one device for all threads, plus a
 *     module each thread loads itself into the shared context;
 *   - separate: a context (and device) per thread.
 * Every result is checked against a reference computed here, and each thread
 * checks that juke_errmsg gives it its own message, not another thread's.
 * Run under ThreadSanitizer in CI (.ci/run). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "juke.h"

#define NTHREADS 8

static const char *const kernels_src = "function scale!(y, x, a)\n"
                                       "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                                       "    if i <= length(y)\n"
                                       "        @inbounds y[i] = a * x[i]\n"
                                       "    end\n"
                                       "    return\n"
                                       "end\n"
                                       "function vadd!(c, a, b)\n"
                                       "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                                       "    if i <= length(c)\n"
                                       "        @inbounds c[i] = a[i] + b[i]\n"
                                       "    end\n"
                                       "    return\n"
                                       "end\n"
                                       "function iota!(x, k)\n"
                                       "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                                       "    if i <= length(x)\n"
                                       "        x[i] = i * k\n"
                                       "    end\n"
                                       "    return\n"
                                       "end\n";

typedef struct Shared {
    juke_context *ctx; /* NULL: each thread makes its own */
    juke_module *mod;
    juke_device *dev;
    uint64_t seed;
} Shared;

typedef struct Worker {
    Shared *sh;
    int id;
    int failures;
    char why[512];
    int launches;
} Worker;

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void failf(Worker *w, const char *fmt, ...)
{
    if (w->failures++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->why, sizeof w->why, fmt, ap);
    va_end(ap);
}

static juke_array *make_array(Worker *w, juke_context *ctx, juke_device *dev, juke_type t, int64_t n, const void *data)
{
    juke_array *a = NULL;
    if (juke_array_create(dev, t, 1, &n, &a)) {
        failf(w, "array_create: %s", juke_errmsg(ctx));
        return NULL;
    }
    if (data && juke_array_upload(a, data, (size_t)n * juke_sizeof(t))) {
        failf(w, "upload: %s", juke_errmsg(ctx));
        return NULL;
    }
    return a;
}

static bool launch(Worker *w, juke_context *ctx, juke_device *dev, juke_module *m, const char *fn, juke_arg *args,
                   int nargs, int64_t n)
{
    juke_launch_config cfg = { { 64, 1, 1 }, { (uint32_t)((n + 63) / 64), 1, 1 }, 0, false };
    juke_status st = juke_launch(dev, m, fn, args, nargs, &cfg);
    if (st) {
        failf(w, "thread %d: launch %s: %s: %s", w->id, fn, juke_status_name(st), juke_errmsg(ctx));
        return false;
    }
    w->launches++;
    return true;
}

/* One round: a kernel chosen by the thread and the round, with a type chosen
 * likewise, so that threads race to compile the same specialisations and
 * different ones. */
static void round_(Worker *w, juke_context *ctx, juke_device *dev, juke_module *m, uint64_t *rng, int round)
{
    int64_t n = 100 + (int64_t)(next(rng) % 400);
    int which = (w->id + round) % 5;
    if (which == 0 || which == 1) { /* scale! on Float32 and on Float64 */
        bool f64 = which == 1;
        juke_type t = f64 ? JUKE_FLOAT64 : JUKE_FLOAT32;
        double *x = malloc(sizeof(double) * (size_t)n);
        float *xf = malloc(sizeof(float) * (size_t)n);
        for (int64_t i = 0; i < n; i++) {
            x[i] = (double)(next(rng) % 1000 + 1) / 8.0;
            xf[i] = (float)x[i];
        }
        double a = (double)(next(rng) % 7 + 1);
        juke_array *ya = make_array(w, ctx, dev, t, n, NULL);
        juke_array *xa = make_array(w, ctx, dev, t, n, f64 ? (void *)x : (void *)xf);
        juke_arg args[3] = { juke_arg_array(ya), juke_arg_array(xa), f64 ? juke_arg_f64(a) : juke_arg_f32((float)a) };
        if (ya && xa && launch(w, ctx, dev, m, "scale!", args, 3, n)) {
            double *y = malloc(sizeof(double) * (size_t)n);
            float *yf = malloc(sizeof(float) * (size_t)n);
            juke_array_download(ya, f64 ? (void *)y : (void *)yf, (size_t)n * juke_sizeof(t));
            for (int64_t i = 0; i < n; i++) {
                double got = f64 ? y[i] : (double)yf[i];
                double want = f64 ? a * x[i] : (double)((float)a * xf[i]);
                if (got != want) {
                    failf(w, "thread %d: scale! %s [%ld] = %g, want %g", w->id, f64 ? "Float64" : "Float32", (long)i,
                          got, want);
                    break;
                }
            }
            free(y);
            free(yf);
        }
        juke_array_free(ya);
        juke_array_free(xa);
        free(x);
        free(xf);
    } else if (which == 2 || which == 3) { /* vadd! on Int32 and Int64 */
        bool i64 = which == 3;
        juke_type t = i64 ? JUKE_INT64 : JUKE_INT32;
        int64_t *a = malloc(8 * (size_t)n), *b = malloc(8 * (size_t)n), *c = malloc(8 * (size_t)n);
        int32_t *a4 = malloc(4 * (size_t)n), *b4 = malloc(4 * (size_t)n), *c4 = malloc(4 * (size_t)n);
        for (int64_t i = 0; i < n; i++) {
            a[i] = (int64_t)(next(rng) % 100000) + 1;
            b[i] = (int64_t)(next(rng) % 100000) - 50000;
            a4[i] = (int32_t)a[i];
            b4[i] = (int32_t)b[i];
        }
        juke_array *ca = make_array(w, ctx, dev, t, n, NULL);
        juke_array *aa = make_array(w, ctx, dev, t, n, i64 ? (void *)a : (void *)a4);
        juke_array *ba = make_array(w, ctx, dev, t, n, i64 ? (void *)b : (void *)b4);
        juke_arg args[3] = { juke_arg_array(ca), juke_arg_array(aa), juke_arg_array(ba) };
        if (ca && aa && ba && launch(w, ctx, dev, m, "vadd!", args, 3, n)) {
            juke_array_download(ca, i64 ? (void *)c : (void *)c4, (size_t)n * juke_sizeof(t));
            for (int64_t i = 0; i < n; i++)
                if ((i64 ? c[i] : c4[i]) != a[i] + b[i]) {
                    failf(w, "thread %d: vadd! [%ld] wrong", w->id, (long)i);
                    break;
                }
        }
        juke_array_free(ca);
        juke_array_free(aa);
        juke_array_free(ba);
        free(a), free(b), free(c), free(a4), free(b4), free(c4);
    } else { /* iota! with an Int64 scale */
        int64_t k = (int64_t)(next(rng) % 50) + 2;
        juke_array *xa = make_array(w, ctx, dev, JUKE_INT64, n, NULL);
        juke_arg args[2] = { juke_arg_array(xa), juke_arg_i64(k) };
        if (xa && launch(w, ctx, dev, m, "iota!", args, 2, n)) {
            int64_t *x = malloc(8 * (size_t)n);
            juke_array_download(xa, x, 8 * (size_t)n);
            for (int64_t i = 0; i < n; i++)
                if (x[i] != (i + 1) * k) {
                    failf(w, "thread %d: iota! [%ld] = %ld", w->id, (long)i, (long)x[i]);
                    break;
                }
            free(x);
        }
        juke_array_free(xa);
    }
}

/* A compile error on this thread must leave this thread's message, whatever
 * the others do meanwhile. */
static void own_error(Worker *w, juke_context *ctx, juke_module *m)
{
    char fn[32];
    snprintf(fn, sizeof fn, "nosuch%d", w->id);
    const char *t[] = { "Vector{Float32}" };
    juke_kernel *k = NULL;
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    if (juke_compile(m, fn, t, 1, &o, &k) == JUKE_OK) {
        failf(w, "thread %d: compiling %s succeeded", w->id, fn);
        return;
    }
    if (!strstr(juke_errmsg(ctx), fn))
        failf(w, "thread %d: juke_errmsg is not this thread's: %s", w->id, juke_errmsg(ctx));
}

static void *worker(void *arg)
{
    Worker *w = arg;
    Shared *sh = w->sh;
    uint64_t rng = sh->seed + (uint64_t)w->id * 0x9e3779b97f4a7c15ull + 1;
    juke_context *ctx = sh->ctx;
    juke_device *dev = sh->dev;
    juke_module *shared_mod = sh->mod;
    if (!ctx) {
        ctx = juke_context_create();
        if (!ctx || juke_device_open(ctx, "cpu", &dev)) {
            failf(w, "thread %d: context or device: %s", w->id, ctx ? juke_errmsg(ctx) : "NULL");
            juke_context_destroy(ctx);
            return NULL;
        }
        juke_options o;
        juke_options_default(&o);
        o.target = "cpu";
        juke_set_options(ctx, &o);
    }
    juke_module *own = NULL;
    if (juke_module_load_string(ctx, "threads.jl", kernels_src, &own)) {
        failf(w, "thread %d: load: %s", w->id, juke_errmsg(ctx));
        return NULL;
    }
    for (int r = 0; r < 6; r++) {
        juke_module *m = shared_mod && r % 2 ? shared_mod : own;
        round_(w, ctx, dev, m, &rng, r);
        if (r == 3)
            own_error(w, ctx, m);
    }
    juke_module_free(own);
    if (!sh->ctx)
        juke_context_destroy(ctx);
    return NULL;
}

static void run_workers(Shared *sh)
{
    pthread_t th[NTHREADS];
    Worker w[NTHREADS];
    memset(w, 0, sizeof w);
    for (int i = 0; i < NTHREADS; i++) {
        w[i].sh = sh;
        w[i].id = i;
        assert_int_equal(pthread_create(&th[i], NULL, worker, &w[i]), 0);
    }
    int launches = 0;
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(th[i], NULL);
        if (w[i].failures)
            fail_msg("%s (seed %llu)", w[i].why, (unsigned long long)sh->seed);
        launches += w[i].launches;
    }
    assert_int_equal(launches, NTHREADS * 6);
}

static uint64_t seed(void)
{
    const char *s = getenv("JUKE_TEST_SEED");
    uint64_t v = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL) ^ (uint64_t)clock();
    return v ? v : 1;
}

static void test_shared_context(void **state)
{
    (void)state;
    Shared sh = { 0 };
    sh.seed = seed();
    print_message("# seed %llu\n", (unsigned long long)sh.seed);
    sh.ctx = juke_context_create();
    assert_non_null(sh.ctx);
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    assert_int_equal(juke_set_options(sh.ctx, &o), JUKE_OK);
    assert_int_equal(juke_module_load_string(sh.ctx, "shared.jl", kernels_src, &sh.mod), JUKE_OK);
    assert_int_equal(juke_device_open(sh.ctx, "cpu", &sh.dev), JUKE_OK);
    run_workers(&sh);
    juke_context_destroy(sh.ctx);
}

static void test_separate_contexts(void **state)
{
    (void)state;
    Shared sh = { 0 };
    sh.seed = seed();
    print_message("# seed %llu\n", (unsigned long long)sh.seed);
    run_workers(&sh);
}

/* Compiling the very same specialisation from every thread at once yields
 * one cached kernel: every thread gets the same handle. */
typedef struct Same {
    juke_module *m;
    juke_kernel *k;
    juke_status st;
} Same;

static void *compile_same(void *arg)
{
    Same *s = arg;
    const char *t[] = { "Vector{Float32}", "Vector{Float32}", "Float32" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    s->st = juke_compile(s->m, "scale!", t, 3, &o, &s->k);
    return NULL;
}

static void test_same_kernel_once(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m = NULL;
    assert_int_equal(juke_module_load_string(ctx, "same.jl", kernels_src, &m), JUKE_OK);
    pthread_t th[NTHREADS];
    Same s[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        s[i] = (Same){ m, NULL, JUKE_OK };
        assert_int_equal(pthread_create(&th[i], NULL, compile_same, &s[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < NTHREADS; i++) {
        assert_int_equal(s[i].st, JUKE_OK);
        assert_ptr_equal(s[i].k, s[0].k);
    }
    juke_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_context),
        cmocka_unit_test(test_separate_contexts),
        cmocka_unit_test(test_same_kernel_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
