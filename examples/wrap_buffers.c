/* wrap_buffers.c: a host program that owns its buffers and lends them to
 * juke. It runs examples/vadd.jl's `vadd!` through a kernel handle
 * (juke_kernel_get once, juke_kernel_launch per launch) on
 *   - host buffers of its own, wrapped on the CPU device (juke_array_wrap),
 *   - device buffers it allocates itself with the GPU driver (hipMalloc or
 *     cuMemAlloc, the driver loaded with dlopen), when juke finds such a
 *     device; otherwise it says so and skips that part,
 * checks c == a + b exactly, times the launches with juke's events, and
 * frees its buffers itself after juke is done with them.
 *
 *   usage: wrap_buffers [vadd.jl]
 *
 * Exit status: 0 when every element matches (or the GPU part was skipped),
 * 1 otherwise. */
#include <juke.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 100003, ROUNDS = 10 };

/* Values k * 2^-12 in [-1, 1]: their sums are exact in Float32. */
static float random_f32(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    uint64_t x = *state * 0x2545F4914F6CDD1DULL;
    return (float)((int64_t)(x >> 51) - 4096) / 4096.0f;
}

static const char *const vadd_types[3] = { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" };

/* Run vadd! ROUNDS times on dev over three wrapped pointers of N Float32s
 * each, timed between two events. */
static int run_vadd(juke_context *ctx, juke_module *m, juke_device *dev, void *c, void *a, void *b)
{
    int64_t n = N;
    juke_array *ac, *aa, *ab;
    juke_kernel *k;
    juke_event *t0, *t1;
    if (juke_array_wrap(dev, c, JUKE_FLOAT32, 1, &n, &ac) || juke_array_wrap(dev, a, JUKE_FLOAT32, 1, &n, &aa) ||
        juke_array_wrap(dev, b, JUKE_FLOAT32, 1, &n, &ab) || juke_kernel_get(m, "vadd!", vadd_types, 3, dev, &k) ||
        juke_event_create(dev, &t0) || juke_event_create(dev, &t1)) {
        fprintf(stderr, "wrap_buffers: %s\n", juke_errmsg(ctx));
        return 1;
    }
    juke_arg args[3] = { juke_arg_array(ac), juke_arg_array(aa), juke_arg_array(ab) };
    juke_launch_config cfg = { { 256, 1, 1 }, { (N + 255) / 256, 1, 1 }, 0, true };
    float ms = 0;
    if (juke_event_record(t0, NULL))
        goto fail;
    for (int r = 0; r < ROUNDS; r++)
        if (juke_kernel_launch(k, dev, args, 3, &cfg))
            goto fail;
    if (juke_event_record(t1, NULL) || juke_device_synchronize(dev) || juke_event_elapsed_ms(t0, t1, &ms))
        goto fail;
    printf("%s: %d launches of vadd! over %d elements in %.3f ms\n", juke_device_name(dev), ROUNDS, N, ms);
    /* the handles go; the memory stays the program's */
    juke_array_free(ac);
    juke_array_free(aa);
    juke_array_free(ab);
    return 0;
fail:
    fprintf(stderr, "wrap_buffers: %s\n", juke_errmsg(ctx));
    return 1;
}

static int check(const float *c, const float *a, const float *b)
{
    for (int i = 0; i < N; i++)
        if (c[i] != a[i] + b[i]) {
            fprintf(stderr, "wrap_buffers: c[%d] = %g, expected %g\n", i + 1, (double)c[i], (double)(a[i] + b[i]));
            return 1;
        }
    return 0;
}

/* The GPU driver's few calls this program makes itself, in plain C terms. */
typedef struct Driver {
    void *lib;
    const char *name;
    int (*alloc)(void **, size_t);
    int (*free)(void *);
    int (*h2d)(void *, const void *, size_t);
    int (*d2h)(void *, const void *, size_t);
    /* HIP */
    int (*hipMalloc)(void **, size_t);
    int (*hipFree)(void *);
    int (*hipMemcpy)(void *, const void *, size_t, int);
    /* CUDA (the primary context juke uses too) */
    int (*cuInit)(unsigned);
    int (*cuDeviceGet)(int *, int);
    int (*cuDevicePrimaryCtxRetain)(void **, int);
    int (*cuCtxSetCurrent)(void *);
    int (*cuMemAlloc)(uint64_t *, size_t);
    int (*cuMemFree)(uint64_t);
    int (*cuMemcpyHtoD)(uint64_t, const void *, size_t);
    int (*cuMemcpyDtoH)(void *, uint64_t, size_t);
} Driver;

static Driver drv;
static int hip_alloc(void **p, size_t n)
{
    return drv.hipMalloc(p, n);
}
static int hip_free(void *p)
{
    return drv.hipFree(p);
}
static int hip_h2d(void *d, const void *s, size_t n)
{
    return drv.hipMemcpy(d, s, n, 1);
}
static int hip_d2h(void *d, const void *s, size_t n)
{
    return drv.hipMemcpy(d, s, n, 2);
}
static int cu_alloc(void **p, size_t n)
{
    uint64_t d = 0;
    int e = drv.cuMemAlloc(&d, n);
    *p = (void *)(uintptr_t)d;
    return e;
}
static int cu_free(void *p)
{
    return drv.cuMemFree((uint64_t)(uintptr_t)p);
}
static int cu_h2d(void *d, const void *s, size_t n)
{
    return drv.cuMemcpyHtoD((uint64_t)(uintptr_t)d, s, n);
}
static int cu_d2h(void *d, const void *s, size_t n)
{
    return drv.cuMemcpyDtoH(d, (uint64_t)(uintptr_t)s, n);
}

#define SYM(lib, field, name) (*(void **)&drv.field = dlsym(lib, name))

/* Load the driver of the GPU juke opened ("hip:0 ...", "cuda:0 ..."). */
static int load_driver(const char *devname)
{
    if (strncmp(devname, "hip", 3) == 0) {
        drv.lib = dlopen("libamdhip64.so", RTLD_NOW | RTLD_LOCAL);
        if (!drv.lib || !SYM(drv.lib, hipMalloc, "hipMalloc") || !SYM(drv.lib, hipFree, "hipFree") ||
            !SYM(drv.lib, hipMemcpy, "hipMemcpy"))
            return -1;
        drv = (Driver){ .lib = drv.lib,
                        .name = "hipMalloc",
                        .alloc = hip_alloc,
                        .free = hip_free,
                        .h2d = hip_h2d,
                        .d2h = hip_d2h,
                        .hipMalloc = drv.hipMalloc,
                        .hipFree = drv.hipFree,
                        .hipMemcpy = drv.hipMemcpy };
        return 0;
    }
    drv.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    void *ctx = NULL;
    int cudev = 0;
    if (!drv.lib || !SYM(drv.lib, cuInit, "cuInit") || !SYM(drv.lib, cuDeviceGet, "cuDeviceGet") ||
        !SYM(drv.lib, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") ||
        !SYM(drv.lib, cuCtxSetCurrent, "cuCtxSetCurrent") || !SYM(drv.lib, cuMemAlloc, "cuMemAlloc_v2") ||
        !SYM(drv.lib, cuMemFree, "cuMemFree_v2") || !SYM(drv.lib, cuMemcpyHtoD, "cuMemcpyHtoD_v2") ||
        !SYM(drv.lib, cuMemcpyDtoH, "cuMemcpyDtoH_v2"))
        return -1;
    if (drv.cuInit(0) || drv.cuDeviceGet(&cudev, 0) || drv.cuDevicePrimaryCtxRetain(&ctx, cudev) ||
        drv.cuCtxSetCurrent(ctx))
        return -1;
    drv.name = "cuMemAlloc";
    drv.alloc = cu_alloc;
    drv.free = cu_free;
    drv.h2d = cu_h2d;
    drv.d2h = cu_d2h;
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "vadd.jl";
    juke_context *ctx = juke_context_create();
    juke_module *m;
    juke_device *cpu;
    if (!ctx || juke_module_load_file(ctx, path, &m) || juke_device_open(ctx, "cpu", &cpu)) {
        fprintf(stderr, "wrap_buffers: %s\n", ctx ? juke_errmsg(ctx) : "out of memory");
        return 1;
    }
    size_t bytes = sizeof(float) * N;
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    if (!a || !b || !c)
        return 1;
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < N; i++) {
        a[i] = random_f32(&seed);
        b[i] = random_f32(&seed);
        c[i] = -1.0f;
    }
    /* 1. the program's host memory on the CPU device */
    int bad = run_vadd(ctx, m, cpu, c, a, b) || check(c, a, b);
    if (!bad)
        printf("cpu: c == a + b for all %d elements (the program's own host buffers)\n", N);
    /* 2. the program's device memory on a GPU, when there is one */
    juke_device *gpu;
    if (juke_device_open(ctx, "auto", &gpu) != JUKE_OK || strncmp(juke_device_name(gpu), "cpu", 3) == 0) {
        printf("no GPU (juke's auto picked the CPU): skipping the device-buffer part\n");
    } else if (load_driver(juke_device_name(gpu)) != 0) {
        printf("%s: its driver could not be loaded here: skipping the device-buffer part\n", juke_device_name(gpu));
    } else {
        void *da = NULL, *db = NULL, *dc = NULL;
        memset(c, 0, bytes);
        if (drv.alloc(&da, bytes) || drv.alloc(&db, bytes) || drv.alloc(&dc, bytes) || drv.h2d(da, a, bytes) ||
            drv.h2d(db, b, bytes)) {
            fprintf(stderr, "wrap_buffers: %s or a copy failed\n", drv.name);
            bad = 1;
        } else {
            bad |= run_vadd(ctx, m, gpu, dc, da, db);
            if (!bad && drv.d2h(c, dc, bytes) == 0 && check(c, a, b) == 0)
                printf("%s: c == a + b for all %d elements (buffers from %s)\n", juke_device_name(gpu), N, drv.name);
            else
                bad = 1;
        }
        juke_context_destroy(ctx); /* leaves the program's buffers alone */
        ctx = NULL;
        if (da)
            drv.free(da);
        if (db)
            drv.free(db);
        if (dc)
            drv.free(dc);
    }
    juke_context_destroy(ctx);
    free(a);
    free(b);
    free(c);
    return bad;
}
