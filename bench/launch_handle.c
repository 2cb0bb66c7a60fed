/* launch_handle.c: API time per launch on the CPU device's fast path: an
 * empty kernel launched through a kernel handle (juke_kernel_launch), by
 * name (juke_launch, cached) and through the runtime alone (rt_launch_on on
 * the same code object), in one process.
 *
 *   launch_handle [BATCHES] [BATCH]
 *
 * Prints the median over batches of the time per launch; the three paths
 * take turns launch by launch, each timed alone (the clock's own cost is
 * the same for all three), so that drift and noise hit them alike.
 *
 * A CPU launch costs microseconds of system calls (signal stacks), whose
 * noise on a busy machine hides tens of nanoseconds; so the same three paths
 * are timed again with the backend's launch replaced by one that returns at
 * once: what remains is the API's own time, juke's and the runtime's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "api_impl.h"
#include "backend.h"
#include "juke.h"
#include "runtime.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int null_launch(RtFunction *f, void *stream, const RtArg *args, int nargs, const uint32_t grid[3],
                       const uint32_t group[3], uint32_t shmem_bytes, unsigned flags, double timeout_s,
                       JukeExceptionRecord *exc, char **err)
{
    __asm__ volatile("" ::"r"(args) : "memory");
    return 0;
}

static const char *src = "function nop!(x)\n    return\nend\n";

int main(int argc, char **argv)
{
    int nb = argc > 1 ? atoi(argv[1]) : 31, bs = argc > 2 ? atoi(argv[2]) : 20000;
    if (nb < 1 || nb > 1000 || bs < 1)
        return 2;
    juke_context *ctx = juke_context_create();
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    o.cpu_threads = 1;
    juke_module *m;
    juke_device *dev;
    juke_kernel *k;
    const char *types[1] = { "Vector{Float32}" };
    int64_t n = 1024;
    juke_array *x;
    if (juke_set_options(ctx, &o) || juke_module_load_string(ctx, "nop.jl", src, &m) ||
        juke_device_open(ctx, "cpu", &dev) || juke_array_create(dev, JUKE_FLOAT32, 1, &n, &x) ||
        juke_kernel_get(m, "nop!", types, 1, dev, &k)) {
        fprintf(stderr, "launch_handle: %s\n", juke_errmsg(ctx));
        return 1;
    }
    juke_arg args[1] = { juke_arg_array(x) };
    juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false };
    /* the runtime alone: its own CPU device, the same code object */
    RtDevice *rd;
    RtModule *rm;
    RtFunction *rf;
    char *err = NULL;
    size_t size;
    const void *co = juke_kernel_code_object(k, &size);
    void *buf;
    if (rt_device_open("cpu", 1, &rd, NULL, &err) || rt_module_load(rd, co, size, &rm, &err) ||
        rt_function_get(rm, juke_kernel_symbol(k), &rf, &err) || rt_alloc(rd, 4096, &buf, &err)) {
        fprintf(stderr, "launch_handle: %s\n", err ? err : "runtime setup failed");
        return 1;
    }
    uint8_t desc[24];
    int64_t len = n;
    __builtin_memcpy(desc, &buf, 8);
    __builtin_memcpy(desc + 8, &len, 8);
    __builtin_memcpy(desc + 16, &len, 8);
    RtArg ra[1] = { { desc, (uint32_t)JUKE_ARRAY_ARG_SIZE(1), 8 } };
    uint32_t grid[3] = { 1, 1, 1 }, group[3] = { 1, 1, 1 };
    JukeExceptionRecord exc;
    if (juke_launch(dev, m, "nop!", args, 1, &cfg) || juke_kernel_launch(k, dev, args, 1, &cfg)) {
        fprintf(stderr, "launch_handle: %s\n", juke_errmsg(ctx));
        return 1;
    }
    double *th = malloc(sizeof(double) * (size_t)nb), *tn = malloc(sizeof(double) * (size_t)nb),
           *tr = malloc(sizeof(double) * (size_t)nb), *dh = malloc(sizeof(double) * (size_t)nb),
           *dn = malloc(sizeof(double) * (size_t)nb);
    for (int b = 0; b < nb; b++) {
        double sr = 0, sh = 0, sn = 0;
        for (int i = 0; i < bs; i++) {
            double t0 = now_ns();
            if (rt_launch_on(rf, NULL, ra, 1, grid, group, 0, true, 0, &exc, &err))
                return fprintf(stderr, "rt_launch_on: %s\n", err ? err : "failed"), 1;
            double t1 = now_ns();
            if (juke_kernel_launch(k, dev, args, 1, &cfg))
                return fprintf(stderr, "%s\n", juke_errmsg(ctx)), 1;
            double t2 = now_ns();
            if (juke_launch(dev, m, "nop!", args, 1, &cfg))
                return fprintf(stderr, "%s\n", juke_errmsg(ctx)), 1;
            double t3 = now_ns();
            sr += t1 - t0;
            sh += t2 - t1;
            sn += t3 - t2;
        }
        tr[b] = sr / bs;
        th[b] = sh / bs;
        tn[b] = sn / bs;
        dh[b] = th[b] - tr[b];
        dn[b] = tn[b] - tr[b];
    }
    qsort(tr, (size_t)nb, sizeof(double), cmp);
    qsort(th, (size_t)nb, sizeof(double), cmp);
    qsort(tn, (size_t)nb, sizeof(double), cmp);
    qsort(dh, (size_t)nb, sizeof(double), cmp);
    qsort(dn, (size_t)nb, sizeof(double), cmp);
    printf("RESULT launch_handle min_batch rt_launch_on_ns=%.1f juke_kernel_launch_ns=%.1f juke_launch_ns=%.1f "
           "(the least contended batch of each)\n",
           tr[0], th[0], tn[0]);
    printf("RESULT launch_handle rt_launch_on_ns=%.1f juke_kernel_launch_ns=%.1f juke_launch_ns=%.1f "
           "handle_overhead_ns=%.1f name_overhead_ns=%.1f (medians of %d batches of %d sync launches of an empty "
           "kernel, interleaved; overheads: median of per-batch differences; %s)\n",
           tr[nb / 2], th[nb / 2], tn[nb / 2], dh[nb / 2], dn[nb / 2], nb, bs, juke_device_name(dev));
    /* the API's own time: the backend's launch returns at once */
    RtBackend null_be = *rd->be;
    null_be.launch = null_launch;
    const RtBackend *real = rd->be;
    rd->be = &null_be;
    dev->rt->be = &null_be;
    for (int b = 0; b < nb; b++) {
        for (int turn = 0; turn < 3; turn++) {
            int which = (b + turn) % 3;
            double t0 = now_ns();
            for (int i = 0; i < bs; i++) {
                int rc = which == 0   ? rt_launch_on(rf, NULL, ra, 1, grid, group, 0, true, 0, &exc, &err)
                         : which == 1 ? (int)juke_kernel_launch(k, dev, args, 1, &cfg)
                                      : (int)juke_launch(dev, m, "nop!", args, 1, &cfg);
                if (rc)
                    return fprintf(stderr, "null launch failed\n"), 1;
            }
            double t = (now_ns() - t0) / bs;
            (which == 0 ? tr : which == 1 ? th : tn)[b] = t;
        }
        dh[b] = th[b] - tr[b];
        dn[b] = tn[b] - tr[b];
    }
    rd->be = real;
    dev->rt->be = real;
    qsort(tr, (size_t)nb, sizeof(double), cmp);
    qsort(th, (size_t)nb, sizeof(double), cmp);
    qsort(tn, (size_t)nb, sizeof(double), cmp);
    qsort(dh, (size_t)nb, sizeof(double), cmp);
    qsort(dn, (size_t)nb, sizeof(double), cmp);
    printf("RESULT launch_handle_api_only rt_launch_on_ns=%.1f juke_kernel_launch_ns=%.1f juke_launch_ns=%.1f "
           "handle_overhead_ns=%.1f name_overhead_ns=%.1f (backend launch replaced by a return; medians of %d "
           "batches of %d)\n",
           tr[nb / 2], th[nb / 2], tn[nb / 2], dh[nb / 2], dn[nb / 2], nb, bs);
    rt_free(rd, buf);
    rt_module_unload(rm);
    rt_device_close(rd);
    juke_context_destroy(ctx);
    free(th);
    free(tn);
    free(tr);
    free(dh);
    free(dn);
    return 0;
}
