/* cpu_device.c: juke's CPU device against C twins (cpu_twins.c, gcc -O3 -fopenmp -march=native) on the
 * kernels of bench/cpu/kernels.jl, in one process, on the same buffers (juke_array_wrap), both with every
 * core. Each variant runs 5 times after a warm-up, the two taking turns, each call GAP_MS after the other's
 * (below); the best time counts. Every juke result is checked bit for bit against its twin's.
 *
 *   cpu_device KERNELS.jl [SCALE [ONLY]]      (bench/cpu_device.sh builds and runs it)
 *
 * SCALE divides the sizes (for a quick check); ONLY, a letter each, picks kernels (m memcopy, d diffusion2d,
 * b block_sum, t tiled matmul; default all). Prints one RESULT line per kernel. */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "juke.h"

void twin_memcopy(double *dst, const double *src, int64_t n);
void twin_diffusion2d(double *anew, const double *a, double h, int64_t nx, int64_t ny);
void twin_block_sum(float *out, const float *x, int64_t n, int group);
void twin_matmul(float *c, const float *a, const float *b, int64_t m, int64_t n, int64_t k);

#define RUNS 5

static juke_context *ctx;
static juke_device *dev;
static juke_module *mod;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "cpu_device: %s: %s\n", what, juke_errmsg(ctx));
    exit(1);
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static double rnd(void) /* in [0.5, 1.5): never zero */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return 0.5 + (double)(rng >> 11) / 9007199254740992.0;
}

static juke_array *wrap(void *p, juke_type t, int nd, int64_t d0, int64_t d1)
{
    int64_t dims[2] = { d0, d1 };
    juke_array *a;
    if (juke_array_wrap(dev, p, t, nd, dims, &a))
        die("juke_array_wrap");
    return a;
}

/* Each timed call starts GAP_MS after the other side's ended: libgomp's idle threads spin for a few ms of CPU
 * after a parallel loop (GOMP_SPINCOUNT), and on a machine of 2 cores that took one core from the juke launch
 * that followed the twin. $CPU_DEVICE_GAP_MS overrides it (0: back to back, as before §10d). */
#define GAP_MS 20
static void gap(void)
{
    const char *env = getenv("CPU_DEVICE_GAP_MS");
    long ms = env ? atol(env) : GAP_MS;
    struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
    if (ms > 0)
        nanosleep(&ts, NULL);
}

typedef struct Timing {
    double juke, twin;
} Timing;

/* Best of RUNS for juke's launch and the twin, taking turns. */
#define TIME_BOTH(T, JUKE, TWIN)                                                                                       \
    do {                                                                                                               \
        JUKE;                                                                                                          \
        TWIN;                                                                                                          \
        (T).juke = (T).twin = INFINITY;                                                                                \
        for (int r_ = 0; r_ < RUNS; r_++) {                                                                            \
            gap();                                                                                                     \
            double t0_ = now_s();                                                                                      \
            JUKE;                                                                                                      \
            double t1_ = now_s();                                                                                      \
            gap();                                                                                                     \
            double t1b_ = now_s();                                                                                     \
            TWIN;                                                                                                      \
            double t2_ = now_s();                                                                                      \
            (T).juke = fmin((T).juke, t1_ - t0_);                                                                      \
            (T).twin = fmin((T).twin, t2_ - t1b_);                                                                     \
        }                                                                                                              \
    } while (0)

static void launch(juke_kernel *k, juke_arg *args, int nargs, uint32_t gx, uint32_t gy, uint32_t nx, uint32_t ny)
{
    juke_launch_config cfg = { { gx, gy, 1 }, { nx, ny, 1 }, 0, false };
    if (juke_kernel_launch(k, dev, args, nargs, &cfg))
        die("launch");
}

static juke_kernel *kernel(const char *name, const char **types, int n)
{
    juke_kernel *k;
    if (juke_kernel_get(mod, name, types, n, dev, &k))
        die(name);
    return k;
}

static void report(const char *name, const char *size, double bytes, Timing t, size_t bad)
{
    printf("RESULT %-14s %-22s juke %8.3f ms %7.2f GB/s   C %8.3f ms %7.2f GB/s   juke/C %.2fx   %s\n", name, size,
           t.juke * 1e3, bytes / t.juke * 1e-9, t.twin * 1e3, bytes / t.twin * 1e-9, t.twin / t.juke,
           bad ? "MISMATCH" : "bit-exact");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return fprintf(stderr, "usage: cpu_device KERNELS.jl [SCALE]\n"), 2;
    int64_t scale = argc > 2 ? atoll(argv[2]) : 1;
    const char *only = argc > 3 ? argv[3] : "mdbt";
    ctx = juke_context_create();
    if (juke_module_load_file(ctx, argv[1], &mod) || juke_device_open(ctx, "cpu", &dev))
        die("setup");
    printf("# %s, OpenMP %d threads, best of %d\n", juke_device_name(dev), omp_get_max_threads(), RUNS);

    if (strchr(only, 'm')) { /* memcopy, Float64, 2^24 */
        int64_t n = ((int64_t)1 << 24) / scale;
        double *src = aligned_alloc(64, n * 8), *dst = aligned_alloc(64, n * 8), *ref = malloc(n * 8);
        for (int64_t i = 0; i < n; i++)
            src[i] = rnd(), dst[i] = 0;
        const char *types[2] = { "Vector{Float64}", "Vector{Float64}" };
        juke_kernel *k = kernel("memcopy!", types, 2);
        juke_array *d = wrap(dst, JUKE_FLOAT64, 1, n, 0), *s = wrap(src, JUKE_FLOAT64, 1, n, 0);
        juke_arg args[2] = { juke_arg_array(d), juke_arg_array(s) };
        Timing t;
        TIME_BOTH(t, launch(k, args, 2, 256, 1, (uint32_t)((n + 255) / 256), 1), twin_memcopy(ref, src, n));
        size_t bad = (size_t)memcmp(dst, ref, n * 8) != 0;
        char sz[32];
        snprintf(sz, sizeof sz, "Float64 n=%lld", (long long)n);
        report("memcopy", sz, 2.0 * 8 * n, t, bad);
    }
    if (strchr(only, 'd')) { /* diffusion2d, Float64, 4096^2 */
        int64_t nx = 4096 / (scale > 1 ? 4 : 1), ny = nx;
        double *a = aligned_alloc(64, (nx + 2) * (ny + 2) * 8), *an = aligned_alloc(64, nx * ny * 8),
               *ref = malloc(nx * ny * 8), h = 0.125;
        for (int64_t i = 0; i < (nx + 2) * (ny + 2); i++)
            a[i] = rnd();
        const char *types[3] = { "Matrix{Float64}", "Matrix{Float64}", "Float64" };
        juke_kernel *k = kernel("diffusion2d!", types, 3);
        juke_array *dn = wrap(an, JUKE_FLOAT64, 2, nx, ny), *da = wrap(a, JUKE_FLOAT64, 2, nx + 2, ny + 2);
        juke_arg args[3] = { juke_arg_array(dn), juke_arg_array(da), juke_arg_f64(h) };
        Timing t;
        TIME_BOTH(t, launch(k, args, 3, 32, 8, (uint32_t)((nx + 31) / 32), (uint32_t)((ny + 7) / 8)),
                  twin_diffusion2d(ref, a, h, nx, ny));
        size_t bad = (size_t)memcmp(an, ref, nx * ny * 8) != 0;
        char sz[32];
        snprintf(sz, sizeof sz, "Float64 %lldx%lld", (long long)nx, (long long)ny);
        report("diffusion2d", sz, 2.0 * 8 * nx * ny, t, bad);
    }
    if (strchr(only, 'b')) { /* block_sum, Float32, 2^24, groups of 256 */
        int64_t n = ((int64_t)1 << 24) / scale + 77, ng = (n + 255) / 256;
        float *x = aligned_alloc(64, (n * 4 + 63) / 64 * 64), *out = malloc(ng * 4), *ref = malloc(ng * 4);
        for (int64_t i = 0; i < n; i++)
            x[i] = (float)rnd();
        const char *types[2] = { "Vector{Float32}", "Vector{Float32}" };
        juke_kernel *k = kernel("block_sum!", types, 2);
        juke_array *dout = wrap(out, JUKE_FLOAT32, 1, ng, 0), *dx = wrap(x, JUKE_FLOAT32, 1, n, 0);
        juke_arg args[2] = { juke_arg_array(dout), juke_arg_array(dx) };
        Timing t;
        TIME_BOTH(t, launch(k, args, 2, 256, 1, (uint32_t)ng, 1), twin_block_sum(ref, x, n, 256));
        size_t bad = (size_t)memcmp(out, ref, ng * 4) != 0;
        char sz[32];
        snprintf(sz, sizeof sz, "Float32 n=%lld", (long long)n);
        report("block_sum", sz, 4.0 * n, t, bad);
    }
    if (strchr(only, 't')) { /* tiled matmul, Float32, m, n, k not multiples of 16 */
        int64_t m = 500 / scale + 1, n = 520 / scale + 3, kk = 490 / scale + 7;
        float *a = malloc(m * kk * 4), *b = malloc(kk * n * 4), *c = malloc(m * n * 4), *ref = malloc(m * n * 4);
        for (int64_t i = 0; i < m * kk; i++)
            a[i] = (float)rnd();
        for (int64_t i = 0; i < kk * n; i++)
            b[i] = (float)rnd();
        const char *types[3] = { "Matrix{Float32}", "Matrix{Float32}", "Matrix{Float32}" };
        juke_kernel *k = kernel("matmul_tiled!", types, 3);
        juke_array *dc = wrap(c, JUKE_FLOAT32, 2, m, n), *da = wrap(a, JUKE_FLOAT32, 2, m, kk),
                   *db = wrap(b, JUKE_FLOAT32, 2, kk, n);
        juke_arg args[3] = { juke_arg_array(dc), juke_arg_array(da), juke_arg_array(db) };
        Timing t;
        TIME_BOTH(t, launch(k, args, 3, 16, 16, (uint32_t)((m + 15) / 16), (uint32_t)((n + 15) / 16)),
                  twin_matmul(ref, a, b, m, n, kk));
        size_t bad = (size_t)memcmp(c, ref, m * n * 4) != 0;
        char sz[48];
        snprintf(sz, sizeof sz, "Float32 %lldx%lldx%lld", (long long)m, (long long)n, (long long)kk);
        /* GB/s here: 2mnk flops as "bytes" would mislead; report Gflop/s in the same columns */
        report("matmul_tiled", sz, 2.0 * m * n * kk, t, bad);
    }
    return 0;
}
