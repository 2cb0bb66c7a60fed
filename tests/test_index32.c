/* test_index32.c: the launch-time index-width variant (api_impl.h,
 * API_VARIANT_INDEX32) at its boundary, on the cpu device. A strided kernel
 * touches a few elements of an Int8 matrix of 2^31 - 1 elements (the 32-bit
 * variant's class) and of 2^31 elements (the general kernel's): the memory
 * is mapped lazily, so only the touched pages are real. Each must pick its
 * variant, and both variants must compute the same bytes where both apply;
 * a kernel compiled for 32-bit indices refuses a larger array. The same for the matrix inside a struct
 * argument (a struct of arrays, as AMDGPU.jl's Adapt passes one). The small-grid class (at most 2^20
 * workgroups a dimension) likewise, at 2^20 and 2^20 + 1 groups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "juke.h"

/* Work-item k adds k % 100 + 1 to the element at linear offset k * s
 * (0-based), addressed as A[i, j]; the last work-item also touches the
 * array's last element. */
static const char *source = "function strided!(A, s)\n"
                            "    k = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                            "    L = (k - 1) * s\n"
                            "    if k == workgroupDim().x * gridGroupDim().x\n"
                            "        L = length(A) - 1\n"
                            "    end\n"
                            "    if L < length(A)\n"
                            "        i = L % size(A, 1) + 1\n"
                            "        j = L ÷ size(A, 1) + 1\n"
                            "        A[i, j] += Int8(k % 100 + 1)\n"
                            "    end\n"
                            "    return\n"
                            "end\n"
                            "struct Holder{M}\n"
                            "    A::M\n"
                            "    s::Int64\n"
                            "end\n"
                            "function nested!(h)\n"
                            "    strided!(h.A, h.s)\n"
                            "    return\n"
                            "end\n";

enum { GROUP = 64, GROUPS = 16, ITEMS = GROUP * GROUPS };

typedef struct Env {
    juke_context *ctx;
    juke_device *cpu;
    juke_module *m;
} Env;

static void env_open(Env *e)
{
    e->ctx = juke_context_create();
    assert_non_null(e->ctx);
    assert_int_equal(juke_device_open(e->ctx, "cpu", &e->cpu), JUKE_OK);
    assert_int_equal(juke_module_load_string(e->ctx, "strided.jl", source, &e->m), JUKE_OK);
}

static juke_launch_config config(void)
{
    juke_launch_config c;
    memset(&c, 0, sizeof c);
    c.groupsize[0] = GROUP;
    c.gridsize[0] = GROUPS;
    return c;
}

/* The arguments of a launch over A with stride s: strided!(A, s), or nested!(Holder(A, s)), one value
 * argument whose bytes and type h holds; the count. */
typedef struct HolderArg {
    char type[128];
    unsigned char bytes[64];
} HolderArg;

static int strided_args(Env *e, juke_array *a, int64_t s, HolderArg *h, juke_arg *args)
{
    args[0] = juke_arg_array(a);
    args[1] = juke_arg_i64(s);
    if (!h)
        return 2;
    size_t size;
    assert_int_equal(juke_value_type(e->m, "Holder", args, 2, h->type, sizeof h->type), JUKE_OK);
    assert_int_equal(juke_value_layout(e->m, h->type, &size, NULL, NULL, NULL, 0), JUKE_OK);
    assert_true(size <= sizeof h->bytes);
    assert_int_equal(juke_value_pack(e->m, h->type, args, 2, h->bytes, size), JUKE_OK);
    args[0] = juke_arg_value(h->type, h->bytes, size);
    return 1;
}

/* The touched bytes of A after one launch of k (NULL: juke_launch); nested: A inside a Holder. */
static void run_strided(Env *e, juke_kernel *k, int64_t d1, int64_t d2, bool nested, int8_t *got)
{
    juke_array *a;
    int64_t dims[2] = { d1, d2 };
    assert_int_equal(juke_array_create(e->cpu, JUKE_INT8, 2, dims, &a), JUKE_OK);
    int64_t len = d1 * d2, s = len / ITEMS;
    juke_arg args[2];
    HolderArg h;
    int nargs = strided_args(e, a, s, nested ? &h : NULL, args);
    juke_launch_config c = config();
    juke_status st = k ? juke_kernel_launch(k, e->cpu, args, nargs, &c)
                       : juke_launch(e->cpu, e->m, nested ? "nested!" : "strided!", args, nargs, &c);
    if (st)
        fail_msg("launch: %s", juke_errmsg(e->ctx));
    for (int64_t w = 0; w < ITEMS; w++) {
        int64_t at = w == ITEMS - 1 ? len - 1 : w * s;
        assert_int_equal(juke_array_copy_to_host(&got[w], a, at, 1), JUKE_OK);
        int8_t next = -1;
        if (at + 1 < len && w != ITEMS - 1) {
            assert_int_equal(juke_array_copy_to_host(&next, a, at + 1, 1), JUKE_OK);
            assert_int_equal(next, 0);
        }
    }
    juke_array_free(a);
}

static void expect_bytes(const int8_t *got)
{
    for (int w = 0; w < ITEMS; w++)
        assert_int_equal(got[w], (w + 1) % 100 + 1);
}

/* The kernel a launch with these dims picks: juke_kernel_for; nested: A inside a Holder. */
static juke_kernel *picked(Env *e, int64_t d1, int64_t d2, bool nested)
{
    juke_array *a;
    int64_t dims[2] = { d1, d2 };
    assert_int_equal(juke_array_create(e->cpu, JUKE_INT8, 2, dims, &a), JUKE_OK);
    juke_arg args[2];
    HolderArg h;
    int nargs = strided_args(e, a, 1, nested ? &h : NULL, args);
    juke_kernel *k = NULL;
    assert_int_equal(juke_kernel_for(e->cpu, e->m, nested ? "nested!" : "strided!", args, nargs, &k), JUKE_OK);
    juke_array_free(a);
    return k;
}

static bool narrow_multiply(juke_kernel *k)
{
    const char *ll = juke_kernel_dump(k, JUKE_DUMP_LLVM_RAW);
    return ll && strstr(ll, "mul nuw nsw i32") != NULL;
}

/* The class at its boundary, for the matrix as an argument or (nested) inside a struct argument. */
static void class_boundary(bool nested)
{
    Env e;
    env_open(&e);
    const int64_t M31 = ((int64_t)1 << 31) - 1; /* a prime: the matrix is M31 x 1 */
    juke_kernel *k32 = picked(&e, M31, 1, nested), *k64 = picked(&e, (int64_t)1 << 16, (int64_t)1 << 15, nested);
    juke_kernel *k64b = picked(&e, (int64_t)1 << 31, 1, nested);
    assert_ptr_not_equal(k32, k64);
    assert_ptr_equal(k64, k64b);
    assert_true(narrow_multiply(k32));
    assert_false(narrow_multiply(k64));
    /* a small array is in the 32-bit class too */
    assert_ptr_equal(picked(&e, 100, 7, nested), k32);
    int8_t *got = malloc(ITEMS);
    run_strided(&e, NULL, M31, 1, nested, got);
    expect_bytes(got);
    run_strided(&e, NULL, (int64_t)1 << 16, (int64_t)1 << 15, nested, got);
    expect_bytes(got);
    run_strided(&e, NULL, (int64_t)1 << 31, 1, nested, got);
    expect_bytes(got);
    /* the 32-bit kernel refuses the larger array, naming where it is */
    juke_array *big;
    int64_t dims[2] = { (int64_t)1 << 16, (int64_t)1 << 15 };
    assert_int_equal(juke_array_create(e.cpu, JUKE_INT8, 2, dims, &big), JUKE_OK);
    juke_arg args[2];
    HolderArg h;
    int nargs = strided_args(&e, big, 1, nested ? &h : NULL, args);
    juke_launch_config c = config();
    assert_int_equal(juke_kernel_launch(k32, e.cpu, args, nargs, &c), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(e.ctx), nested ? "argument 1 holds an array of 2147483648 elements"
                                                      : "argument 1 has 2147483648 elements"));
    juke_array_free(big);
    free(got);
    juke_context_destroy(e.ctx);
}

static void test_class_boundary(void **state)
{
    (void)state;
    class_boundary(false);
}

static void test_class_boundary_nested(void **state)
{
    (void)state;
    class_boundary(true);
}

/* Both variants, compiled explicitly, give the same bytes on an array of
 * the 32-bit class; the 32-bit one refuses 2^31 elements. */
static void test_variants_agree(void **state)
{
    (void)state;
    Env e;
    env_open(&e);
    const char *types[2] = { "Matrix{Int8}", "Int64" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    juke_kernel *kg, *kn;
    o.index_bits = 64;
    assert_int_equal(juke_compile(e.m, "strided!", types, 2, &o, &kg), JUKE_OK);
    o.index_bits = 32;
    assert_int_equal(juke_compile(e.m, "strided!", types, 2, &o, &kn), JUKE_OK);
    assert_ptr_not_equal(kg, kn);
    int8_t *a = malloc(ITEMS), *b = malloc(ITEMS);
    const int64_t d1 = 46337, d2 = 46337; /* 2^31 - 2^17 + ... < 2^31 elements, two real dims */
    run_strided(&e, kg, d1, d2, false, a);
    run_strided(&e, kn, d1, d2, false, b);
    assert_memory_equal(a, b, ITEMS);
    expect_bytes(a);
    juke_array *big;
    int64_t dims[2] = { (int64_t)1 << 16, (int64_t)1 << 15 };
    assert_int_equal(juke_array_create(e.cpu, JUKE_INT8, 2, dims, &big), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(big), juke_arg_i64(1) };
    juke_launch_config c = config();
    assert_int_equal(juke_kernel_launch(kn, e.cpu, args, 2, &c), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(e.ctx), "compiled with 32-bit indices"));
    juke_array_free(big);
    free(a);
    free(b);
    juke_context_destroy(e.ctx);
}

/* The same-shape variant (API_VARIANT_SAMESHAPE): juke_launch with arrays of one shape compiles a
 * kernel whose arrays share the first's dims, so vadd!'s guard covers its checks; the results are the
 * same, and a launch with one array shorter takes the general kernel and reports the same BoundsError
 * as a kernel handle does (same index, array, line and work-item), on the CPU and on gfx90a's code. */
static const char *checked_vadd = "function vadd!(c, a, b)\n"
                                  "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                                  "    if i <= length(c)\n"
                                  "        c[i] = a[i] + b[i]\n"
                                  "    end\n"
                                  "    return\n"
                                  "end\n";

static void same_shape_on(const char *device)
{
    juke_context *ctx = juke_context_create();
    juke_device *dev;
    juke_module *m;
    assert_int_equal(juke_device_open(ctx, device, &dev), JUKE_OK);
    assert_int_equal(juke_module_load_string(ctx, "vaddc.jl", checked_vadd, &m), JUKE_OK);
    enum { N = 1000 };
    float ha[N], hb[N], hc[N];
    for (int i = 0; i < N; i++)
        ha[i] = (float)i + 0.25f, hb[i] = 3.0f * (float)i - 7.5f;
    int64_t n = N, n1 = N - 1;
    juke_array *a, *b, *c, *shortb;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &a), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &b), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &c), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n1, &shortb), JUKE_OK);
    assert_int_equal(juke_array_copy_from_host(a, 0, ha, N), JUKE_OK);
    assert_int_equal(juke_array_copy_from_host(b, 0, hb, N), JUKE_OK);
    assert_int_equal(juke_array_copy_from_host(shortb, 0, hb, N - 1), JUKE_OK);
    juke_launch_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.groupsize[0] = 256;
    cfg.gridsize[0] = (N + 255) / 256;
    juke_arg args[3] = { juke_arg_array(c), juke_arg_array(a), juke_arg_array(b) };
    assert_int_equal(juke_launch(dev, m, "vadd!", args, 3, &cfg), JUKE_OK);
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    assert_int_equal(juke_array_copy_to_host(hc, c, 0, N), JUKE_OK);
    for (int i = 0; i < N; i++)
        assert_true(hc[i] == ha[i] + hb[i]);
    /* one array shorter: the launch's class is not same-shape */
    args[2] = juke_arg_array(shortb);
    juke_status st = juke_launch(dev, m, "vadd!", args, 3, &cfg);
    if (st == JUKE_OK)
        st = juke_device_synchronize(dev);
    assert_int_equal(st, JUKE_ERR_KERNEL);
    char *launched = strdup(juke_errmsg(ctx));
    /* the same through a kernel handle (never the same-shape variant) */
    juke_kernel *k;
    assert_int_equal(juke_kernel_for(dev, m, "vadd!", args, 3, &k), JUKE_OK);
    st = juke_kernel_launch(k, dev, args, 3, &cfg);
    if (st == JUKE_OK)
        st = juke_device_synchronize(dev);
    assert_int_equal(st, JUKE_ERR_KERNEL);
    assert_string_equal(launched, juke_errmsg(ctx));
    assert_non_null(strstr(launched, "999-element"));
    assert_non_null(strstr(launched, "at index [1000]"));
    free(launched);
    juke_array_free(a);
    juke_array_free(b);
    juke_array_free(c);
    juke_array_free(shortb);
    juke_context_destroy(ctx);
}

static void test_same_shape_variant(void **state)
{
    (void)state;
    same_shape_on("cpu");
    same_shape_on("amdemu:gfx90a");
}

/* The small-grid class (API_VARIANT_SMALLGRID) at its boundary: work-item i of a grid of G groups of one
 * (dimension y) writes i % 100 + 1 to A[i] when i <= n. G = 2^20 is in the class, 2^20 + 1 is not; both
 * launches give every byte (the last work-item's too, whose index the 32-bit compare covers exactly), a
 * small-grid kernel compiled explicitly compares the index in 32 bits where the general one uses 64, the
 * two give the same bytes, and the small-grid one refuses the larger grid. */
static const char *gidx_source = "function gidx!(A, n)\n"
                                 "    i = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y\n"
                                 "    if i <= n && i <= length(A)\n"
                                 "        A[i] = Int8(i % 100 + 1)\n"
                                 "    end\n"
                                 "    return\n"
                                 "end\n";

static void run_gidx(juke_device *dev, juke_module *m, juke_kernel *k, uint32_t groups, int8_t *got)
{
    juke_array *a;
    int64_t n = (int64_t)groups;
    assert_int_equal(juke_array_create(dev, JUKE_INT8, 1, &n, &a), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(a), juke_arg_i64(n) };
    juke_launch_config c;
    memset(&c, 0, sizeof c);
    c.groupsize[0] = c.groupsize[1] = c.gridsize[0] = 1;
    c.gridsize[1] = groups;
    juke_status st = k ? juke_kernel_launch(k, dev, args, 2, &c) : juke_launch(dev, m, "gidx!", args, 2, &c);
    if (st == JUKE_OK)
        st = juke_device_synchronize(dev);
    assert_int_equal(st, JUKE_OK);
    assert_int_equal(juke_array_copy_to_host(got, a, 0, n), JUKE_OK);
    for (int64_t i = 0; i < n; i++)
        if (got[i] != (int8_t)((i + 1) % 100 + 1))
            fail_msg("A[%lld] = %d after a grid of %u", (long long)i + 1, got[i], groups);
    juke_array_free(a);
}

static void test_small_grid_boundary(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_device *dev;
    juke_module *m;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    assert_int_equal(juke_module_load_string(ctx, "gidx.jl", gidx_source, &m), JUKE_OK);
    const uint32_t G = 1u << 20;
    int8_t *a = malloc(G + 1), *b = malloc(G + 1);
    run_gidx(dev, m, NULL, G, a);
    run_gidx(dev, m, NULL, G + 1, a);
    const char *types[2] = { "Vector{Int8}", "Int64" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    o.index_bits = 32;
    juke_kernel *kg, *ks;
    assert_int_equal(juke_compile(m, "gidx!", types, 2, &o, &kg), JUKE_OK);
    o.small_grid = 1;
    assert_int_equal(juke_compile(m, "gidx!", types, 2, &o, &ks), JUKE_OK);
    const char *llg = juke_kernel_dump(kg, JUKE_DUMP_LLVM), *lls = juke_kernel_dump(ks, JUKE_DUMP_LLVM);
    assert_non_null(llg);
    assert_non_null(lls);
    assert_non_null(strstr(llg, "icmp ule i64")); /* i <= length(A) */
    assert_null(strstr(lls, "icmp ule i64"));
    assert_non_null(strstr(lls, "icmp ule i32"));
    run_gidx(dev, m, kg, G, a);
    run_gidx(dev, m, ks, G, b);
    assert_memory_equal(a, b, G);
    juke_array *x;
    int64_t n = 8;
    assert_int_equal(juke_array_create(dev, JUKE_INT8, 1, &n, &x), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(x), juke_arg_i64(n) };
    juke_launch_config c;
    memset(&c, 0, sizeof c);
    c.groupsize[0] = c.groupsize[1] = c.gridsize[0] = 1;
    c.gridsize[1] = G + 1;
    assert_int_equal(juke_kernel_launch(ks, dev, args, 2, &c), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(ctx), "at most 2^20 workgroups"));
    juke_array_free(x);
    free(a);
    free(b);
    juke_context_destroy(ctx);
}

/* A five-point stencil with neighbours on both sides (constant offsets -1 and +1 around the variable part),
 * checked; the second kernel also takes pointer(B), which may be offset anywhere. */
static const char *stencil_source =
    "function stencil!(B, A)\n"
    "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
    "    j = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y\n"
    "    if 1 < i < size(B, 1) && 1 < j < size(B, 2)\n"
    "        B[i, j] = A[i - 1, j] + A[i + 1, j] + A[i, j - 1] + A[i, j + 1] - 4f0 * A[i, j]\n"
    "    end\n"
    "    return\n"
    "end\n"
    "function rawstencil!(B, A)\n"
    "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
    "    j = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y\n"
    "    if 1 < i < size(B, 1) && 1 < j < size(B, 2)\n"
    "        B[i, j] = A[i - 1, j] + A[i + 1, j] + unsafe_load(pointer(A), 1)\n"
    "    end\n"
    "    return\n"
    "end\n";

/* How often needle occurs in s. */
static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* How many unsigned compares (a merged check's) precede the first load. */
static int compares_before_loads(const char *ptx)
{
    const char *end = strstr(ptx, "ld.global");
    int n = 0;
    for (const char *p = strstr(ptx, "setp.ge.u32"); p && end && p < end; p = strstr(p + 1, "setp.ge.u32"))
        n++;
    return n;
}

/* NVPTX, the 32-bit class: every access's address is one 32-bit index widened once (mul.wide.s32, addr32.c),
 * none a 64-bit shift and add of the column; a module that takes pointer(A) keeps the 64-bit form. */
static void test_nvptx_addresses(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "stencil.jl", stencil_source, &m), JUKE_OK);
    const char *types[2] = { "Matrix{Float32}", "Matrix{Float32}" };
    juke_options o;
    juke_options_default(&o);
    o.target = "sm_90";
    o.index_bits = 32;
    o.small_grid = 1;
    juke_kernel *k, *raw, *general;
    assert_int_equal(juke_compile(m, "stencil!", types, 2, &o, &k), JUKE_OK);
    assert_int_equal(juke_compile(m, "rawstencil!", types, 2, &o, &raw), JUKE_OK);
    o.index_bits = 0;
    o.small_grid = 0;
    assert_int_equal(juke_compile(m, "stencil!", types, 2, &o, &general), JUKE_OK);
    const char *ptx = juke_kernel_dump(k, JUKE_DUMP_ASM), *rptx = juke_kernel_dump(raw, JUKE_DUMP_ASM);
    const char *gptx = juke_kernel_dump(general, JUKE_DUMP_ASM);
    assert_non_null(ptx);
    assert_non_null(rptx);
    assert_non_null(gptx);
    assert_true(count(ptx, "mul.wide.s32") >= 4); /* the three columns and the store's */
    assert_int_equal(count(ptx, "shl.b64"), 0);
    assert_int_equal(count(rptx, "mul.wide.s32"), 0);
    assert_int_equal(count(gptx, "mul.wide.s32"), 0);
    /* the merged check before the loads (narrow.c narrow_drop_implied): of A's six compares, A[i-1, j] and
     * A[i, j-1]'s (not known non-negative) and those of the largest offset, A[i+1, j] and A[i, j+1], stay; B's
     * two, decided by the guard, and A[i, j]'s two, implied by the +1's, go to the cold path (7 before) */
    assert_int_equal(compares_before_loads(ptx), 4);
    juke_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_class_boundary),     cmocka_unit_test(test_variants_agree),
        cmocka_unit_test(test_same_shape_variant), cmocka_unit_test(test_small_grid_boundary),
        cmocka_unit_test(test_nvptx_addresses),    cmocka_unit_test(test_class_boundary_nested),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
