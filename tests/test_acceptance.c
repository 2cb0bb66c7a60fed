/* test_acceptance.c: every kernel of tests/kernels/acceptance runs on the CPU
 * device through the public API, with fresh random inputs, and matches a
 * reference computed here as Julia would compute it (tests/kernels/acceptance/
 * README.md). The seed is printed so a failure can be replayed with
 * JUKE_TEST_SEED. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <cmocka.h>

#include "acceptance_refs.h"
#include "juke.h"
#include "npy.h"

/* Every test runs twice: through the API, and through `juke run` with .npy
 * files (then an "array" is a HostArr standing for a file argument). */
typedef struct HostArr {
    juke_type t;
    int nd;
    int64_t dims[3];
    char in[512], out[512];
} HostArr;

typedef struct Env {
    juke_context *ctx;
    juke_device *dev;
    uint64_t rng;
    char dir[1024];
    bool cli;
    const char *juke; /* the juke binary (cli mode) */
    char tmp[256];
    int nfiles;
    HostArr *arrays[64];
    int narrays;
    char last_output[8192];
} Env;

static Env env;
static const char *cur_file; /* the kernel file of the test running */

static uint64_t rnd(void)
{
    env.rng ^= env.rng << 13;
    env.rng ^= env.rng >> 7;
    env.rng ^= env.rng << 17;
    return env.rng;
}
static double unif(double lo, double hi)
{
    return lo + (hi - lo) * (double)(rnd() >> 11) / 9007199254740992.0;
}
static int64_t irange(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static juke_module *load(const char *file)
{
    cur_file = file;
    if (env.cli)
        return (juke_module *)1; /* the CLI loads the file itself */
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", env.dir, file);
    juke_module *m = NULL;
    juke_status st = juke_module_load_file(env.ctx, path, &m);
    if (st)
        fail_msg("loading %s: %s", path, juke_errmsg(env.ctx));
    return m;
}

static const JukeTypeCode npy_code[] = {
    [JUKE_BOOL] = JUKE_T_BOOL,       [JUKE_INT8] = JUKE_T_INT8,       [JUKE_INT16] = JUKE_T_INT16,
    [JUKE_INT32] = JUKE_T_INT32,     [JUKE_INT64] = JUKE_T_INT64,     [JUKE_UINT8] = JUKE_T_UINT8,
    [JUKE_UINT16] = JUKE_T_UINT16,   [JUKE_UINT32] = JUKE_T_UINT32,   [JUKE_UINT64] = JUKE_T_UINT64,
    [JUKE_FLOAT16] = JUKE_T_FLOAT16, [JUKE_FLOAT32] = JUKE_T_FLOAT32, [JUKE_FLOAT64] = JUKE_T_FLOAT64,
};

static juke_array *cli_arr(juke_type t, int nd, const int64_t *dims, const void *data)
{
    HostArr *h = calloc(1, sizeof *h);
    h->t = t;
    h->nd = nd;
    NpyArray a = { .type = npy_code[t], .ndims = nd, .elsize = juke_sizeof(t), .length = 1 };
    for (int i = 0; i < nd; i++) {
        h->dims[i] = a.dims[i] = dims[i];
        a.length *= (size_t)dims[i];
    }
    a.data = calloc(a.length ? a.length : 1, a.elsize);
    if (data)
        memcpy(a.data, data, a.length * a.elsize);
    snprintf(h->in, sizeof h->in, "%s/in%d.npy", env.tmp, env.nfiles);
    snprintf(h->out, sizeof h->out, "%s/out%d.npy", env.tmp, env.nfiles++);
    char *err = NULL;
    if (npy_write_file(h->in, &a, &err))
        fail_msg("writing %s: %s", h->in, err);
    free(a.data);
    if (env.narrays < 64)
        env.arrays[env.narrays++] = h;
    return (juke_array *)h;
}

static juke_array *arr(juke_type t, int nd, int64_t d0, int64_t d1, int64_t d2, const void *data)
{
    int64_t dims[3] = { d0, d1, d2 };
    if (env.cli)
        return cli_arr(t, nd, dims, data);
    juke_array *a = NULL;
    if (juke_array_create(env.dev, t, nd, dims, &a))
        fail_msg("array: %s", juke_errmsg(env.ctx));
    if (data && juke_array_upload(a, data, (size_t)juke_array_length(a) * juke_sizeof(t)))
        fail_msg("upload: %s", juke_errmsg(env.ctx));
    return a;
}

static void download(juke_array *a, void *host, juke_type t)
{
    if (env.cli) {
        HostArr *h = (HostArr *)a;
        NpyArray r;
        char *err = NULL;
        if (npy_read_file(h->out, &r, &err))
            fail_msg("reading %s: %s", h->out, err);
        assert_int_equal(r.ndims, h->nd);
        for (int i = 0; i < h->nd; i++)
            assert_int_equal(r.dims[i], h->dims[i]);
        memcpy(host, r.data, r.length * r.elsize);
        npy_free(&r);
        return;
    }
    if (juke_array_download(a, host, (size_t)juke_array_length(a) * juke_sizeof(t)))
        fail_msg("download: %s", juke_errmsg(env.ctx));
}

/* A scalar as a Julia literal for `juke run`. */
static void literal(char *buf, size_t n, const juke_arg *a)
{
    switch (a->type) {
    case JUKE_FLOAT32: {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%.9e", (double)a->v.f32);
        char *e = strchr(tmp, 'e');
        if (e)
            *e = 'f'; /* 1.5e-03 -> 1.5f-03, a Float32 literal */
        snprintf(buf, n, "%s", tmp);
        break;
    }
    case JUKE_FLOAT64: snprintf(buf, n, "%.17e", a->v.f64); break;
    case JUKE_INT32: snprintf(buf, n, "Int32(%lld)", (long long)a->v.i); break;
    case JUKE_INT64: snprintf(buf, n, "%lld", (long long)a->v.i); break;
    case JUKE_BOOL: snprintf(buf, n, "%s", a->v.i ? "true" : "false"); break;
    default: fail_msg("literal: type %d not used by the acceptance tests", (int)a->type);
    }
}

/* Run `juke run` for the launch; returns its exit status, output in env.last_output. */
static int cli_launch(const char *fn, juke_arg *args, int n, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                      uint32_t by, uint32_t bz, uint32_t shmem)
{
    char cmd[16384];
    int len = snprintf(cmd, sizeof cmd, "'%s' run --device cpu --groupsize %u,%u,%u --gridsize %u,%u,%u --shmem %u",
                       env.juke, bx, by, bz, gx, gy, gz, shmem);
    for (int i = 0; i < n; i++)
        if (args[i].is_array)
            len += snprintf(cmd + len, sizeof cmd - (size_t)len, " --out %d='%s'", i + 1,
                            ((HostArr *)args[i].v.array)->out);
    len += snprintf(cmd + len, sizeof cmd - (size_t)len, " '%s/%s' '%s'", env.dir, cur_file, fn);
    for (int i = 0; i < n; i++) {
        char lit[128];
        if (args[i].is_array)
            snprintf(lit, sizeof lit, "'%s'", ((HostArr *)args[i].v.array)->in);
        else {
            char l[100];
            literal(l, sizeof l, &args[i]);
            snprintf(lit, sizeof lit, "'%s'", l);
        }
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " %s", lit);
    }
    snprintf(cmd + len, sizeof cmd - (size_t)len, " 2>&1");
    FILE *p = popen(cmd, "r");
    if (!p)
        fail_msg("cannot run %s", cmd);
    size_t got = fread(env.last_output, 1, sizeof env.last_output - 1, p);
    env.last_output[got] = 0;
    int rc = pclose(p);
    /* the output arrays become the next launch's inputs, as device arrays would */
    for (int i = 0; i < n; i++)
        if (args[i].is_array && rc == 0) {
            HostArr *h = (HostArr *)args[i].v.array;
            char mv[1200];
            snprintf(mv, sizeof mv, "cp '%s' '%s'", h->out, h->in);
            if (system(mv) != 0)
                fail_msg("%s failed", mv);
        }
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void launch(juke_module *m, const char *fn, juke_arg *args, int n, uint32_t gx, uint32_t gy, uint32_t gz,
                   uint32_t bx, uint32_t by, uint32_t bz, uint32_t shmem)
{
    if (env.cli) {
        int rc = cli_launch(fn, args, n, gx, gy, gz, bx, by, bz, shmem);
        if (rc != 0)
            fail_msg("juke run %s: exit %d:\n%s", fn, rc, env.last_output);
        return;
    }
    juke_launch_config cfg = { { bx, by, bz }, { gx, gy, gz }, shmem, false };
    juke_status st = juke_launch(env.dev, m, fn, args, n, &cfg);
    if (st)
        fail_msg("launch %s: %s: %s", fn, juke_status_name(st), juke_errmsg(env.ctx));
}

static uint32_t cdiv(int64_t a, int64_t b)
{
    return (uint32_t)((a + b - 1) / b);
}

static void close_rel(double got, double want, double scale, double tol, const char *what, int64_t i)
{
    double err = fabs(got - want);
    if (!(err <= tol * (scale > 1e-30 ? scale : 1)))
        fail_msg("%s[%lld]: got %.17g, want %.17g (seed %llu)", what, (long long)i, got, want,
                 (unsigned long long)env.rng);
}

/* vadd.jl: c == a .+ b */
static void test_vadd(void **state)
{
    (void)state;
    juke_module *m = load("vadd.jl");
    int64_t n = 1000003;
    float *a = malloc(4 * n), *b = malloc(4 * n), *c = malloc(4 * n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)unif(-10, 10);
        b[i] = (float)unif(-10, 10);
        c[i] = (float)unif(-1, 1);
    }
    juke_array *da = arr(JUKE_FLOAT32, 1, n, 0, 0, a), *db = arr(JUKE_FLOAT32, 1, n, 0, 0, b),
               *dc = arr(JUKE_FLOAT32, 1, n, 0, 0, c);
    juke_arg args[3] = { juke_arg_array(dc), juke_arg_array(da), juke_arg_array(db) };
    launch(m, "vadd!", args, 3, cdiv(n, 256), 1, 1, 256, 1, 1, 0);
    download(dc, c, JUKE_FLOAT32);
    for (int64_t i = 0; i < n; i++)
        if (c[i] != a[i] + b[i])
            fail_msg("vadd c[%lld] = %g, want %g", (long long)i, c[i], a[i] + b[i]);
    free(a), free(b), free(c);
}

/* memcopy.jl: dst == src, Float64 and Float32, n not a multiple of 256 */
static void test_memcopy(void **state)
{
    (void)state;
    juke_module *m = load("memcopy.jl");
    int64_t n = 256 * 301 + 77;
    double *s64 = malloc(8 * n), *d64 = calloc(n, 8);
    float *s32 = malloc(4 * n), *d32 = calloc(n, 4);
    for (int64_t i = 0; i < n; i++) {
        s64[i] = unif(-1e6, 1e6);
        s32[i] = (float)unif(-1e6, 1e6);
    }
    juke_array *a = arr(JUKE_FLOAT64, 1, n, 0, 0, s64), *b = arr(JUKE_FLOAT64, 1, n, 0, 0, d64);
    juke_arg args[2] = { juke_arg_array(b), juke_arg_array(a) };
    launch(m, "memcopy!", args, 2, cdiv(n, 256), 1, 1, 256, 1, 1, 0);
    download(b, d64, JUKE_FLOAT64);
    assert_memory_equal(d64, s64, 8 * n);
    juke_array *c = arr(JUKE_FLOAT32, 1, n, 0, 0, s32), *d = arr(JUKE_FLOAT32, 1, n, 0, 0, d32);
    juke_arg args2[2] = { juke_arg_array(d), juke_arg_array(c) };
    launch(m, "memcopy!", args2, 2, cdiv(n, 256), 1, 1, 256, 1, 1, 0);
    download(d, d32, JUKE_FLOAT32);
    assert_memory_equal(d32, s32, 4 * n);
    free(s64), free(d64), free(s32), free(d32);
}

/* diffusion2d.jl: one 5-point step; the Float32 case is computed in Float64 (4.0 is a Float64) and rounded */
static void run_diffusion(juke_module *m, bool f32)
{
    int64_t nx = 67, ny = 45, ax = nx + 2, ay = ny + 2;
    double *A = malloc(8 * ax * ay), *An = malloc(8 * nx * ny);
    float *Af = malloc(4 * ax * ay), *Anf = malloc(4 * nx * ny);
    for (int64_t i = 0; i < ax * ay; i++) {
        A[i] = unif(0, 1);
        Af[i] = (float)A[i];
    }
    double h = unif(0.01, 0.2);
    float hf = (float)h;
    juke_type t = f32 ? JUKE_FLOAT32 : JUKE_FLOAT64;
    juke_array *dA = arr(t, 2, ax, ay, 0, f32 ? (void *)Af : (void *)A);
    juke_array *dN = arr(t, 2, nx, ny, 0, NULL);
    juke_arg args[3] = { juke_arg_array(dN), juke_arg_array(dA), f32 ? juke_arg_f32(hf) : juke_arg_f64(h) };
    launch(m, "diffusion2d!", args, 3, cdiv(nx, 32), cdiv(ny, 8), 1, 32, 8, 1, 0);
    if (f32)
        download(dN, Anf, t);
    else
        download(dN, An, t);
#define AT(X, i, j) X[(i) + ax * (j)]
    for (int64_t j = 0; j < ny; j++)
        for (int64_t i = 0; i < nx; i++) {
            double want, got;
            if (f32) {
                double c = AT(Af, i + 1, j + 1);
                want = (float)(c + (double)hf * ((double)(AT(Af, i, j + 1) + AT(Af, i + 2, j + 1)) + AT(Af, i + 1, j) +
                                                 AT(Af, i + 1, j + 2) - 4.0 * c));
                got = Anf[i + nx * j];
                close_rel(got, want, fabs(want), 1e-5, "diffusion2d(Float32)", i);
            } else {
                double c = AT(A, i + 1, j + 1);
                want =
                    c + h * (AT(A, i, j + 1) + AT(A, i + 2, j + 1) + AT(A, i + 1, j) + AT(A, i + 1, j + 2) - 4.0 * c);
                got = An[i + nx * j];
                close_rel(got, want, fabs(want), 1e-12, "diffusion2d(Float64)", i);
            }
        }
#undef AT
    free(A), free(An), free(Af), free(Anf);
}

static void test_diffusion2d(void **state)
{
    (void)state;
    juke_module *m = load("diffusion2d.jl");
    run_diffusion(m, false);
    run_diffusion(m, true);
}

/* saxpy.jl: y == a .* x .+ y */
static void test_saxpy(void **state)
{
    (void)state;
    juke_module *m = load("saxpy.jl");
    int64_t n = 128 * 77 + 5;
    float *x = malloc(4 * n), *y = malloc(4 * n), *y0 = malloc(4 * n);
    for (int64_t i = 0; i < n; i++) {
        x[i] = (float)unif(-5, 5);
        y[i] = y0[i] = (float)unif(-5, 5);
    }
    float a = (float)unif(0.5, 3);
    juke_array *dy = arr(JUKE_FLOAT32, 1, n, 0, 0, y), *dx = arr(JUKE_FLOAT32, 1, n, 0, 0, x);
    juke_arg args[3] = { juke_arg_array(dy), juke_arg_f32(a), juke_arg_array(dx) };
    launch(m, "saxpy!", args, 3, cdiv(n, 128), 1, 1, 128, 1, 1, 0);
    download(dy, y, JUKE_FLOAT32);
    for (int64_t i = 0; i < n; i++)
        close_rel(y[i], (double)a * x[i] + y0[i], fabs(a * x[i]) + fabs(y0[i]), 1e-6, "saxpy", i);
    free(x), free(y), free(y0);
}

/* block_sum.jl: out[g] == sum of group g's 256-slice (zero-padded) */
static void test_block_sum(void **state)
{
    (void)state;
    juke_module *m = load("block_sum.jl");
    int64_t n = 256 * 37 + 100, ng = cdiv(n, 256);
    float *x = malloc(4 * n), *out = malloc(4 * ng);
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)unif(-1, 1);
    juke_array *dout = arr(JUKE_FLOAT32, 1, ng, 0, 0, NULL), *dx = arr(JUKE_FLOAT32, 1, n, 0, 0, x);
    juke_arg args[2] = { juke_arg_array(dout), juke_arg_array(dx) };
    launch(m, "block_sum!", args, 2, (uint32_t)ng, 1, 1, 256, 1, 1, 0);
    download(dout, out, JUKE_FLOAT32);
    for (int64_t g = 0; g < ng; g++) {
        double s = 0, sa = 0;
        for (int64_t i = g * 256; i < (g + 1) * 256 && i < n; i++)
            s += x[i], sa += fabs(x[i]);
        close_rel(out[g], s, sa, 1e-5, "block_sum", g);
    }
    free(x), free(out);
}

/* matmul.jl: C ≈ A*B, sizes not multiples of 16 */
static void test_matmul(void **state)
{
    (void)state;
    juke_module *m = load("matmul.jl");
    int64_t M = 37, N = 29, K = 23;
    float *A = malloc(4 * M * K), *B = malloc(4 * K * N), *C = malloc(4 * M * N);
    for (int64_t i = 0; i < M * K; i++)
        A[i] = (float)unif(-1, 1);
    for (int64_t i = 0; i < K * N; i++)
        B[i] = (float)unif(-1, 1);
    juke_array *dC = arr(JUKE_FLOAT32, 2, M, N, 0, NULL), *dA = arr(JUKE_FLOAT32, 2, M, K, 0, A),
               *dB = arr(JUKE_FLOAT32, 2, K, N, 0, B);
    juke_arg args[3] = { juke_arg_array(dC), juke_arg_array(dA), juke_arg_array(dB) };
    launch(m, "matmul!", args, 3, cdiv(M, 16), cdiv(N, 16), 1, 16, 16, 1, 0);
    download(dC, C, JUKE_FLOAT32);
    for (int64_t j = 0; j < N; j++)
        for (int64_t i = 0; i < M; i++) {
            double s = 0, sa = 0;
            for (int64_t k = 0; k < K; k++)
                s += (double)A[i + M * k] * B[k + K * j], sa += fabs((double)A[i + M * k] * B[k + K * j]);
            close_rel(C[i + M * j], s, sa, 1e-5, "matmul", i + M * j);
        }
    free(A), free(B), free(C);
}

/* histogram.jl: bins == counts of data (atomics) */
static void test_histogram(void **state)
{
    (void)state;
    juke_module *m = load("histogram.jl");
    int64_t n = 20011, nb = 17;
    int32_t *data = malloc(4 * n), *bins = calloc(nb, 4), want[17] = { 0 };
    for (int64_t i = 0; i < n; i++) {
        data[i] = (int32_t)irange(1, nb);
        want[data[i] - 1]++;
    }
    juke_array *db = arr(JUKE_INT32, 1, nb, 0, 0, bins), *dd = arr(JUKE_INT32, 1, n, 0, 0, data);
    juke_arg args[2] = { juke_arg_array(db), juke_arg_array(dd) };
    launch(m, "histogram!", args, 2, cdiv(n, 256), 1, 1, 256, 1, 1, 0);
    download(db, bins, JUKE_INT32);
    assert_memory_equal(bins, want, 4 * nb);
    free(data), free(bins);
}

/* oob.jl: the BoundsError reaches the host; the device stays usable */
static void test_oob(void **state)
{
    (void)state;
    juke_module *m = load("oob.jl");
    float x[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)unif(-1, 1);
    juke_array *dx = arr(JUKE_FLOAT32, 1, 64, 0, 0, x);
    juke_arg args[1] = { juke_arg_array(dx) };
    juke_launch_config cfg = { { 64, 1, 1 }, { 1, 1, 1 }, 0, false };
    juke_status st = JUKE_ERR_KERNEL;
    const char *msg;
    if (env.cli) {
        int rc = cli_launch("oob!", args, 1, 1, 1, 1, 64, 1, 1, 0);
        assert_int_equal(rc, 1);
        msg = env.last_output;
    } else {
        st = juke_launch(env.dev, m, "oob!", args, 1, &cfg);
        assert_int_equal(st, JUKE_ERR_KERNEL);
        msg = juke_errmsg(env.ctx);
    }
    if (!strstr(msg, "oob!") || !strstr(msg, "BoundsError") || !strstr(msg, "64-element") || !strstr(msg, "[65]") ||
        !strstr(msg, "oob.jl:4") || !strstr(msg, "work-item (64, 1, 1)"))
        fail_msg("unexpected exception message:\n%s", msg);
    /* the next launch on the same device works and is correct */
    juke_module *v = load("vadd.jl");
    int64_t n = 1000;
    float a[1000], b[1000], c[1000];
    for (int i = 0; i < n; i++)
        a[i] = (float)unif(-1, 1), b[i] = (float)unif(-1, 1);
    juke_array *da = arr(JUKE_FLOAT32, 1, n, 0, 0, a), *db = arr(JUKE_FLOAT32, 1, n, 0, 0, b),
               *dc = arr(JUKE_FLOAT32, 1, n, 0, 0, NULL);
    juke_arg vargs[3] = { juke_arg_array(dc), juke_arg_array(da), juke_arg_array(db) };
    launch(v, "vadd!", vargs, 3, cdiv(n, 256), 1, 1, 256, 1, 1, 0);
    download(dc, c, JUKE_FLOAT32);
    for (int i = 0; i < n; i++)
        assert_true(c[i] == a[i] + b[i]);
    /* the failing kernel fails the same way again */
    if (!env.cli) {
        st = juke_launch(env.dev, m, "oob!", args, 1, &cfg);
        assert_int_equal(st, JUKE_ERR_KERNEL);
    }
}

/* mathfuns.jl, Float32 and Float64: the expression with Julia's promotion (everything stays in the element type) */
static void run_mathfuns(juke_module *m, bool f32)
{
    int64_t n = 1000;
    juke_type t = f32 ? JUKE_FLOAT32 : JUKE_FLOAT64;
    double *x = malloc(8 * n), *y = malloc(8 * n);
    float *xf = malloc(4 * n), *yf = malloc(4 * n);
    for (int64_t i = 0; i < n; i++) {
        x[i] = unif(-3, 3);
        xf[i] = (float)x[i];
    }
    juke_array *dy = arr(t, 1, n, 0, 0, NULL), *dx = arr(t, 1, n, 0, 0, f32 ? (void *)xf : (void *)x);
    juke_arg args[2] = { juke_arg_array(dy), juke_arg_array(dx) };
    launch(m, "mathfuns!", args, 2, cdiv(n, 64), 1, 1, 64, 1, 1, 0);
    if (f32)
        download(dy, yf, t);
    else
        download(dy, y, t);
    for (int64_t i = 0; i < n; i++) {
        double v = f32 ? xf[i] : x[i];
        double want = mathfuns_ref(v); /* the exact value; Float32 results are within rounding of it */
        double scale = fabs(v * v * v) + 10 + fabs(v) * 4;
        close_rel(f32 ? yf[i] : y[i], want, scale, f32 ? 1e-5 : 1e-12, f32 ? "mathfuns(Float32)" : "mathfuns(Float64)",
                  i);
    }
    free(x), free(y), free(xf), free(yf);
}

static void test_mathfuns(void **state)
{
    (void)state;
    juke_module *m = load("mathfuns.jl");
    run_mathfuns(m, true);
    run_mathfuns(m, false);
}

/* transpose.jl: out == permutedims(inp) */
static void test_transpose(void **state)
{
    (void)state;
    juke_module *m = load("transpose.jl");
    int64_t M = 37, N = 53;
    float *in = malloc(4 * M * N), *out = malloc(4 * M * N);
    for (int64_t i = 0; i < M * N; i++)
        in[i] = (float)unif(-100, 100);
    juke_array *dout = arr(JUKE_FLOAT32, 2, N, M, 0, NULL), *din = arr(JUKE_FLOAT32, 2, M, N, 0, in);
    juke_arg args[2] = { juke_arg_array(dout), juke_arg_array(din) };
    launch(m, "transpose!", args, 2, cdiv(M, 16), cdiv(N, 16), 1, 16, 16, 1, 0);
    download(dout, out, JUKE_FLOAT32);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++)
            if (out[j + N * i] != in[i + M * j])
                fail_msg("transpose out[%lld,%lld]", (long long)j + 1, (long long)i + 1);
    free(in), free(out);
}

/* intops.jl: Julia's integer semantics, Int32 and Int64 (arithmetic wraps) */
static void test_intops(void **state)
{
    (void)state;
    juke_module *m = load("intops.jl");
    int64_t n = 1000;
    int32_t *a = malloc(4 * n), *b = malloc(4 * n), *o = malloc(4 * n);
    int64_t *a8 = malloc(8 * n), *b8 = malloc(8 * n), *o8 = malloc(8 * n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (int32_t)irange(-2000000000, 2000000000);
        do
            b[i] = (int32_t)irange(-100000, 100000);
        while (!b[i]);
        a8[i] = irange(-4000000000000000000LL, 4000000000000000000LL);
        do
            b8[i] = irange(-100000000000LL, 100000000000LL);
        while (!b8[i]);
        if (i % 7 == 0)
            b[i] = a[i], b8[i] = a8[i]; /* x == y case */
        if (i % 11 == 0)
            b[i] = (int32_t)irange(-5, 5) | 1, b8[i] = irange(-5, 5) | 1;
    }
    juke_array *da = arr(JUKE_INT32, 1, n, 0, 0, a), *db = arr(JUKE_INT32, 1, n, 0, 0, b),
               *dout = arr(JUKE_INT32, 1, n, 0, 0, NULL);
    juke_arg args[3] = { juke_arg_array(dout), juke_arg_array(da), juke_arg_array(db) };
    launch(m, "intops!", args, 3, cdiv(n, 64), 1, 1, 64, 1, 1, 0);
    download(dout, o, JUKE_INT32);
    for (int64_t i = 0; i < n; i++)
        if (o[i] != intops_ref_int32_t(a[i], b[i]))
            fail_msg("intops(Int32)[%lld]: x=%d y=%d got %d want %d", (long long)i, a[i], b[i], o[i],
                     intops_ref_int32_t(a[i], b[i]));
    juke_array *ea = arr(JUKE_INT64, 1, n, 0, 0, a8), *eb = arr(JUKE_INT64, 1, n, 0, 0, b8),
               *eo = arr(JUKE_INT64, 1, n, 0, 0, NULL);
    juke_arg args8[3] = { juke_arg_array(eo), juke_arg_array(ea), juke_arg_array(eb) };
    launch(m, "intops!", args8, 3, cdiv(n, 64), 1, 1, 64, 1, 1, 0);
    download(eo, o8, JUKE_INT64);
    for (int64_t i = 0; i < n; i++)
        if (o8[i] != intops_ref_int64_t(a8[i], b8[i]))
            fail_msg("intops(Int64)[%lld]: x=%lld y=%lld got %lld want %lld", (long long)i, (long long)a8[i],
                     (long long)b8[i], (long long)o8[i], (long long)intops_ref_int64_t(a8[i], b8[i]));
    free(a), free(b), free(o), free(a8), free(b8), free(o8);
}

/* dispatch.jl: scale picked by element type: 2x (Float32), 3x (Float64), x + 1 (Int32) */
static void test_dispatch(void **state)
{
    (void)state;
    juke_module *m = load("dispatch.jl");
    int64_t n = 777;
    float xf[777], yf[777];
    double xd[777], yd[777];
    int32_t xi[777], yi[777];
    for (int i = 0; i < n; i++) {
        xf[i] = (float)unif(-9, 9);
        xd[i] = unif(-9, 9);
        xi[i] = (int32_t)irange(-1000000, 1000000);
    }
    juke_array *a = arr(JUKE_FLOAT32, 1, n, 0, 0, NULL), *b = arr(JUKE_FLOAT32, 1, n, 0, 0, xf);
    juke_arg args[2] = { juke_arg_array(a), juke_arg_array(b) };
    launch(m, "apply_scale!", args, 2, cdiv(n, 64), 1, 1, 64, 1, 1, 0);
    download(a, yf, JUKE_FLOAT32);
    juke_array *c = arr(JUKE_FLOAT64, 1, n, 0, 0, NULL), *d = arr(JUKE_FLOAT64, 1, n, 0, 0, xd);
    juke_arg args2[2] = { juke_arg_array(c), juke_arg_array(d) };
    launch(m, "apply_scale!", args2, 2, cdiv(n, 64), 1, 1, 64, 1, 1, 0);
    download(c, yd, JUKE_FLOAT64);
    juke_array *e = arr(JUKE_INT32, 1, n, 0, 0, NULL), *f = arr(JUKE_INT32, 1, n, 0, 0, xi);
    juke_arg args3[2] = { juke_arg_array(e), juke_arg_array(f) };
    launch(m, "apply_scale!", args3, 2, cdiv(n, 64), 1, 1, 64, 1, 1, 0);
    download(e, yi, JUKE_INT32);
    for (int i = 0; i < n; i++) {
        assert_true(yf[i] == 2.0f * xf[i]);
        assert_true(yd[i] == 3.0 * xd[i]);
        assert_int_equal(yi[i], xi[i] + 1);
    }
}

/* indices3d.jl: out[i,j,k] == i + 100j + 10000k + 1000000*(3-1) */
static void test_indices3d(void **state)
{
    (void)state;
    juke_module *m = load("indices3d.jl");
    int64_t X = 11, Y = 7, Z = 6;
    int64_t *out = malloc(8 * X * Y * Z);
    for (int64_t i = 0; i < X * Y * Z; i++)
        out[i] = (int64_t)rnd();
    juke_array *d = arr(JUKE_INT64, 3, X, Y, Z, out);
    juke_arg args[1] = { juke_arg_array(d) };
    launch(m, "indices3d!", args, 1, 3, 2, 2, 4, 4, 4, 0);
    download(d, out, JUKE_INT64);
    for (int64_t k = 1; k <= Z; k++)
        for (int64_t j = 1; j <= Y; j++)
            for (int64_t i = 1; i <= X; i++)
                assert_int_equal(out[(i - 1) + X * ((j - 1) + Y * (k - 1))], i + 100 * j + 10000 * k + 1000000 * 2);
    free(out);
}

/* mandelbrot.jl: escape counts with Float32 arithmetic as Julia does it */
static void test_mandelbrot(void **state)
{
    (void)state;
    juke_module *m = load("mandelbrot.jl");
    int64_t w = 67, h = 43;
    int32_t *it = malloc(4 * w * h);
    float xmin = (float)unif(-2.2, -1.8), xmax = (float)unif(0.4, 0.6), ymin = (float)unif(-1.3, -1.1),
          ymax = (float)unif(1.1, 1.3);
    int32_t maxiter = (int32_t)irange(50, 200);
    juke_array *d = arr(JUKE_INT32, 2, w, h, 0, NULL);
    juke_arg args[6] = { juke_arg_array(d),  juke_arg_f32(xmin), juke_arg_f32(xmax),
                         juke_arg_f32(ymin), juke_arg_f32(ymax), juke_arg_i32(maxiter) };
    launch(m, "mandelbrot!", args, 6, cdiv(w, 16), cdiv(h, 16), 1, 16, 16, 1, 0);
    download(d, it, JUKE_INT32);
    for (int64_t j = 1; j <= h; j++)
        for (int64_t i = 1; i <= w; i++) {
            int32_t want = mandel_ref(i, j, w, h, xmin, xmax, ymin, ymax, maxiter);
            if (it[(i - 1) + w * (j - 1)] != want)
                fail_msg("mandelbrot[%lld,%lld] = %d, want %d", (long long)i, (long long)j, it[(i - 1) + w * (j - 1)],
                         want);
        }
    free(it);
}

/* dynamic_shmem.jl: each 128-slice of y is the reversed slice of x */
static void test_dynamic_shmem(void **state)
{
    (void)state;
    juke_module *m = load("dynamic_shmem.jl");
    int64_t n = 128 * 13;
    float *x = malloc(4 * n), *y = malloc(4 * n);
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)unif(-1, 1);
    juke_array *dy = arr(JUKE_FLOAT32, 1, n, 0, 0, NULL), *dx = arr(JUKE_FLOAT32, 1, n, 0, 0, x);
    juke_arg args[2] = { juke_arg_array(dy), juke_arg_array(dx) };
    launch(m, "reverse_groups!", args, 2, (uint32_t)(n / 128), 1, 1, 128, 1, 1, 128 * 4);
    download(dy, y, JUKE_FLOAT32);
    for (int64_t g = 0; g < n / 128; g++)
        for (int64_t t = 0; t < 128; t++)
            assert_true(y[g * 128 + t] == x[g * 128 + 127 - t]);
    free(x), free(y);
}

static int setup(void **state)
{
    (void)state;
    const char *d = getenv("JUKE_ACCEPTANCE_DIR");
    snprintf(env.dir, sizeof env.dir, "%s", d ? d : "tests/kernels/acceptance");
    const char *seed = getenv("JUKE_TEST_SEED");
    env.rng = seed ? strtoull(seed, NULL, 10) : (uint64_t)time(NULL) * 2654435761u + (uint64_t)clock();
    if (!env.rng)
        env.rng = 88172645463325252ULL;
    fprintf(stderr, "test_acceptance: seed %llu (set JUKE_TEST_SEED to replay)\n", (unsigned long long)env.rng);
    /* JUKE_ACCEPTANCE_DEVICE: run the kernels elsewhere (amdemu:gfx942: the AMD code objects in the emulator) */
    const char *spec = getenv("JUKE_ACCEPTANCE_DEVICE");
    spec = spec && *spec ? spec : "cpu";
    env.ctx = juke_context_create();
    if (!env.ctx || juke_device_open(env.ctx, spec, &env.dev)) {
        fprintf(stderr, "cannot open the %s device: %s\n", spec, env.ctx ? juke_errmsg(env.ctx) : "no context");
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    juke_context_destroy(env.ctx);
    return 0;
}

static int setup_cli(void **state)
{
    (void)state;
    env.cli = true;
    snprintf(env.tmp, sizeof env.tmp, "/tmp/juke-acceptance-XXXXXX");
    if (!mkdtemp(env.tmp))
        return -1;
    return 0;
}

static int teardown_cli(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", env.tmp);
    for (int i = 0; i < env.narrays; i++)
        free(env.arrays[i]);
    env.narrays = 0;
    return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vadd),      cmocka_unit_test(test_memcopy),    cmocka_unit_test(test_diffusion2d),
        cmocka_unit_test(test_saxpy),     cmocka_unit_test(test_block_sum),  cmocka_unit_test(test_matmul),
        cmocka_unit_test(test_histogram), cmocka_unit_test(test_oob),        cmocka_unit_test(test_mathfuns),
        cmocka_unit_test(test_transpose), cmocka_unit_test(test_intops),     cmocka_unit_test(test_dispatch),
        cmocka_unit_test(test_indices3d), cmocka_unit_test(test_mandelbrot), cmocka_unit_test(test_dynamic_shmem),
    };
    int failed = cmocka_run_group_tests_name("acceptance through the API (cpu)", tests, setup, teardown);
    if (argc > 1) {
        env.juke = argv[1];
        failed += cmocka_run_group_tests_name("acceptance through `juke run` with .npy files (cpu)", tests, setup_cli,
                                              teardown_cli);
    }
    return failed;
}
