/* test_api.c: the embedding API of include/juke.h: modules, the kernel cache,
 * specialisation on launch, launch=false, checks before a launch, dumps. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "juke.h"
#include "runtime.h"

static const char *src = "# two methods of one function and a kernel\n"
                         "twice(x::Integer) = 2x\n"
                         "twice(x::AbstractFloat) = x + x\n"
                         "function k!(y, x)\n"
                         "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                         "    if i <= length(y)\n"
                         "        @inbounds y[i] = twice(x[i])\n"
                         "    end\n"
                         "    return\n"
                         "end\n"
                         "function dyn!(y)\n"
                         "    buf = @ROCDynamicLocalArray(Float32, workgroupDim().x)\n"
                         "    buf[workitemIdx().x] = 1f0\n"
                         "    return\n"
                         "end\n"
                         "function bad!(y)\n"
                         "    y[length(y) + 1] = 0\n"
                         "    return\n"
                         "end\n";

static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void test_module_functions(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "api.jl", src, &m), JUKE_OK);
    assert_int_equal(juke_module_function_count(m), 4);
    assert_string_equal(juke_module_function_name(m, 0), "twice");
    assert_string_equal(juke_module_function_name(m, 1), "k!");
    assert_null(juke_module_function_name(m, 4));
    char *text = NULL;
    assert_int_equal(juke_lowered(m, "twice", NULL, 0, &text), JUKE_OK);
    /* both methods without types */
    assert_non_null(strstr(text, "twice(x) @ api.jl:2"));
    assert_non_null(strstr(text, "twice(x) @ api.jl:3"));
    juke_free(text);
    const char *f32[] = { "Float32" };
    assert_int_equal(juke_lowered(m, "twice", f32, 1, &text), JUKE_OK);
    assert_non_null(strstr(text, "@ api.jl:3"));
    assert_null(strstr(text, "@ api.jl:2"));
    juke_free(text);
    assert_int_equal(juke_lowered(m, "nosuch", NULL, 0, &text), JUKE_ERR_COMPILE);
    assert_non_null(strstr(juke_errmsg(ctx), "UndefVarError: `nosuch` not defined"));
    juke_context_destroy(ctx);
}

static void test_cache(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "api.jl", src, &m), JUKE_OK);
    const char *t1[] = { "Vector{Float32}", "Vector{Int32}" };
    const char *t2[] = { "Vector{Float32}", "Vector{Float64}" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    juke_kernel *a, *b, *c, *d;
    assert_int_equal(juke_compile(m, "k!", t1, 2, &o, &a), JUKE_OK);
    assert_int_equal(juke_compile(m, "k!", t1, 2, &o, &b), JUKE_OK);
    assert_ptr_equal(a, b); /* same function, types and options: the cached kernel */
    const char *t1b[] = { "Array{Float32, 1}", "ROCVector{Int32}" };
    assert_int_equal(juke_compile(m, "k!", t1b, 2, &o, &b), JUKE_OK);
    assert_ptr_equal(a, b); /* the same types written another way */
    assert_int_equal(juke_compile(m, "k!", t2, 2, &o, &c), JUKE_OK);
    assert_ptr_not_equal(a, c);
    o.target = "gfx90a";
    assert_int_equal(juke_compile(m, "k!", t1, 2, &o, &d), JUKE_OK);
    assert_ptr_not_equal(a, d);
    /* the typed dumps differ by the method dispatch picked */
    assert_non_null(strstr(juke_kernel_dump(a, JUKE_DUMP_TYPED), "twice(x::Int32)"));
    assert_non_null(strstr(juke_kernel_dump(c, JUKE_DUMP_TYPED), "twice(x::Float64)"));
    assert_non_null(strstr(juke_kernel_dump(d, JUKE_DUMP_ASM), "s_endpgm"));
    assert_non_null(strstr(juke_kernel_dump(d, JUKE_DUMP_RESOURCES), "VGPRs"));
    size_t size = 0;
    const unsigned char *co = juke_kernel_code_object(d, &size);
    assert_true(size > 64 && memcmp(co,
                                    "\x7f"
                                    "ELF",
                                    4) == 0);
    assert_string_equal(juke_kernel_symbol(d), "k_21");
    juke_context_destroy(ctx);
}

static void test_launch_and_launch_false(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    juke_device *dev;
    assert_int_equal(juke_module_load_string(ctx, "api.jl", src, &m), JUKE_OK);
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    assert_non_null(strstr(juke_device_name(dev), "cpu"));
    int64_t n = 1000;
    int32_t x[1000], y[1000];
    for (int i = 0; i < n; i++)
        x[i] = (int32_t)(rnd() % 100000) - 50000;
    juke_array *dx, *dy;
    assert_int_equal(juke_array_create(dev, JUKE_INT32, 1, &n, &dx), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_INT32, 1, &n, &dy), JUKE_OK);
    assert_int_equal(juke_array_upload(dx, x, sizeof x), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(dy), juke_arg_array(dx) };
    juke_kernel *k1, *k2;
    /* launch=false: the compiled kernel without running it, then the launch hits the cache */
    assert_int_equal(juke_kernel_for(dev, m, "k!", args, 2, &k1), JUKE_OK);
    juke_launch_config cfg = { { 64, 1, 1 }, { 16, 1, 1 }, 0, false };
    assert_int_equal(juke_launch(dev, m, "k!", args, 2, &cfg), JUKE_OK);
    assert_int_equal(juke_kernel_for(dev, m, "k!", args, 2, &k2), JUKE_OK);
    assert_ptr_equal(k1, k2);
    assert_int_equal(juke_array_download(dy, y, sizeof y), JUKE_OK);
    for (int i = 0; i < n; i++)
        assert_int_equal(y[i], 2 * x[i]);
    /* wrong upload size */
    assert_int_equal(juke_array_upload(dx, x, 12), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(ctx), "12 bytes given, the array holds 4000"));
    juke_context_destroy(ctx);
}

static void test_checks_before_launch(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    juke_device *dev;
    assert_int_equal(juke_module_load_string(ctx, "api.jl", src, &m), JUKE_OK);
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    int64_t n = 64;
    juke_array *y;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &y), JUKE_OK);
    juke_arg one[1] = { juke_arg_array(y) };
    juke_launch_config cfg = { { 64, 1, 1 }, { 1, 1, 1 }, 0, false };
    /* wrong arity: no method, the caller's mistake */
    assert_int_equal(juke_launch(dev, m, "k!", one, 1, &cfg), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(ctx), "MethodError: no method matching k!(::ROCDeviceArray{Float32, 1, 1})"));
    /* a group above the device's limit */
    juke_launch_config big = { { 2048, 1, 1 }, { 1, 1, 1 }, 0, false };
    assert_int_equal(juke_launch(dev, m, "dyn!", one, 1, &big), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(ctx), "exceeds the device's limit of 1024"));
    /* dynamic local memory the launch does not give */
    assert_int_equal(juke_launch(dev, m, "dyn!", one, 1, &cfg), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(ctx), "gives no dynamic local memory"));
    /* too much of it */
    juke_launch_config huge = { { 64, 1, 1 }, { 1, 1, 1 }, 1 << 20, false };
    assert_int_equal(juke_launch(dev, m, "dyn!", one, 1, &huge), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(ctx), "bytes of local memory"));
    cfg.shmem = 256;
    assert_int_equal(juke_launch(dev, m, "dyn!", one, 1, &cfg), JUKE_OK);
    /* an exception of an asynchronous launch: the error names the kernel */
    juke_launch_config as = { { 64, 1, 1 }, { 1, 1, 1 }, 0, true };
    juke_status st = juke_launch(dev, m, "bad!", one, 1, &as);
    if (st == JUKE_OK)
        st = juke_device_synchronize(dev);
    assert_int_equal(st, JUKE_ERR_KERNEL);
    assert_non_null(strstr(juke_errmsg(ctx), "bad!: BoundsError: attempt to access 64-element"));
    assert_non_null(strstr(juke_errmsg(ctx), "[65]"));
    assert_non_null(strstr(juke_errmsg(ctx), "api.jl:17"));
    juke_context_destroy(ctx);
}

static int count_files(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            n++;
    closedir(d);
    return n;
}

static void test_dump_dir_env(void **state)
{
    (void)state;
    char dir[] = "/tmp/juke-api-dumps-XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("JUKE_DUMP_DIR", dir, 1);
    juke_context *ctx = juke_context_create();
    unsetenv("JUKE_DUMP_DIR");
    juke_module *m;
    juke_device *dev;
    assert_int_equal(juke_module_load_string(ctx, "api.jl", src, &m), JUKE_OK);
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    int64_t n = 64;
    juke_array *x, *y;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT64, 1, &n, &x), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT64, 1, &n, &y), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(y), juke_arg_array(x) };
    juke_launch_config cfg = { { 64, 1, 1 }, { 1, 1, 1 }, 0, false };
    assert_int_equal(juke_launch(dev, m, "k!", args, 2, &cfg), JUKE_OK);
    assert_int_equal(count_files(dir, "k!_"), 7);
    /* a cached kernel writes its dumps again (after they were removed) */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -f %s/*", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(juke_launch(dev, m, "k!", args, 2, &cfg), JUKE_OK);
    assert_int_equal(count_files(dir, "k!_"), 7);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    juke_context_destroy(ctx);
}

static void test_null_arguments(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m = NULL;
    assert_int_equal(juke_module_load_string(ctx, "x.jl", NULL, &m), JUKE_ERR_ARGUMENT);
    assert_int_equal(juke_module_load_file(ctx, "/nonexistent/k.jl", &m), JUKE_ERR_IO);
    assert_non_null(strstr(juke_errmsg(ctx), "could not read /nonexistent/k.jl"));
    assert_int_equal(juke_compile(NULL, "k", NULL, 0, NULL, NULL), JUKE_ERR_ARGUMENT);
    assert_null(juke_kernel_dump(NULL, JUKE_DUMP_TYPED));
    assert_int_equal(juke_device_open(ctx, "hip", &(juke_device *){ 0 }), JUKE_ERR_DEVICE);
    assert_non_null(strstr(juke_errmsg(ctx), "no AMD GPU"));
    assert_int_equal(juke_device_open(ctx, "tpu", &(juke_device *){ 0 }), JUKE_ERR_DEVICE);
    assert_non_null(strstr(juke_errmsg(ctx), "unknown device"));
    juke_context_destroy(ctx);
}

/* The HIP backend packs kernel arguments from the code object's own metadata:
 * check it against a juke-compiled gfx90a code object (explicit and hidden arguments). */
static void test_hip_kernarg_packing(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "api.jl", src, &m), JUKE_OK);
    const char *types[] = { "Matrix{Float32}", "Vector{Int64}" };
    juke_options o;
    juke_options_default(&o);
    juke_kernel *k;
    assert_int_equal(juke_compile(m, "k!", types, 2, &o, &k), JUKE_OK);
    size_t size;
    const void *co = juke_kernel_code_object(k, &size);
    RtFunctionInfo info;
    char *err = NULL;
    assert_int_equal(amdgpu_meta_read(co, size, juke_kernel_symbol(k), &info, &err), 0);
    assert_true(info.has_exception_arg);
    assert_int_equal(info.nargs, 3);
    /* docs/abi.md: Matrix = 16 + 8*2 bytes at 0, Vector = 24 bytes at 32, the exception pointer at 56 */
    assert_int_equal(info.args[0].offset, 0);
    assert_int_equal(info.args[0].size, 32);
    assert_int_equal(info.args[1].offset, 32);
    assert_int_equal(info.args[1].size, 24);
    assert_int_equal(info.args[2].offset, 56);
    assert_int_equal(info.args[2].size, 8);
    uint8_t a0[32], a1[24], buf[1024];
    for (size_t i = 0; i < sizeof a0; i++)
        a0[i] = (uint8_t)rnd();
    for (size_t i = 0; i < sizeof a1; i++)
        a1[i] = (uint8_t)rnd();
    RtArg args[2] = { { a0, 32, 8 }, { a1, 24, 8 } };
    uint32_t grid[3] = { 7, 5, 1 }, group[3] = { 16, 8, 1 };
    void *exc = (void *)(uintptr_t)0x1234567890abcdefULL;
    int n = rt_pack_kernargs(&info, args, 2, exc, grid, group, 0, buf, sizeof buf, &err);
    assert_true(n >= (int)info.kernarg_size);
    assert_memory_equal(buf, a0, 32);
    assert_memory_equal(buf + 32, a1, 24);
    assert_memory_equal(buf + 56, &exc, 8);
    int seen = 0;
    for (uint32_t i = info.nargs; i < info.nall; i++) {
        const RtArgInfo *h = &info.args[i];
        assert_true(h->hidden);
        if (strcmp(h->value_kind, "hidden_block_count_x") == 0)
            assert_int_equal(*(uint32_t *)(buf + h->offset), 7), seen++;
        if (strcmp(h->value_kind, "hidden_block_count_y") == 0)
            assert_int_equal(*(uint32_t *)(buf + h->offset), 5), seen++;
        if (strcmp(h->value_kind, "hidden_group_size_x") == 0)
            assert_int_equal(*(uint16_t *)(buf + h->offset), 16), seen++;
        if (strcmp(h->value_kind, "hidden_group_size_y") == 0)
            assert_int_equal(*(uint16_t *)(buf + h->offset), 8), seen++;
    }
    assert_int_equal(seen, 4); /* code object v5 has them, and the kernel reads them */
    /* a wrong argument size is refused with a message */
    RtArg bad[2] = { { a0, 24, 8 }, { a1, 24, 8 } };
    assert_int_equal(rt_pack_kernargs(&info, bad, 2, exc, grid, group, 0, buf, sizeof buf, &err), -1);
    assert_non_null(err);
    free(err);
    juke_context_destroy(ctx);
}

/* The on-disk kernel cache: a second context (another process, in real use)
 * finds the kernel there; a damaged file is ignored and rewritten. */
static void test_disk_cache(void **state)
{
    (void)state;
    char dir[] = "/tmp/juke-api-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *types[] = { "Vector{Float32}", "Vector{Float32}" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    o.cache_dir = dir;
    juke_context *c1 = juke_context_create(), *c2 = juke_context_create();
    juke_module *m1, *m2;
    juke_kernel *k1, *k2;
    assert_int_equal(juke_module_load_string(c1, "api.jl", src, &m1), JUKE_OK);
    assert_int_equal(juke_compile(m1, "k!", types, 2, &o, &k1), JUKE_OK);
    assert_int_equal(count_files(dir, "k_21-"), 1);
    assert_int_equal(juke_module_load_string(c2, "api.jl", src, &m2), JUKE_OK);
    assert_int_equal(juke_compile(m2, "k!", types, 2, &o, &k2), JUKE_OK);
    size_t s1, s2;
    const void *co1 = juke_kernel_code_object(k1, &s1), *co2 = juke_kernel_code_object(k2, &s2);
    assert_int_equal(s1, s2);
    assert_memory_equal(co1, co2, s1);
    assert_string_equal(juke_kernel_dump(k1, JUKE_DUMP_TYPED), juke_kernel_dump(k2, JUKE_DUMP_TYPED));
    /* without a cache directory a compile leaves the texts to the first request: the same texts */
    juke_options onone = o;
    onone.cache_dir = NULL;
    juke_context *cnone = juke_context_create();
    juke_module *mnone;
    juke_kernel *knone;
    assert_int_equal(juke_module_load_string(cnone, "api.jl", src, &mnone), JUKE_OK);
    assert_int_equal(juke_compile(mnone, "k!", types, 2, &onone, &knone), JUKE_OK);
    assert_string_equal(juke_kernel_dump(knone, JUKE_DUMP_LOWERED), juke_kernel_dump(k1, JUKE_DUMP_LOWERED));
    assert_string_equal(juke_kernel_dump(knone, JUKE_DUMP_TYPED), juke_kernel_dump(k1, JUKE_DUMP_TYPED));
    juke_context_destroy(cnone);
    /* the cached kernel runs */
    juke_device *dev;
    assert_int_equal(juke_device_open(c2, "cpu", &dev), JUKE_OK);
    int64_t n = 100;
    float x[100], y[100];
    for (int i = 0; i < n; i++)
        x[i] = (float)(rnd() % 1000) / 7.0f;
    juke_array *dx, *dy;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &dx), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &dy), JUKE_OK);
    assert_int_equal(juke_array_upload(dx, x, sizeof x), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(dy), juke_arg_array(dx) };
    juke_launch_config cfg = { { 64, 1, 1 }, { 2, 1, 1 }, 0, false };
    assert_int_equal(juke_set_options(c2, &o), JUKE_OK);
    assert_int_equal(juke_launch(dev, m2, "k!", args, 2, &cfg), JUKE_OK);
    assert_int_equal(juke_array_download(dy, y, sizeof y), JUKE_OK);
    for (int i = 0; i < n; i++)
        assert_true(y[i] == x[i] + x[i]);
    juke_context_destroy(c1);
    juke_context_destroy(c2);
    /* damage the file: a third context compiles again and rewrites it */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "for f in %s/*.jkc; do head -c 100 \"$f\" > \"$f.x\" && mv \"$f.x\" \"$f\"; done", dir);
    assert_int_equal(system(cmd), 0);
    juke_context *c3 = juke_context_create();
    juke_module *m3;
    juke_kernel *k3;
    assert_int_equal(juke_module_load_string(c3, "api.jl", src, &m3), JUKE_OK);
    assert_int_equal(juke_compile(m3, "k!", types, 2, &o, &k3), JUKE_OK);
    size_t s3;
    juke_kernel_code_object(k3, &s3);
    assert_int_equal(s3, s1);
    juke_context_destroy(c3);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* The host's allocator: every front-end allocation goes through it, all of it
 * comes back by the time the context is destroyed, and a failing allocator is
 * an out-of-memory error, not a crash. */
typedef struct Counting {
    size_t calls, live_bytes;
    size_t fail_after; /* 0: never fail */
} Counting;

static void *counting_alloc(void *ud, void *ptr, size_t oldsize, size_t newsize)
{
    Counting *c = ud;
    if (newsize == 0) {
        c->live_bytes -= oldsize;
        free(ptr);
        return NULL;
    }
    if (c->fail_after && c->calls >= c->fail_after)
        return NULL;
    c->calls++;
    void *p = aligned_alloc(16, (newsize + 15) & ~(size_t)15);
    if (p)
        c->live_bytes += newsize;
    return p;
}

static void test_host_allocator(void **state)
{
    (void)state;
    Counting c = { 0 };
    juke_context *ctx = juke_context_create_with_allocator(counting_alloc, &c);
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "api.jl", src, &m), JUKE_OK);
    size_t after_load = c.calls;
    assert_true(after_load > 0);
    const char *types[] = { "Vector{Float32}", "Vector{Float32}" };
    char *text = NULL;
    assert_int_equal(juke_typed(m, "k!", types, 2, &text), JUKE_OK);
    juke_free(text);
    assert_true(c.calls > after_load); /* the compilation's arena too */
    juke_context_destroy(ctx);
    assert_int_equal(c.live_bytes, 0);
    Counting f = { .fail_after = 1 };
    ctx = juke_context_create_with_allocator(counting_alloc, &f);
    assert_int_equal(juke_module_load_string(ctx, "api.jl", src, &m), JUKE_ERR_NOMEM);
    assert_non_null(strstr(juke_errmsg(ctx), "out of memory"));
    juke_context_destroy(ctx);
    assert_int_equal(f.live_bytes, 0);
}

/* Streams: launches on a stream, its synchronisation reports a kernel
 * exception, and a stream of another device is refused. */
static void test_streams(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    juke_device *dev, *dev2;
    assert_int_equal(juke_module_load_string(ctx, "api.jl", src, &m), JUKE_OK);
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    assert_int_equal(juke_device_open(ctx, "cpu", &dev2), JUKE_OK);
    juke_stream *s1, *s2, *other;
    assert_int_equal(juke_stream_create(dev, &s1), JUKE_OK);
    assert_int_equal(juke_stream_create(dev, &s2), JUKE_OK);
    assert_int_equal(juke_stream_create(dev2, &other), JUKE_OK);
    int64_t n = 256;
    int64_t x[256], y[256];
    for (int i = 0; i < n; i++)
        x[i] = (int64_t)(rnd() % 2000001) - 1000000;
    juke_array *dx, *dy;
    assert_int_equal(juke_array_create(dev, JUKE_INT64, 1, &n, &dx), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_INT64, 1, &n, &dy), JUKE_OK);
    assert_int_equal(juke_array_upload(dx, x, sizeof x), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(dy), juke_arg_array(dx) };
    juke_launch_config cfg = { { 64, 1, 1 }, { 4, 1, 1 }, 0, true, s1 };
    assert_int_equal(juke_launch(dev, m, "k!", args, 2, &cfg), JUKE_OK);
    assert_int_equal(juke_stream_synchronize(s1), JUKE_OK);
    assert_int_equal(juke_array_download(dy, y, sizeof y), JUKE_OK);
    for (int i = 0; i < n; i++)
        assert_int_equal(y[i], 2 * x[i]);
    /* an exception on s2 surfaces at its synchronisation, naming the kernel */
    juke_arg one[1] = { juke_arg_array(dy) };
    juke_launch_config bad = { { 64, 1, 1 }, { 1, 1, 1 }, 0, true, s2 };
    juke_status st = juke_launch(dev, m, "bad!", one, 1, &bad);
    if (st == JUKE_OK)
        st = juke_stream_synchronize(s2);
    assert_int_equal(st, JUKE_ERR_KERNEL);
    assert_non_null(strstr(juke_errmsg(ctx), "bad!: BoundsError"));
    /* a stream of another device */
    cfg.stream = other;
    assert_int_equal(juke_launch(dev, m, "k!", args, 2, &cfg), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(ctx), "stream belongs to another device"));
    juke_stream_destroy(s2);
    assert_int_equal(juke_stream_synchronize(NULL), JUKE_ERR_ARGUMENT);
    juke_context_destroy(ctx); /* s1 and other close with their devices */
}

/* What used to be read from the environment deep inside the library is a
 * context option: CPU worker threads and the linker mode (the environment
 * still sets them, read once when the context is created). */
static void test_context_options(void **state)
{
    juke_context *ctx = juke_context_create();
    juke_options o;
    juke_options_default(&o);
    int threads = 2 + rand() % 5;
    o.cpu_threads = threads;
    o.target = "cpu";
    o.linker = JUKE_LINK_SPAWN;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_OK);
    juke_device *dev = NULL;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    char want[64];
    snprintf(want, sizeof want, "cpu (%d threads)", threads);
    assert_string_equal(juke_device_name(dev), want);
    /* a kernel linked by a spawned ld.lld runs like one linked in process */
    juke_module *m = NULL;
    assert_int_equal(
        juke_module_load_string(ctx, "k.jl",
                                "function k!(a)\n    i = workitemIdx().x\n    a[i] = 2f0 * i\n    return\nend\n", &m),
        JUKE_OK);
    int64_t n = 8 + rand() % 56;
    juke_array *a = NULL;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &a), JUKE_OK);
    juke_arg args[1] = { juke_arg_array(a) };
    juke_launch_config cfg = { .groupsize = { (uint32_t)n, 1, 1 }, .gridsize = { 1, 1, 1 } };
    assert_int_equal(juke_launch(dev, m, "k!", args, 1, &cfg), JUKE_OK);
    float out[64];
    assert_int_equal(juke_array_download(a, out, (size_t)n * sizeof(float)), JUKE_OK);
    for (int64_t i = 0; i < n; i++)
        assert_true(out[i] == 2.0f * (float)(i + 1));
    o.cpu_threads = 2000;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_ERR_ARGUMENT);
    o.cpu_threads = 0;
    o.linker = 7;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_ERR_ARGUMENT);
    juke_context_destroy(ctx);
}

/* A device global set before a launch and read after it (juke_kernel_global_set / _get), an Int128 argument
 * passed by value, and the device heap's size: malloc gives NULL past it. Fresh values each run. */
static void test_globals_int128_heap(void **state)
{
    (void)state;
    static const char gsrc[] = "function acc!(X, x)\n"
                               "    p = AMDGPU.get_global_pointer(Val(:acc), Int64)\n"
                               "    unsafe_store!(p, unsafe_load(p) + Int64(x >> 64))\n"
                               "    q = AMDGPU.malloc(Csize_t(1000))\n"
                               "    X[1] = reinterpret(UInt64, q) != 0 ? 1 : 0\n"
                               "    AMDGPU.free(q)\n"
                               "    nothing\n"
                               "end\n";
    juke_context *ctx = juke_context_create();
    juke_module *m;
    juke_device *dev;
    assert_int_equal(juke_module_load_string(ctx, "globals.jl", gsrc, &m), JUKE_OK);
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    int64_t one = 1, flag = -1, start = (int64_t)(rnd() % 1000) + 1, hi = (int64_t)(rnd() % 1000) - 500, got = 0;
    juke_array *x;
    assert_int_equal(juke_array_create(dev, JUKE_INT64, 1, &one, &x), JUKE_OK);
    unsigned char wide[16] = { 0 };
    memcpy(wide + 8, &hi, 8); /* x = hi * 2^64 + 0, little-endian */
    juke_arg args[2] = { juke_arg_array(x), juke_arg_value("Int128", wide, 16) };
    const char *types[2] = { "Vector{Int64}", "Int128" };
    juke_kernel *k;
    assert_int_equal(juke_kernel_get(m, "acc!", types, 2, dev, &k), JUKE_OK);
    assert_int_equal(juke_kernel_global_set(k, dev, "acc", &start, sizeof start), JUKE_OK);
    assert_int_equal(juke_kernel_global_set(k, dev, "acc", &start, 4), JUKE_ERR_ARGUMENT);
    assert_int_equal(juke_kernel_global_get(k, dev, "nope", &got, 8), JUKE_ERR_ARGUMENT);
    juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false };
    for (int r = 1; r <= 2; r++) {
        assert_int_equal(juke_kernel_launch(k, dev, args, 2, &cfg), JUKE_OK);
        assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
        assert_int_equal(juke_kernel_global_get(k, dev, "acc", &got, sizeof got), JUKE_OK);
        assert_int_equal(got, start + r * hi);
        assert_int_equal(juke_array_download(x, &flag, 8), JUKE_OK);
        assert_int_equal(flag, 1);
    }
    /* a heap too small for one 1000-byte block: malloc gives NULL */
    assert_int_equal(juke_device_set_heap_size(dev, 1024), JUKE_OK);
    assert_int_equal(juke_device_heap_size(dev), 1024);
    assert_int_equal(juke_kernel_launch(k, dev, args, 2, &cfg), JUKE_OK);
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    assert_int_equal(juke_array_download(x, &flag, 8), JUKE_OK);
    assert_int_equal(flag, 0);
    assert_int_equal(juke_device_set_heap_size(dev, 100), JUKE_ERR_ARGUMENT);
    juke_context_destroy(ctx);
}

int main(void)
{
    rng = (uint64_t)time(NULL) | 1;
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_module_functions),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_launch_and_launch_false),
        cmocka_unit_test(test_checks_before_launch),
        cmocka_unit_test(test_dump_dir_env),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_hip_kernarg_packing),
        cmocka_unit_test(test_disk_cache),
        cmocka_unit_test(test_host_allocator),
        cmocka_unit_test(test_streams),
        cmocka_unit_test(test_context_options),
        cmocka_unit_test(test_globals_int128_heap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
