/* test_values.c: tuples, structs and named tuples as kernel arguments through the C API. A C struct
 * with the same fields as a Julia struct has the same layout (juke_value_layout against offsetof and
 * sizeof: C's layout with Julia's alignment, docs/abi.md), so a host passes its own struct's bytes
 * (juke_arg_value); juke_value_pack builds the bytes from fields instead; ghost arguments (Type{T},
 * Val{x}, a Symbol, a function) are juke_arg_type. Each is launched on the CPU device and checked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "juke.h"

static const char *src = "struct Params\n"
                         "    scale::Float32\n"
                         "    n::Int32\n"
                         "    flag::Bool\n"
                         "end\n"
                         "struct Mixed\n"
                         "    a::Int8\n"
                         "    b::Float64\n"
                         "    c::Bool\n"
                         "    d::Int16\n"
                         "    e::Tuple{Float32, Int8}\n"
                         "    f::UInt64\n"
                         "end\n"
                         "struct Inner\n"
                         "    x::Int16\n"
                         "    y::Float64\n"
                         "end\n"
                         "struct Outer{T}\n"
                         "    tag::Bool\n"
                         "    inner::Inner\n"
                         "    v::T\n"
                         "end\n"
                         "function params!(o, p)\n"
                         "    o[1] = p.scale * p.n + (p.flag ? 100 : 0)\n"
                         "    return\n"
                         "end\n"
                         "function mixed!(o, m)\n"
                         "    o[1] = m.a + m.b + m.c + m.d + m.e[1] + m.e[2] + m.f\n"
                         "    return\n"
                         "end\n"
                         "function outer!(o, s)\n"
                         "    o[1] = s.tag + s.inner.x + s.inner.y + s.v\n"
                         "    return\n"
                         "end\n"
                         "function tup!(o, t, nt)\n"
                         "    o[1] = t[1] * t[2] + t[3] + nt.x - nt.y\n"
                         "    return\n"
                         "end\n"
                         "struct Particle\n"
                         "    pos::Tuple{Float32, Float32}\n"
                         "    mass::Float64\n"
                         "    alive::Bool\n"
                         "end\n"
                         "function step!(ps, dt)\n"
                         "    i = workitemIdx().x\n"
                         "    p = ps[i]\n"
                         "    if p.alive\n"
                         "        ps[i] = Particle((p.pos[1] + dt, p.pos[2] * 2f0), p.mass * 2, p.alive)\n"
                         "    end\n"
                         "    return\n"
                         "end\n"
                         "@kernel function cart_store!(A, W)\n"
                         "    I = @index(Global, Cartesian)\n"
                         "    A[I] = I\n"
                         "    W[I] = CartesianIndex(@groupsize())\n"
                         "end\n"
                         "@kernel function map_mark!(A)\n"
                         "    A[@index(Global, Cartesian)] = @index(Global, Linear)\n"
                         "end\n"
                         "width(::Type{UInt8}) = 1.0\n"
                         "width(::Type{Float64}) = 8.0\n"
                         "function ghosts!(o, ::Type{T}, ::Val{N}, mode, op) where {T, N}\n"
                         "    o[1] = op(width(T), N) + (mode === :twice ? 1000 : 0)\n"
                         "    return\n"
                         "end\n"
                         "struct Model{A}\n"
                         "    weights::A\n"
                         "    scale::Float32\n"
                         "end\n"
                         "function apply!(o, m)\n"
                         "    i = workitemIdx().x\n"
                         "    o[i] = m.weights[i] * m.scale\n"
                         "    m.weights[i] += 1f0\n"
                         "    return\n"
                         "end\n";

/* The C twins of the Julia structs above. */
typedef struct Params {
    float scale;
    int32_t n;
    bool flag;
} Params;
typedef struct Mixed {
    int8_t a;
    double b;
    bool c;
    int16_t d;
    struct {
        float x;
        int8_t y;
    } e;
    uint64_t f;
} Mixed;
typedef struct Inner {
    int16_t x;
    double y;
} Inner;
typedef struct OuterF32 {
    bool tag;
    Inner inner;
    float v;
} OuterF32;

typedef struct Fixture {
    juke_context *ctx;
    juke_module *m;
    juke_device *cpu;
    juke_array *o;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    f->ctx = juke_context_create();
    if (!f->ctx || juke_module_load_string(f->ctx, "values.jl", src, &f->m) != JUKE_OK ||
        juke_device_open(f->ctx, "cpu", &f->cpu) != JUKE_OK)
        return -1;
    int64_t n = 1;
    if (juke_array_create(f->cpu, JUKE_FLOAT64, 1, &n, &f->o) != JUKE_OK)
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

/* Launch function on (o, args...) with one work-item; o[1] afterwards. */
static double run(Fixture *f, const char *function, const juke_arg *args, int nargs)
{
    juke_arg all[8];
    all[0] = juke_arg_array(f->o);
    for (int i = 0; i < nargs; i++)
        all[i + 1] = args[i];
    double zero = 0, r = -1;
    assert_int_equal(juke_array_upload(f->o, &zero, 8), JUKE_OK);
    juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false, NULL, 0 };
    juke_status st = juke_launch(f->cpu, f->m, function, all, nargs + 1, &cfg);
    if (st != JUKE_OK)
        fail_msg("%s: %s", function, juke_errmsg(f->ctx));
    assert_int_equal(juke_array_download(f->o, &r, 8), JUKE_OK);
    return r;
}

/* juke's layout of type equals the C struct's: size, alignment, each field's offset. */
static void check_layout(Fixture *f, const char *type, size_t size, size_t align, const size_t *offs, int n)
{
    size_t sz = 0, al = 0, got[16];
    int nf = -1;
    assert_int_equal(juke_value_layout(f->m, type, &sz, &al, &nf, got, 16), JUKE_OK);
    assert_int_equal(sz, size);
    assert_int_equal(al, align);
    assert_int_equal(nf, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(got[i], offs[i]);
}

static void test_layout_matches_c(void **state)
{
    Fixture *f = *state;
    size_t p[] = { offsetof(Params, scale), offsetof(Params, n), offsetof(Params, flag) };
    check_layout(f, "Params", sizeof(Params), _Alignof(Params), p, 3);
    size_t m[] = { offsetof(Mixed, a), offsetof(Mixed, b), offsetof(Mixed, c),
                   offsetof(Mixed, d), offsetof(Mixed, e), offsetof(Mixed, f) };
    check_layout(f, "Mixed", sizeof(Mixed), _Alignof(Mixed), m, 6);
    size_t o[] = { offsetof(OuterF32, tag), offsetof(OuterF32, inner), offsetof(OuterF32, v) };
    check_layout(f, "Outer{Float32}", sizeof(OuterF32), _Alignof(OuterF32), o, 3);
    struct {
        float a;
        double b;
        int8_t c;
    } t;
    size_t to[] = { 0, (size_t)((char *)&t.b - (char *)&t), (size_t)((char *)&t.c - (char *)&t) };
    check_layout(f, "Tuple{Float32, Float64, Int8}", sizeof t, _Alignof(double), to, 3);
    /* values without bits take no room */
    size_t sz = 99;
    assert_int_equal(juke_value_layout(f->m, "Val{4}", &sz, NULL, NULL, NULL, 0), JUKE_OK);
    assert_int_equal(sz, 0);
    /* an unknown or parametric type without its parameters is refused, with the reason */
    assert_int_equal(juke_value_layout(f->m, "Nope", &sz, NULL, NULL, NULL, 0), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "unknown type \"Nope\""));
    assert_int_equal(juke_value_layout(f->m, "Outer", &sz, NULL, NULL, NULL, 0), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "Outer is a parametric type without its parameters"));
}

static void test_struct_bytes(void **state)
{
    Fixture *f = *state;
    Params p = { 2.5f, 7, true };
    juke_arg a = juke_arg_value("Params", &p, sizeof p);
    assert_float_equal(run(f, "params!", &a, 1), 2.5 * 7 + 100, 0);
    p.flag = false;
    p.n = -3;
    assert_float_equal(run(f, "params!", &a, 1), -7.5, 0);
    Mixed m;
    memset(&m, 0, sizeof m);
    m.a = -5;
    m.b = 0.25;
    m.c = true;
    m.d = -300;
    m.e.x = 1.5f;
    m.e.y = 9;
    m.f = 1000;
    a = juke_arg_value("Mixed", &m, sizeof m);
    assert_float_equal(run(f, "mixed!", &a, 1), -5 + 0.25 + 1 - 300 + 1.5 + 9 + 1000, 0);
    OuterF32 o = { true, { -4, 0.5 }, 3.25f };
    a = juke_arg_value("Outer{Float32}", &o, sizeof o);
    assert_float_equal(run(f, "outer!", &a, 1), 1 - 4 + 0.5 + 3.25, 0);
    /* the wrong size is refused before anything runs */
    a = juke_arg_value("Params", &p, sizeof p - 1);
    juke_arg all[2] = { juke_arg_array(f->o), a };
    juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false, NULL, 0 };
    assert_int_equal(juke_launch(f->cpu, f->m, "params!", all, 2, &cfg), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "is 11 bytes, but the type takes 12"));
}

static void test_pack_fields(void **state)
{
    Fixture *f = *state;
    unsigned char buf[64];
    /* Params(2, 3, true): integers convert to the fields' types, as Julia's convert */
    juke_arg fields[3] = { juke_arg_i64(2), juke_arg_i64(3), juke_arg_bool(true) };
    assert_int_equal(juke_value_pack(f->m, "Params", fields, 3, buf, sizeof buf), JUKE_OK);
    Params p;
    memcpy(&p, buf, sizeof p);
    assert_true(p.scale == 2.0f && p.n == 3 && p.flag);
    juke_arg a = juke_arg_value("Params", buf, sizeof(Params));
    assert_float_equal(run(f, "params!", &a, 1), 106, 0);
    /* InexactError: 2.5 is no Int32 */
    fields[1] = juke_arg_f64(2.5);
    assert_int_equal(juke_value_pack(f->m, "Params", fields, 3, buf, sizeof buf), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "field 2 of Params has type Int32"));
    /* a tuple and a named tuple */
    unsigned char tb[32], nb[32];
    juke_arg tf[3] = { juke_arg_f32(1.5f), juke_arg_f32(4.0f), juke_arg_i32(10) };
    assert_int_equal(juke_value_pack(f->m, "Tuple{Float32, Float32, Int32}", tf, 3, tb, sizeof tb), JUKE_OK);
    juke_arg nf[2] = { juke_arg_f64(0.5), juke_arg_i8(2) };
    assert_int_equal(juke_value_pack(f->m, "@NamedTuple{x::Float64, y::Int8}", nf, 2, nb, sizeof nb), JUKE_OK);
    juke_arg targs[2] = { juke_arg_value("Tuple{Float32, Float32, Int32}", tb, 12),
                          juke_arg_value("@NamedTuple{x::Float64, y::Int8}", nb, 16) };
    assert_float_equal(run(f, "tup!", targs, 2), 1.5 * 4 + 10 + 0.5 - 2, 0);
    /* a struct field that is itself a struct: a JUKE_VALUE of its type */
    Inner in = { 7, -0.5 };
    juke_arg of[3] = { juke_arg_bool(false), juke_arg_value("Inner", &in, sizeof in), juke_arg_f64(0.25) };
    assert_int_equal(juke_value_pack(f->m, "Outer{Float64}", of, 3, buf, sizeof buf), JUKE_OK);
    a = juke_arg_value("Outer{Float64}", buf, 32);
    assert_float_equal(run(f, "outer!", &a, 1), 7 - 0.5 + 0.25, 0);
}

static void test_ghosts(void **state)
{
    Fixture *f = *state;
    juke_arg g[4] = { juke_arg_type("Type{UInt8}"), juke_arg_type("Val{4}"), juke_arg_type(":once"),
                      juke_arg_type("typeof(+)") };
    assert_float_equal(run(f, "ghosts!", g, 4), 5, 0);
    g[0] = juke_arg_type("Type{Float64}");
    g[2] = juke_arg_type(":twice");
    g[3] = juke_arg_type("typeof(*)");
    assert_float_equal(run(f, "ghosts!", g, 4), 1032, 0);
    /* a kernel handle takes the same values, checked against the types it was compiled for */
    const char *types[] = { "Vector{Float64}", "Type{Float64}", "Val{4}", ":twice", "typeof(*)" };
    juke_kernel *k;
    assert_int_equal(juke_kernel_get(f->m, "ghosts!", types, 5, f->cpu, &k), JUKE_OK);
    juke_arg all[5] = { juke_arg_array(f->o), g[0], g[1], g[2], g[3] };
    juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false, NULL, 0 };
    assert_int_equal(juke_kernel_launch(k, f->cpu, all, 5, &cfg), JUKE_OK);
    all[3] = juke_arg_type(":once");
    assert_int_equal(juke_kernel_launch(k, f->cpu, all, 5, &cfg), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "argument 4 is a :once, but the kernel was compiled for :twice"));
}

/* An array of structs: the C array of the twin struct uploads as is, the kernel reads and writes whole
 * elements, and the bytes come back in the same layout. */
static void test_struct_array(void **state)
{
    Fixture *f = *state;
    typedef struct Particle {
        float pos[2];
        double mass;
        bool alive;
    } Particle;
    size_t sz = 0;
    assert_int_equal(juke_value_layout(f->m, "Particle", &sz, NULL, NULL, NULL, 0), JUKE_OK);
    assert_int_equal(sz, sizeof(Particle));
    Particle h[5];
    memset(h, 0, sizeof h);
    for (int i = 0; i < 5; i++)
        h[i] = (Particle){ { (float)i, 1.5f }, 0.25 * (i + 1), i % 2 == 0 };
    juke_array *ps;
    int64_t n = 5;
    assert_int_equal(juke_array_create_value(f->cpu, f->m, "Particle", 1, &n, &ps), JUKE_OK);
    assert_int_equal(juke_array_eltype(ps), JUKE_VALUE);
    assert_int_equal(juke_array_upload(ps, h, sizeof h), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(ps), juke_arg_f32(0.5f) };
    juke_launch_config cfg = { { 5, 1, 1 }, { 1, 1, 1 }, 0, false, NULL, 0 };
    if (juke_launch(f->cpu, f->m, "step!", args, 2, &cfg) != JUKE_OK)
        fail_msg("step!: %s", juke_errmsg(f->ctx));
    Particle g[5];
    assert_int_equal(juke_array_download(ps, g, sizeof g), JUKE_OK);
    for (int i = 0; i < 5; i++) {
        bool alive = i % 2 == 0;
        assert_true(g[i].alive == alive);
        assert_true(g[i].pos[0] == (alive ? i + 0.5f : (float)i));
        assert_true(g[i].pos[1] == (alive ? 3.0f : 1.5f));
        assert_true(g[i].mass == (alive ? 0.5 * (i + 1) : 0.25 * (i + 1)));
    }
    /* a type that is no element type */
    assert_int_equal(juke_array_create_value(f->cpu, f->m, "Val{4}", 1, &n, &ps), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "Val{4} is no element type"));
}

/* A Matrix{CartesianIndex{2}} from C: each element an NTuple{2,Int64}, as Julia lays it out. */
static void test_cartesian_array(void **state)
{
    Fixture *f = *state;
    size_t sz = 0;
    assert_int_equal(juke_value_layout(f->m, "CartesianIndex{2}", &sz, NULL, NULL, NULL, 0), JUKE_OK);
    assert_int_equal(sz, 16);
    int64_t dims[2] = { 3, 5 };
    juke_array *a, *w;
    assert_int_equal(juke_array_create_value(f->cpu, f->m, "CartesianIndex{2}", 2, dims, &a), JUKE_OK);
    assert_int_equal(juke_array_create_value(f->cpu, f->m, "CartesianIndex{2}", 2, dims, &w), JUKE_OK);
    int64_t h[15][2];
    memset(h, 0, sizeof h);
    assert_int_equal(juke_array_upload(a, h, sizeof h), JUKE_OK);
    assert_int_equal(juke_array_upload(w, h, sizeof h), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(a), juke_arg_array(w) };
    juke_launch_config cfg = { { 2, 2, 1 }, { 0, 0, 0 }, 0, false, NULL, 0 };
    cfg.ndims = 2;
    cfg.ndrange[0] = 3, cfg.ndrange[1] = 5;
    if (juke_launch(f->cpu, f->m, "cart_store!", args, 2, &cfg) != JUKE_OK)
        fail_msg("cart_store!: %s", juke_errmsg(f->ctx));
    assert_int_equal(juke_array_download(a, h, sizeof h), JUKE_OK);
    for (int k = 0; k < 15; k++) {
        assert_int_equal(h[k][0], k % 3 + 1);
        assert_int_equal(h[k][1], k / 3 + 1);
    }
    assert_int_equal(juke_array_download(w, h, sizeof h), JUKE_OK);
    for (int k = 0; k < 15; k++) {
        assert_int_equal(h[k][0], 2);
        assert_int_equal(h[k][1], 2);
    }
    juke_array_free(a);
    juke_array_free(w);
}

/* KernelAbstractions' index-map ndrange (juke_launch_config.ndrange_map) from C: an array of CartesianIndex{2}
 * marks those entries of a matrix with their positions in the map; a map needs a 1-D static groupsize and
 * index elements, and a kernel handle compiled for one launches only with one. */
static void test_index_map(void **state)
{
    Fixture *f = *state;
    int64_t dims[2] = { 3, 4 }, n = 5;
    juke_array *a, *map, *ints;
    assert_int_equal(juke_array_create(f->cpu, JUKE_INT64, 2, dims, &a), JUKE_OK);
    assert_int_equal(juke_array_create_value(f->cpu, f->m, "CartesianIndex{2}", 1, &n, &map), JUKE_OK);
    assert_int_equal(juke_array_create(f->cpu, JUKE_INT64, 1, &n, &ints), JUKE_OK);
    int64_t h[12] = { 0 }, m[5][2] = { { 2, 1 }, { 3, 4 }, { 1, 1 }, { 2, 3 }, { 3, 2 } };
    assert_int_equal(juke_array_upload(a, h, sizeof h), JUKE_OK);
    assert_int_equal(juke_array_upload(map, m, sizeof m), JUKE_OK);
    juke_arg args[1] = { juke_arg_array(a) };
    juke_launch_config cfg = { { 2, 1, 1 }, { 0, 0, 0 }, 0, false, NULL, 0 };
    cfg.ndrange_map = map;
    if (juke_launch(f->cpu, f->m, "map_mark!", args, 1, &cfg) != JUKE_OK)
        fail_msg("map_mark!: %s", juke_errmsg(f->ctx));
    assert_int_equal(juke_array_download(a, h, sizeof h), JUKE_OK);
    int64_t want[12] = { 3, 1, 0, 0, 0, 5, 0, 4, 0, 0, 0, 2 };
    assert_memory_equal(h, want, sizeof h);
    cfg.groupsize[0] = 0; /* KernelAbstractions' ErrorException: no static workgroupsize */
    assert_int_equal(juke_launch(f->cpu, f->m, "map_mark!", args, 1, &cfg), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "static 1-D workgroupsize"));
    cfg.groupsize[0] = 2;
    cfg.ndrange_map = ints; /* and its ArgumentError: no indices */
    assert_int_equal(juke_launch(f->cpu, f->m, "map_mark!", args, 1, &cfg), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "holds CartesianIndex{N} or NTuple{N} of integers, not Int64"));
    juke_kernel *k;
    cfg.ndrange_map = map;
    assert_int_equal(juke_kernel_for(f->cpu, f->m, "map_mark!", args, 1, &k), JUKE_OK);
    assert_int_equal(juke_kernel_launch(k, f->cpu, args, 1, &cfg), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "the launch gives an index map"));
    juke_array_free(a);
    juke_array_free(map);
    juke_array_free(ints);
}

/* A struct whose field is a device array (AMDGPU.jl's Adapt makes such a struct of a struct of ROCArrays):
 * juke_value_type finds its parameter from the fields, juke_value_pack copies the array's descriptor in, and
 * the kernel reads and writes the array through the field. */
static void test_struct_of_arrays(void **state)
{
    Fixture *f = *state;
    int64_t n = 6;
    float w[6] = { 1.5f, -2.0f, 0.25f, 4.0f, -0.5f, 3.0f }, o[6];
    juke_array *wa, *oa, *ia;
    assert_int_equal(juke_array_from_host(f->cpu, JUKE_FLOAT32, 1, &n, w, &wa), JUKE_OK);
    assert_int_equal(juke_array_create(f->cpu, JUKE_FLOAT32, 1, &n, &oa), JUKE_OK);
    assert_int_equal(juke_array_create(f->cpu, JUKE_INT32, 1, &n, &ia), JUKE_OK);
    juke_arg fields[2] = { juke_arg_array(wa), juke_arg_f32(2.0f) };
    char type[128];
    assert_int_equal(juke_value_type(f->m, "Model", fields, 2, type, sizeof type), JUKE_OK);
    assert_string_equal(type, "Model{ROCDeviceArray{Float32, 1, 1}}");
    size_t sz = 0;
    assert_int_equal(juke_value_layout(f->m, type, &sz, NULL, NULL, NULL, 0), JUKE_OK);
    assert_int_equal(sz, 32); /* the 24-byte descriptor, the Float32, padding to 8 */
    int fi = -1;              /* its fields by name, numbered as juke_value_pack takes them */
    assert_int_equal(juke_value_field(f->m, type, "scale", &fi), JUKE_OK);
    assert_int_equal(fi, 1);
    assert_int_equal(juke_value_field(f->m, type, "weights", &fi), JUKE_OK);
    assert_int_equal(fi, 0);
    assert_int_equal(juke_value_field(f->m, type, "bias", &fi), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "has no field bias"));
    unsigned char bytes[32];
    assert_int_equal(juke_value_pack(f->m, type, fields, 2, bytes, sizeof bytes), JUKE_OK);
    juke_arg args[2] = { juke_arg_array(oa), juke_arg_value(type, bytes, sz) };
    juke_launch_config cfg = { { 6, 1, 1 }, { 1, 1, 1 }, 0, false, NULL, 0 };
    if (juke_launch(f->cpu, f->m, "apply!", args, 2, &cfg) != JUKE_OK)
        fail_msg("apply!: %s", juke_errmsg(f->ctx));
    float g[6];
    assert_int_equal(juke_array_download(oa, o, sizeof o), JUKE_OK);
    assert_int_equal(juke_array_download(wa, g, sizeof g), JUKE_OK);
    for (int i = 0; i < 6; i++) {
        assert_true(o[i] == w[i] * 2.0f);
        assert_true(g[i] == w[i] + 1.0f);
    }
    /* an array of another element type is no Model{ROCDeviceArray{Float32, 1, 1}}'s field */
    fields[0] = juke_arg_array(ia);
    assert_int_equal(juke_value_pack(f->m, type, fields, 2, bytes, sizeof bytes), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "give a device array of that element type and rank"));
    /* and a constructor call of the wrong arity finds no parameters */
    assert_int_equal(juke_value_type(f->m, "Model", fields, 1, type, sizeof type), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(f->ctx), "no method Model(...)"));
    juke_array_free(wa);
    juke_array_free(oa);
    juke_array_free(ia);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_matches_c), cmocka_unit_test(test_struct_bytes),
        cmocka_unit_test(test_pack_fields),      cmocka_unit_test(test_ghosts),
        cmocka_unit_test(test_struct_array),     cmocka_unit_test(test_cartesian_array),
        cmocka_unit_test(test_struct_of_arrays), cmocka_unit_test(test_index_map),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
