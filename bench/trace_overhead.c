/* trace_overhead.c: host time per juke_launch of an empty kernel on the CPU
 * device (one work-item, kernel cached), tracing off unless $JUKE_TRACE is
 * set: what the timeline's hooks cost a launch when off. Not built by meson:
 *
 *   cc -O2 -Iinclude bench/trace_overhead.c -Lbuild -ljuke -Wl,-rpath,$PWD/build -o /tmp/trace_overhead
 *   /tmp/trace_overhead [BATCHES] [BATCH]
 *
 * Prints the median over batches of the time per launch. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "juke.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int batches = argc > 1 ? atoi(argv[1]) : 51, batch = argc > 2 ? atoi(argv[2]) : 20000;
    juke_context *ctx = juke_context_create();
    juke_device *dev;
    juke_module *m;
    if (juke_device_open(ctx, "cpu", &dev) ||
        juke_module_load_string(ctx, "e.jl", "function empty!(x)\n    return\nend\n", &m)) {
        fprintf(stderr, "%s\n", juke_errmsg(ctx));
        return 1;
    }
    int64_t dims[1] = { 16 };
    juke_array *a;
    juke_array_create(dev, JUKE_FLOAT32, 1, dims, &a);
    juke_arg args[1] = { juke_arg_array(a) };
    juke_launch_config cfg = { .groupsize = { 1, 1, 1 }, .gridsize = { 1, 1, 1 } };
    if (juke_launch(dev, m, "empty!", args, 1, &cfg)) {
        fprintf(stderr, "%s\n", juke_errmsg(ctx));
        return 1;
    }
    double *per = malloc(sizeof(double) * (size_t)batches);
    for (int b = 0; b < batches; b++) {
        double t0 = now_us();
        for (int i = 0; i < batch; i++)
            juke_launch(dev, m, "empty!", args, 1, &cfg);
        per[b] = (now_us() - t0) / batch;
    }
    qsort(per, (size_t)batches, sizeof *per, cmp);
    printf("juke_launch, empty kernel, cpu: median %.4f us per launch (%d batches of %d; min %.4f, max %.4f)\n",
           per[batches / 2], batches, batch, per[0], per[batches - 1]);
    juke_context_destroy(ctx);
    return 0;
}
