/* launch_api.c: host time per launch through juke's public API (juke_launch,
 * asynchronous, kernel already cached) against a raw cuLaunchKernel of the
 * same PTX, in one process, on the same device.
 *
 *   launch_api KERNEL.jl [BATCHES] [BATCH]
 *
 * Works in the runtime-only build (-Dcompiler=false) when JUKE_CACHE_DIR
 * holds the sm_90 code object of empty!(Vector{Float32}) (bench/prepare_h200.sh
 * fills it with a full build). Prints the median over batches of the time per
 * launch, each batch timed with the host clock and synchronised after. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "juke.h"

typedef int (*LoadData)(void **, const void *);
typedef int (*GetFunction)(void **, void *, const char *);
typedef int (*Launch)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **,
                      void **);
typedef int (*CtxSync)(void);

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: launch_api KERNEL.jl [BATCHES] [BATCH]\n");
        return 2;
    }
    int nb = argc > 2 ? atoi(argv[2]) : 51, bs = argc > 3 ? atoi(argv[3]) : 2000;
    if (nb < 1 || nb > 1000 || bs < 1)
        return 2;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    juke_device *dev;
    if (juke_module_load_file(ctx, argv[1], &m) || juke_device_open(ctx, "cuda", &dev)) {
        fprintf(stderr, "launch_api: %s\n", juke_errmsg(ctx));
        return 1;
    }
    int64_t n = 1024;
    juke_array *x;
    if (juke_array_create(dev, JUKE_FLOAT32, 1, &n, &x))
        return fprintf(stderr, "%s\n", juke_errmsg(ctx)), 1;
    juke_arg args[1] = { juke_arg_array(x) };
    juke_launch_config cfg = { { 32, 1, 1 }, { 1, 1, 1 }, 0, true };
    juke_kernel *k;
    if (juke_kernel_for(dev, m, "empty!", args, 1, &k) || juke_launch(dev, m, "empty!", args, 1, &cfg) ||
        juke_device_synchronize(dev)) {
        fprintf(stderr, "launch_api: %s\n", juke_errmsg(ctx));
        return 1;
    }
    /* the raw driver path on the same PTX, in the same (primary) context */
    void *cu = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cu)
        return fprintf(stderr, "libcuda.so.1: %s\n", dlerror()), 1;
    LoadData load = (LoadData)dlsym(cu, "cuModuleLoadData");
    GetFunction getf = (GetFunction)dlsym(cu, "cuModuleGetFunction");
    Launch launch = (Launch)dlsym(cu, "cuLaunchKernel");
    CtxSync sync = (CtxSync)dlsym(cu, "cuCtxSynchronize");
    void *mod = NULL, *fn = NULL;
    size_t size;
    const void *ptx = juke_kernel_code_object(k, &size);
    if (!load || !getf || !launch || !sync || load(&mod, ptx) || getf(&fn, mod, juke_kernel_symbol(k)))
        return fprintf(stderr, "launch_api: raw module load failed\n"), 1;
    /* raw parameters: the array descriptor (pointer, dim, length) and a NULL exception pointer */
    struct {
        void *p;
        int64_t d, len;
    } desc = { NULL, n, n };
    void *excp = NULL;
    void *params[2] = { &desc, &excp };
    double *tj = malloc(sizeof(double) * (size_t)nb), *tr = malloc(sizeof(double) * (size_t)nb);
    for (int b = 0; b < nb; b++) {
        double t0 = now_us();
        for (int i = 0; i < bs; i++)
            if (juke_launch(dev, m, "empty!", args, 1, &cfg))
                return fprintf(stderr, "%s\n", juke_errmsg(ctx)), 1;
        double t1 = now_us();
        juke_device_synchronize(dev);
        double t2 = now_us();
        for (int i = 0; i < bs; i++)
            if (launch(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL))
                return fprintf(stderr, "raw launch failed\n"), 1;
        double t3 = now_us();
        sync();
        tj[b] = (t1 - t0) / bs;
        tr[b] = (t3 - t2) / bs;
    }
    /* a launch on a stream of its own, through the API */
    juke_stream *stream;
    juke_launch_config scfg = cfg;
    if (juke_stream_create(dev, &stream))
        return fprintf(stderr, "%s\n", juke_errmsg(ctx)), 1;
    scfg.stream = stream;
    if (juke_launch(dev, m, "empty!", args, 1, &scfg) || juke_stream_synchronize(stream))
        return fprintf(stderr, "stream launch: %s\n", juke_errmsg(ctx)), 1;
    juke_stream_destroy(stream);
    printf("stream: a launch on a created stream ran and synchronised\n");
    qsort(tj, (size_t)nb, sizeof(double), cmp);
    qsort(tr, (size_t)nb, sizeof(double), cmp);
    printf("RESULT launch_api juke_launch_us=%.3f raw_cuLaunchKernel_us=%.3f overhead_us=%.3f (median of %d batches "
           "of %d async launches; %s)\n",
           tj[nb / 2], tr[nb / 2], tj[nb / 2] - tr[nb / 2], nb, bs, juke_device_name(dev));
    free(tj);
    free(tr);
    juke_context_destroy(ctx);
    return 0;
}
