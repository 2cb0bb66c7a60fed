/* h200_acceptance.c: every acceptance kernel (tests/acceptance_cases.h, the
 * launches of ../shared/acceptance/README.md) on a GPU through juke's runtime
 * alone, from ahead-of-time compiled code objects: the machine that runs it
 * has the CUDA driver but no LLVM. Inputs are fresh random numbers; the
 * references are the ones of tests/test_acceptance.c, computed here on the
 * host. Prints PASS/FAIL per kernel signature and exits 1 if any failed.
 *
 *   h200_acceptance --list              one line per signature: INDEX FILE FUNCTION TYPES...
 *                                       (bench/prepare_h200.sh compiles each to DIR/acc_INDEX.ptx)
 *   h200_acceptance DIR [DEVICE]        run them (DEVICE defaults to "cuda")
 *
 * JUKE_TEST_SEED replays a seed. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/acceptance_cases.h"
#include "../tests/acceptance_refs.h"
#include "benchutil.h"
#include "runtime.h"

typedef struct Acc {
    RtDevice *dev;
    const char *dir;
    const char *ext; /* "ptx" for cuda, "hsaco" for hip, "so" for cpu */
    uint64_t rng;
    char msg[512]; /* why the current case failed */
    RtModule *mods[N_ACCEPTANCE_SIGS];
    RtFunction *fns[N_ACCEPTANCE_SIGS];
    void *allocs[64];
    int nallocs;
} Acc;

static uint64_t rnd(Acc *a)
{
    a->rng ^= a->rng << 13;
    a->rng ^= a->rng >> 7;
    a->rng ^= a->rng << 17;
    return a->rng;
}
static double unif(Acc *a, double lo, double hi)
{
    return lo + (hi - lo) * (double)(rnd(a) >> 11) / 9007199254740992.0;
}
static int64_t irange(Acc *a, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnd(a) % (uint64_t)(hi - lo + 1));
}
static uint32_t cdiv(int64_t a, int64_t b)
{
    return (uint32_t)((a + b - 1) / b);
}

static bool failf(Acc *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool failf(Acc *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    return false;
}

/* The kernel symbol of a juke code object: PTX ".entry NAME(", or the name
 * the prepare script wrote beside it (DIR/acc_NN.sym) for other targets. */
static bool kernel_symbol(Acc *a, int idx, const char *image, size_t size, char *out, size_t outsz)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/acc_%02d.sym", a->dir, idx);
    size_t n = 0;
    char *sym = bench_read_file(path, &n);
    if (sym) {
        sym[strcspn(sym, " \r\n")] = '\0';
        snprintf(out, outsz, "%s", sym);
        free(sym);
        return true;
    }
    const char *e = memmem(image, size, ".entry ", 7);
    if (!e)
        return false;
    e += 7;
    size_t k = 0;
    while (e < image + size && *e != '(' && *e != ' ' && *e != '\n' && k + 1 < outsz)
        out[k++] = *e++;
    out[k] = '\0';
    return k > 0;
}

static bool load_case(Acc *a, int idx)
{
    char path[1200], sym[256];
    snprintf(path, sizeof path, "%s/acc_%02d.%s", a->dir, idx, a->ext);
    size_t size = 0;
    char *image = bench_read_file(path, &size);
    if (!image)
        return failf(a, "cannot read %s", path);
    if (!kernel_symbol(a, idx, image, size, sym, sizeof sym)) {
        free(image);
        return failf(a, "no kernel symbol for %s", path);
    }
    char *err = NULL;
    bool ok = rt_module_load(a->dev, image, size, &a->mods[idx], &err) == 0 &&
              rt_function_get(a->mods[idx], sym, &a->fns[idx], &err) == 0;
    free(image);
    if (!ok) {
        failf(a, "%s: %s", path, err ? err : "?");
        free(err);
    }
    return ok;
}

/* Device memory, freed after each case. */
static void *dbuf(Acc *a, size_t bytes, const void *host)
{
    void *p = NULL;
    char *err = NULL;
    if (rt_alloc(a->dev, bytes ? bytes : 1, &p, &err) != 0) {
        failf(a, "alloc: %s", err);
        free(err);
        return NULL;
    }
    a->allocs[a->nallocs++] = p;
    if (host && rt_upload(a->dev, p, host, bytes, &err) != 0) {
        failf(a, "upload: %s", err);
        free(err);
        return NULL;
    }
    return p;
}

static bool dget(Acc *a, void *host, const void *dev, size_t bytes)
{
    char *err = NULL;
    if (rt_download(a->dev, host, dev, bytes, &err) != 0) {
        failf(a, "download: %s", err);
        free(err);
        return false;
    }
    return true;
}

/* One argument's bytes (runtime/abi.h): an array is a JukeArrayArg
 * (pointer, dims..., length), a scalar its own bytes. */
typedef struct ArgBytes {
    uint64_t w[12];
} ArgBytes;

static RtArg arr_arg(ArgBytes *b, void *ptr, int nd, int64_t d0, int64_t d1, int64_t d2)
{
    int64_t d[3] = { d0, d1, d2 }, len = 1;
    b->w[0] = (uint64_t)(uintptr_t)ptr;
    for (int i = 0; i < nd; i++) {
        b->w[1 + i] = (uint64_t)d[i];
        len *= d[i];
    }
    b->w[1 + nd] = (uint64_t)len;
    return (RtArg){ b->w, (uint32_t)JUKE_ARRAY_ARG_SIZE(nd), 8 };
}

static RtArg f32_arg(ArgBytes *b, float x)
{
    memcpy(b->w, &x, 4);
    return (RtArg){ b->w, 4, 4 };
}
static RtArg f64_arg(ArgBytes *b, double x)
{
    memcpy(b->w, &x, 8);
    return (RtArg){ b->w, 8, 8 };
}
static RtArg i32_arg(ArgBytes *b, int32_t x)
{
    memcpy(b->w, &x, 4);
    return (RtArg){ b->w, 4, 4 };
}

/* A synchronous launch; 0 ok, 1 kernel exception (in *exc), -1 failure. */
static int launch_exc(Acc *a, int idx, const RtArg *args, int n, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                      uint32_t by, uint32_t bz, uint32_t shmem, JukeExceptionRecord *exc)
{
    uint32_t grid[3] = { gx, gy, gz }, group[3] = { bx, by, bz };
    char *err = NULL;
    int rc = rt_launch(a->fns[idx], args, n, grid, group, shmem, true, exc, &err);
    if (rc < 0) {
        failf(a, "launch: %s", err ? err : "?");
        free(err);
    }
    return rc;
}

static bool launch(Acc *a, int idx, const RtArg *args, int n, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                   uint32_t by, uint32_t bz, uint32_t shmem)
{
    JukeExceptionRecord exc;
    int rc = launch_exc(a, idx, args, n, gx, gy, gz, bx, by, bz, shmem, &exc);
    if (rc == 1)
        return failf(a, "unexpected kernel exception kind %u at line %u", exc.kind, exc.line);
    return rc == 0;
}

static bool close_rel(Acc *a, double got, double want, double scale, double tol, const char *what, int64_t i)
{
    if (!(fabs(got - want) <= tol * (scale > 1e-30 ? scale : 1)))
        return failf(a, "%s[%" PRId64 "]: got %.17g, want %.17g", what, i, got, want);
    return true;
}

#define CHECK(x)                                                                                                       \
    do {                                                                                                               \
        if (!(x))                                                                                                      \
            goto out;                                                                                                  \
    } while (0)

/* ---- the cases: (index in acceptance_sigs) → pass? ---- */

static bool case_vadd(Acc *a, int idx)
{
    bool ok = false;
    int64_t n = 1000003, pad = 64;
    float *x = malloc(4 * n), *y = malloc(4 * n), *c = malloc(4 * (n + pad)), *c0 = malloc(4 * (n + pad));
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)unif(a, -10, 10), y[i] = (float)unif(a, -10, 10);
    for (int64_t i = 0; i < n + pad; i++)
        c0[i] = (float)unif(a, -1, 1);
    /* c's buffer has `pad` more elements than its length says: they must stay untouched */
    void *dc = dbuf(a, 4 * (n + pad), c0), *da = dbuf(a, 4 * n, x), *db = dbuf(a, 4 * n, y);
    CHECK(dc && da && db);
    ArgBytes b[3];
    RtArg args[3] = { arr_arg(&b[0], dc, 1, n, 0, 0), arr_arg(&b[1], da, 1, n, 0, 0), arr_arg(&b[2], db, 1, n, 0, 0) };
    CHECK(launch(a, idx, args, 3, cdiv(n, 256), 1, 1, 256, 1, 1, 0));
    CHECK(dget(a, c, dc, 4 * (n + pad)));
    for (int64_t i = 0; i < n; i++)
        if (c[i] != x[i] + y[i]) {
            failf(a, "c[%" PRId64 "] = %g, want %g", i + 1, c[i], x[i] + y[i]);
            goto out;
        }
    if (memcmp(c + n, c0 + n, 4 * pad) != 0) {
        failf(a, "elements past n were written");
        goto out;
    }
    ok = true;
out:
    free(x), free(y), free(c), free(c0);
    return ok;
}

static bool case_memcopy(Acc *a, int idx, bool f32)
{
    bool ok = false;
    int64_t n = 256 * 301 + 77;
    size_t es = f32 ? 4 : 8;
    uint8_t *src = malloc(es * n), *dst = malloc(es * n);
    for (int64_t i = 0; i < n; i++) {
        if (f32)
            ((float *)src)[i] = (float)unif(a, -1e6, 1e6);
        else
            ((double *)src)[i] = unif(a, -1e6, 1e6);
    }
    memset(dst, 0xff, es * n);
    void *ds = dbuf(a, es * n, src), *dd = dbuf(a, es * n, dst);
    CHECK(ds && dd);
    ArgBytes b[2];
    RtArg args[2] = { arr_arg(&b[0], dd, 1, n, 0, 0), arr_arg(&b[1], ds, 1, n, 0, 0) };
    CHECK(launch(a, idx, args, 2, cdiv(n, 256), 1, 1, 256, 1, 1, 0));
    CHECK(dget(a, dst, dd, es * n));
    if (memcmp(dst, src, es * n) != 0) {
        failf(a, "dst != src");
        goto out;
    }
    ok = true;
out:
    free(src), free(dst);
    return ok;
}

static bool case_diffusion(Acc *a, int idx, bool f32)
{
    bool ok = false;
    int64_t nx = 67, ny = 45, ax = nx + 2, ay = ny + 2;
    double *A = malloc(8 * ax * ay), *An = malloc(8 * nx * ny);
    float *Af = malloc(4 * ax * ay), *Anf = malloc(4 * nx * ny);
    for (int64_t i = 0; i < ax * ay; i++) {
        A[i] = unif(a, 0, 1);
        Af[i] = (float)A[i];
    }
    double h = unif(a, 0.01, 0.2);
    float hf = (float)h;
    size_t es = f32 ? 4 : 8;
    void *dA = dbuf(a, es * ax * ay, f32 ? (void *)Af : (void *)A), *dN = dbuf(a, es * nx * ny, NULL);
    CHECK(dA && dN);
    ArgBytes b[3];
    RtArg args[3] = { arr_arg(&b[0], dN, 2, nx, ny, 0), arr_arg(&b[1], dA, 2, ax, ay, 0),
                      f32 ? f32_arg(&b[2], hf) : f64_arg(&b[2], h) };
    CHECK(launch(a, idx, args, 3, cdiv(nx, 32), cdiv(ny, 8), 1, 32, 8, 1, 0));
    CHECK(dget(a, f32 ? (void *)Anf : (void *)An, dN, es * nx * ny));
#define AT(X, i, j) X[(i) + ax * (j)]
    for (int64_t j = 0; j < ny; j++)
        for (int64_t i = 0; i < nx; i++) {
            if (f32) {
                float c = AT(Af, i + 1, j + 1);
                /* Julia: the Float32 neighbours sum in Float32, `- 4.0 * c` promotes to Float64 */
                float s = AT(Af, i, j + 1) + AT(Af, i + 2, j + 1) + AT(Af, i + 1, j) + AT(Af, i + 1, j + 2);
                float want = (float)((double)c + (double)hf * ((double)s - 4.0 * (double)c));
                CHECK(close_rel(a, Anf[i + nx * j], want, fabs(want), 1e-5, "A_new(Float32)", i + nx * j));
            } else {
                double c = AT(A, i + 1, j + 1);
                double want =
                    c + h * (AT(A, i, j + 1) + AT(A, i + 2, j + 1) + AT(A, i + 1, j) + AT(A, i + 1, j + 2) - 4.0 * c);
                CHECK(close_rel(a, An[i + nx * j], want, fabs(want), 1e-12, "A_new(Float64)", i + nx * j));
            }
        }
#undef AT
    ok = true;
out:
    free(A), free(An), free(Af), free(Anf);
    return ok;
}

static bool case_saxpy(Acc *a, int idx)
{
    bool ok = false;
    int64_t n = 128 * 77 + 5;
    float *x = malloc(4 * n), *y = malloc(4 * n), *y0 = malloc(4 * n);
    for (int64_t i = 0; i < n; i++) {
        x[i] = (float)unif(a, -5, 5);
        y[i] = y0[i] = (float)unif(a, -5, 5);
    }
    float s = (float)unif(a, 0.5, 3);
    void *dy = dbuf(a, 4 * n, y), *dx = dbuf(a, 4 * n, x);
    CHECK(dy && dx);
    ArgBytes b[3];
    RtArg args[3] = { arr_arg(&b[0], dy, 1, n, 0, 0), f32_arg(&b[1], s), arr_arg(&b[2], dx, 1, n, 0, 0) };
    CHECK(launch(a, idx, args, 3, cdiv(n, 128), 1, 1, 128, 1, 1, 0));
    CHECK(dget(a, y, dy, 4 * n));
    for (int64_t i = 0; i < n; i++)
        CHECK(close_rel(a, y[i], (double)s * x[i] + y0[i], fabs(s * x[i]) + fabs(y0[i]), 1e-6, "y", i));
    ok = true;
out:
    free(x), free(y), free(y0);
    return ok;
}

static bool case_block_sum(Acc *a, int idx)
{
    bool ok = false;
    int64_t n = 256 * 37 + 100, ng = cdiv(n, 256);
    float *x = malloc(4 * n), *o = malloc(4 * ng);
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)unif(a, -1, 1);
    void *dout = dbuf(a, 4 * ng, NULL), *dx = dbuf(a, 4 * n, x);
    CHECK(dout && dx);
    ArgBytes b[2];
    RtArg args[2] = { arr_arg(&b[0], dout, 1, ng, 0, 0), arr_arg(&b[1], dx, 1, n, 0, 0) };
    CHECK(launch(a, idx, args, 2, (uint32_t)ng, 1, 1, 256, 1, 1, 0));
    CHECK(dget(a, o, dout, 4 * ng));
    for (int64_t g = 0; g < ng; g++) {
        double s = 0, sa = 0;
        for (int64_t i = g * 256; i < (g + 1) * 256 && i < n; i++)
            s += x[i], sa += fabs(x[i]);
        CHECK(close_rel(a, o[g], s, sa, 1e-5, "out", g));
    }
    ok = true;
out:
    free(x), free(o);
    return ok;
}

static bool case_matmul(Acc *a, int idx)
{
    bool ok = false;
    int64_t M = 37, N = 29, K = 23;
    float *A = malloc(4 * M * K), *B = malloc(4 * K * N), *C = malloc(4 * M * N);
    for (int64_t i = 0; i < M * K; i++)
        A[i] = (float)unif(a, -1, 1);
    for (int64_t i = 0; i < K * N; i++)
        B[i] = (float)unif(a, -1, 1);
    void *dC = dbuf(a, 4 * M * N, NULL), *dA = dbuf(a, 4 * M * K, A), *dB = dbuf(a, 4 * K * N, B);
    CHECK(dC && dA && dB);
    ArgBytes b[3];
    RtArg args[3] = { arr_arg(&b[0], dC, 2, M, N, 0), arr_arg(&b[1], dA, 2, M, K, 0), arr_arg(&b[2], dB, 2, K, N, 0) };
    CHECK(launch(a, idx, args, 3, cdiv(M, 16), cdiv(N, 16), 1, 16, 16, 1, 0));
    CHECK(dget(a, C, dC, 4 * M * N));
    for (int64_t j = 0; j < N; j++)
        for (int64_t i = 0; i < M; i++) {
            double s = 0, sa = 0;
            for (int64_t k = 0; k < K; k++)
                s += (double)A[i + M * k] * B[k + K * j], sa += fabs((double)A[i + M * k] * B[k + K * j]);
            CHECK(close_rel(a, C[i + M * j], s, sa, 1e-5, "C", i + M * j));
        }
    ok = true;
out:
    free(A), free(B), free(C);
    return ok;
}

static bool case_histogram(Acc *a, int idx)
{
    bool ok = false;
    int64_t n = 20011, nb = 17;
    int32_t *data = malloc(4 * n), bins[17] = { 0 }, want[17] = { 0 };
    for (int64_t i = 0; i < n; i++) {
        data[i] = (int32_t)irange(a, 1, nb);
        want[data[i] - 1]++;
    }
    void *db = dbuf(a, 4 * nb, bins), *dd = dbuf(a, 4 * n, data);
    CHECK(db && dd);
    ArgBytes b[2];
    RtArg args[2] = { arr_arg(&b[0], db, 1, nb, 0, 0), arr_arg(&b[1], dd, 1, n, 0, 0) };
    CHECK(launch(a, idx, args, 2, cdiv(n, 256), 1, 1, 256, 1, 1, 0));
    CHECK(dget(a, bins, db, 4 * nb));
    for (int i = 0; i < nb; i++)
        if (bins[i] != want[i]) {
            failf(a, "bins[%d] = %d, want %d", i + 1, bins[i], want[i]);
            goto out;
        }
    ok = true;
out:
    free(data);
    return ok;
}

/* oob.jl: the BoundsError reaches the host with the index 65, the length 64,
 * oob.jl line 4 and work-item 64; then the device is still usable. */
static bool case_oob(Acc *a, int idx, int vadd_idx)
{
    bool ok = false;
    float x[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)unif(a, -1, 1);
    void *dx = dbuf(a, 4 * 64, x);
    CHECK(dx);
    ArgBytes b[1];
    RtArg args[1] = { arr_arg(&b[0], dx, 1, 64, 0, 0) };
    JukeExceptionRecord exc;
    memset(&exc, 0, sizeof exc);
    int rc = launch_exc(a, idx, args, 1, 1, 1, 1, 64, 1, 1, 0, &exc);
    if (rc != 1) {
        if (rc == 0)
            failf(a, "no exception reported");
        goto out;
    }
    printf("  oob!: BoundsError: attempt to access %" PRId64 "-element Vector{Float32} at index [%" PRId64
           "], oob.jl:%u:%u, workgroup (%u, %u, %u), work-item (%u, %u, %u)\n",
           exc.dims[0], exc.index[0], exc.line, exc.col, exc.group[0], exc.group[1], exc.group[2], exc.item[0],
           exc.item[1], exc.item[2]);
    if (exc.kind != JUKE_EXC_BOUNDS || exc.ndims != 1 || exc.index[0] != 65 || exc.dims[0] != 64 || exc.line != 4 ||
        exc.item[0] != 64 || exc.group[0] != 1) {
        failf(a, "wrong exception record: kind %u ndims %u index %" PRId64 " dims %" PRId64 " line %u item %u",
              exc.kind, exc.ndims, exc.index[0], exc.dims[0], exc.line, exc.item[0]);
        goto out;
    }
    /* the next launch on the same device works and is correct */
    int64_t n = 1000;
    float va[1000], vb[1000], vc[1000];
    for (int i = 0; i < n; i++)
        va[i] = (float)unif(a, -1, 1), vb[i] = (float)unif(a, -1, 1);
    void *da = dbuf(a, 4 * n, va), *db = dbuf(a, 4 * n, vb), *dc = dbuf(a, 4 * n, NULL);
    CHECK(da && db && dc);
    ArgBytes vbuf[3];
    RtArg vargs[3] = { arr_arg(&vbuf[0], dc, 1, n, 0, 0), arr_arg(&vbuf[1], da, 1, n, 0, 0),
                       arr_arg(&vbuf[2], db, 1, n, 0, 0) };
    CHECK(launch(a, vadd_idx, vargs, 3, cdiv(n, 256), 1, 1, 256, 1, 1, 0));
    CHECK(dget(a, vc, dc, 4 * n));
    for (int i = 0; i < n; i++)
        if (vc[i] != va[i] + vb[i]) {
            failf(a, "vadd after the exception: c[%d] wrong", i + 1);
            goto out;
        }
    printf("  oob!: the next launch (vadd!) on the same device ran and is correct\n");
    /* and the failing kernel fails the same way again */
    memset(&exc, 0, sizeof exc);
    rc = launch_exc(a, idx, args, 1, 1, 1, 1, 64, 1, 1, 0, &exc);
    if (rc != 1 || exc.index[0] != 65) {
        failf(a, "the second oob! launch did not report the BoundsError again");
        goto out;
    }
    ok = true;
out:
    return ok;
}

static bool case_mathfuns(Acc *a, int idx, bool f32)
{
    bool ok = false;
    int64_t n = 1000;
    double *x = malloc(8 * n), *y = malloc(8 * n);
    float *xf = malloc(4 * n), *yf = malloc(4 * n);
    for (int64_t i = 0; i < n; i++) {
        x[i] = unif(a, -3, 3);
        xf[i] = (float)x[i];
    }
    size_t es = f32 ? 4 : 8;
    void *dy = dbuf(a, es * n, NULL), *dx = dbuf(a, es * n, f32 ? (void *)xf : (void *)x);
    CHECK(dy && dx);
    ArgBytes b[2];
    RtArg args[2] = { arr_arg(&b[0], dy, 1, n, 0, 0), arr_arg(&b[1], dx, 1, n, 0, 0) };
    CHECK(launch(a, idx, args, 2, cdiv(n, 64), 1, 1, 64, 1, 1, 0));
    CHECK(dget(a, f32 ? (void *)yf : (void *)y, dy, es * n));
    for (int64_t i = 0; i < n; i++) {
        double v = f32 ? xf[i] : x[i];
        double scale = fabs(v * v * v) + 10 + fabs(v) * 4;
        CHECK(close_rel(a, f32 ? yf[i] : y[i], mathfuns_ref(v), scale, f32 ? 1e-5 : 1e-12, "y", i));
    }
    ok = true;
out:
    free(x), free(y), free(xf), free(yf);
    return ok;
}

static bool case_transpose(Acc *a, int idx)
{
    bool ok = false;
    int64_t M = 37, N = 53;
    float *in = malloc(4 * M * N), *o = malloc(4 * M * N);
    for (int64_t i = 0; i < M * N; i++)
        in[i] = (float)unif(a, -100, 100);
    void *dout = dbuf(a, 4 * M * N, NULL), *din = dbuf(a, 4 * M * N, in);
    CHECK(dout && din);
    ArgBytes b[2];
    RtArg args[2] = { arr_arg(&b[0], dout, 2, N, M, 0), arr_arg(&b[1], din, 2, M, N, 0) };
    CHECK(launch(a, idx, args, 2, cdiv(M, 16), cdiv(N, 16), 1, 16, 16, 1, 0));
    CHECK(dget(a, o, dout, 4 * M * N));
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++)
            if (o[j + N * i] != in[i + M * j]) {
                failf(a, "out[%" PRId64 ",%" PRId64 "] wrong", j + 1, i + 1);
                goto out;
            }
    ok = true;
out:
    free(in), free(o);
    return ok;
}

static bool case_intops(Acc *a, int idx, bool i64)
{
    bool ok = false;
    int64_t n = 1000;
    int32_t *x = malloc(4 * n), *y = malloc(4 * n), *o = malloc(4 * n);
    int64_t *x8 = malloc(8 * n), *y8 = malloc(8 * n), *o8 = malloc(8 * n);
    for (int64_t i = 0; i < n; i++) {
        x[i] = (int32_t)irange(a, -2000000000, 2000000000);
        do
            y[i] = (int32_t)irange(a, -100000, 100000);
        while (!y[i]);
        x8[i] = irange(a, -4000000000000000000LL, 4000000000000000000LL);
        do
            y8[i] = irange(a, -100000000000LL, 100000000000LL);
        while (!y8[i]);
        if (i % 7 == 0)
            y[i] = x[i], y8[i] = x8[i];
        if (i % 11 == 0)
            y[i] = (int32_t)irange(a, -5, 5) | 1, y8[i] = irange(a, -5, 5) | 1;
    }
    size_t es = i64 ? 8 : 4;
    void *dout = dbuf(a, es * n, NULL), *da = dbuf(a, es * n, i64 ? (void *)x8 : (void *)x),
         *db = dbuf(a, es * n, i64 ? (void *)y8 : (void *)y);
    CHECK(dout && da && db);
    ArgBytes b[3];
    RtArg args[3] = { arr_arg(&b[0], dout, 1, n, 0, 0), arr_arg(&b[1], da, 1, n, 0, 0),
                      arr_arg(&b[2], db, 1, n, 0, 0) };
    CHECK(launch(a, idx, args, 3, cdiv(n, 64), 1, 1, 64, 1, 1, 0));
    CHECK(dget(a, i64 ? (void *)o8 : (void *)o, dout, es * n));
    for (int64_t i = 0; i < n; i++) {
        if (i64 ? o8[i] != intops_ref_int64_t(x8[i], y8[i]) : o[i] != intops_ref_int32_t(x[i], y[i])) {
            failf(a, "out[%" PRId64 "] wrong", i + 1);
            goto out;
        }
    }
    ok = true;
out:
    free(x), free(y), free(o), free(x8), free(y8), free(o8);
    return ok;
}

/* dispatch.jl: 2x for Float32, 3x for Float64, x + 1 for Int32 */
static bool case_dispatch(Acc *a, int idx, int which)
{
    bool ok = false;
    int64_t n = 777;
    float xf[777], yf[777];
    double xd[777], yd[777];
    int32_t xi[777], yi[777];
    for (int i = 0; i < n; i++) {
        xf[i] = (float)unif(a, -9, 9);
        xd[i] = unif(a, -9, 9);
        xi[i] = (int32_t)irange(a, -1000000, 1000000);
    }
    size_t es = which == 1 ? 8 : 4;
    void *src = which == 0 ? (void *)xf : which == 1 ? (void *)xd : (void *)xi;
    void *dst = which == 0 ? (void *)yf : which == 1 ? (void *)yd : (void *)yi;
    void *dy = dbuf(a, es * n, NULL), *dx = dbuf(a, es * n, src);
    CHECK(dy && dx);
    ArgBytes b[2];
    RtArg args[2] = { arr_arg(&b[0], dy, 1, n, 0, 0), arr_arg(&b[1], dx, 1, n, 0, 0) };
    CHECK(launch(a, idx, args, 2, cdiv(n, 64), 1, 1, 64, 1, 1, 0));
    CHECK(dget(a, dst, dy, es * n));
    for (int i = 0; i < n; i++) {
        bool good = which == 0 ? yf[i] == 2.0f * xf[i] : which == 1 ? yd[i] == 3.0 * xd[i] : yi[i] == xi[i] + 1;
        if (!good) {
            failf(a, "y[%d] wrong", i + 1);
            goto out;
        }
    }
    ok = true;
out:
    return ok;
}

static bool case_indices3d(Acc *a, int idx)
{
    bool ok = false;
    int64_t X = 11, Y = 7, Z = 6;
    int64_t *o = malloc(8 * X * Y * Z);
    for (int64_t i = 0; i < X * Y * Z; i++)
        o[i] = (int64_t)rnd(a);
    void *d = dbuf(a, 8 * X * Y * Z, o);
    CHECK(d);
    ArgBytes b[1];
    RtArg args[1] = { arr_arg(&b[0], d, 3, X, Y, Z) };
    CHECK(launch(a, idx, args, 1, 3, 2, 2, 4, 4, 4, 0));
    CHECK(dget(a, o, d, 8 * X * Y * Z));
    for (int64_t k = 1; k <= Z; k++)
        for (int64_t j = 1; j <= Y; j++)
            for (int64_t i = 1; i <= X; i++)
                if (o[(i - 1) + X * ((j - 1) + Y * (k - 1))] != i + 100 * j + 10000 * k + 1000000 * 2) {
                    failf(a, "out[%" PRId64 ",%" PRId64 ",%" PRId64 "] wrong", i, j, k);
                    goto out;
                }
    ok = true;
out:
    free(o);
    return ok;
}

static bool case_mandelbrot(Acc *a, int idx)
{
    bool ok = false;
    int64_t w = 67, h = 43;
    int32_t *it = malloc(4 * w * h);
    float xmin = (float)unif(a, -2.2, -1.8), xmax = (float)unif(a, 0.4, 0.6), ymin = (float)unif(a, -1.3, -1.1),
          ymax = (float)unif(a, 1.1, 1.3);
    int32_t maxiter = (int32_t)irange(a, 50, 200);
    void *d = dbuf(a, 4 * w * h, NULL);
    CHECK(d);
    ArgBytes b[6];
    RtArg args[6] = { arr_arg(&b[0], d, 2, w, h, 0), f32_arg(&b[1], xmin), f32_arg(&b[2], xmax),
                      f32_arg(&b[3], ymin),          f32_arg(&b[4], ymax), i32_arg(&b[5], maxiter) };
    CHECK(launch(a, idx, args, 6, cdiv(w, 16), cdiv(h, 16), 1, 16, 16, 1, 0));
    CHECK(dget(a, it, d, 4 * w * h));
    for (int64_t j = 1; j <= h; j++)
        for (int64_t i = 1; i <= w; i++) {
            int32_t want = mandel_ref(i, j, w, h, xmin, xmax, ymin, ymax, maxiter);
            if (it[(i - 1) + w * (j - 1)] != want) {
                failf(a, "iters[%" PRId64 ",%" PRId64 "] = %d, want %d", i, j, it[(i - 1) + w * (j - 1)], want);
                goto out;
            }
        }
    ok = true;
out:
    free(it);
    return ok;
}

static bool case_dynamic_shmem(Acc *a, int idx)
{
    bool ok = false;
    int64_t n = 128 * 13;
    float *x = malloc(4 * n), *y = malloc(4 * n);
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)unif(a, -1, 1);
    void *dy = dbuf(a, 4 * n, NULL), *dx = dbuf(a, 4 * n, x);
    CHECK(dy && dx);
    ArgBytes b[2];
    RtArg args[2] = { arr_arg(&b[0], dy, 1, n, 0, 0), arr_arg(&b[1], dx, 1, n, 0, 0) };
    CHECK(launch(a, idx, args, 2, (uint32_t)(n / 128), 1, 1, 128, 1, 1, 128 * 4));
    CHECK(dget(a, y, dy, 4 * n));
    for (int64_t g = 0; g < n / 128; g++)
        for (int64_t t = 0; t < 128; t++)
            if (y[g * 128 + t] != x[g * 128 + 127 - t]) {
                failf(a, "y[%" PRId64 "] wrong", g * 128 + t + 1);
                goto out;
            }
    ok = true;
out:
    free(x), free(y);
    return ok;
}

static int sig_index(const char *function, const char *type0)
{
    for (int i = 0; i < N_ACCEPTANCE_SIGS; i++)
        if (strcmp(acceptance_sigs[i].function, function) == 0 &&
            (!type0 || strcmp(acceptance_sigs[i].types[0], type0) == 0))
            return i;
    return -1;
}

static bool run_case(Acc *a, int i)
{
    const AcceptanceSig *s = &acceptance_sigs[i];
    const char *f = s->function, *t0 = s->types[0];
    if (!strcmp(f, "vadd!"))
        return case_vadd(a, i);
    if (!strcmp(f, "memcopy!"))
        return case_memcopy(a, i, strstr(t0, "Float32") != NULL);
    if (!strcmp(f, "diffusion2d!"))
        return case_diffusion(a, i, strstr(t0, "Float32") != NULL);
    if (!strcmp(f, "saxpy!"))
        return case_saxpy(a, i);
    if (!strcmp(f, "block_sum!"))
        return case_block_sum(a, i);
    if (!strcmp(f, "matmul!"))
        return case_matmul(a, i);
    if (!strcmp(f, "histogram!"))
        return case_histogram(a, i);
    if (!strcmp(f, "oob!")) {
        int v = sig_index("vadd!", NULL);
        if (v < 0 || !a->fns[v])
            return failf(a, "vadd! is needed after oob! and did not load");
        return case_oob(a, i, v);
    }
    if (!strcmp(f, "mathfuns!"))
        return case_mathfuns(a, i, strstr(t0, "Float32") != NULL);
    if (!strcmp(f, "transpose!"))
        return case_transpose(a, i);
    if (!strcmp(f, "intops!"))
        return case_intops(a, i, strstr(t0, "Int64") != NULL);
    if (!strcmp(f, "apply_scale!"))
        return case_dispatch(a, i, strstr(t0, "Float32") ? 0 : strstr(t0, "Float64") ? 1 : 2);
    if (!strcmp(f, "indices3d!"))
        return case_indices3d(a, i);
    if (!strcmp(f, "mandelbrot!"))
        return case_mandelbrot(a, i);
    if (!strcmp(f, "reverse_groups!"))
        return case_dynamic_shmem(a, i);
    return failf(a, "no reference for %s", f);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < N_ACCEPTANCE_SIGS; i++) {
            printf("%02d %s %s", i, acceptance_sigs[i].file, acceptance_sigs[i].function);
            for (int k = 0; k < acceptance_sigs[i].nargs; k++)
                printf(" %s", acceptance_sigs[i].types[k]);
            printf("\n");
        }
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: h200_acceptance --list | DIR [DEVICE]\n");
        return 2;
    }
    Acc a;
    memset(&a, 0, sizeof a);
    a.dir = argv[1];
    const char *spec = argc >= 3 ? argv[2] : "cuda";
    const char *seed = getenv("JUKE_TEST_SEED");
    a.rng = seed ? strtoull(seed, NULL, 10) : (uint64_t)time(NULL) * 2654435761u + (uint64_t)clock();
    if (!a.rng)
        a.rng = 88172645463325252ULL;
    char *err = NULL;
    if (rt_device_open(spec, 0, &a.dev, NULL, &err) != 0) {
        fprintf(stderr, "cannot open device %s: %s\n", spec, err);
        return 1;
    }
    RtKind kind = rt_device_kind(a.dev);
    a.ext = kind == RT_CUDA ? "ptx" : kind == RT_HIP ? "hsaco" : "so";
    printf("h200_acceptance: device %s, seed %llu (JUKE_TEST_SEED replays), code objects %s/acc_NN.%s\n",
           rt_device_name(a.dev), (unsigned long long)a.rng, a.dir, a.ext);
    int npass = 0, nfail = 0;
    bool loaded[N_ACCEPTANCE_SIGS];
    for (int i = 0; i < N_ACCEPTANCE_SIGS; i++) {
        a.msg[0] = '\0';
        loaded[i] = load_case(&a, i);
        if (!loaded[i])
            printf("FAIL %-18s %-56s load: %s\n", acceptance_sigs[i].file, "", a.msg);
    }
    for (int i = 0; i < N_ACCEPTANCE_SIGS; i++) {
        const AcceptanceSig *s = &acceptance_sigs[i];
        char sig[256];
        int k = snprintf(sig, sizeof sig, "%s(", s->function);
        for (int j = 0; j < s->nargs; j++)
            k += snprintf(sig + k, sizeof sig - (size_t)k, "%s%s", j ? ", " : "", s->types[j]);
        snprintf(sig + k, sizeof sig - (size_t)k, ")");
        if (!loaded[i]) {
            nfail++;
            continue;
        }
        a.msg[0] = '\0';
        a.nallocs = 0;
        bool ok = run_case(&a, i);
        for (int j = 0; j < a.nallocs; j++)
            rt_free(a.dev, a.allocs[j]);
        printf("%s %-18s %s%s%s\n", ok ? "PASS" : "FAIL", s->file, sig, ok ? "" : ": ", ok ? "" : a.msg);
        fflush(stdout);
        ok ? npass++ : nfail++;
    }
    for (int i = 0; i < N_ACCEPTANCE_SIGS; i++)
        if (a.mods[i])
            rt_module_unload(a.mods[i]);
    rt_device_close(a.dev);
    printf("h200_acceptance: %d passed, %d failed (%d signatures of %d kernels)\n", npass, nfail, N_ACCEPTANCE_SIGS,
           15);
    return nfail ? 1 : 0;
}
