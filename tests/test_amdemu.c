/* test_amdemu.c: the HIP backend's success path (runtime/dev_hip.c: argument
 * packing from the metadata, hidden arguments, launches, copies) against the
 * AMD ISA emulator, with the clang-built code object of hip_fixture.hip
 * (gfx90a); an instruction the emulator does not model stops the launch with
 * its name and offset; the trace mode prints each instruction. */
#include <elf.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "abi.h"
#include "runtime.h"
#include "testutil.h"

typedef struct Env {
    RtDevice *dev;
    uint8_t *img;
    size_t size;
} Env;

static int setup(void **state)
{
    static Env env;
    char *err = NULL;
    if (rt_device_open("amdemu:gfx90a", 0, &env.dev, NULL, &err) != 0) {
        fprintf(stderr, "test_amdemu: %s\n", err);
        free(err);
        return -1;
    }
    env.img = tu_read_file(HIP_FIXTURE, &env.size);
    *state = &env;
    return env.img ? 0 : -1;
}

static int teardown(void **state)
{
    Env *env = *state;
    rt_device_close(env->dev);
    free(env->img);
    return 0;
}

/* Loads img as a module and returns its function `name` (the module in *m). */
static RtFunction *load_function(Env *env, const uint8_t *img, const char *name, RtModule **m)
{
    char *err = NULL;
    RtFunction *f;
    assert_int_equal(rt_module_load(env->dev, img, env->size, m, &err), 0);
    assert_int_equal(rt_function_get(*m, name, &f, &err), 0);
    return f;
}

/* k2's arguments: a Julia array descriptor of len elements at p, a char and a short. */
typedef struct K2Args {
    struct {
        void *ptr;
        int64_t dim, len;
    } arr;
    int8_t c;
    int16_t s;
    RtArg args[3];
} K2Args;

static void k2_args(K2Args *a, void *p, int64_t len, int8_t c, int16_t s)
{
    a->arr.ptr = p;
    a->arr.dim = a->arr.len = len;
    a->c = c;
    a->s = s;
    a->args[0] = (RtArg){ &a->arr, 24, 8 };
    a->args[1] = (RtArg){ &a->c, 1, 1 };
    a->args[2] = (RtArg){ &a->s, 2, 2 };
}

/* k(x, n, a) on total floats set to -1 first, with grid groups of 64 and the
 * launch flags given; checks x[i] == a * (grid * 64) for i < n, -1 past n.
 * Returns the function for further launches (module in *m, buffer in *x). */
static RtFunction *run_k(Env *env, int n, double a, uint32_t groups, unsigned flags, RtModule **m, void **x)
{
    char *err = NULL;
    RtFunction *f = load_function(env, env->img, "k", m);
    int total = (int)groups * 64;
    float *host = malloc(total * sizeof *host);
    for (int i = 0; i < total; i++)
        host[i] = -1.0f;
    assert_int_equal(rt_alloc(env->dev, total * sizeof *host, x, &err), 0);
    assert_int_equal(rt_upload(env->dev, *x, host, total * sizeof *host, &err), 0);
    RtArg args[] = { { x, 8, 8 }, { &n, 4, 4 }, { &a, 8, 8 } };
    uint32_t grid[3] = { groups, 1, 1 }, group[3] = { 64, 1, 1 };
    JukeExceptionRecord exc;
    int rc = rt_launch_on(f, NULL, args, 3, grid, group, 0, flags, 0, &exc, &err);
    if (rc < 0)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(rt_download(env->dev, host, *x, total * sizeof *host, &err), 0);
    for (int i = 0; i < total; i++)
        assert_true(host[i] == (i < n ? (float)a * (float)total : -1.0f));
    free(host);
    return f;
}

static void test_device(void **state)
{
    Env *env = *state;
    assert_string_equal(rt_device_arch(env->dev), "gfx90a");
    assert_non_null(strstr(rt_device_name(env->dev), "amdemu:0 gfx90a"));
}

/* k(x, n, a, exc): x[i] = a * the grid's size in work-items (a hidden argument) for i < n. */
static void test_scalars_and_hidden(void **state)
{
    Env *env = *state;
    RtModule *m;
    void *x;
    run_k(env, 100, 1.5, 3, RT_LAUNCH_SYNC, &m, &x);
    rt_free(env->dev, x);
    rt_module_unload(m);
}

/* A cooperative launch of k: HIP lays out kernelParams from the metadata (the
 * hidden grid size too); a grid larger than the device holds at once fails
 * as HIP's does. */
static void test_cooperative(void **state)
{
    Env *env = *state;
    char *err = NULL;
    RtModule *m;
    void *x;
    unsigned flags = RT_LAUNCH_SYNC | RT_LAUNCH_COOPERATIVE;
    RtFunction *f = run_k(env, 150, 0.25, 4, flags, &m, &x);
    /* gfx90a: 110 compute units of 32 waves: 3520 one-wave groups at most */
    int n = 150;
    double a = 0.25;
    RtArg args[] = { { &x, 8, 8 }, { &n, 4, 4 }, { &a, 8, 8 } };
    uint32_t big[3] = { 3521, 1, 1 }, group[3] = { 64, 1, 1 };
    JukeExceptionRecord exc;
    assert_int_equal(rt_launch_on(f, NULL, args, 3, big, group, 0, flags, 0, &exc, &err), -1);
    assert_non_null(strstr(err, "cooperative launch too large: 3521 workgroups of 1 wave and 0 bytes of LDS, but at "
                                "most 3520 can be resident at once on gfx90a"));
    free(err);
    rt_free(env->dev, x);
    rt_module_unload(m);
}

/* k2(arr, c, s, exc): arr.ptr[i] = c + s for i < arr.len; a struct, a char and a short packed after it. */
static void test_struct_char_short(void **state)
{
    Env *env = *state;
    char *err = NULL;
    RtModule *m;
    RtFunction *f = load_function(env, env->img, "k2", &m);
    float host[64] = { 0 };
    void *p;
    assert_int_equal(rt_alloc(env->dev, sizeof host, &p, &err), 0);
    assert_int_equal(rt_upload(env->dev, p, host, sizeof host, &err), 0);
    K2Args a;
    k2_args(&a, p, 10, -3, 400);
    uint32_t grid[3] = { 1, 1, 1 }, group[3] = { 64, 1, 1 };
    JukeExceptionRecord exc;
    assert_int_equal(rt_launch(f, a.args, 3, grid, group, 0, true, &exc, &err), 0);
    assert_int_equal(rt_download(env->dev, host, p, sizeof host, &err), 0);
    for (int i = 0; i < 64; i++)
        assert_true(host[i] == (i < 10 ? 397.0f : 0.0f));
    rt_free(env->dev, p);
    rt_module_unload(m);
}

/* The file offset of function `name`'s first instruction (from .symtab and its section). */
static size_t code_offset(const uint8_t *img, const char *name)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
        const char *str = (const char *)(img + sh[sh[i].sh_link].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++)
            if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC && strcmp(str + sym[k].st_name, name) == 0) {
                const Elf64_Shdr *sec = &sh[sym[k].st_shndx];
                return sec->sh_offset + (sym[k].st_value - sec->sh_addr);
            }
    }
    return 0;
}

/* An MFMA instruction (not modelled) as k2's first: the launch stops naming it, never computes. */
/* A host thread writes 64-bit values k | k << 32 to *flag while a wave loads it over and over
 * (uniform_load). The emulator runs a wave's lanes one after another, but the GPU serves a load's lanes
 * from one request: all lanes of one load must see one value (LLVM takes a load from a uniform address
 * to be uniform: the device heap's malloc failed on that), and an aligned 8-byte load is never torn. */
typedef struct Writer {
    volatile uint64_t *flag;
    int stop;
} Writer;

static void *write_flag(void *arg)
{
    Writer *w = arg;
    for (uint64_t k = 1; !__atomic_load_n(&w->stop, __ATOMIC_RELAXED); k++)
        __atomic_store_n(w->flag, k | k << 32, __ATOMIC_RELAXED);
    return NULL;
}

static void test_uniform_load(void **state)
{
    Env *env = *state;
    char *err = NULL;
    RtModule *m;
    RtFunction *f = load_function(env, env->img, "uniform_load", &m);
    enum { LANES = 64, ITERS = 2000 };
    void *flag, *seen;
    uint64_t zero = 0;
    assert_int_equal(rt_alloc(env->dev, 8, &flag, &err), 0);
    assert_int_equal(rt_upload(env->dev, flag, &zero, 8, &err), 0);
    assert_int_equal(rt_alloc(env->dev, (size_t)LANES * ITERS * 8, &seen, &err), 0);
    uint64_t *host = malloc((size_t)LANES * ITERS * 8);
    assert_non_null(host);
    int iters = ITERS, changes = 0;
    RtArg args[] = { { &flag, 8, 8 }, { &seen, 8, 8 }, { &iters, 4, 4 } };
    uint32_t grid[3] = { 1, 1, 1 }, group[3] = { LANES, 1, 1 };
    /* the amdemu device's memory is the host's: the writer stores to it directly; relaunch until the writer
       ran alongside the kernel (the value changed between loads), so a pass means something */
    for (int round = 0; round < 100 && changes < 20; round++) {
        Writer w = { flag, 0 };
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, write_flag, &w), 0);
        JukeExceptionRecord exc;
        int rc = rt_launch(f, args, 3, grid, group, 0, true, &exc, &err);
        __atomic_store_n(&w.stop, 1, __ATOMIC_RELAXED);
        pthread_join(t, NULL);
        assert_int_equal(rc, 0);
        assert_int_equal(rt_download(env->dev, host, seen, (size_t)LANES * ITERS * 8, &err), 0);
        for (int i = 0; i < ITERS; i++) {
            const uint64_t *row = host + (size_t)i * LANES;
            for (int l = 0; l < LANES; l++) {
                assert_int_equal((uint32_t)row[l], (uint32_t)(row[l] >> 32)); /* not torn */
                assert_int_equal(row[l], row[0]);                             /* one value per load */
            }
            changes += i > 0 && row[0] != row[-LANES];
        }
    }
    assert_true(changes >= 20);
    free(host);
    rt_free(env->dev, flag);
    rt_free(env->dev, seen);
    rt_module_unload(m);
}

static void test_unmodelled_instruction(void **state)
{
    Env *env = *state;
    char *err = NULL;
    uint8_t *img = malloc(env->size);
    memcpy(img, env->img, env->size);
    size_t off = code_offset(img, "k2");
    assert_true(off > 0);
    const uint32_t mfma[2] = { 0xd3c28000, 0x04020100 }; /* v_mfma_f32_4x4x1f32 a[0:3], v0, v0, a[0:3] */
    memcpy(img + off, mfma, sizeof mfma);
    RtModule *m;
    RtFunction *f = load_function(env, img, "k2", &m);
    void *p;
    assert_int_equal(rt_alloc(env->dev, 64, &p, &err), 0);
    K2Args a;
    k2_args(&a, p, 1, 1, 2);
    uint32_t grid[3] = { 1, 1, 1 }, group[3] = { 1, 1, 1 };
    JukeExceptionRecord exc;
    assert_int_equal(rt_launch(f, a.args, 3, grid, group, 0, true, &exc, &err), -1);
    assert_non_null(
        strstr(err, "hip: launch of k2 failed: amdemu: k2: unknown or unmodelled instruction at offset 0x"));
    assert_non_null(strstr(err, "(VOP3 encoding d3c28000 04020100), wave 0 of workgroup (0,0,0)"));
    free(err);
    rt_free(env->dev, p);
    rt_module_unload(m);
    free(img);
}

/* JUKE_AMDEMU_TRACE=1: one line per instruction with the wave, EXEC and what changed. */
static void test_trace(void **state)
{
    Env *env = *state;
    char *err = NULL;
    RtModule *m;
    RtFunction *f = load_function(env, env->img, "k2", &m);
    void *p;
    assert_int_equal(rt_alloc(env->dev, 64, &p, &err), 0);
    K2Args a;
    k2_args(&a, p, 2, 1, 2);
    uint32_t grid[3] = { 1, 1, 1 }, group[3] = { 3, 1, 1 };
    JukeExceptionRecord exc;
    char path[] = "/tmp/juke-amdemu-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    setenv("JUKE_AMDEMU_TRACE", "1", 1);
    int rc = rt_launch(f, a.args, 3, grid, group, 0, true, &exc, &err);
    unsetenv("JUKE_AMDEMU_TRACE");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    assert_int_equal(rc, 0);
    size_t n;
    char *text = (char *)tu_read_file(path, &n);
    unlink(path);
    assert_non_null(text);
    text = realloc(text, n + 1);
    text[n] = '\0';
    assert_non_null(strstr(text, "amdemu: g(0,0,0) w0 pc=0x"));
    assert_non_null(strstr(text, " exec=0000000000000007 "));
    assert_non_null(strstr(text, " s_endpgm ("));
    free(text);
    rt_free(env->dev, p);
    rt_module_unload(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device),
        cmocka_unit_test(test_scalars_and_hidden),
        cmocka_unit_test(test_struct_char_short),
        cmocka_unit_test(test_cooperative),
        cmocka_unit_test(test_uniform_load),
        cmocka_unit_test(test_unmodelled_instruction),
        cmocka_unit_test(test_trace),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
