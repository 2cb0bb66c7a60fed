/* vadd_host.c: a host program embedding juke through include/juke.h alone.
 * It loads examples/vadd.jl, runs `vadd!` on the best device present
 * ("auto": an AMD GPU, else an NVIDIA GPU, else the CPU) over 1_000_003
 * random Float32 elements, checks c == a + b exactly, and prints the
 * kernel's dumps for gfx90a (typed IR, optimised LLVM IR, GCN assembly,
 * resource usage), as @device_code_* would.
 *
 *   usage: vadd_host [--device SPEC] [--no-dumps] [vadd.jl]
 *
 * Built by meson (build/examples/vadd_host) or against an installed juke:
 *   cc -O2 vadd_host.c $(pkg-config --cflags --libs juke) -o vadd_host
 * Exit status: 0 when every element matches, 1 otherwise. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf */
#endif
#include <juke.h>

#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A small generator of our own so the run is reproducible and needs no
 * global state (xorshift64*). */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Nonzero Float32 values k * 2^-24 in [-1, 1]: their sums are exact multiples
 * of 2^-24, never subnormal, so a GPU that flushes denormals still matches. */
static float random_f32(uint64_t *state)
{
    uint64_t r = next_random(state);
    float mag = (float)((r >> 40) % (1u << 24) + 1) / 16777216.0f;
    return (r & 1) ? -mag : mag;
}

/* The kernel file: argv's, else the copy next to this binary, else ./vadd.jl. */
static char *kernel_path(const char *given)
{
    if (given)
        return strdup(given);
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *path = NULL;
        if (asprintf(&path, "%s/vadd.jl", dirname(exe)) >= 0 && access(path, R_OK) == 0)
            return path;
        free(path);
    }
    return strdup("vadd.jl");
}

static int fail(juke_context *ctx, const char *what)
{
    fprintf(stderr, "vadd_host: %s failed:\n%s\n", what, juke_errmsg(ctx));
    return 1;
}

/* Print the kernel's dumps for gfx90a (compiling needs no GPU). */
static int print_dumps(juke_context *ctx, juke_module *m)
{
    static const char *const types[] = { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" };
    static const struct {
        juke_dump which;
        const char *title;
    } dumps[] = {
        { JUKE_DUMP_TYPED, "typed IR (@code_typed)" },
        { JUKE_DUMP_LLVM, "optimised LLVM IR (@device_code_llvm)" },
        { JUKE_DUMP_ASM, "GCN assembly (@device_code_gcn)" },
        { JUKE_DUMP_RESOURCES, "resources" },
    };
    juke_options opts;
    juke_options_default(&opts);
    opts.target = "gfx90a";
    juke_kernel *k;
    if (juke_compile(m, "vadd!", types, 3, &opts, &k) != JUKE_OK)
        return fail(ctx, "compiling vadd! for gfx90a");
    for (size_t i = 0; i < sizeof dumps / sizeof dumps[0]; i++) {
        const char *text = juke_kernel_dump(k, dumps[i].which);
        printf("\n==== vadd!: %s, gfx90a ====\n%s", dumps[i].title, text ? text : "(none)\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *device_spec = "auto", *given = NULL;
    bool dumps = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device_spec = argv[++i];
        else if (!strcmp(argv[i], "--no-dumps"))
            dumps = false;
        else if (argv[i][0] != '-' && !given)
            given = argv[i];
        else {
            fprintf(stderr, "usage: vadd_host [--device SPEC] [--no-dumps] [vadd.jl]\n");
            return 2;
        }
    }

    const int64_t n = 1000003;
    juke_context *ctx = juke_context_create();
    if (!ctx)
        return fail(NULL, "juke_context_create");
    char *path = kernel_path(given);
    juke_module *m;
    juke_device *dev;
    int status = 1;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    juke_array *da = NULL, *db = NULL, *dc = NULL;

    if (!path || !a || !b || !c) {
        fprintf(stderr, "vadd_host: out of memory\n");
        goto out;
    }
    if (juke_module_load_file(ctx, path, &m) != JUKE_OK) {
        status = fail(ctx, path);
        goto out;
    }
    if (juke_device_open(ctx, device_spec, &dev) != JUKE_OK) {
        status = fail(ctx, "opening the device");
        goto out;
    }
    printf("device: %s\n", juke_device_name(dev));

    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    for (int64_t i = 0; i < n; i++) {
        a[i] = random_f32(&seed);
        b[i] = random_f32(&seed);
        c[i] = random_f32(&seed); /* the kernel must overwrite every element */
    }
    size_t bytes = (size_t)n * sizeof(float);
    if (juke_array_create(dev, JUKE_FLOAT32, 1, &n, &da) || juke_array_create(dev, JUKE_FLOAT32, 1, &n, &db) ||
        juke_array_create(dev, JUKE_FLOAT32, 1, &n, &dc) || juke_array_upload(da, a, bytes) ||
        juke_array_upload(db, b, bytes) || juke_array_upload(dc, c, bytes)) {
        status = fail(ctx, "making the arrays");
        goto out;
    }

    /* vadd!(c, a, b): one work-item per element, 256 to a workgroup;
     * gridsize counts workgroups, as in AMDGPU.jl since 0.5. */
    juke_arg args[3] = { juke_arg_array(dc), juke_arg_array(da), juke_arg_array(db) };
    juke_launch_config cfg = { .groupsize = { 256, 1, 1 }, .gridsize = { (uint32_t)((n + 255) / 256), 1, 1 } };
    if (juke_launch(dev, m, "vadd!", args, 3, &cfg) != JUKE_OK || juke_device_synchronize(dev) != JUKE_OK) {
        status = fail(ctx, "launching vadd!");
        goto out;
    }
    if (juke_array_download(dc, c, bytes) != JUKE_OK) {
        status = fail(ctx, "downloading c");
        goto out;
    }

    int64_t wrong = 0;
    for (int64_t i = 0; i < n; i++)
        if (c[i] != a[i] + b[i] && wrong++ < 5)
            fprintf(stderr, "vadd!: c[%lld] = %.9g, expected %.9g + %.9g = %.9g\n", (long long)i + 1, (double)c[i],
                    (double)a[i], (double)b[i], (double)(a[i] + b[i]));
    if (wrong) {
        printf("vadd!: FAILED (%lld of %lld elements wrong)\n", (long long)wrong, (long long)n);
        goto out;
    }
    printf("vadd!: OK (%lld elements)\n", (long long)n);
    status = dumps ? print_dumps(ctx, m) : 0;

out:
    free(a);
    free(b);
    free(c);
    free(path);
    juke_context_destroy(ctx); /* frees the module, the device and its arrays */
    return status;
}
