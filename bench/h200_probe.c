/* h200_probe.c: where juke's diffusion2d loses to nvcc's `int` twin on the H200 (issue 14, RESULTS.md §19).
 * Times variants of one kernel against each other in one process, each loaded its own way:
 *
 *   h200_probe TWINS.cubin SPEC N REPS OUTDIR
 *
 * SPEC has one variant a line: `name kind type image load [kernel]`
 *   kind   juke (parameters as juke passes them: two 32-byte array structs, h, the exception pointer)
 *          or nvcc (bench/twins.cu's: A_new, A, h, nx, ny)
 *   type   f32 or f64
 *   image  a PTX or cubin file
 *   load   plain: cuModuleLoadData; jit:OPT,OPT...: cuModuleLoadDataEx with JIT options (O0..O4: optimisation
 *          level, pic0/pic1: position-independent code, ca/cg: cache mode, fma0/fma1, ctx: target from the
 *          context); link: cuLink* (the driver's JIT through its linker), the cubin it makes written to
 *          OUTDIR/name_type.cubin for cuobjdump
 *   kernel the entry's name (juke: the PTX's first .entry when left out)
 * The first variant of each type is the reference of the ratios. Per type: two rounds, each variant in turn
 * gets a fresh random input (seeded), its output poisoned with NaN, one checked launch (on the device against
 * Julia's evaluation order, bench/twins.cu's checkers: outside the tolerance / not bit for bit), then REPS
 * launches each between two events. The median of the 2 x REPS times is printed. Only the CUDA driver is
 * needed (dlopen), so this builds on a machine without CUDA. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "cudrv.h"

/* ck: a driver call that must succeed, or the program ends with the driver's message */
static void ck(const CuDrv *cu, int e, const char *what)
{
    if (e == 0)
        return;
    fprintf(stderr, "%s: %s (%d)\n", what, cudrv_err(cu, e), e);
    exit(1);
}

enum { MAXV = 64, MAXREPS = 400 };

typedef struct Variant {
    char name[64], kind[8], type[8], image[512], load[128], kernel[128];
    void *fn;
    int regs;
    double samples[2 * MAXREPS];
    int ns;
    unsigned long long bad, inexact;
} Variant;

/* CUjit_option values (cuda.h) */
enum {
    JIT_INFO_LOG = 3,
    JIT_INFO_LOG_SIZE = 4,
    JIT_ERROR_LOG = 5,
    JIT_ERROR_LOG_SIZE = 6,
    JIT_OPT_LEVEL = 7,
    JIT_TARGET_FROM_CTX = 8,
    JIT_CACHE_MODE = 14,
    JIT_FMA = 24,
    JIT_PIC = 30,
};

static int load_variant(const CuDrv *cu, Variant *v, const char *outdir)
{
    size_t size;
    char *img = bench_must_read(v->image, &size);
    if (!v->kernel[0]) {
        const char *e = strstr(img, ".entry ");
        if (!e) {
            printf("SKIP %s: %s has no .entry\n", v->name, v->image);
            free(img);
            return -1;
        }
        e += 7;
        size_t k = 0;
        while (*e && *e != '(' && *e != ' ' && *e != '\n' && k + 1 < sizeof v->kernel)
            v->kernel[k++] = *e++;
        v->kernel[k] = '\0';
    }
    static char log[16384], elog[16384];
    log[0] = elog[0] = '\0';
    int opts[16];
    void *vals[16];
    unsigned no = 0;
    opts[no] = JIT_INFO_LOG, vals[no++] = log;
    opts[no] = JIT_INFO_LOG_SIZE, vals[no++] = (void *)(uintptr_t)sizeof log;
    opts[no] = JIT_ERROR_LOG, vals[no++] = elog;
    opts[no] = JIT_ERROR_LOG_SIZE, vals[no++] = (void *)(uintptr_t)sizeof elog;
    void *mod = NULL;
    int e;
    if (!strcmp(v->load, "plain")) {
        e = cu->ModuleLoadData(&mod, img);
    } else if (!strncmp(v->load, "jit", 3) || !strncmp(v->load, "link", 4)) {
        char buf[128];
        const char *colon = strchr(v->load, ':');
        snprintf(buf, sizeof buf, "%s", colon ? colon + 1 : "");
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
            if (t[0] == 'O')
                opts[no] = JIT_OPT_LEVEL, vals[no++] = (void *)(uintptr_t)atoi(t + 1);
            else if (!strncmp(t, "pic", 3))
                opts[no] = JIT_PIC, vals[no++] = (void *)(uintptr_t)atoi(t + 3);
            else if (!strcmp(t, "ca"))
                opts[no] = JIT_CACHE_MODE, vals[no++] = (void *)(uintptr_t)2;
            else if (!strcmp(t, "cg"))
                opts[no] = JIT_CACHE_MODE, vals[no++] = (void *)(uintptr_t)1;
            else if (!strncmp(t, "fma", 3))
                opts[no] = JIT_FMA, vals[no++] = (void *)(uintptr_t)atoi(t + 3);
            else if (!strcmp(t, "ctx"))
                opts[no] = JIT_TARGET_FROM_CTX, vals[no++] = (void *)(uintptr_t)0;
            else {
                printf("SKIP %s: unknown JIT option %s\n", v->name, t);
                free(img);
                return -1;
            }
        }
        if (!strncmp(v->load, "link", 4)) {
            void *ls = NULL, *cubin = NULL;
            size_t csize = 0;
            e = cu->LinkCreate(no, opts, vals, &ls);
            if (e == 0)
                e = cu->LinkAddData(ls, 1 /* CU_JIT_INPUT_PTX */, img, size + 1, v->name, 0, NULL, NULL);
            if (e == 0)
                e = cu->LinkComplete(ls, &cubin, &size);
            if (e == 0) {
                csize = size;
                char path[700];
                snprintf(path, sizeof path, "%s/%s_%s.cubin", outdir, v->name, v->type);
                FILE *f = fopen(path, "wb");
                if (f) {
                    fwrite(cubin, 1, csize, f);
                    fclose(f);
                }
                e = cu->ModuleLoadData(&mod, cubin);
            }
            if (ls)
                cu->LinkDestroy(ls);
        } else {
            e = cu->ModuleLoadDataEx(&mod, img, no, opts, vals);
        }
    } else {
        printf("SKIP %s: unknown load %s\n", v->name, v->load);
        free(img);
        return -1;
    }
    if (e == 0)
        e = cu->ModuleGetFunction(&v->fn, mod, v->kernel);
    if (e != 0) {
        printf("SKIP %s: loading %s (%s) failed: %s (%d) %s\n", v->name, v->image, v->kernel, cudrv_err(cu, e), e,
               elog);
        free(img);
        return -1;
    }
    cu->FuncGetAttribute(&v->regs, 4 /* CU_FUNC_ATTRIBUTE_NUM_REGS */, v->fn);
    printf("%-22s %-4s %-3s %-9s regs %2d  %s (%s)%s%s\n", v->name, v->kind, v->type, v->load, v->regs, v->kernel,
           v->image, log[0] ? "; JIT log: " : "", log);
    free(img);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: h200_probe TWINS.cubin SPEC N REPS OUTDIR\n");
        return 2;
    }
    int n = atoi(argv[3]), reps = atoi(argv[4]);
    if (reps < 1 || reps > MAXREPS || n < 32)
        return 2;
    CuDrv cu;
    if (cudrv_load(&cu) != 0)
        return 1;
    int dev;
    void *ctx, *stream, *tw;
    ck(&cu, cu.Init(0), "cuInit");
    ck(&cu, cu.DeviceGet(&dev, 0), "cuDeviceGet");
    ck(&cu, cu.PrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    ck(&cu, cu.CtxSetCurrent(ctx), "cuCtxSetCurrent");
    ck(&cu, cu.StreamCreate(&stream, 0), "cuStreamCreate");
    size_t sz;
    char *twimg = bench_must_read(argv[1], &sz);
    ck(&cu, cu.ModuleLoadData(&tw, twimg), "twins");
    void *fill[2], *check[2];
    ck(&cu, cu.ModuleGetFunction(&fill[0], tw, "fill_f64"), "fill_f64");
    ck(&cu, cu.ModuleGetFunction(&fill[1], tw, "fill_f32"), "fill_f32");
    ck(&cu, cu.ModuleGetFunction(&check[0], tw, "check_diffusion_f64"), "check_f64");
    ck(&cu, cu.ModuleGetFunction(&check[1], tw, "check_diffusion_f32"), "check_f32");

    static Variant vs[MAXV];
    int nv = 0;
    FILE *spec = fopen(argv[2], "r");
    if (!spec)
        return 1;
    char line[1024];
    while (fgets(line, sizeof line, spec) && nv < MAXV) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        Variant *v = &vs[nv];
        memset(v, 0, sizeof *v);
        if (sscanf(line, "%63s %7s %7s %511s %127s %127s", v->name, v->kind, v->type, v->image, v->load, v->kernel) < 5)
            continue;
        if (load_variant(&cu, v, argv[5]) == 0)
            nv++;
    }
    fclose(spec);

    CuDptr A, An, counts, exc;
    size_t an = (size_t)(n + 2) * (n + 2);
    ck(&cu, cu.MemAlloc(&A, an * 8), "alloc A");
    ck(&cu, cu.MemAlloc(&An, (size_t)n * n * 8), "alloc A_new");
    ck(&cu, cu.MemAlloc(&counts, 64), "alloc counts");
    ck(&cu, cu.MemAlloc(&exc, 4096), "alloc exception");
    ck(&cu, cu.MemsetD32Async(exc, 0, 1024, stream), "memset");
    void **ev = malloc(sizeof(void *) * 2 * reps);
    for (int i = 0; i < 2 * reps; i++)
        ck(&cu, cu.EventCreate(&ev[i], 0), "event");
    uint64_t seed = 12345;
    for (int f32 = 0; f32 <= 1; f32++) {
        const char *tname = f32 ? "f32" : "f64";
        size_t es = f32 ? 4 : 8;
        int nx = n, ny = n;
        int64_t ax = n + 2;
        double h = 0.1;
        float hf = 0.1f;
        uint64_t wn[4] = { An, (uint64_t)nx, (uint64_t)ny, (uint64_t)nx * ny };
        uint64_t wa[4] = { A, (uint64_t)ax, (uint64_t)ax, (uint64_t)(ax * ax) };
        void *hp = f32 ? (void *)&hf : (void *)&h;
        void *jp[4] = { wn, wa, hp, &exc };
        void *np[5] = { &An, &A, hp, &nx, &ny };
        unsigned gx = (unsigned)((nx + 31) / 32), gy = (unsigned)((ny + 7) / 8);
        for (int round = 0; round < 2; round++)
            for (int i = 0; i < nv; i++) {
                Variant *v = &vs[i];
                if (strcmp(v->type, tname))
                    continue;
                void **params = !strcmp(v->kind, "juke") ? jp : np;
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                long total = (long)an;
                double lo = 0.0, hi = 1.0;
                float lof = 0.0f, hif = 1.0f;
                void *fp[5] = { &A, &total, &seed, f32 ? (void *)&lof : (void *)&lo, f32 ? (void *)&hif : (void *)&hi };
                ck(&cu, cu.LaunchKernel(fill[f32], 132 * 16, 1, 1, 256, 1, 1, 0, stream, fp, NULL), "fill");
                ck(&cu, cu.MemsetD32Async(An, 0xffffffffu, (size_t)nx * ny * es / 4, stream), "poison");
                ck(&cu, cu.LaunchKernel(v->fn, gx, gy, 1, 32, 8, 1, 0, stream, params, NULL), v->name);
                ck(&cu, cu.MemsetD32Async(counts, 0, 4, stream), "memset");
                double tol = f32 ? 1e-5 : 1e-12;
                void *cp[7] = { &An, &A, hp, &nx, &ny, &tol, &counts };
                ck(&cu, cu.LaunchKernel(check[f32], 132 * 8, 1, 1, 256, 1, 1, 0, stream, cp, NULL), "check");
                unsigned long long c[2];
                ck(&cu, cu.StreamSynchronize(stream), "sync");
                ck(&cu, cu.MemcpyDtoH(c, counts, 16), "counts");
                v->bad += c[0];
                v->inexact += c[1];
                for (int w = 0; w < 3; w++)
                    ck(&cu, cu.LaunchKernel(v->fn, gx, gy, 1, 32, 8, 1, 0, stream, params, NULL), v->name);
                for (int r = 0; r < reps; r++) {
                    ck(&cu, cu.EventRecord(ev[2 * r], stream), "record");
                    ck(&cu, cu.LaunchKernel(v->fn, gx, gy, 1, 32, 8, 1, 0, stream, params, NULL), v->name);
                    ck(&cu, cu.EventRecord(ev[2 * r + 1], stream), "record");
                }
                ck(&cu, cu.EventSynchronize(ev[2 * reps - 1]), "event sync");
                for (int r = 0; r < reps; r++) {
                    float ms;
                    ck(&cu, cu.EventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]), "elapsed");
                    v->samples[v->ns++] = ms * 1e3;
                }
            }
        double ref = 0;
        printf("\n== diffusion2d %s %d^2, (32, 8) groups, %d launches x 2 rounds, median us; ratio = ref / this (> 1: "
               "faster than the first line)\n",
               tname, n, reps);
        for (int i = 0; i < nv; i++) {
            Variant *v = &vs[i];
            if (strcmp(v->type, tname))
                continue;
            double med = bench_median(v->samples, v->ns); /* sorts: samples[0] is the minimum */
            if (ref == 0)
                ref = med;
            printf("PROBE %-22s %s %9.2f us  ratio %.4f  min %9.2f  regs %2d  check %s (not bitwise: %llu)\n", v->name,
                   tname, med, ref / med, v->samples[0], v->regs, v->bad ? "BAD" : "ok", v->inexact);
        }
        fflush(stdout);
    }
    return 0;
}
