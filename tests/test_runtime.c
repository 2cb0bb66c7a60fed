/* test_runtime.c: the runtime without the compiler: the CPU backend on a
 * hand-made code object (cpu_kernels_fixture.c), the HIP and CUDA failure
 * paths, "auto", AMDGPU metadata and kernarg packing on a clang-built code
 * object (hip_fixture.hip), and the PTX parameter parser. On a machine with
 * an NVIDIA GPU, the CUDA backend runs a hand-written PTX kernel too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <time.h>
#include <dlfcn.h>

#include "backend.h"
#include "runtime.h"
#include "testutil.h"

typedef struct Arr1 {
    void *ptr;
    int64_t dim, len;
} Arr1;

/* xorshift: tests draw their inputs from a seed printed on failure. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static RtArg arg_of(const void *p, uint32_t size, uint32_t align)
{
    return (RtArg){ p, size, align };
}
static Arr1 arr1(void *p, int64_t n)
{
    return (Arr1){ p, n, n };
}

typedef struct CpuFixture {
    RtDevice *dev;
    RtModule *mod;
    uint8_t *image;
    size_t size;
} CpuFixture;

static int cpu_setup(void **state)
{
    CpuFixture *fx = calloc(1, sizeof *fx);
    char *err = NULL;
    const char *so = getenv("JUKE_TEST_CPU_FIXTURE"); /* for runs outside the build tree */
    fx->image = tu_read_file(so ? so : FIXTURE_SO, &fx->size);
    assert_non_null(fx->image);
    assert_int_equal(rt_device_open("cpu", 0, &fx->dev, NULL, &err), 0);
    if (rt_module_load(fx->dev, fx->image, fx->size, &fx->mod, &err) != 0)
        fail_msg("%s", err);
    *state = fx;
    return 0;
}

static int cpu_teardown(void **state)
{
    CpuFixture *fx = *state;
    rt_module_unload(fx->mod);
    rt_device_close(fx->dev);
    free(fx->image);
    free(fx);
    return 0;
}

static void test_cpu_device(void **state)
{
    CpuFixture *fx = *state;
    char want[64];
    int n = rt_cpu_threads(fx->dev);
    assert_true(n >= 1);
    snprintf(want, sizeof want, "cpu (%d thread%s)", n, n == 1 ? "" : "s");
    assert_string_equal(rt_device_name(fx->dev), want);
    assert_int_equal(rt_device_kind(fx->dev), RT_CPU);
    assert_string_equal(rt_device_arch(fx->dev), "x86-64");
    assert_int_equal(rt_device_max_group_size(fx->dev), 1024);
    assert_int_equal(rt_device_max_local_bytes(fx->dev), 65536);

    RtDevice *d3;
    char *err = NULL;
    assert_int_equal(rt_device_open("cpu", 3, &d3, NULL, &err), 0);
    assert_int_equal(rt_cpu_threads(d3), 3);
    assert_string_equal(rt_device_name(d3), "cpu (3 threads)");
    rt_device_close(d3);
}

static void run_vadd(RtDevice *dev, RtFunction *f, int64_t n, uint32_t group)
{
    float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4), *da, *db, *dc;
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)(rnd() % 1000 + 1) / 8;
        b[i] = (float)(rnd() % 1000 + 1) / 4;
    }
    char *err = NULL;
    assert_int_equal(rt_alloc(dev, n * 4, (void **)&da, &err), 0);
    assert_int_equal(rt_alloc(dev, n * 4, (void **)&db, &err), 0);
    assert_int_equal(rt_alloc(dev, n * 4, (void **)&dc, &err), 0);
    assert_int_equal(rt_upload(dev, da, a, n * 4, &err), 0);
    assert_int_equal(rt_upload(dev, db, b, n * 4, &err), 0);
    Arr1 A = arr1(da, n), B = arr1(db, n), C = arr1(dc, n);
    RtArg args[3] = { arg_of(&A, 24, 8), arg_of(&B, 24, 8), arg_of(&C, 24, 8) };
    uint32_t grid[3] = { (uint32_t)((n + group - 1) / group), 1, 1 }, gs[3] = { group, 1, 1 };
    JukeExceptionRecord exc;
    int rc = rt_launch(f, args, 3, grid, gs, 0, true, &exc, &err);
    if (rc != 0)
        fail_msg("launch: %d %s", rc, err ? err : "");
    assert_int_equal(rt_download(dev, c, dc, n * 4, &err), 0);
    for (int64_t i = 0; i < n; i++)
        if (c[i] != a[i] + b[i])
            fail_msg("vadd: c[%lld] = %g, expected %g", (long long)i, c[i], a[i] + b[i]);
    rt_free(dev, da);
    rt_free(dev, db);
    rt_free(dev, dc);
    free(a);
    free(b);
    free(c);
}

static void test_cpu_vadd(void **state)
{
    CpuFixture *fx = *state;
    RtFunction *f;
    char *err = NULL;
    assert_int_equal(rt_function_get(fx->mod, "vadd", &f, &err), 0);
    const RtFunctionInfo *info = rt_function_info(f);
    assert_string_equal(info->name, "vadd");
    assert_int_equal(info->kernarg_size, 80);
    assert_true(info->has_exception_arg);
    RtFunction *again;
    assert_int_equal(rt_function_get(fx->mod, "vadd", &again, &err), 0);
    assert_ptr_equal(f, again);
    for (int r = 0; r < 5; r++)
        run_vadd(fx->dev, f, (int64_t)(rnd() % 5000 + 1), (uint32_t)(rnd() % 256 + 1));
}

static void test_cpu_coords(void **state)
{
    CpuFixture *fx = *state;
    RtFunction *f;
    char *err = NULL;
    assert_int_equal(rt_function_get(fx->mod, "coords", &f, &err), 0);
    uint32_t grid[3] = { 3, 2, 4 }, group[3] = { 5, 3, 2 };
    size_t total = 3 * 2 * 4 * 5 * 3 * 2;
    int32_t *out;
    assert_int_equal(rt_alloc(fx->dev, total * 24, (void **)&out, &err), 0);
    memset(out, 0xff, total * 24);
    Arr1 O = arr1(out, (int64_t)total * 6);
    RtArg args[1] = { arg_of(&O, 24, 8) };
    assert_int_equal(rt_launch(f, args, 1, grid, group, 0, true, NULL, &err), 0);
    size_t k = 0;
    for (uint32_t gz = 0; gz < grid[2]; gz++)
        for (uint32_t gy = 0; gy < grid[1]; gy++)
            for (uint32_t gx = 0; gx < grid[0]; gx++)
                for (uint32_t iz = 0; iz < group[2]; iz++)
                    for (uint32_t iy = 0; iy < group[1]; iy++)
                        for (uint32_t ix = 0; ix < group[0]; ix++, k++) {
                            int32_t *o = out + 6 * k;
                            assert_int_equal(o[0], ix);
                            assert_int_equal(o[1], iy);
                            assert_int_equal(o[2], iz);
                            assert_int_equal(o[3], gx);
                            assert_int_equal(o[4], gy);
                            assert_int_equal(o[5], gz);
                        }
    /* coords says at most 256 work-items a group; the device says 1024. */
    uint32_t big[3] = { 16, 16, 2 };
    assert_int_equal(rt_launch(f, args, 1, grid, big, 0, true, NULL, &err), -1);
    assert_string_equal(err, "launch of coords: groupsize 512 exceeds the kernel's limit of 256");
    free(err);
    uint32_t huge[3] = { 1025, 1, 1 };
    RtFunction *v;
    assert_int_equal(rt_function_get(fx->mod, "vadd", &v, &err), 0);
    Arr1 z = arr1(out, 0);
    RtArg vargs[3] = { arg_of(&z, 24, 8), arg_of(&z, 24, 8), arg_of(&z, 24, 8) };
    assert_int_equal(rt_launch(v, vargs, 3, grid, huge, 0, true, NULL, &err), -1);
    char want[200];
    snprintf(want, sizeof want,
             "launch of vadd: groupsize 1025×1×1 = 1025 work-items exceeds the device's limit of 1024");
    assert_string_equal(err, want);
    free(err);
    /* wrong argument layout */
    assert_int_equal(rt_launch(v, vargs, 2, grid, group, 0, true, NULL, &err), -1);
    assert_string_equal(
        err, "launch of vadd: the arguments take 48 bytes, the kernel expects 72 (check their number and types)");
    free(err);
    rt_free(fx->dev, out);
}

static void test_cpu_bsum_barrier(void **state)
{
    CpuFixture *fx = *state;
    RtFunction *f;
    char *err = NULL;
    assert_int_equal(rt_function_get(fx->mod, "bsum", &f, &err), 0);
    assert_int_equal(rt_function_info(f)->static_lds_bytes, 4096);
    for (int round = 0; round < 3; round++) {
        uint32_t group = 1u << (rnd() % 8 + 2); /* 4 .. 512 */
        uint32_t ngroups = (uint32_t)(rnd() % 40 + 2);
        int64_t n = (int64_t)group * ngroups - (int64_t)(rnd() % group);
        uint32_t shmem = (uint32_t)(rnd() % 3) * 100;
        float *x = malloc(n * 4), *out = malloc(ngroups * 4);
        int32_t *zeroed = malloc(ngroups * 4);
        for (int64_t i = 0; i < n; i++)
            x[i] = (float)(rnd() % 64 + 1); /* small integers: the sums are exact */
        Arr1 X = arr1(x, n), O = arr1(out, ngroups), Z = arr1(zeroed, ngroups);
        int64_t raise_at = 0, lds_bytes = 4096 + shmem;
        RtArg args[5] = { arg_of(&X, 24, 8), arg_of(&O, 24, 8), arg_of(&Z, 24, 8), arg_of(&raise_at, 8, 8),
                          arg_of(&lds_bytes, 8, 8) };
        uint32_t grid[3] = { ngroups, 1, 1 }, gs[3] = { group, 1, 1 };
        int rc = rt_launch(f, args, 5, grid, gs, shmem, true, NULL, &err);
        if (rc != 0)
            fail_msg("bsum launch: %s", err);
        for (uint32_t g = 0; g < ngroups; g++) {
            float want = 0;
            for (int64_t i = (int64_t)g * group; i < (int64_t)(g + 1) * group && i < n; i++)
                want += x[i];
            assert_true(out[g] == want);
            assert_int_equal(zeroed[g], 0);
        }
        /* An exception in a group that synchronises: the raiser leaves, the
         * barriers complete with the rest, the launch reports it. */
        raise_at = (int64_t)(rnd() % (uint64_t)n) + 1;
        JukeExceptionRecord exc;
        memset(&exc, 0xee, sizeof exc);
        rc = rt_launch(f, args, 5, grid, gs, shmem, true, &exc, &err);
        assert_int_equal(rc, 1);
        assert_int_equal(exc.flag, 2);
        assert_int_equal(exc.kind, JUKE_EXC_BOUNDS);
        assert_int_equal(exc.line, 42);
        assert_int_equal(exc.index[0], raise_at);
        assert_int_equal(exc.dims[0], n);
        assert_int_equal(exc.group[0], (raise_at - 1) / group + 1);
        assert_int_equal(exc.item[0], (raise_at - 1) % group + 1);
        assert_int_equal(exc.group[1], 1);
        /* and the next launch is clean */
        raise_at = 0;
        assert_int_equal(rt_launch(f, args, 5, grid, gs, shmem, true, &exc, &err), 0);
        free(x);
        free(out);
        free(zeroed);
    }
}

static void test_cpu_exception(void **state)
{
    CpuFixture *fx = *state;
    RtFunction *f;
    char *err = NULL;
    assert_int_equal(rt_function_get(fx->mod, "boom", &f, &err), 0);
    int64_t n = (int64_t)(rnd() % 3000 + 10);
    int64_t *x = calloc(n + 64, 8);
    Arr1 X = arr1(x, n);
    RtArg args[2] = { arg_of(&X, 24, 8), arg_of(&n, 8, 8) };
    uint32_t grid[3] = { (uint32_t)(n / 64 + 1), 1, 1 }, gs[3] = { 64, 1, 1 };
    JukeExceptionRecord exc;
    assert_int_equal(rt_launch(f, args, 2, grid, gs, 0, false, &exc, &err), 1);
    assert_int_equal(exc.kind, JUKE_EXC_BOUNDS);
    assert_int_equal(exc.line, 13);
    assert_int_equal(exc.col, 7);
    assert_int_equal(exc.ndims, 1);
    assert_int_equal(exc.index[0], n + 1);
    assert_int_equal(exc.dims[0], n);
    assert_int_equal(exc.group[0], n / 64 + 1);
    assert_int_equal(exc.item[0], n % 64 + 1);
    assert_int_equal(exc.item[2], 1);
    assert_int_equal(rt_synchronize(fx->dev, &exc, &err), 0);
    /* The device is usable afterwards: a grid exactly n wide raises nothing. */
    memset(x, 0, (n + 64) * 8);
    uint32_t grid1[3] = { (uint32_t)n, 1, 1 }, one[3] = { 1, 1, 1 };
    assert_int_equal(rt_launch(f, args, 2, grid1, one, 0, true, &exc, &err), 0);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(x[i], i + 1);
    RtFunction *v;
    assert_int_equal(rt_function_get(fx->mod, "vadd", &v, &err), 0);
    run_vadd(fx->dev, v, 1000, 32);
    free(x);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_cpu_threads(void **state)
{
    CpuFixture *fx = *state;
    if (rt_cpu_threads(fx->dev) < 2)
        skip();
    RtFunction *f;
    char *err = NULL;
    assert_int_equal(rt_function_get(fx->mod, "whoami", &f, &err), 0);
    uint64_t tids[64] = { 0 };
    Arr1 T = arr1(tids, 64);
    RtArg args[1] = { arg_of(&T, 24, 8) };
    uint32_t grid[3] = { 64, 1, 1 }, gs[3] = { 1, 1, 1 };
    assert_int_equal(rt_launch(f, args, 1, grid, gs, 0, true, NULL, &err), 0);
    qsort(tids, 64, 8, cmp_u64);
    int distinct = 1;
    for (int i = 1; i < 64; i++)
        distinct += tids[i] != tids[i - 1];
    assert_true(tids[0] != 0);
    assert_true(distinct >= 2);
    assert_true(distinct <= rt_cpu_threads(fx->dev));
}

typedef struct Hammer {
    RtDevice *dev;
    RtFunction *f;
    int ok;
} Hammer;

static void *hammer(void *p)
{
    Hammer *h = p;
    enum { N = 777 };
    float a[N], b[N], c[N];
    for (int r = 0; r < 40; r++) {
        for (int i = 0; i < N; i++) {
            a[i] = (float)(i + r);
            b[i] = (float)(2 * i);
            c[i] = 0;
        }
        Arr1 A = arr1(a, N), B = arr1(b, N), C = arr1(c, N);
        RtArg args[3] = { arg_of(&A, 24, 8), arg_of(&B, 24, 8), arg_of(&C, 24, 8) };
        uint32_t grid[3] = { N / 32 + 1, 1, 1 }, gs[3] = { 32, 1, 1 };
        if (rt_launch(h->f, args, 3, grid, gs, 0, true, NULL, NULL) != 0)
            return NULL;
        for (int i = 0; i < N; i++)
            if (c[i] != (float)(3 * i + r))
                return NULL;
    }
    h->ok = 1;
    return NULL;
}

static void test_cpu_concurrent_launches(void **state)
{
    CpuFixture *fx = *state;
    RtFunction *f;
    char *err = NULL;
    assert_int_equal(rt_function_get(fx->mod, "vadd", &f, &err), 0);
    Hammer h[3];
    pthread_t t[3];
    for (int i = 0; i < 3; i++) {
        h[i] = (Hammer){ fx->dev, f, 0 };
        pthread_create(&t[i], NULL, hammer, &h[i]);
    }
    for (int i = 0; i < 3; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(h[i].ok, 1);
    }
}

static void test_cpu_modules(void **state)
{
    CpuFixture *fx = *state;
    char *err = NULL;
    /* Two live copies of the same image are two modules. */
    RtModule *m2;
    assert_int_equal(rt_module_load(fx->dev, fx->image, fx->size, &m2, &err), 0);
    RtFunction *f1, *f2;
    assert_int_equal(rt_function_get(fx->mod, "vadd", &f1, &err), 0);
    assert_int_equal(rt_function_get(m2, "vadd", &f2, &err), 0);
    assert_ptr_not_equal(f1, f2);
    run_vadd(fx->dev, f2, 100, 16);
    rt_module_unload(m2);
    run_vadd(fx->dev, f1, 100, 16);

    assert_int_equal(rt_function_get(fx->mod, "nope", &f1, &err), -1);
    assert_string_equal(err, "no kernel 'nope' in the code object (it has: vadd, bsum, boom, whoami, coords)");
    free(err);
    assert_int_equal(rt_module_load(fx->dev, "hello", 5, &m2, &err), -1);
    assert_string_equal(err, "cpu: the code object is not an ELF shared object");
    free(err);
    size_t sz;
    uint8_t *libm = tu_read_file("/lib/x86_64-linux-gnu/libm.so.6", &sz);
    if (libm) {
        assert_int_equal(rt_module_load(fx->dev, libm, sz, &m2, &err), -1);
        assert_string_equal(err, "cpu: not a juke CPU code object: it does not export juke_cpu_kernels");
        free(err);
        free(libm);
    }
    /* a code object whose count claims more kernels than any compile makes (and than its table holds) */
    uint8_t *hostile = tu_read_file(FIXTURE_HOSTILE_SO, &sz);
    assert_non_null(hostile);
    assert_int_equal(rt_module_load(fx->dev, hostile, sz, &m2, &err), -1);
    assert_string_equal(err, "cpu: the code object lists 1048577 kernels (at most 1048576)");
    free(err);
    free(hostile);
    /* a truncated shared object fails cleanly in dlopen */
    assert_int_equal(rt_module_load(fx->dev, fx->image, 200, &m2, &err), -1);
    assert_true(strncmp(err, "cpu: cannot load the code object: ", 34) == 0);
    free(err);
}

/* ---- device specs, HIP and CUDA failure paths, auto ------------------------- */

static void test_spec_errors(void **state)
{
    RtDevice *d;
    char *err = NULL;
    const char *bad[] = { "gpu", "hip:", "hip:x", "cuda:-1", "cpu:0", "", "hip:1x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(rt_device_open(bad[i], 0, &d, NULL, &err), -1);
        char want[128];
        snprintf(want, sizeof want, "unknown device '%s': expected hip, hip:N, cuda, cuda:N, cpu, or auto", bad[i]);
        assert_string_equal(err, want);
        free(err);
        err = NULL;
    }
}

static void test_hip_absent(void **state)
{
    RtDevice *d = NULL;
    char *err = NULL;
    unsetenv("JUKE_HIP_LIBRARY");
    if (rt_device_open("hip", 0, &d, NULL, &err) == 0) {
        rt_device_close(d); /* a machine with an AMD GPU */
        skip();
    }
    const char *want = "no AMD GPU: the HIP runtime (libamdhip64.so) could not be loaded: ";
    if (strstr(err, "could not be loaded"))
        assert_true(strncmp(err, want, strlen(want)) == 0);
    else
        assert_true(strncmp(err, "no AMD GPU: ", 12) == 0);
    free(err);

    setenv("JUKE_HIP_LIBRARY", "/nonexistent/libamdhip64.so", 1);
    assert_int_equal(rt_device_open("hip:1", 0, &d, NULL, &err), -1);
    assert_string_equal(err, "no AMD GPU: the HIP runtime (/nonexistent/libamdhip64.so) could not be loaded: "
                             "/nonexistent/libamdhip64.so: cannot open shared object file: No such file or directory");
    free(err);
    setenv("JUKE_HIP_LIBRARY", "libm.so.6", 1);
    assert_int_equal(rt_device_open("hip", 0, &d, NULL, &err), -1);
    assert_string_equal(err, "no AMD GPU: libm.so.6 is not a usable HIP runtime: missing symbol hipInit");
    free(err);
    unsetenv("JUKE_HIP_LIBRARY");
}

static void test_cuda_absent(void **state)
{
    RtDevice *d = NULL;
    char *err = NULL;
    unsetenv("JUKE_CUDA_LIBRARY");
    if (rt_device_open("cuda", 0, &d, NULL, &err) == 0) {
        rt_device_close(d);
    } else {
        const char *want = "no NVIDIA GPU: the CUDA driver (libcuda.so.1) could not be loaded: ";
        if (strstr(err, "could not be loaded"))
            assert_true(strncmp(err, want, strlen(want)) == 0);
        else
            assert_true(strncmp(err, "no NVIDIA GPU: ", 15) == 0);
        free(err);
    }
    setenv("JUKE_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
    assert_int_equal(rt_device_open("cuda:0", 0, &d, NULL, &err), -1);
    assert_string_equal(err, "no NVIDIA GPU: the CUDA driver (/nonexistent/libcuda.so.1) could not be loaded: "
                             "/nonexistent/libcuda.so.1: cannot open shared object file: No such file or directory");
    free(err);
    setenv("JUKE_CUDA_LIBRARY", "libm.so.6", 1);
    assert_int_equal(rt_device_open("cuda", 0, &d, NULL, &err), -1);
    assert_string_equal(err, "no NVIDIA GPU: libm.so.6 is not a usable CUDA driver: missing symbol cuInit");
    free(err);
    unsetenv("JUKE_CUDA_LIBRARY");
}

static void test_auto(void **state)
{
    RtDevice *d = NULL;
    char *why = NULL, *err = NULL;
    setenv("JUKE_HIP_LIBRARY", "/nonexistent/libamdhip64.so", 1);
    setenv("JUKE_CUDA_LIBRARY", "libm.so.6", 1);
    assert_int_equal(rt_device_open("auto", 0, &d, &why, &err), 0);
    assert_int_equal(rt_device_kind(d), RT_CPU);
    char want[256];
    snprintf(want, sizeof want,
             "auto: no AMD GPU (JUKE_HIP_LIBRARY not loadable); no NVIDIA GPU (libm.so.6 lacks cuInit); using %s",
             rt_device_name(d));
    assert_string_equal(why, want);
    free(why);
    rt_device_close(d);
    unsetenv("JUKE_HIP_LIBRARY");
    unsetenv("JUKE_CUDA_LIBRARY");
    /* This machine's own answer, whatever it has. */
    assert_int_equal(rt_device_open("auto", 0, &d, &why, &err), 0);
    assert_true(strncmp(why, "auto: ", 6) == 0);
    print_message("%s\n", why);
    free(why);
    rt_device_close(d);
}

/* ---- AMDGPU metadata and kernarg packing -------------------------------------- */

#ifdef HIP_FIXTURE
static void test_amdgpu_meta(void **state)
{
    size_t size;
    const char *path = getenv("JUKE_TEST_HIP_FIXTURE");
    uint8_t *img = tu_read_file(path ? path : HIP_FIXTURE, &size);
    assert_non_null(img);
    char *err = NULL, **names;
    int count;
    assert_int_equal(amdgpu_meta_kernels(img, size, &names, &count, &err), 0);
    assert_int_equal(count, 3);
    int seen = 0;
    for (int i = 0; i < count; i++) {
        seen |= strcmp(names[i], "k") == 0              ? 1
                : strcmp(names[i], "k2") == 0           ? 2
                : strcmp(names[i], "uniform_load") == 0 ? 4
                                                        : 0;
        free(names[i]);
    }
    free(names);
    assert_int_equal(seen, 7);

    RtFunctionInfo info;
    assert_int_equal(amdgpu_meta_read(img, size, "k.kd", &info, &err), 0);
    assert_string_equal(info.name, "k");
    assert_int_equal(info.nargs, 4);
    assert_true(info.has_exception_arg);
    assert_int_equal(info.wavefront_size, 64);
    assert_int_equal(info.max_group_size, 1024);
    assert_true(info.kernarg_size >= 100);
    const char *names4[] = { "x", "n", "a", "__juke_exception" };
    uint32_t offs[] = { 0, 8, 16, 24 }, sizes[] = { 8, 4, 8, 8 };
    for (int i = 0; i < 4; i++) {
        assert_string_equal(info.args[i].name, names4[i]);
        assert_int_equal(info.args[i].offset, offs[i]);
        assert_int_equal(info.args[i].size, sizes[i]);
        assert_false(info.args[i].hidden);
    }
    int bc = -1, gsz = -1, gd = -1;
    for (uint32_t i = info.nargs; i < info.nall; i++) {
        assert_true(info.args[i].hidden);
        if (!strcmp(info.args[i].value_kind, "hidden_block_count_x"))
            bc = (int)i;
        if (!strcmp(info.args[i].value_kind, "hidden_group_size_y"))
            gsz = (int)i;
        if (!strcmp(info.args[i].value_kind, "hidden_grid_dims"))
            gd = (int)i;
    }
    assert_true(bc > 0 && gsz > 0 && gd > 0);

    /* pack with random values and check each byte lands where the metadata says */
    float *xp = (float *)(uintptr_t)(rnd() & ~7ull);
    int32_t n = (int32_t)(rnd() % 100000 + 1);
    double a = (double)(rnd() % 1000 + 1) / 3;
    void *exc = (void *)(uintptr_t)(rnd() | 8);
    RtArg args[3] = { arg_of(&xp, 8, 8), arg_of(&n, 4, 4), arg_of(&a, 8, 8) };
    uint32_t grid[3] = { (uint32_t)(rnd() % 1000 + 1), 3, 1 }, group[3] = { 64, 2, 1 };
    uint8_t buf[512];
    memset(buf, 0xaa, sizeof buf);
    assert_int_equal(rt_pack_kernargs(&info, args, 3, exc, grid, group, 96, buf, sizeof buf, &err),
                     (int)info.kernarg_size);
    assert_memory_equal(buf + 0, &xp, 8);
    assert_memory_equal(buf + 8, &n, 4);
    assert_memory_equal(buf + 16, &a, 8);
    assert_memory_equal(buf + 24, &exc, 8);
    uint32_t u32;
    uint16_t u16;
    memcpy(&u32, buf + info.args[bc].offset, 4);
    assert_int_equal(u32, grid[0]);
    memcpy(&u16, buf + info.args[gsz].offset, 2);
    assert_int_equal(u16, 2);
    memcpy(&u16, buf + info.args[gd].offset, 2);
    assert_int_equal(u16, 2);
    for (uint32_t i = info.nargs; i < info.nall; i++) {
        const RtArgInfo *h = &info.args[i];
        if (!strncmp(h->value_kind, "hidden_remainder_", 17) || !strncmp(h->value_kind, "hidden_global_offset_", 21))
            for (uint32_t b = 0; b < h->size; b++)
                assert_int_equal(buf[h->offset + b], 0);
    }
    for (uint32_t b = info.kernarg_size; b < sizeof buf; b++)
        assert_int_equal(buf[b], 0xaa);

    /* errors */
    assert_int_equal(rt_pack_kernargs(&info, args, 2, exc, grid, group, 0, buf, sizeof buf, &err), -1);
    assert_string_equal(err, "k: 2 arguments given, the kernel expects 3");
    free(err);
    args[2].size = 24;
    assert_int_equal(rt_pack_kernargs(&info, args, 3, exc, grid, group, 0, buf, sizeof buf, &err), -1);
    assert_string_equal(err, "argument 3 of k: 24 bytes given, the kernel expects 8");
    free(err);
    args[2].size = 8;
    assert_int_equal(rt_pack_kernargs(&info, args, 3, exc, grid, group, 0, buf, 16, &err), -1);
    char want[128];
    snprintf(want, sizeof want, "k: the kernel-argument buffer of 16 bytes is too small for %u", info.kernarg_size);
    assert_string_equal(err, want);
    free(err);

    /* k2: a by-value 24-byte array argument, then a char and a short */
    assert_int_equal(amdgpu_meta_read(img, size, "k2", &info, &err), 0);
    assert_int_equal(info.nargs, 4);
    assert_int_equal(info.args[0].size, 24);
    assert_string_equal(info.args[0].value_kind, "by_value");
    assert_int_equal(info.args[1].offset, 24);
    assert_int_equal(info.args[2].offset, 26);
    assert_int_equal(info.args[3].offset, 32);
    assert_int_equal(info.kernarg_size, 40);

    assert_int_equal(amdgpu_meta_read(img, size, "k3", &info, &err), -1);
    assert_true(strstr(err, "no kernel 'k3' in the code object (it has: ") == err);
    free(err);

    /* a container claiming 2^32 elements is refused before msgpack-c sizes it */
    uint8_t *hdr = memmem(img, size, "AMDGPU\0\0", 8);
    while (hdr && !(hdr >= img + 12 && hdr[-4] == 32))
        hdr = memmem(hdr + 1, size - (size_t)(hdr + 1 - img), "AMDGPU\0\0", 8);
    assert_non_null(hdr);
    uint8_t *evil = malloc(size);
    memcpy(evil, img, size);
    memcpy(evil + (hdr - img) + 8, "\xdd\xff\xff\xff\xff", 5);
    assert_int_equal(amdgpu_meta_read(evil, size, "k", &info, &err), -1);
    assert_string_equal(err, "AMDGPU metadata is not valid msgpack");
    free(err);
    free(evil);

    /* fuzz: truncations and byte flips never crash, and fail with a message */
    uint8_t *m = malloc(size);
    for (int it = 0; it < 3000; it++) {
        memcpy(m, img, size);
        size_t len = size;
        if (it % 3 == 0)
            len = rnd() % size;
        int flips = (int)(rnd() % 8) + 1;
        for (int fI = 0; fI < flips && len > 0; fI++)
            m[rnd() % len] ^= (uint8_t)(1u << (rnd() % 8));
        err = NULL;
        int rc = amdgpu_meta_read(m, len, "k", &info, &err);
        if (rc != 0) {
            assert_int_equal(rc, -1);
            assert_non_null(err);
        } else {
            assert_true(info.nall <= 64);
            for (uint32_t i = 0; i < info.nall; i++)
                assert_true((uint64_t)info.args[i].offset + info.args[i].size <= info.kernarg_size);
        }
        free(err);
        char **nm = NULL;
        int c = 0;
        err = NULL;
        if (amdgpu_meta_kernels(m, len, &nm, &c, &err) == 0) {
            for (int i = 0; i < c; i++)
                free(nm[i]);
            free(nm);
        }
        free(err);
    }
    free(m);
    free(img);
}
#endif

static void test_amdgpu_meta_malformed(void **state)
{
    RtFunctionInfo info;
    char *err = NULL;
    assert_int_equal(amdgpu_meta_read("junk", 4, "k", &info, &err), -1);
    assert_string_equal(err, "not an AMDGPU code object: not a 64-bit little-endian ELF file");
    free(err);
    size_t sz;
    uint8_t *libm = tu_read_file("/lib/x86_64-linux-gnu/libm.so.6", &sz);
    if (libm) {
        assert_int_equal(amdgpu_meta_read(libm, sz, "k", &info, &err), -1);
        assert_string_equal(err, "not an AMDGPU code object: ELF machine 62");
        free(err);
        /* an AMDGPU ELF header on a file without the note */
        ((Elf64_Half *)(libm + 18))[0] = 224;
        assert_int_equal(amdgpu_meta_read(libm, sz, "k", &info, &err), -1);
        assert_string_equal(err, "AMDGPU code object has no NT_AMDGPU_METADATA note");
        free(err);
        free(libm);
    }
}

/* A synthetic kernel: hidden arguments the clang fixture does not use. */
static void test_pack_hidden(void **state)
{
    RtFunctionInfo info;
    memset(&info, 0, sizeof info);
    snprintf(info.name, sizeof info.name, "syn");
    info.kernarg_size = 96;
    info.nargs = 2;
    info.has_exception_arg = true;
    info.args[0] = (RtArgInfo){ .offset = 0, .size = 2, .align = 2, .value_kind = "by_value" };
    info.args[1] =
        (RtArgInfo){ .offset = 8, .size = 8, .align = 8, .name = "__juke_exception", .value_kind = "global_buffer" };
    const char *kinds[] = { "hidden_block_count_z", "hidden_group_size_z",    "hidden_dynamic_lds_size",
                            "hidden_grid_dims",     "hidden_hostcall_buffer", "hidden_remainder_x" };
    uint32_t offs[] = { 16, 20, 24, 28, 32, 40 }, sizes[] = { 4, 2, 4, 2, 8, 2 };
    for (int i = 0; i < 6; i++) {
        info.args[2 + i] = (RtArgInfo){ .offset = offs[i], .size = sizes[i], .align = sizes[i], .hidden = true };
        snprintf(info.args[2 + i].value_kind, 32, "%s", kinds[i]);
    }
    info.nall = 8;
    uint16_t h = 0x1234;
    RtArg args[1] = { arg_of(&h, 2, 2) };
    uint32_t grid[3] = { 5, 1, 7 }, group[3] = { 8, 4, 3 };
    uint8_t buf[96];
    char *err = NULL;
    assert_int_equal(rt_pack_kernargs(&info, args, 1, NULL, grid, group, 1234, buf, sizeof buf, &err), 96);
    uint32_t u32;
    uint16_t u16;
    memcpy(&u16, buf, 2);
    assert_int_equal(u16, 0x1234);
    memcpy(&u32, buf + 16, 4);
    assert_int_equal(u32, 7);
    memcpy(&u16, buf + 20, 2);
    assert_int_equal(u16, 3);
    memcpy(&u32, buf + 24, 4);
    assert_int_equal(u32, 1234);
    memcpy(&u16, buf + 28, 2);
    assert_int_equal(u16, 3);
    for (int b = 32; b < 42; b++)
        assert_int_equal(buf[b], 0);
    uint32_t flat[3] = { 9, 1, 1 }, g1[3] = { 64, 1, 1 };
    assert_int_equal(rt_pack_kernargs(&info, args, 1, NULL, flat, g1, 0, buf, sizeof buf, &err), 96);
    memcpy(&u16, buf + 28, 2);
    assert_int_equal(u16, 1);
}

/* ---- PTX ------------------------------------------------------------------------- */

static const char *ptx_vadd =
    "//\n// Generated by LLVM NVPTX Back-End\n//\n\n.version 7.8\n.target sm_90\n.address_size 64\n\n"
    "// juke-exception-arg: vadd\n"
    "\t// .globl\tvadd\n"
    ".visible .entry vadd(\n"
    "\t.param .align 8 .b8 vadd_param_0[24],\n"
    "\t.param .align 8 .b8 vadd_param_1[24],\n"
    "\t.param .f32 vadd_param_2,\n"
    "\t.param .u8 vadd_param_3,\n"
    "\t.param .u64 .ptr .global .align 1 vadd_param_4\n"
    ")\n.maxntid 256, 1, 1\n{\n"
    "\t.reg .b32 %r<2>;\n\tret;\n}\n"
    ".visible .entry other(.param .u32 other_param_0, .param .u64 __juke_exception) { ret; }\n";

static void test_ptx_parse(void **state)
{
    RtFunctionInfo info;
    char *err = NULL;
    assert_int_equal(ptx_entry_info(ptx_vadd, strlen(ptx_vadd), "vadd", &info, &err), 0);
    assert_int_equal(info.nargs, 5);
    uint32_t offs[] = { 0, 24, 48, 52, 56 }, sizes[] = { 24, 24, 4, 1, 8 }, aligns[] = { 8, 8, 4, 1, 8 };
    for (int i = 0; i < 5; i++) {
        assert_int_equal(info.args[i].offset, offs[i]);
        assert_int_equal(info.args[i].size, sizes[i]);
        assert_int_equal(info.args[i].align, aligns[i]);
    }
    assert_string_equal(info.args[4].name, "vadd_param_4");
    assert_int_equal(info.kernarg_size, 64);
    assert_true(info.has_exception_arg);
    assert_int_equal(info.max_group_size, 256);
    assert_int_equal(ptx_entry_info(ptx_vadd, strlen(ptx_vadd), "other", &info, &err), 0);
    assert_int_equal(info.nargs, 2);
    assert_true(info.has_exception_arg);
    assert_int_equal(info.args[1].offset, 8);
    assert_int_equal(ptx_entry_info(ptx_vadd, strlen(ptx_vadd), "vad", &info, &err), -1);
    assert_string_equal(err, "no kernel 'vad' in the PTX (no .entry vad)");
    free(err);
    /* truncations never crash */
    for (size_t n = 0; n < strlen(ptx_vadd); n++) {
        char *copy = malloc(n ? n : 1);
        memcpy(copy, ptx_vadd, n);
        err = NULL;
        int rc = ptx_entry_info(copy, n, "vadd", &info, &err);
        assert_true(rc == 0 || (rc == -1 && err));
        free(err);
        free(copy);
    }
}

/* ---- CUDA, where there is an NVIDIA GPU ------------------------------------------ */

/* vadd on Float32 arrays (JukeArrayArg by value) with the exception
 * protocol of abi.h: an index past the length raises a BoundsError. */
static const char *ptx_cuda_vadd =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    "// juke-exception-arg: vadd\n"
    ".visible .entry vadd(\n"
    "  .param .align 8 .b8 vadd_param_0[24],\n"
    "  .param .align 8 .b8 vadd_param_1[24],\n"
    "  .param .align 8 .b8 vadd_param_2[24],\n"
    "  .param .u64 vadd_param_3,\n"
    "  .param .u64 vadd_param_4\n"
    ")\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<20>;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r4, %r1, %r2, %r3;\n  cvt.u64.u32 %rd1, %r4;\n"
    "  ld.param.u64 %rd2, [vadd_param_2+16];\n" /* c.length */
    "  ld.param.u64 %rd3, [vadd_param_3];\n"    /* limit: raise at this index */
    "  setp.eq.u64 %p1, %rd1, %rd3;\n  @%p1 bra RAISE;\n"
    "  setp.ge.u64 %p2, %rd1, %rd2;\n  @%p2 bra DONE;\n"
    "  ld.param.u64 %rd4, [vadd_param_0];\n  ld.param.u64 %rd5, [vadd_param_1];\n"
    "  ld.param.u64 %rd6, [vadd_param_2];\n  shl.b64 %rd7, %rd1, 2;\n"
    "  add.s64 %rd8, %rd4, %rd7;\n  add.s64 %rd9, %rd5, %rd7;\n  add.s64 %rd10, %rd6, %rd7;\n"
    "  ld.global.f32 %f1, [%rd8];\n  ld.global.f32 %f2, [%rd9];\n  add.f32 %f3, %f1, %f2;\n"
    "  st.global.f32 [%rd10], %f3;\nDONE:\n  ret;\n"
    "RAISE:\n  ld.param.u64 %rd11, [vadd_param_4];\n"
    "  atom.global.cas.b32 %r5, [%rd11], 0, 1;\n  setp.ne.u32 %p3, %r5, 0;\n  @%p3 bra DONE;\n"
    "  st.global.u32 [%rd11+4], 1;\n  st.global.u32 [%rd11+8], 99;\n"
    "  add.s64 %rd12, %rd1, 1;\n  st.global.u64 [%rd11+24], %rd12;\n"
    "  add.u32 %r6, %r1, 1;\n  st.global.u32 [%rd11+88], %r6;\n"
    "  add.u32 %r7, %r3, 1;\n  st.global.u32 [%rd11+100], %r7;\n"
    "  membar.sys;\n  st.global.u32 [%rd11], 2;\n  exit;\n}\n";

static void test_cuda_device(void **state)
{
    RtDevice *dev;
    char *err = NULL;
    if (rt_device_open("cuda", 0, &dev, NULL, &err) != 0) {
        free(err);
        skip();
    }
    print_message("%s, max group %u, local %u bytes\n", rt_device_name(dev), rt_device_max_group_size(dev),
                  rt_device_max_local_bytes(dev));
    assert_true(strncmp(rt_device_arch(dev), "sm_", 3) == 0);
    RtModule *m;
    if (rt_module_load(dev, ptx_cuda_vadd, strlen(ptx_cuda_vadd), &m, &err) != 0)
        fail_msg("%s", err);
    RtFunction *f;
    assert_int_equal(rt_function_get(m, "vadd", &f, &err), 0);
    assert_true(rt_function_info(f)->has_exception_arg);
    int64_t n = (int64_t)(rnd() % 100000 + 1000);
    float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)(rnd() % 1000 + 1);
        b[i] = (float)(rnd() % 1000 + 1);
    }
    void *da, *db, *dc;
    assert_int_equal(rt_alloc(dev, n * 4, &da, &err), 0);
    assert_int_equal(rt_alloc(dev, n * 4, &db, &err), 0);
    assert_int_equal(rt_alloc(dev, n * 4, &dc, &err), 0);
    assert_int_equal(rt_upload(dev, da, a, n * 4, &err), 0);
    assert_int_equal(rt_upload(dev, db, b, n * 4, &err), 0);
    Arr1 A = arr1(da, n), B = arr1(db, n), C = arr1(dc, n);
    uint64_t never = UINT64_MAX;
    RtArg args[4] = { arg_of(&A, 24, 8), arg_of(&B, 24, 8), arg_of(&C, 24, 8), arg_of(&never, 8, 8) };
    uint32_t grid[3] = { (uint32_t)(n / 256 + 1), 1, 1 }, gs[3] = { 256, 1, 1 };
    JukeExceptionRecord exc;
    assert_int_equal(rt_launch(f, args, 4, grid, gs, 0, true, &exc, &err), 0);
    assert_int_equal(rt_download(dev, c, dc, n * 4, &err), 0);
    for (int64_t i = 0; i < n; i++)
        assert_true(c[i] == a[i] + b[i]);
    /* an exception, asynchronously: surfaces at rt_synchronize */
    uint64_t at = rnd() % (uint64_t)n;
    args[3] = arg_of(&at, 8, 8);
    assert_int_equal(rt_launch(f, args, 4, grid, gs, 0, false, &exc, &err), 0);
    assert_int_equal(rt_synchronize(dev, &exc, &err), 1);
    assert_int_equal(exc.kind, JUKE_EXC_BOUNDS);
    assert_int_equal(exc.line, 99);
    assert_int_equal(exc.index[0], (int64_t)at + 1);
    assert_int_equal(exc.group[0], at / 256 + 1);
    assert_int_equal(exc.item[0], at % 256 + 1);
    assert_int_equal(rt_synchronize(dev, &exc, &err), 0);
    args[3] = arg_of(&never, 8, 8);
    assert_int_equal(rt_memcpy_d2d(dev, dc, da, n * 4, &err), 0);
    assert_int_equal(rt_launch(f, args, 4, grid, gs, 0, true, &exc, &err), 0);
    assert_int_equal(rt_download(dev, c, dc, n * 4, &err), 0);
    for (int64_t i = 0; i < n; i++)
        assert_true(c[i] == a[i] + b[i]);
    /* errors */
    assert_int_equal(rt_launch(f, args, 3, grid, gs, 0, true, &exc, &err), -1);
    assert_string_equal(err, "vadd: 3 arguments given, the kernel expects 4");
    free(err);
    RtModule *bad;
    assert_int_equal(rt_module_load(dev, "garbage", 7, &bad, &err), -1);
    print_message("bad PTX: %s\n", err);
    assert_true(strncmp(err, "cuda: the PTX did not load (cuModuleLoadDataEx: ", 48) == 0);
    free(err);

    /* Launch overhead against raw cuLaunchKernel on the same function and
     * arguments: batches of 100 asynchronous launches, timed, then a sync
     * (untimed) so the queue never fills. */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    int (*raw_launch)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **,
                      void **) = lib ? dlsym(lib, "cuLaunchKernel") : NULL;
    int (*raw_sync)(void *) = lib ? dlsym(lib, "cuStreamSynchronize") : NULL;
    void *fn = *(void **)f->priv; /* CudaFunction's first field */
    uint64_t zero_exc = 0;
    void *params[5] = { &A, &B, &C, &never, &zero_exc };
    double t_rt = 0, t_raw = 0;
    for (int round = 0; round < 3; round++) {
        for (int batch = 0; batch < 100; batch++) {
            struct timespec t0, t1, t2, t3;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (int r = 0; r < 100; r++)
                rt_launch(f, args, 4, (uint32_t[3]){ 1, 1, 1 }, (uint32_t[3]){ 32, 1, 1 }, 0, false, NULL, NULL);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            rt_synchronize(dev, NULL, NULL);
            if (raw_launch) {
                clock_gettime(CLOCK_MONOTONIC, &t2);
                for (int r = 0; r < 100; r++)
                    raw_launch(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
                clock_gettime(CLOCK_MONOTONIC, &t3);
                raw_sync(NULL);
                if (round > 0)
                    t_raw += (t3.tv_sec - t2.tv_sec) * 1e9 + (t3.tv_nsec - t2.tv_nsec);
            }
            if (round > 0)
                t_rt += (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
        }
    }
    print_message("async launch: rt_launch %.3f us, raw cuLaunchKernel %.3f us\n", t_rt / 20000 / 1e3,
                  t_raw / 20000 / 1e3);
    assert_int_equal(rt_synchronize(dev, &exc, &err), 0);
    rt_free(dev, da);
    rt_free(dev, db);
    rt_free(dev, dc);
    rt_module_unload(m);
    rt_device_close(dev);
    free(a);
    free(b);
    free(c);
}

int main(void)
{
    const char *seed = getenv("JUKE_TEST_SEED");
    rng_state = seed ? strtoull(seed, NULL, 0) : 0x243f6a8885a308d3ull;
    if (!rng_state)
        rng_state = 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_cpu_device, cpu_setup, cpu_teardown),
        cmocka_unit_test_setup_teardown(test_cpu_vadd, cpu_setup, cpu_teardown),
        cmocka_unit_test_setup_teardown(test_cpu_coords, cpu_setup, cpu_teardown),
        cmocka_unit_test_setup_teardown(test_cpu_bsum_barrier, cpu_setup, cpu_teardown),
        cmocka_unit_test_setup_teardown(test_cpu_exception, cpu_setup, cpu_teardown),
        cmocka_unit_test_setup_teardown(test_cpu_threads, cpu_setup, cpu_teardown),
        cmocka_unit_test_setup_teardown(test_cpu_concurrent_launches, cpu_setup, cpu_teardown),
        cmocka_unit_test_setup_teardown(test_cpu_modules, cpu_setup, cpu_teardown),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_hip_absent),
        cmocka_unit_test(test_cuda_absent),
        cmocka_unit_test(test_auto),
#ifdef HIP_FIXTURE
        cmocka_unit_test(test_amdgpu_meta),
#endif
        cmocka_unit_test(test_amdgpu_meta_malformed),
        cmocka_unit_test(test_pack_hidden),
        cmocka_unit_test(test_ptx_parse),
        cmocka_unit_test(test_cuda_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
