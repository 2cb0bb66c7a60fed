/* test_random.c: device random numbers (rand, randn, randexp, Random.seed!) on the CPU device, through the
 * public API. The statistics are computed here, on the host, from numbers the kernels drew: the mean and
 * variance against the distribution's, a chi-square over equal-probability bins and the Kolmogorov-Smirnov
 * distance against the distribution's CDF; and a seed's reproducibility. Thresholds are far out in the tails
 * (p around 1e-6), so a working generator passes with any seed, and a broken one (a constant, a stream that
 * repeats across work-items, a wrong transform) fails by orders of magnitude. */
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

enum { ITEMS = 256, PER_ITEM = 64, N = ITEMS * PER_ITEM, BINS = 64 };

static const char *src = "using Random\n"
                         "function fill_rand!(A, k)\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
                         "    for j in 1:k\n"
                         "        A[(i - 1) * k + j] = rand(eltype(A))\n"
                         "    end\n"
                         "    return\n"
                         "end\n"
                         "function fill_rand0!(A, k)\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
                         "    for j in 1:k\n"
                         "        A[(i - 1) * k + j] = rand()\n"
                         "    end\n"
                         "    return\n"
                         "end\n"
                         "function fill_randn!(A, k)\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
                         "    for j in 1:k\n"
                         "        A[(i - 1) * k + j] = randn(eltype(A))\n"
                         "    end\n"
                         "    return\n"
                         "end\n"
                         "function fill_randexp!(A, k)\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
                         "    for j in 1:k\n"
                         "        A[(i - 1) * k + j] = Random.randexp(eltype(A))\n"
                         "    end\n"
                         "    return\n"
                         "end\n"
                         "function seeded!(A, s)\n"
                         "    Random.seed!(s)\n"
                         "    A[workitemIdx().x] = rand(UInt64)\n"
                         "    return\n"
                         "end\n";

typedef struct Fixture {
    juke_context *ctx;
    juke_device *dev;
    juke_module *m;
} Fixture;

static int setup(void **state)
{
    Fixture *fx = calloc(1, sizeof *fx);
    fx->ctx = juke_context_create();
    if (juke_module_load_string(fx->ctx, "random.jl", src, &fx->m) != JUKE_OK ||
        juke_device_open(fx->ctx, "cpu", &fx->dev) != JUKE_OK) {
        fprintf(stderr, "setup: %s\n", juke_errmsg(fx->ctx));
        return -1;
    }
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    Fixture *fx = *state;
    juke_module_free(fx->m);
    juke_device_close(fx->dev);
    juke_context_destroy(fx->ctx);
    free(fx);
    return 0;
}

/* Launch fn on N elements of type t (ITEMS work-items in 4 groups, PER_ITEM draws each) and read them back
 * as doubles into out (raw bits into bits when not NULL). seed < 0: no launch seed. */
static void draw(Fixture *fx, const char *fn, juke_type t, int64_t seed, double *out, uint64_t *bits)
{
    int64_t dims[1] = { N };
    juke_array *a = NULL;
    assert_int_equal(juke_array_create(fx->dev, t, 1, dims, &a), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(a), juke_arg_i64(PER_ITEM) };
    juke_launch_config cfg = { { ITEMS / 4, 1, 1 }, { 4, 1, 1 }, 0, false };
    cfg.seeded = seed >= 0;
    cfg.seed = (uint64_t)seed;
    if (juke_launch(fx->dev, fx->m, fn, args, 2, &cfg) != JUKE_OK)
        fail_msg("%s: %s", fn, juke_errmsg(fx->ctx));
    size_t es = juke_sizeof(t);
    uint8_t *host = malloc(es * N);
    assert_int_equal(juke_array_download(a, host, es * N), JUKE_OK);
    for (int i = 0; i < N; i++) {
        uint64_t b = 0;
        memcpy(&b, host + es * (size_t)i, es);
        if (bits)
            bits[i] = b;
        double v;
        switch (t) {
        case JUKE_FLOAT64: memcpy(&v, &b, 8); break;
        case JUKE_FLOAT32: {
            float f;
            memcpy(&f, &b, 4);
            v = f;
            break;
        }
        case JUKE_FLOAT16: {
            int e = (int)((b >> 10) & 0x1f), m = (int)(b & 0x3ff);
            v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
            if (b & 0x8000)
                v = -v;
            break;
        }
        default: v = (double)b; break;
        }
        out[i] = v;
    }
    free(host);
    juke_array_free(a);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double mean_of(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s / n;
}

static double var_of(const double *x, int n)
{
    double m = mean_of(x, n), s = 0;
    for (int i = 0; i < n; i++)
        s += (x[i] - m) * (x[i] - m);
    return s / (n - 1);
}

/* sqrt(n) times the Kolmogorov-Smirnov distance of the sample from cdf (sorts x). Below 2.6 has p > 1e-6. */
static double ks_stat(double *x, int n, double (*cdf)(double))
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    double d = 0;
    for (int i = 0; i < n; i++) {
        double f = cdf(x[i]), lo = f - (double)i / n, hi = (double)(i + 1) / n - f;
        d = fmax(d, fmax(lo, hi));
    }
    return d * sqrt((double)n);
}

/* The chi-square statistic of the sample over BINS equal-probability bins of cdf. */
static double chi2_stat(const double *x, int n, double (*cdf)(double))
{
    int count[BINS] = { 0 };
    for (int i = 0; i < n; i++) {
        int b = (int)(cdf(x[i]) * BINS);
        count[b < 0 ? 0 : b >= BINS ? BINS - 1 : b]++;
    }
    double e = (double)n / BINS, c = 0;
    for (int b = 0; b < BINS; b++)
        c += (count[b] - e) * (count[b] - e) / e;
    return c;
}

/* chi-square with 63 degrees of freedom: P(X > 130) < 1e-6 */
#define CHI2_63_MAX 130.0
#define KS_MAX 2.6

static double cdf_uniform(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}
static double cdf_normal(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}
static double cdf_exp(double x)
{
    return x < 0 ? 0 : 1 - exp(-x);
}

static void check_dist(const char *what, double *x, double mean, double var, double (*cdf)(double), double fourth)
{
    double m = mean_of(x, N), v = var_of(x, N);
    /* the sample mean's standard deviation is sqrt(var / N), the sample variance's sqrt((mu4 - var^2) / N) */
    double sm = sqrt(var / N), sv = sqrt((fourth - var * var) / N);
    double c = chi2_stat(x, N, cdf), k = ks_stat(x, N, cdf);
    printf("%-22s mean %+.5f (%+.2f sd)  var %.5f (%+.2f sd)  chi2(63) %.1f  KS %.3f\n", what, m, (m - mean) / sm, v,
           (v - var) / sv, c, k);
    if (fabs(m - mean) > 5 * sm || fabs(v - var) > 5 * sv || c > CHI2_63_MAX || k > KS_MAX)
        fail_msg("%s: mean %g (expected %g), variance %g (expected %g), chi2 %g, KS %g", what, m, mean, v, var, c, k);
}

static void uniform_floats(void **state)
{
    Fixture *fx = *state;
    double *x = malloc(sizeof(double) * N);
    static const struct {
        const char *fn;
        juke_type t;
        const char *name;
    } cases[] = {
        { "fill_rand!", JUKE_FLOAT64, "rand(Float64)" },
        { "fill_rand!", JUKE_FLOAT32, "rand(Float32)" },
        { "fill_rand!", JUKE_FLOAT16, "rand(Float16)" },
        { "fill_rand0!", JUKE_FLOAT64, "rand()" },
    };
    for (int c = 0; c < 4; c++)
        for (int s = 0; s < 2; s++) {
            draw(fx, cases[c].fn, cases[c].t, s ? -1 : 1234, x, NULL);
            for (int i = 0; i < N; i++)
                if (!(x[i] >= 0 && x[i] < 1))
                    fail_msg("%s drew %g, outside [0, 1)", cases[c].name, x[i]);
            check_dist(cases[c].name, x, 0.5, 1.0 / 12, cdf_uniform, 1.0 / 80);
        }
    free(x);
}

static void normal_floats(void **state)
{
    Fixture *fx = *state;
    double *x = malloc(sizeof(double) * N);
    const juke_type ts[] = { JUKE_FLOAT64, JUKE_FLOAT32, JUKE_FLOAT16 };
    const char *names[] = { "randn(Float64)", "randn(Float32)", "randn(Float16)" };
    for (int c = 0; c < 3; c++)
        for (int s = 0; s < 2; s++) {
            draw(fx, "fill_randn!", ts[c], s ? -1 : 99, x, NULL);
            check_dist(names[c], x, 0, 1, cdf_normal, 3);
        }
    free(x);
}

static void exponential_floats(void **state)
{
    Fixture *fx = *state;
    double *x = malloc(sizeof(double) * N);
    const juke_type ts[] = { JUKE_FLOAT64, JUKE_FLOAT32, JUKE_FLOAT16 };
    const char *names[] = { "randexp(Float64)", "randexp(Float32)", "randexp(Float16)" };
    for (int c = 0; c < 3; c++)
        for (int s = 0; s < 2; s++) {
            draw(fx, "fill_randexp!", ts[c], s ? -1 : 7, x, NULL);
            for (int i = 0; i < N; i++)
                if (!(x[i] >= 0) || isinf(x[i]))
                    fail_msg("%s drew %g", names[c], x[i]);
            check_dist(names[c], x, 1, 1, cdf_exp, 9);
        }
    free(x);
}

/* Integers: every bit of every draw is a fair coin (within 5 sd over N draws), and the top 6 bits are uniform
 * over 64 bins (chi-square). */
static void integers(void **state)
{
    Fixture *fx = *state;
    double *x = malloc(sizeof(double) * N);
    uint64_t *bits = malloc(sizeof(uint64_t) * N);
    static const struct {
        juke_type t;
        int nbits;
        const char *name;
    } cases[] = {
        { JUKE_UINT64, 64, "rand(UInt64)" }, { JUKE_INT64, 64, "rand(Int64)" },   { JUKE_UINT32, 32, "rand(UInt32)" },
        { JUKE_INT32, 32, "rand(Int32)" },   { JUKE_UINT16, 16, "rand(UInt16)" }, { JUKE_INT8, 8, "rand(Int8)" },
        { JUKE_UINT8, 8, "rand(UInt8)" },    { JUKE_BOOL, 1, "rand(Bool)" },
    };
    for (int c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
        draw(fx, "fill_rand!", cases[c].t, 42, x, bits);
        int nb = cases[c].nbits;
        for (int b = 0; b < nb; b++) {
            int ones = 0;
            for (int i = 0; i < N; i++)
                ones += (int)((bits[i] >> b) & 1);
            double z = (ones - N / 2.0) / sqrt(N / 4.0);
            if (fabs(z) > 5)
                fail_msg("%s: bit %d is set in %d of %d draws (%.1f sd)", cases[c].name, b, ones, N, z);
        }
        if (nb >= 6) {
            int count[BINS] = { 0 };
            for (int i = 0; i < N; i++)
                count[(bits[i] >> (nb - 6)) & 63]++;
            double e = (double)N / BINS, chi = 0;
            for (int b = 0; b < BINS; b++)
                chi += (count[b] - e) * (count[b] - e) / e;
            printf("%-22s top-6-bit chi2(63) %.1f\n", cases[c].name, chi);
            if (chi > CHI2_63_MAX)
                fail_msg("%s: chi-square of the top 6 bits %g", cases[c].name, chi);
        }
        for (int i = 0; cases[c].t == JUKE_BOOL && i < N; i++)
            assert_true(bits[i] <= 1);
    }
    free(x);
    free(bits);
}

/* A seed draws the same numbers; another seed, or none, others; work-items draw different numbers. */
static void reproducible(void **state)
{
    Fixture *fx = *state;
    double *x = malloc(sizeof(double) * N);
    uint64_t *a = malloc(sizeof(uint64_t) * N), *b = malloc(sizeof(uint64_t) * N);
    draw(fx, "fill_randn!", JUKE_FLOAT64, 2024, x, a);
    draw(fx, "fill_randn!", JUKE_FLOAT64, 2024, x, b);
    assert_memory_equal(a, b, sizeof(uint64_t) * N);
    draw(fx, "fill_randn!", JUKE_FLOAT64, 2025, x, b);
    int same = 0;
    for (int i = 0; i < N; i++)
        same += a[i] == b[i];
    assert_true(same < 4);
    draw(fx, "fill_rand!", JUKE_UINT64, -1, x, a);
    draw(fx, "fill_rand!", JUKE_UINT64, -1, x, b);
    same = 0;
    for (int i = 0; i < N; i++)
        same += a[i] == b[i];
    assert_int_equal(same, 0);
    /* no two of the N 64-bit draws of one launch agree (a collision has probability about 1e-11) */
    qsort(a, N, sizeof *a, cmp_u64);
    for (int i = 1; i < N; i++)
        if (a[i] == a[i - 1])
            fail_msg("two work-items (or two draws) gave the same 64-bit number %#llx", (unsigned long long)a[i]);
    free(x);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uniform_floats), cmocka_unit_test(normal_floats), cmocka_unit_test(exponential_floats),
        cmocka_unit_test(integers),       cmocka_unit_test(reproducible),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
