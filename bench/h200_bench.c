/* h200_bench.c: juke's memcopy and diffusion2d kernels (ahead-of-time PTX,
 * launched through juke's runtime, rt_launch on the cuda backend) against
 * their CUDA C++ twins (bench/twins.cu, nvcc -O3 cubin, raw cuLaunchKernel)
 * and cuMemcpyDtoDAsync (the practical bandwidth peak), in one process, on
 * one stream (juke's), timed with CUDA events around each launch; then the
 * host cost of a launch through rt_launch against a raw cuLaunchKernel.
 *
 *   h200_bench PTXDIR CUBIN [REPS] [SECTIONS]   (SECTIONS: m memcopy, d diffusion2d,
 *                                                v 16-byte copies, c bounds-checked kernels,
 *                                                l launch; default mdl)
 *
 * PTXDIR holds memcopy_f64.ptx, memcopy_f32.ptx, diffusion2d_f64.ptx,
 * diffusion2d_f32.ptx and empty.ptx (bench/prepare_h200.sh writes them).
 * T_eff as HPCBenchmarks.jl: memcopy 2*N*sizeof(T), diffusion
 * (n^2 + (n+2)^2)*sizeof(T), over the median time of one launch. Every
 * variant's input is refilled with a fresh random seed, its output poisoned
 * with NaN first and checked after (on the device, bench/twins.cu).
 * Lines starting with "RESULT" are for bench/RESULTS.md. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "benchutil.h"
#include "cudrv.h"
#include "runtime.h"

#define MAXREPS 400

typedef struct Bench {
    CuDrv cu;
    RtDevice *dev;
    void *stream;
    void *ev[2 * MAXREPS];
    int reps;
    uint64_t seed;
    /* twins.cubin */
    void *tw_mod;
    void *tw_memcopy[2], *tw_diff[2], *tw_memcopy64[2], *tw_diff64[2], *tw_memcopyvec[2], *tw_empty, *tw_fill[2],
        *tw_check_copy[2], *tw_check_diff[2];
    /* juke's code objects */
    RtModule *jm[9];
    RtFunction *j_memcopy[2], *j_diff[2], *j_empty;
    RtFunction *j_memcopy_chk[2], *j_diff_chk[2]; /* without @inbounds: bounds-checked (section c) */
    char ptxdir[1024];
    CuDptr counts; /* 2 x u64 on the device, for the checkers */
} Bench;

#define CK(b, call)                                                                                                    \
    do {                                                                                                               \
        int e_ = (call);                                                                                               \
        if (e_ != 0) {                                                                                                 \
            fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", __FILE__, __LINE__, #call, cudrv_err(&(b)->cu, e_), e_);    \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Load DIR/name.ptx through juke's runtime; the kernel is its first .entry. */
static RtFunction *load_juke(Bench *b, int slot, const char *name, char **ptx_out, size_t *size_out)
{
    char path[1200], sym[256];
    snprintf(path, sizeof path, "%s/%s.ptx", b->ptxdir, name);
    size_t size;
    char *ptx = bench_must_read(path, &size);
    const char *e = strstr(ptx, ".entry ");
    if (!e) {
        fprintf(stderr, "%s: no .entry\n", path);
        exit(1);
    }
    e += 7;
    size_t k = 0;
    while (*e && *e != '(' && *e != ' ' && *e != '\n' && k + 1 < sizeof sym)
        sym[k++] = *e++;
    sym[k] = '\0';
    char *err = NULL;
    RtFunction *f = NULL;
    if (rt_module_load(b->dev, ptx, size, &b->jm[slot], &err) != 0 ||
        rt_function_get(b->jm[slot], sym, &f, &err) != 0) {
        fprintf(stderr, "%s: %s\n", path, err);
        exit(1);
    }
    const RtFunctionInfo *in = rt_function_info(f);
    printf("juke %-16s %-18s registers %u, local %u bytes, params %u bytes\n", name, sym, in->vgprs, in->scratch_bytes,
           in->kernarg_size);
    if (ptx_out) {
        *ptx_out = ptx;
        *size_out = size;
    } else {
        free(ptx);
    }
    return f;
}

static void *tw_fn(Bench *b, const char *name)
{
    void *f = NULL;
    CK(b, b->cu.ModuleGetFunction(&f, b->tw_mod, name));
    return f;
}

static void raw_launch(Bench *b, void *fn, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by, void **params)
{
    CK(b, b->cu.LaunchKernel(fn, gx, gy, 1, bx, by, 1, 0, b->stream, params, NULL));
}

static void juke_launch(Bench *b, RtFunction *f, const RtArg *args, int n, uint32_t gx, uint32_t gy, uint32_t bx,
                        uint32_t by)
{
    uint32_t grid[3] = { gx, gy, 1 }, group[3] = { bx, by, 1 };
    char *err = NULL;
    if (rt_launch(f, args, n, grid, group, 0, false, NULL, &err) != 0) {
        fprintf(stderr, "rt_launch: %s\n", err);
        exit(1);
    }
}

static void sync_check(Bench *b, const char *what)
{
    char *err = NULL;
    JukeExceptionRecord exc;
    int rc = rt_synchronize(b->dev, &exc, &err);
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", what, rc < 0 ? err : "kernel exception");
        exit(1);
    }
}

static void fill(Bench *b, int f32, CuDptr p, long n, double lo, double hi)
{
    uint64_t seed = b->seed = b->seed * 6364136223846793005ULL + 1442695040888963407ULL;
    float lof = (float)lo, hif = (float)hi;
    void *params[5] = { &p, &n, &seed, f32 ? (void *)&lof : (void *)&lo, f32 ? (void *)&hif : (void *)&hi };
    raw_launch(b, b->tw_fill[f32], 132 * 16, 1, 256, 1, params);
}

static void poison(Bench *b, CuDptr p, size_t bytes)
{
    CK(b, b->cu.MemsetD32Async(p, 0xffffffffu, bytes / 4, b->stream)); /* NaN in Float32 and Float64 */
}

static void read_counts(Bench *b, unsigned long long c[2])
{
    sync_check(b, "check");
    CK(b, b->cu.MemcpyDtoH(c, b->counts, 16));
}

/* A variant to time: what one launch does. nvcc64 is the twin with 64-bit
 * indices (a diagnostic: what Julia's Int index arithmetic costs). */
typedef enum { V_JUKE, V_NVCC, V_NVCC64, V_MEMCPY, NV } VKind;
static const char *vname[NV] = { "juke", "nvcc", "nvcc_i64", "memcpy" };

typedef struct Launch {
    VKind kind;
    RtFunction *jf;
    RtArg jargs[3];
    int jn;
    void *rf;
    void *rparams[6];
    uint32_t gx, gy, bx, by;
    CuDptr dst, src;
    size_t bytes;
} Launch;

static void do_launch(Bench *b, const Launch *l)
{
    if (l->kind == V_JUKE)
        juke_launch(b, l->jf, l->jargs, l->jn, l->gx, l->gy, l->bx, l->by);
    else if (l->kind == V_NVCC || l->kind == V_NVCC64)
        raw_launch(b, l->rf, l->gx, l->gy, l->bx, l->by, (void **)l->rparams);
    else
        CK(b, b->cu.MemcpyDtoDAsync(l->dst, l->src, l->bytes, b->stream));
}

/* reps launches, each between two events on the stream; appends the times (ms). */
static void time_launches(Bench *b, const Launch *l, double *out, int *nout)
{
    for (int w = 0; w < 3; w++)
        do_launch(b, l);
    for (int i = 0; i < b->reps; i++) {
        CK(b, b->cu.EventRecord(b->ev[2 * i], b->stream));
        do_launch(b, l);
        CK(b, b->cu.EventRecord(b->ev[2 * i + 1], b->stream));
    }
    CK(b, b->cu.EventSynchronize(b->ev[2 * b->reps - 1]));
    sync_check(b, vname[l->kind]);
    for (int i = 0; i < b->reps; i++) {
        float ms = 0;
        CK(b, b->cu.EventElapsedTime(&ms, b->ev[2 * i], b->ev[2 * i + 1]));
        out[(*nout)++] = ms;
    }
}

static void setup_array_arg(uint64_t *w, CuDptr p, int nd, int64_t d0, int64_t d1)
{
    w[0] = p;
    w[1] = (uint64_t)d0;
    if (nd == 1) {
        w[2] = (uint64_t)d0;
    } else {
        w[2] = (uint64_t)d1;
        w[3] = (uint64_t)(d0 * d1);
    }
}

static void bench_memcopy(Bench *b)
{
    printf("\n== memcopy: T_eff = 2*N*sizeof(T) / median time of one launch; groupsize 256; %d reps x 2 rounds\n",
           b->reps);
    printf("%-8s %-6s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %s\n", "T", "N", "juke us", "nvcc us", "nvcc64us",
           "memcpyus", "juke GB/s", "nvcc GB/s", "nv64 GB/s", "peak GB/s", "juke/nvcc", "juke/peak", "check");
    const int maxlog = 28;
    CuDptr src, dst;
    size_t maxbytes = ((size_t)1 << maxlog) * 8;
    CK(b, b->cu.MemAlloc(&src, maxbytes));
    CK(b, b->cu.MemAlloc(&dst, maxbytes));
    double *samples[NV];
    for (int v = 0; v < NV; v++)
        samples[v] = malloc(sizeof(double) * 2 * b->reps);
    for (int f32 = 0; f32 <= 1; f32++) {
        size_t es = f32 ? 4 : 8;
        for (int lg = 16; lg <= maxlog; lg += 2) {
            long n = 1L << lg;
            int n_int = (int)n;
            uint64_t wd[4], ws[4];
            setup_array_arg(wd, dst, 1, n, 0);
            setup_array_arg(ws, src, 1, n, 0);
            Launch L[NV];
            memset(L, 0, sizeof L);
            for (int v = 0; v < NV; v++) {
                L[v].kind = (VKind)v;
                L[v].gx = (uint32_t)((n + 255) / 256);
                L[v].gy = 1;
                L[v].bx = 256;
                L[v].by = 1;
            }
            L[V_JUKE].jf = b->j_memcopy[f32];
            L[V_JUKE].jargs[0] = (RtArg){ wd, 24, 8 };
            L[V_JUKE].jargs[1] = (RtArg){ ws, 24, 8 };
            L[V_JUKE].jn = 2;
            L[V_NVCC].rf = b->tw_memcopy[f32];
            L[V_NVCC].rparams[0] = &dst;
            L[V_NVCC].rparams[1] = &src;
            L[V_NVCC].rparams[2] = &n_int;
            L[V_NVCC64].rf = b->tw_memcopy64[f32];
            L[V_NVCC64].rparams[0] = &dst;
            L[V_NVCC64].rparams[1] = &src;
            L[V_NVCC64].rparams[2] = &n;
            L[V_MEMCPY].dst = dst;
            L[V_MEMCPY].src = src;
            L[V_MEMCPY].bytes = (size_t)n * es;
            int ns[NV] = { 0 };
            bool ok = true;
            unsigned long long bad_total[NV] = { 0 };
            for (int round = 0; round < 2; round++)
                for (int v = 0; v < NV; v++) {
                    /* fresh input, poisoned output, one launch, check, then time */
                    fill(b, f32, src, n, -1e6, 1e6);
                    poison(b, dst, (size_t)n * es);
                    do_launch(b, &L[v]);
                    CK(b, b->cu.MemsetD32Async(b->counts, 0, 4, b->stream));
                    void *cp[4] = { &dst, &src, &n, &b->counts };
                    raw_launch(b, b->tw_check_copy[f32], 132 * 8, 1, 256, 1, cp);
                    unsigned long long c[2];
                    read_counts(b, c);
                    bad_total[v] += c[0];
                    if (c[0])
                        ok = false;
                    time_launches(b, &L[v], samples[v], &ns[v]);
                }
            double med[NV], mn[NV], gbs[NV];
            double bytes = 2.0 * (double)n * (double)es;
            for (int v = 0; v < NV; v++) {
                med[v] = bench_median(samples[v], ns[v]);
                mn[v] = samples[v][0];
                gbs[v] = bytes / (med[v] * 1e-3) / 1e9;
            }
            char check[96];
            snprintf(check, sizeof check, ok ? "ok" : "BAD %llu/%llu/%llu/%llu", bad_total[0], bad_total[1],
                     bad_total[2], bad_total[3]);
            printf("%-8s 2^%-4d %9.2f %9.2f %9.2f %9.2f %9.1f %9.1f %9.1f %9.1f %9.3f %9.3f %s\n",
                   f32 ? "Float32" : "Float64", lg, med[0] * 1e3, med[1] * 1e3, med[2] * 1e3, med[3] * 1e3, gbs[0],
                   gbs[1], gbs[2], gbs[3], gbs[0] / gbs[1], gbs[0] / gbs[3], check);
            for (int v = 0; v < NV; v++)
                printf("RESULT memcopy %s %ld %s median_us=%.3f min_us=%.3f teff_GBs=%.1f check=%s\n",
                       f32 ? "Float32" : "Float64", n, vname[v], med[v] * 1e3, mn[v] * 1e3, gbs[v],
                       bad_total[v] ? "BAD" : "ok");
            fflush(stdout);
        }
    }
    for (int v = 0; v < NV; v++)
        free(samples[v]);
    CK(b, b->cu.MemFree(src));
    CK(b, b->cu.MemFree(dst));
}

static void bench_diffusion(Bench *b)
{
    enum { ND = 3 }; /* juke, nvcc, nvcc_i64 */
    printf("\n== diffusion2d: T_eff = (n^2 + (n+2)^2)*sizeof(T) / median time; groupsize (32, 8); %d reps x 2 rounds\n",
           b->reps);
    printf("%-8s %-6s %9s %9s %9s %9s %9s %9s %9s %s\n", "T", "n", "juke us", "nvcc us", "nvcc64us", "juke GB/s",
           "nvcc GB/s", "nv64 GB/s", "juke/nvcc",
           "check: juke, nvcc, nvcc_i64 (outside tol / not bitwise = Julia-order ref)");
    const int maxn = 16384;
    CuDptr A, An;
    CK(b, b->cu.MemAlloc(&A, (size_t)(maxn + 2) * (maxn + 2) * 8));
    CK(b, b->cu.MemAlloc(&An, (size_t)maxn * maxn * 8));
    double *samples[ND];
    for (int v = 0; v < ND; v++)
        samples[v] = malloc(sizeof(double) * 2 * b->reps);
    for (int f32 = 0; f32 <= 1; f32++) {
        size_t es = f32 ? 4 : 8;
        for (int n = 256; n <= maxn; n *= 2) {
            int nx = n, ny = n;
            long nxl = n, nyl = n;
            int64_t ax = nx + 2, ay = ny + 2;
            double h = 0.1;
            float hf = 0.1f;
            uint64_t wn[4], wa[4], wh = 0;
            setup_array_arg(wn, An, 2, nx, ny);
            setup_array_arg(wa, A, 2, ax, ay);
            if (f32)
                memcpy(&wh, &hf, 4);
            else
                memcpy(&wh, &h, 8);
            Launch L[ND];
            memset(L, 0, sizeof L);
            for (int v = 0; v < ND; v++) {
                L[v].kind = (VKind)v;
                L[v].gx = (uint32_t)((nx + 31) / 32);
                L[v].gy = (uint32_t)((ny + 7) / 8);
                L[v].bx = 32;
                L[v].by = 8;
            }
            L[V_JUKE].jf = b->j_diff[f32];
            L[V_JUKE].jargs[0] = (RtArg){ wn, 32, 8 };
            L[V_JUKE].jargs[1] = (RtArg){ wa, 32, 8 };
            L[V_JUKE].jargs[2] = (RtArg){ &wh, (uint32_t)es, (uint32_t)es };
            L[V_JUKE].jn = 3;
            L[V_NVCC].rf = b->tw_diff[f32];
            L[V_NVCC].rparams[0] = &An;
            L[V_NVCC].rparams[1] = &A;
            L[V_NVCC].rparams[2] = f32 ? (void *)&hf : (void *)&h;
            L[V_NVCC].rparams[3] = &nx;
            L[V_NVCC].rparams[4] = &ny;
            L[V_NVCC64] = L[V_NVCC];
            L[V_NVCC64].kind = V_NVCC64;
            L[V_NVCC64].rf = b->tw_diff64[f32];
            L[V_NVCC64].rparams[3] = &nxl;
            L[V_NVCC64].rparams[4] = &nyl;
            int ns[ND] = { 0 };
            unsigned long long bad[ND] = { 0 }, inexact[ND] = { 0 };
            for (int round = 0; round < 2; round++)
                for (int v = 0; v < ND; v++) {
                    fill(b, f32, A, (long)(ax * ay), 0.0, 1.0);
                    poison(b, An, (size_t)nx * ny * es);
                    do_launch(b, &L[v]);
                    CK(b, b->cu.MemsetD32Async(b->counts, 0, 4, b->stream));
                    double tol = f32 ? 1e-5 : 1e-12;
                    void *cp[7] = { &An, &A, f32 ? (void *)&hf : (void *)&h, &nx, &ny, &tol, &b->counts };
                    raw_launch(b, b->tw_check_diff[f32], 132 * 8, 1, 256, 1, cp);
                    unsigned long long c[2];
                    read_counts(b, c);
                    bad[v] += c[0];
                    inexact[v] += c[1];
                    time_launches(b, &L[v], samples[v], &ns[v]);
                }
            double med[ND], mn[ND], gbs[ND];
            double bytes = ((double)nx * ny + (double)ax * ay) * (double)es;
            for (int v = 0; v < ND; v++) {
                med[v] = bench_median(samples[v], ns[v]);
                mn[v] = samples[v][0];
                gbs[v] = bytes / (med[v] * 1e-3) / 1e9;
            }
            printf("%-8s %-6d %9.2f %9.2f %9.2f %9.1f %9.1f %9.1f %9.3f %llu/%llu %llu/%llu %llu/%llu%s\n",
                   f32 ? "Float32" : "Float64", n, med[0] * 1e3, med[1] * 1e3, med[2] * 1e3, gbs[0], gbs[1], gbs[2],
                   gbs[0] / gbs[1], bad[0], inexact[0], bad[1], inexact[1], bad[2], inexact[2],
                   bad[0] || bad[1] || bad[2] ? " BAD" : " ok");
            for (int v = 0; v < ND; v++)
                printf("RESULT diffusion2d %s %d %s median_us=%.3f min_us=%.3f teff_GBs=%.1f check=%s inexact=%llu\n",
                       f32 ? "Float32" : "Float64", n, vname[v], med[v] * 1e3, mn[v] * 1e3, gbs[v],
                       bad[v] ? "BAD" : "ok", inexact[v]);
            fflush(stdout);
        }
    }
    for (int v = 0; v < ND; v++)
        free(samples[v]);
    CK(b, b->cu.MemFree(A));
    CK(b, b->cu.MemFree(An));
}

/* What stands between a one-element-per-work-item copy and the copy
 * engine: the same copy with 16-byte accesses (nvcc, float4 / double2 per
 * thread), against juke's memcopy! and cuMemcpyDtoDAsync, at the large sizes. */
static void bench_memcopy_vec(Bench *b)
{
    printf("\n== memcopy with 16-byte accesses per thread (diagnostic): T_eff GB/s, %d reps x 2 rounds\n", b->reps);
    printf("%-8s %-6s %10s %10s %10s %12s %12s %s\n", "T", "N", "juke", "nvcc vec16", "memcpy", "juke/memcpy",
           "vec16/memcpy", "check");
    CuDptr src, dst;
    size_t maxbytes = ((size_t)1 << 28) * 8;
    CK(b, b->cu.MemAlloc(&src, maxbytes));
    CK(b, b->cu.MemAlloc(&dst, maxbytes));
    double *samples[3];
    for (int v = 0; v < 3; v++)
        samples[v] = malloc(sizeof(double) * 2 * b->reps);
    for (int f32 = 0; f32 <= 1; f32++) {
        size_t es = f32 ? 4 : 8;
        for (int lg = 24; lg <= 28; lg += 2) {
            long n = 1L << lg;
            int nvec = (int)(n * (long)es / 16);
            uint64_t wd[4], ws[4];
            setup_array_arg(wd, dst, 1, n, 0);
            setup_array_arg(ws, src, 1, n, 0);
            Launch L[3];
            memset(L, 0, sizeof L);
            L[0].kind = V_JUKE;
            L[0].jf = b->j_memcopy[f32];
            L[0].jargs[0] = (RtArg){ wd, 24, 8 };
            L[0].jargs[1] = (RtArg){ ws, 24, 8 };
            L[0].jn = 2;
            L[0].gx = (uint32_t)((n + 255) / 256);
            L[1].kind = V_NVCC;
            L[1].rf = b->tw_memcopyvec[f32];
            L[1].rparams[0] = &dst;
            L[1].rparams[1] = &src;
            L[1].rparams[2] = &nvec;
            L[1].gx = (uint32_t)((nvec + 255) / 256);
            L[2].kind = V_MEMCPY;
            L[2].dst = dst;
            L[2].src = src;
            L[2].bytes = (size_t)n * es;
            for (int v = 0; v < 2; v++) {
                L[v].gy = 1;
                L[v].bx = 256;
                L[v].by = 1;
            }
            int ns[3] = { 0 };
            unsigned long long bad[3] = { 0 };
            for (int round = 0; round < 2; round++)
                for (int v = 0; v < 3; v++) {
                    fill(b, f32, src, n, -1e6, 1e6);
                    poison(b, dst, (size_t)n * es);
                    do_launch(b, &L[v]);
                    CK(b, b->cu.MemsetD32Async(b->counts, 0, 4, b->stream));
                    void *cp[4] = { &dst, &src, &n, &b->counts };
                    raw_launch(b, b->tw_check_copy[f32], 132 * 8, 1, 256, 1, cp);
                    unsigned long long c[2];
                    read_counts(b, c);
                    bad[v] += c[0];
                    time_launches(b, &L[v], samples[v], &ns[v]);
                }
            double gbs[3];
            for (int v = 0; v < 3; v++)
                gbs[v] = 2.0 * (double)n * (double)es / (bench_median(samples[v], ns[v]) * 1e-3) / 1e9;
            printf("%-8s 2^%-4d %10.1f %10.1f %10.1f %12.3f %12.3f %s\n", f32 ? "Float32" : "Float64", lg, gbs[0],
                   gbs[1], gbs[2], gbs[0] / gbs[2], gbs[1] / gbs[2], bad[0] || bad[1] || bad[2] ? "BAD" : "ok");
            printf("RESULT memcopy_vec %s %ld juke_GBs=%.1f nvcc_vec16_GBs=%.1f memcpy_GBs=%.1f check=%s\n",
                   f32 ? "Float32" : "Float64", n, gbs[0], gbs[1], gbs[2], bad[0] || bad[1] || bad[2] ? "BAD" : "ok");
            fflush(stdout);
        }
    }
    for (int v = 0; v < 3; v++)
        free(samples[v]);
    CK(b, b->cu.MemFree(src));
    CK(b, b->cu.MemFree(dst));
}

/* What Julia's default bounds checks cost at run time: juke's kernels with
 * and without @inbounds (bench/jl/memcopy_checked.jl,
 * bench/kernels/diffusion2d_checked.jl), at the largest sizes. */
static void bench_checked(Bench *b)
{
    printf("\n== bounds checks at run time: juke @inbounds vs juke bounds-checked, %d reps x 2 rounds\n", b->reps);
    printf("%-12s %-8s %-8s %12s %12s %10s %s\n", "kernel", "T", "size", "@inbounds us", "checked us", "checked/inb",
           "check");
    const long n = 1L << 28;
    const int nd = 16384;
    CuDptr x, y;
    size_t bytes = (size_t)(nd + 2) * (nd + 2) * 8;
    if (bytes < (size_t)n * 8)
        bytes = (size_t)n * 8;
    CK(b, b->cu.MemAlloc(&x, bytes));
    CK(b, b->cu.MemAlloc(&y, bytes));
    double *samples[2];
    for (int v = 0; v < 2; v++)
        samples[v] = malloc(sizeof(double) * 2 * b->reps);
    for (int kind = 0; kind < 2; kind++)
        for (int f32 = 0; f32 <= 1; f32++) {
            size_t es = f32 ? 4 : 8;
            uint64_t w0[4], w1[4], wh = 0;
            double h = 0.1;
            float hf = 0.1f;
            int nx = nd, ny = nd;
            Launch L[2];
            memset(L, 0, sizeof L);
            for (int v = 0; v < 2; v++) {
                L[v].kind = V_JUKE;
                if (kind == 0) {
                    setup_array_arg(w0, y, 1, n, 0);
                    setup_array_arg(w1, x, 1, n, 0);
                    L[v].jf = v ? b->j_memcopy_chk[f32] : b->j_memcopy[f32];
                    L[v].jargs[0] = (RtArg){ w0, 24, 8 };
                    L[v].jargs[1] = (RtArg){ w1, 24, 8 };
                    L[v].jn = 2;
                    L[v].gx = (uint32_t)((n + 255) / 256);
                    L[v].gy = 1;
                    L[v].bx = 256;
                    L[v].by = 1;
                } else {
                    setup_array_arg(w0, y, 2, nx, ny);
                    setup_array_arg(w1, x, 2, nx + 2, ny + 2);
                    if (f32)
                        memcpy(&wh, &hf, 4);
                    else
                        memcpy(&wh, &h, 8);
                    L[v].jf = v ? b->j_diff_chk[f32] : b->j_diff[f32];
                    L[v].jargs[0] = (RtArg){ w0, 32, 8 };
                    L[v].jargs[1] = (RtArg){ w1, 32, 8 };
                    L[v].jargs[2] = (RtArg){ &wh, (uint32_t)es, (uint32_t)es };
                    L[v].jn = 3;
                    L[v].gx = (uint32_t)((nx + 31) / 32);
                    L[v].gy = (uint32_t)((ny + 7) / 8);
                    L[v].bx = 32;
                    L[v].by = 8;
                }
            }
            int ns[2] = { 0 };
            unsigned long long bad[2] = { 0 };
            long len_in = kind == 0 ? n : (long)(nx + 2) * (ny + 2), len_out = kind == 0 ? n : (long)nx * ny;
            for (int round = 0; round < 2; round++)
                for (int v = 0; v < 2; v++) {
                    fill(b, f32, x, len_in, kind == 0 ? -1e6 : 0.0, kind == 0 ? 1e6 : 1.0);
                    poison(b, y, (size_t)len_out * es);
                    do_launch(b, &L[v]);
                    CK(b, b->cu.MemsetD32Async(b->counts, 0, 4, b->stream));
                    if (kind == 0) {
                        long nn = n;
                        void *cp[4] = { &y, &x, &nn, &b->counts };
                        raw_launch(b, b->tw_check_copy[f32], 132 * 8, 1, 256, 1, cp);
                    } else {
                        double tol = f32 ? 1e-5 : 1e-12;
                        void *cp[7] = { &y, &x, f32 ? (void *)&hf : (void *)&h, &nx, &ny, &tol, &b->counts };
                        raw_launch(b, b->tw_check_diff[f32], 132 * 8, 1, 256, 1, cp);
                    }
                    unsigned long long c[2];
                    read_counts(b, c);
                    bad[v] += c[0];
                    time_launches(b, &L[v], samples[v], &ns[v]);
                }
            double med[2];
            for (int v = 0; v < 2; v++)
                med[v] = bench_median(samples[v], ns[v]);
            char size[32];
            if (kind == 0)
                snprintf(size, sizeof size, "2^28");
            else
                snprintf(size, sizeof size, "%d^2", nd);
            printf("%-12s %-8s %-8s %12.2f %12.2f %10.3f %s\n", kind == 0 ? "memcopy" : "diffusion2d",
                   f32 ? "Float32" : "Float64", size, med[0] * 1e3, med[1] * 1e3, med[1] / med[0],
                   bad[0] || bad[1] ? "BAD" : "ok");
            printf("RESULT checked %s %s %s inbounds_us=%.3f checked_us=%.3f ratio=%.4f check=%s\n",
                   kind == 0 ? "memcopy" : "diffusion2d", f32 ? "Float32" : "Float64", size, med[0] * 1e3, med[1] * 1e3,
                   med[1] / med[0], bad[0] || bad[1] ? "BAD" : "ok");
            fflush(stdout);
        }
    for (int v = 0; v < 2; v++)
        free(samples[v]);
    CK(b, b->cu.MemFree(x));
    CK(b, b->cu.MemFree(y));
}

/* Host time per asynchronous launch of an empty kernel: juke's rt_launch vs
 * raw cuLaunchKernel of the same PTX (loaded by cuModuleLoadData) and of
 * nvcc's empty kernel; batches of B launches timed with the host clock (the
 * stream drained between batches, untimed), median over batches, the
 * variants interleaved. Then a synchronous launch (launch + wait + the
 * exception check) against raw launch + cuStreamSynchronize. */
static void bench_launch(Bench *b, const char *ptx, size_t ptxsize)
{
    (void)ptxsize;
    const int B = 256, NB = 200;
    printf("\n== launch overhead: host time per launch of an empty kernel (one array argument), %d batches of %d\n", NB,
           B);
    void *rawmod = NULL, *rawfn = NULL;
    CK(b, b->cu.ModuleLoadData(&rawmod, ptx));
    CK(b, b->cu.ModuleGetFunction(&rawfn, rawmod, rt_function_info(b->j_empty)->name));
    CuDptr buf, excbuf;
    CK(b, b->cu.MemAlloc(&buf, 4096));
    CK(b, b->cu.MemAlloc(&excbuf, sizeof(JukeExceptionRecord)));
    uint64_t w[3];
    setup_array_arg(w, buf, 1, 1024, 0);
    RtArg jarg = { w, 24, 8 };
    long n = 1024;
    void *raw_params[2] = { w, &excbuf };
    void *nv_params[2] = { &buf, &n };
    uint32_t grid[3] = { 1, 1, 1 }, group[3] = { 32, 1, 1 };
    double *t[3];
    for (int v = 0; v < 3; v++)
        t[v] = malloc(sizeof(double) * NB);
    const char *names[3] = { "juke rt_launch (async)", "raw cuLaunchKernel, juke's PTX",
                             "raw cuLaunchKernel, nvcc cubin" };
    for (int it = -5; it < NB; it++) {
        for (int vv = 0; vv < 3; vv++) {
            int v = (vv + (it & 1)) % 3; /* rotate the order */
            double t0 = now_s();
            if (v == 0) {
                char *err = NULL;
                for (int i = 0; i < B; i++)
                    if (rt_launch(b->j_empty, &jarg, 1, grid, group, 0, false, NULL, &err) != 0) {
                        fprintf(stderr, "rt_launch: %s\n", err);
                        exit(1);
                    }
            } else if (v == 1) {
                for (int i = 0; i < B; i++)
                    CK(b, b->cu.LaunchKernel(rawfn, 1, 1, 1, 32, 1, 1, 0, b->stream, raw_params, NULL));
            } else {
                for (int i = 0; i < B; i++)
                    CK(b, b->cu.LaunchKernel(b->tw_empty, 1, 1, 1, 32, 1, 1, 0, b->stream, nv_params, NULL));
            }
            double t1 = now_s();
            sync_check(b, "launch overhead");
            if (it >= 0)
                t[v][it] = (t1 - t0) / B * 1e6;
        }
    }
    double med[3];
    for (int v = 0; v < 3; v++) {
        med[v] = bench_median(t[v], NB);
        printf("%-34s %8.3f us/launch (min batch %.3f)\n", names[v], med[v], t[v][0]);
        printf("RESULT launch_async %s median_us=%.4f min_us=%.4f\n",
               v == 0   ? "juke_rt_launch"
               : v == 1 ? "raw_juke_ptx"
                        : "raw_nvcc",
               med[v], t[v][0]);
    }
    printf("juke - raw (same PTX): %+.3f us per launch\n", med[0] - med[1]);
    /* synchronous: launch and wait, one at a time */
    const int NS = 2000;
    double *s[2];
    for (int v = 0; v < 2; v++)
        s[v] = malloc(sizeof(double) * NS);
    for (int i = -50; i < NS; i++)
        for (int vv = 0; vv < 2; vv++) {
            int v = (vv + (i & 1)) % 2;
            double t0 = now_s();
            if (v == 0) {
                char *err = NULL;
                JukeExceptionRecord exc;
                if (rt_launch(b->j_empty, &jarg, 1, grid, group, 0, true, &exc, &err) != 0) {
                    fprintf(stderr, "rt_launch sync: %s\n", err);
                    exit(1);
                }
            } else {
                CK(b, b->cu.LaunchKernel(rawfn, 1, 1, 1, 32, 1, 1, 0, b->stream, raw_params, NULL));
                CK(b, b->cu.StreamSynchronize(b->stream));
            }
            if (i >= 0)
                s[v][i] = (now_s() - t0) * 1e6;
        }
    double ms0 = bench_median(s[0], NS), ms1 = bench_median(s[1], NS);
    printf("%-34s %8.3f us (launch + wait + exception check)\n", "juke rt_launch (sync)", ms0);
    printf("%-34s %8.3f us (launch + cuStreamSynchronize)\n", "raw cuLaunchKernel + sync", ms1);
    printf("RESULT launch_sync juke_rt_launch median_us=%.4f\nRESULT launch_sync raw_juke_ptx median_us=%.4f\n", ms0,
           ms1);
    for (int v = 0; v < 3; v++)
        free(t[v]);
    free(s[0]);
    free(s[1]);
    CK(b, b->cu.MemFree(buf));
    CK(b, b->cu.MemFree(excbuf));
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: h200_bench PTXDIR CUBIN [REPS] [SECTIONS: m d v c l]\n");
        return 2;
    }
    Bench *b = calloc(1, sizeof *b);
    snprintf(b->ptxdir, sizeof b->ptxdir, "%s", argv[1]);
    b->reps = argc >= 4 ? atoi(argv[3]) : 100;
    if (b->reps < 5 || b->reps > MAXREPS)
        b->reps = 100;
    const char *sections = argc >= 5 ? argv[4] : "mdl";
    b->seed = (uint64_t)time(NULL) ^ 0x5851f42d4c957f2dULL;
    char *err = NULL;
    if (rt_device_open("cuda", 0, &b->dev, NULL, &err) != 0) {
        fprintf(stderr, "cannot open cuda: %s\n", err);
        return 1;
    }
    void *ctx = NULL;
    if (rt_cuda_native(b->dev, &ctx, &b->stream) != 0) {
        fprintf(stderr, "not a cuda device\n");
        return 1;
    }
    if (cudrv_load(&b->cu) != 0)
        return 1;
    int drv = 0;
    b->cu.DriverGetVersion(&drv);
    printf("h200_bench: %s, driver API %d.%d, seed %" PRIu64 "\n", rt_device_name(b->dev), drv / 1000, drv % 1000 / 10,
           b->seed);
    for (int i = 0; i < 2 * b->reps; i++)
        CK(b, b->cu.EventCreate(&b->ev[i], 0));
    size_t cubsize;
    char *cubin = bench_must_read(argv[2], &cubsize);
    CK(b, b->cu.ModuleLoadData(&b->tw_mod, cubin));
    b->tw_memcopy[0] = tw_fn(b, "memcopy_f64");
    b->tw_memcopy[1] = tw_fn(b, "memcopy_f32");
    b->tw_diff[0] = tw_fn(b, "diffusion2d_f64");
    b->tw_diff[1] = tw_fn(b, "diffusion2d_f32");
    b->tw_memcopy64[0] = tw_fn(b, "memcopy_f64_i64");
    b->tw_memcopy64[1] = tw_fn(b, "memcopy_f32_i64");
    b->tw_diff64[0] = tw_fn(b, "diffusion2d_f64_i64");
    b->tw_diff64[1] = tw_fn(b, "diffusion2d_f32_i64");
    b->tw_memcopyvec[0] = tw_fn(b, "memcopy_f64_vec2");
    b->tw_memcopyvec[1] = tw_fn(b, "memcopy_f32_vec4");
    b->tw_empty = tw_fn(b, "empty_kernel");
    b->tw_fill[0] = tw_fn(b, "fill_f64");
    b->tw_fill[1] = tw_fn(b, "fill_f32");
    b->tw_check_copy[0] = tw_fn(b, "check_copy_u64");
    b->tw_check_copy[1] = tw_fn(b, "check_copy_u32");
    b->tw_check_diff[0] = tw_fn(b, "check_diffusion_f64");
    b->tw_check_diff[1] = tw_fn(b, "check_diffusion_f32");
    const char *twn[] = { "memcopy_f64", "memcopy_f32", "diffusion2d_f64", "diffusion2d_f32", "empty_kernel" };
    void *twf[] = { b->tw_memcopy[0], b->tw_memcopy[1], b->tw_diff[0], b->tw_diff[1], b->tw_empty };
    for (int i = 0; i < 5; i++) {
        int regs = 0;
        b->cu.FuncGetAttribute(&regs, 4 /* CU_FUNC_ATTRIBUTE_NUM_REGS */, twf[i]);
        printf("nvcc %-16s registers %d\n", twn[i], regs);
    }
    b->j_memcopy[0] = load_juke(b, 0, "memcopy_f64", NULL, NULL);
    b->j_memcopy[1] = load_juke(b, 1, "memcopy_f32", NULL, NULL);
    b->j_diff[0] = load_juke(b, 2, "diffusion2d_f64", NULL, NULL);
    b->j_diff[1] = load_juke(b, 3, "diffusion2d_f32", NULL, NULL);
    char *eptx = NULL;
    size_t esize = 0;
    b->j_empty = load_juke(b, 4, "empty", &eptx, &esize);
    CK(b, b->cu.MemAlloc(&b->counts, 16));
    if (strchr(sections, 'm'))
        bench_memcopy(b);
    if (strchr(sections, 'd'))
        bench_diffusion(b);
    if (strchr(sections, 'v'))
        bench_memcopy_vec(b);
    if (strchr(sections, 'c')) {
        b->j_memcopy_chk[0] = load_juke(b, 5, "memcopy_f64_checked", NULL, NULL);
        b->j_memcopy_chk[1] = load_juke(b, 6, "memcopy_f32_checked", NULL, NULL);
        b->j_diff_chk[0] = load_juke(b, 7, "diffusion2d_f64_checked", NULL, NULL);
        b->j_diff_chk[1] = load_juke(b, 8, "diffusion2d_f32_checked", NULL, NULL);
        bench_checked(b);
    }
    if (strchr(sections, 'l'))
        bench_launch(b, eptx, esize);
    free(eptx);
    free(cubin);
    for (int i = 0; i < 9; i++)
        if (b->jm[i])
            rt_module_unload(b->jm[i]);
    rt_device_close(b->dev);
    printf("h200_bench: done\n");
    return 0;
}
