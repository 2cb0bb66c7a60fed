/* test_capi.c: the C API a host program needs: arrays over the host's own
 * memory (juke_array_wrap), fills and ranged copies, the array getters,
 * kernel handles (juke_kernel_get / juke_kernel_launch), events, the
 * argument helpers of every primitive type, and one scenario per juke_status.
 * On a machine with a GPU the wrap, handle and event tests run there too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "juke.h"

static const char *src = "function axpy!(y, a, x)\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
                         "    if i <= length(y)\n"
                         "        @inbounds y[i] = a * x[i] + y[i]\n"
                         "    end\n"
                         "    return\n"
                         "end\n"
                         "function store!(y, v)\n"
                         "    y[1] = v\n"
                         "    return\n"
                         "end\n"
                         "function oob!(y)\n"
                         "    y[length(y) + 1] = 0f0\n"
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
static float rndf(void)
{
    return (float)(rnd() % 20001) / 1000.0f - 10.0f;
}

static const char *axpy_types[] = { "Vector{Float32}", "Float32", "Vector{Float32}" };

typedef struct Fixture {
    juke_context *ctx;
    juke_module *m;
    juke_device *cpu;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    f->ctx = juke_context_create();
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    o.cpu_threads = 2;
    if (juke_set_options(f->ctx, &o) || juke_module_load_string(f->ctx, "capi.jl", src, &f->m) ||
        juke_device_open(f->ctx, "cpu", &f->cpu))
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    juke_context_destroy(f->ctx);
    free(f);
    return 0;
}

/* Host memory wrapped on the CPU device: a handle launch writes into it, and
 * neither juke_array_free nor juke_context_destroy frees it (free() below
 * would abort on a double free). */
static void test_wrap_cpu(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    juke_device *dev;
    assert_int_equal(juke_module_load_string(ctx, "capi.jl", src, &m), JUKE_OK);
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    int64_t n = 100 + (int64_t)(rnd() % 900);
    float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n),
          *y0 = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        x[i] = rndf();
        y[i] = y0[i] = rndf();
    }
    juke_array *ax, *ay;
    assert_int_equal(juke_array_wrap(dev, x, JUKE_FLOAT32, 1, &n, &ax), JUKE_OK);
    assert_int_equal(juke_array_wrap(dev, y, JUKE_FLOAT32, 1, &n, &ay), JUKE_OK);
    assert_ptr_equal(juke_array_pointer(ax), x);
    juke_kernel *k;
    assert_int_equal(juke_kernel_get(m, "axpy!", axpy_types, 3, dev, &k), JUKE_OK);
    float a = rndf();
    juke_arg args[3] = { juke_arg_array(ay), juke_arg_f32(a), juke_arg_array(ax) };
    juke_launch_config cfg = { { 64, 1, 1 }, { (uint32_t)((n + 63) / 64), 1, 1 }, 0, false };
    assert_int_equal(juke_kernel_launch(k, dev, args, 3, &cfg), JUKE_OK);
    for (int64_t i = 0; i < n; i++)
        assert_float_equal(y[i], a * x[i] + y0[i], 1e-4);
    juke_array_free(ay);
    y[0] = 1.0f; /* still the host's */
    juke_context_destroy(ctx);
    x[n - 1] = 2.0f;
    free(x);
    free(y);
    free(y0);
}

static void test_wrap_rejects(void **state)
{
    Fixture *f = *state;
    int64_t n = 8, neg = -1;
    float buf[9];
    juke_array *a;
    assert_int_equal(juke_array_wrap(f->cpu, NULL, JUKE_FLOAT32, 1, &n, &a), JUKE_ERR_ARGUMENT);
    assert_null(a);
    assert_non_null(strstr(juke_errmsg(f->ctx), "juke_array_wrap: NULL pointer for 8 elements"));
    assert_int_equal(juke_array_wrap(f->cpu, (char *)buf + 1, JUKE_FLOAT32, 1, &n, &a), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "is not aligned to its 4-byte Float32 elements"));
    assert_int_equal(juke_array_wrap(f->cpu, buf, JUKE_FLOAT32, 1, &neg, &a), JUKE_ERR_ARGUMENT);
    assert_int_equal(juke_array_wrap(f->cpu, buf, (juke_type)99, 1, &n, &a), JUKE_ERR_ARGUMENT);
}

static void test_fill_and_copies(void **state)
{
    Fixture *f = *state;
    int64_t n = 50 + (int64_t)(rnd() % 500);
    juke_array *a, *b;
    assert_int_equal(juke_array_create(f->cpu, JUKE_INT32, 1, &n, &a), JUKE_OK);
    assert_int_equal(juke_array_create(f->cpu, JUKE_INT32, 1, &n, &b), JUKE_OK);
    int32_t v = (int32_t)rnd();
    assert_int_equal(juke_array_fill(a, &v), JUKE_OK);
    int32_t *h = malloc(sizeof(int32_t) * (size_t)n), *ref = malloc(sizeof(int32_t) * (size_t)n);
    assert_int_equal(juke_array_copy_to_host(h, a, 0, n), JUKE_OK);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(h[i], v);
    /* host → device at an offset */
    for (int64_t i = 0; i < n; i++)
        ref[i] = v;
    int64_t off = (int64_t)(rnd() % (uint64_t)n), cnt = (int64_t)(rnd() % (uint64_t)(n - off + 1));
    int32_t *part = malloc(sizeof(int32_t) * (size_t)(cnt + 1));
    for (int64_t i = 0; i < cnt; i++)
        ref[off + i] = part[i] = (int32_t)rnd();
    assert_int_equal(juke_array_copy_from_host(a, off, part, cnt), JUKE_OK);
    assert_int_equal(juke_array_copy_to_host(h, a, 0, n), JUKE_OK);
    assert_memory_equal(h, ref, sizeof(int32_t) * (size_t)n);
    /* device → host of a middle range */
    int32_t *mid = malloc(sizeof(int32_t) * (size_t)n);
    assert_int_equal(juke_array_copy_to_host(mid, a, off, n - off), JUKE_OK);
    assert_memory_equal(mid, ref + off, sizeof(int32_t) * (size_t)(n - off));
    /* device → device between offsets */
    int32_t w = (int32_t)rnd();
    assert_int_equal(juke_array_fill(b, &w), JUKE_OK);
    int64_t so = (int64_t)(rnd() % (uint64_t)n), dof = (int64_t)(rnd() % (uint64_t)n);
    int64_t c = (int64_t)(rnd() % (uint64_t)((n - so < n - dof ? n - so : n - dof) + 1));
    assert_int_equal(juke_array_copy(b, dof, a, so, c), JUKE_OK);
    assert_int_equal(juke_array_copy_to_host(h, b, 0, n), JUKE_OK);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(h[i], i >= dof && i < dof + c ? ref[so + i - dof] : w);
    /* overlapping ranges of one array: as memmove */
    assert_int_equal(juke_array_copy_from_host(a, 0, ref, n), JUKE_OK);
    assert_int_equal(juke_array_copy(a, 1, a, 0, n - 1), JUKE_OK);
    assert_int_equal(juke_array_copy_to_host(h, a, 0, n), JUKE_OK);
    assert_int_equal(h[0], ref[0]);
    assert_memory_equal(h + 1, ref, sizeof(int32_t) * (size_t)(n - 1));
    /* between two devices */
    juke_device *cpu2;
    juke_array *c2;
    assert_int_equal(juke_device_open(f->ctx, "cpu", &cpu2), JUKE_OK);
    assert_int_equal(juke_array_create(cpu2, JUKE_INT32, 1, &n, &c2), JUKE_OK);
    assert_int_equal(juke_array_copy(c2, 0, b, 0, n), JUKE_OK);
    int32_t *h2 = malloc(sizeof(int32_t) * (size_t)n);
    assert_int_equal(juke_array_copy_to_host(h2, c2, 0, n), JUKE_OK);
    assert_int_equal(juke_array_copy_to_host(h, b, 0, n), JUKE_OK);
    assert_memory_equal(h, h2, sizeof(int32_t) * (size_t)n);
    juke_device_close(cpu2);
    /* out of range: nothing copied, a clear message */
    assert_int_equal(juke_array_copy_to_host(h, a, n - 2, 3), JUKE_ERR_ARGUMENT);
    char want[160];
    snprintf(want, sizeof want,
             "juke_array_copy_to_host: source elements [%lld, %lld) (offset %lld, count 3) lie outside "
             "its %lld elements",
             (long long)n - 2, (long long)n + 1, (long long)n - 2, (long long)n);
    assert_string_equal(juke_errmsg(f->ctx), want);
    assert_int_equal(juke_array_copy_from_host(a, -1, part, 1), JUKE_ERR_ARGUMENT);
    assert_int_equal(juke_array_copy(b, 1, a, 0, n), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "destination elements [1,"));
    juke_array *fl;
    assert_int_equal(juke_array_create(f->cpu, JUKE_FLOAT32, 1, &n, &fl), JUKE_OK);
    assert_int_equal(juke_array_copy(fl, 0, a, 0, 1), JUKE_ERR_ARGUMENT);
    assert_string_equal(juke_errmsg(f->ctx),
                        "juke_array_copy: a Int32 source and a Float32 destination (copies do not convert)");
    assert_int_equal(juke_array_fill(a, NULL), JUKE_ERR_ARGUMENT);
    free(h);
    free(h2);
    free(ref);
    free(part);
    free(mid);
}

static void test_getters(void **state)
{
    Fixture *f = *state;
    int64_t dims[3] = { 1 + (int64_t)(rnd() % 9), 1 + (int64_t)(rnd() % 9), 1 + (int64_t)(rnd() % 9) };
    juke_array *a;
    assert_int_equal(juke_array_create(f->cpu, JUKE_UINT16, 3, dims, &a), JUKE_OK);
    assert_int_equal(juke_array_ndims(a), 3);
    for (int d = 0; d < 3; d++)
        assert_int_equal(juke_array_size(a, d + 1), dims[d]);
    assert_int_equal(juke_array_size(a, 4), 1);
    assert_int_equal(juke_array_size(a, 0), 0);
    assert_int_equal(juke_array_eltype(a), JUKE_UINT16);
    assert_ptr_equal(juke_array_device(a), f->cpu);
    assert_non_null(juke_array_pointer(a));
    assert_int_equal(juke_array_ndims(NULL), 0);
    assert_int_equal(juke_array_eltype(NULL), 0);
    assert_null(juke_array_pointer(NULL));
}

/* A handle checks its arguments against the types it was compiled for. */
static void test_kernel_handle_checks(void **state)
{
    Fixture *f = *state;
    juke_kernel *k;
    assert_int_equal(juke_kernel_get(f->m, "axpy!", axpy_types, 3, f->cpu, &k), JUKE_OK);
    juke_kernel *again;
    assert_int_equal(juke_kernel_get(f->m, "axpy!", axpy_types, 3, f->cpu, &again), JUKE_OK);
    assert_ptr_equal(k, again);
    int64_t n = 16;
    juke_array *y, *x, *xi;
    assert_int_equal(juke_array_create(f->cpu, JUKE_FLOAT32, 1, &n, &y), JUKE_OK);
    assert_int_equal(juke_array_create(f->cpu, JUKE_FLOAT32, 1, &n, &x), JUKE_OK);
    assert_int_equal(juke_array_create(f->cpu, JUKE_INT32, 1, &n, &xi), JUKE_OK);
    juke_launch_config cfg = { { 16, 1, 1 }, { 1, 1, 1 }, 0, false };
    juke_arg two[2] = { juke_arg_array(y), juke_arg_f32(1) };
    assert_int_equal(juke_kernel_launch(k, f->cpu, two, 2, &cfg), JUKE_ERR_ARGUMENT);
    assert_string_equal(juke_errmsg(f->ctx), "axpy!: 2 arguments given, the kernel was compiled for 3");
    juke_arg wrong[3] = { juke_arg_array(y), juke_arg_f64(1), juke_arg_array(x) };
    assert_int_equal(juke_kernel_launch(k, f->cpu, wrong, 3, &cfg), JUKE_ERR_ARGUMENT);
    assert_string_equal(juke_errmsg(f->ctx), "axpy!: argument 2 is a Float64, but the kernel was compiled for Float32");
    juke_arg wrong_arr[3] = { juke_arg_array(y), juke_arg_f32(1), juke_arg_array(xi) };
    assert_int_equal(juke_kernel_launch(k, f->cpu, wrong_arr, 3, &cfg), JUKE_ERR_ARGUMENT);
    assert_string_equal(juke_errmsg(f->ctx),
                        "axpy!: argument 3 is a Array{Int32,1}, but the kernel was compiled for Vector{Float32}");
    /* a bad shape is still a bad argument, and the handle stays usable */
    juke_arg ok[3] = { juke_arg_array(y), juke_arg_f32(2), juke_arg_array(x) };
    juke_launch_config big = { { 4096, 1, 1 }, { 1, 1, 1 }, 0, false };
    assert_int_equal(juke_kernel_launch(k, f->cpu, ok, 3, &big), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "axpy!: groupsize 4096×1×1 = 4096 work-items exceeds"));
    float ones[16], xs[16], out[16];
    for (int i = 0; i < 16; i++) {
        ones[i] = rndf();
        xs[i] = rndf();
    }
    assert_int_equal(juke_array_upload(y, ones, sizeof ones), JUKE_OK);
    assert_int_equal(juke_array_upload(x, xs, sizeof xs), JUKE_OK);
    assert_int_equal(juke_kernel_launch(k, f->cpu, ok, 3, &cfg), JUKE_OK);
    assert_int_equal(juke_array_download(y, out, sizeof out), JUKE_OK);
    for (int i = 0; i < 16; i++)
        assert_float_equal(out[i], 2 * xs[i] + ones[i], 1e-4);
    /* an array of another device */
    juke_device *cpu2;
    juke_array *other;
    assert_int_equal(juke_device_open(f->ctx, "cpu", &cpu2), JUKE_OK);
    assert_int_equal(juke_array_create(cpu2, JUKE_FLOAT32, 1, &n, &other), JUKE_OK);
    juke_arg far[3] = { juke_arg_array(other), juke_arg_f32(2), juke_arg_array(x) };
    assert_int_equal(juke_kernel_launch(k, f->cpu, far, 3, &cfg), JUKE_ERR_ARGUMENT);
    assert_string_equal(juke_errmsg(f->ctx), "axpy!: argument 1: the array lives on another device");
    /* the same handle on a second device: loaded there on first use */
    juke_arg there[3] = { juke_arg_array(other), juke_arg_f32(2), juke_arg_array(other) };
    assert_int_equal(juke_kernel_launch(k, cpu2, there, 3, &cfg), JUKE_OK);
    juke_device_close(cpu2);
    assert_int_equal(juke_kernel_launch(k, f->cpu, ok, 3, &cfg), JUKE_OK);
    /* a kernel compiled for a GPU cannot run on the CPU */
    juke_options o;
    juke_options_default(&o);
    o.target = "gfx90a";
    juke_kernel *gk;
    if (juke_compile(f->m, "axpy!", axpy_types, 3, &o, &gk) == JUKE_OK) {
        assert_int_equal(juke_kernel_launch(gk, f->cpu, ok, 3, &cfg), JUKE_ERR_ARGUMENT);
        assert_non_null(strstr(juke_errmsg(f->ctx), "axpy! was compiled for gfx90a, but cpu"));
    }
    /* wrong arity at juke_kernel_get and juke_launch: the caller's mistake */
    assert_int_equal(juke_kernel_get(f->m, "axpy!", axpy_types, 2, f->cpu, &k), JUKE_ERR_ARGUMENT);
    assert_null(k);
    assert_int_equal(juke_launch(f->cpu, f->m, "axpy!", two, 2, &cfg), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "MethodError: no method matching axpy!("));
}

/* Every juke_arg_* helper: store!(y, v) writes v, and its bits arrive. */
static void test_arg_helpers(void **state)
{
    Fixture *f = *state;
    static const struct {
        juke_type t;
        const char *vec, *scalar;
    } types[] = {
        { JUKE_BOOL, "Vector{Bool}", "Bool" },          { JUKE_INT8, "Vector{Int8}", "Int8" },
        { JUKE_INT16, "Vector{Int16}", "Int16" },       { JUKE_INT32, "Vector{Int32}", "Int32" },
        { JUKE_INT64, "Vector{Int64}", "Int64" },       { JUKE_UINT8, "Vector{UInt8}", "UInt8" },
        { JUKE_UINT16, "Vector{UInt16}", "UInt16" },    { JUKE_UINT32, "Vector{UInt32}", "UInt32" },
        { JUKE_UINT64, "Vector{UInt64}", "UInt64" },    { JUKE_FLOAT16, "Vector{Float16}", "Float16" },
        { JUKE_FLOAT32, "Vector{Float32}", "Float32" }, { JUKE_FLOAT64, "Vector{Float64}", "Float64" },
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        juke_type t = types[i].t;
        size_t sz = juke_sizeof(t);
        uint64_t bits = rnd();
        juke_arg v;
        switch (t) {
        case JUKE_BOOL:
            bits &= 1;
            v = juke_arg_bool(bits != 0);
            break;
        case JUKE_INT8: v = juke_arg_i8((int8_t)bits); break;
        case JUKE_INT16: v = juke_arg_i16((int16_t)bits); break;
        case JUKE_INT32: v = juke_arg_i32((int32_t)bits); break;
        case JUKE_INT64: v = juke_arg_i64((int64_t)bits); break;
        case JUKE_UINT8: v = juke_arg_u8((uint8_t)bits); break;
        case JUKE_UINT16: v = juke_arg_u16((uint16_t)bits); break;
        case JUKE_UINT32: v = juke_arg_u32((uint32_t)bits); break;
        case JUKE_UINT64: v = juke_arg_u64(bits); break;
        case JUKE_FLOAT16:
            bits = (uint16_t)(0x3c00 + bits % 0x800);
            v = juke_arg_f16((uint16_t)bits);
            break;
        case JUKE_FLOAT32: {
            float x = rndf();
            memcpy(&bits, &x, 4);
            v = juke_arg_f32(x);
            break;
        }
        default: {
            double x = rndf();
            memcpy(&bits, &x, 8);
            v = juke_arg_f64(x);
            break;
        }
        }
        const char *tn[2] = { types[i].vec, types[i].scalar };
        juke_kernel *k;
        assert_int_equal(juke_kernel_get(f->m, "store!", tn, 2, f->cpu, &k), JUKE_OK);
        int64_t n = 2;
        juke_array *y;
        assert_int_equal(juke_array_create(f->cpu, t, 1, &n, &y), JUKE_OK);
        uint64_t zero = 0, got = 0;
        assert_int_equal(juke_array_fill(y, &zero), JUKE_OK);
        juke_arg args[2] = { juke_arg_array(y), v };
        juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false };
        assert_int_equal(juke_kernel_launch(k, f->cpu, args, 2, &cfg), JUKE_OK);
        assert_int_equal(juke_array_copy_to_host(&got, y, 0, 1), JUKE_OK);
        uint64_t mask = sz == 8 ? ~0ull : (1ull << (8 * sz)) - 1;
        if (got != (bits & mask))
            fail_msg("%s: stored %#llx, passed %#llx", types[i].scalar, (unsigned long long)got,
                     (unsigned long long)(bits & mask));
        juke_array_free(y);
    }
}

static void test_events_cpu(void **state)
{
    Fixture *f = *state;
    juke_event *a, *b;
    assert_int_equal(juke_event_create(f->cpu, &a), JUKE_OK);
    assert_int_equal(juke_event_create(f->cpu, &b), JUKE_OK);
    float ms = -1;
    assert_int_equal(juke_event_elapsed_ms(a, b, &ms), JUKE_ERR_ARGUMENT);
    assert_string_equal(juke_errmsg(f->ctx), "juke_event_elapsed_ms: the start event was never recorded");
    assert_int_equal(juke_event_synchronize(a), JUKE_ERR_ARGUMENT);
    assert_int_equal(juke_event_record(a, NULL), JUKE_OK);
    long sleep_ms = 15 + (long)(rnd() % 20);
    struct timespec ts = { 0, sleep_ms * 1000000L };
    nanosleep(&ts, NULL);
    juke_stream *s;
    assert_int_equal(juke_stream_create(f->cpu, &s), JUKE_OK);
    assert_int_equal(juke_event_record(b, s), JUKE_OK);
    assert_int_equal(juke_event_synchronize(b), JUKE_OK);
    assert_int_equal(juke_event_elapsed_ms(a, b, &ms), JUKE_OK);
    assert_true(ms >= (float)sleep_ms - 0.5f && ms < (float)sleep_ms + 2000);
    juke_device *cpu2;
    juke_event *c;
    assert_int_equal(juke_device_open(f->ctx, "cpu", &cpu2), JUKE_OK);
    assert_int_equal(juke_event_create(cpu2, &c), JUKE_OK);
    assert_int_equal(juke_event_record(c, s), JUKE_ERR_ARGUMENT);
    assert_int_equal(juke_event_record(c, NULL), JUKE_OK);
    assert_int_equal(juke_event_elapsed_ms(a, c, &ms), JUKE_ERR_ARGUMENT);
    juke_device_close(cpu2); /* closes c */
    juke_event_destroy(a);
    juke_event_destroy(b);
}

/* On a GPU (auto picks one when there is one): a device pointer wrapped,
 * a handle launch on it, and events around it. Skipped on a CPU-only host. */
static void test_gpu_wrap_events(void **state)
{
    Fixture *f = *state;
    juke_device *dev;
    if (juke_device_open(f->ctx, "auto", &dev) != JUKE_OK || strncmp(juke_device_name(dev), "cpu", 3) == 0) {
        skip();
        return;
    }
    int64_t n = 1 << 20;
    juke_array *own_x, *own_y, *x, *y;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &own_x), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &own_y), JUKE_OK);
    /* wrap the device pointers as a host program wraps its hipMalloc/cuMemAlloc memory */
    assert_int_equal(juke_array_wrap(dev, juke_array_pointer(own_x), JUKE_FLOAT32, 1, &n, &x), JUKE_OK);
    assert_int_equal(juke_array_wrap(dev, juke_array_pointer(own_y), JUKE_FLOAT32, 1, &n, &y), JUKE_OK);
    float *hx = malloc(sizeof(float) * (size_t)n), *hy = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        hx[i] = rndf();
    float y0 = rndf(), a = rndf();
    assert_int_equal(juke_array_copy_from_host(x, 0, hx, n), JUKE_OK);
    assert_int_equal(juke_array_fill(y, &y0), JUKE_OK);
    juke_kernel *k;
    assert_int_equal(juke_kernel_get(f->m, "axpy!", axpy_types, 3, dev, &k), JUKE_OK);
    juke_event *e0, *e1;
    assert_int_equal(juke_event_create(dev, &e0), JUKE_OK);
    assert_int_equal(juke_event_create(dev, &e1), JUKE_OK);
    juke_arg args[3] = { juke_arg_array(y), juke_arg_f32(a), juke_arg_array(x) };
    juke_launch_config cfg = { { 256, 1, 1 }, { (uint32_t)(n / 256), 1, 1 }, 0, true };
    assert_int_equal(juke_event_record(e0, NULL), JUKE_OK);
    assert_int_equal(juke_kernel_launch(k, dev, args, 3, &cfg), JUKE_OK);
    assert_int_equal(juke_event_record(e1, NULL), JUKE_OK);
    assert_int_equal(juke_event_synchronize(e1), JUKE_OK);
    float ms = -1;
    assert_int_equal(juke_event_elapsed_ms(e0, e1, &ms), JUKE_OK);
    assert_true(ms > 0 && ms < 10000);
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    assert_int_equal(juke_array_copy_to_host(hy, own_y, 0, n), JUKE_OK);
    for (int64_t i = 0; i < n; i += 997)
        assert_float_equal(hy[i], a * hx[i] + y0, 1e-4);
    juke_array_free(x);
    juke_array_free(y);
    /* the wrapped memory is still the owner's */
    assert_int_equal(juke_array_copy_to_host(hy, own_y, n - 1, 1), JUKE_OK);
    assert_float_equal(hy[0], a * hx[n - 1] + y0, 1e-4);
    free(hx);
    free(hy);
}

static int fail_n;
static void *failing_alloc(void *ud, void *p, size_t oldsize, size_t newsize)
{
    (void)ud;
    (void)oldsize;
    if (!newsize) {
        free(p);
        return NULL;
    }
    if (fail_n-- <= 0)
        return NULL;
    return aligned_alloc(16, (newsize + 15) & ~(size_t)15);
}

/* One scenario per juke_status a caller can cause. JUKE_ERR_INVALID_IR and
 * JUKE_ERR_INTERNAL are juke's own bugs: no input reaches them, so only
 * their names are checked. JUKE_ERR_UNSUPPORTED needs a build without LLVM
 * (-Dcompiler=false): tests/test_unsupported.c runs there. */
static void test_status_codes(void **state)
{
    Fixture *f = *state;
    juke_context *ctx = f->ctx;
    juke_module *m;
    /* OK */
    assert_int_equal(juke_module_load_string(ctx, "ok.jl", "f(x) = x\n", &m), JUKE_OK);
    /* COMPILE: the source is wrong */
    assert_int_equal(juke_module_load_string(ctx, "bad.jl", "function f(x)\n", &m), JUKE_ERR_COMPILE);
    assert_non_null(strstr(juke_errmsg(ctx), "bad.jl:2:1: error: syntax: incomplete"));
    /* ARGUMENT: a wrong argument count */
    int64_t n = 4;
    juke_array *y;
    assert_int_equal(juke_array_create(f->cpu, JUKE_FLOAT32, 1, &n, &y), JUKE_OK);
    juke_arg one[1] = { juke_arg_array(y) };
    juke_launch_config cfg = { { 4, 1, 1 }, { 1, 1, 1 }, 0, false };
    assert_int_equal(juke_launch(f->cpu, f->m, "axpy!", one, 1, &cfg), JUKE_ERR_ARGUMENT);
    /* DEVICE: no such device */
    juke_device *d;
    assert_int_equal(juke_device_open(ctx, "hip:4095", &d), JUKE_ERR_DEVICE);
    assert_int_equal(juke_device_open(ctx, "cuda:4095", &d), JUKE_ERR_DEVICE);
    /* KERNEL: an exception in the kernel */
    assert_int_equal(juke_launch(f->cpu, f->m, "oob!", one, 1, &cfg), JUKE_ERR_KERNEL);
    assert_non_null(strstr(juke_errmsg(ctx),
                           "oob!: BoundsError: attempt to access 4-element ROCDeviceVector{Float32, 1} at index [5]"));
    /* NOMEM: the host's allocator refuses */
    fail_n = 2;
    juke_context *small = juke_context_create_with_allocator(failing_alloc, NULL);
    assert_int_equal(juke_module_load_string(small, "k.jl", src, &m), JUKE_ERR_NOMEM);
    juke_context_destroy(small);
    /* IO: no such file */
    assert_int_equal(juke_module_load_file(ctx, "/nonexistent/juke/k.jl", &m), JUKE_ERR_IO);
    /* the names, one each, for every code */
    const char *names[] = { "ok",           "compile error", "invalid IR",       "internal compiler error",
                            "bad argument", "device error",  "kernel exception", "out of memory",
                            "I/O error",    "unsupported" };
    for (int s = JUKE_OK; s <= JUKE_ERR_UNSUPPORTED; s++)
        assert_string_equal(juke_status_name((juke_status)s), names[s]);
}

int main(void)
{
    rng = (uint64_t)time(NULL) * 2654435761u | 1;
    printf("# seed %llu\n", (unsigned long long)rng);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap_cpu),
        cmocka_unit_test_setup_teardown(test_wrap_rejects, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fill_and_copies, setup, teardown),
        cmocka_unit_test_setup_teardown(test_getters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_handle_checks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arg_helpers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_events_cpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpu_wrap_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_status_codes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
