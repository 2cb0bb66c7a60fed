/* fuzz_launch.c: libFuzzer target that runs what it compiles. Kernels from
 * the grammar-aware mutator that compile for the CPU are launched on the CPU
 * device with bounds checks on (the harness blanks every `@inbounds`), over
 * small arrays of random contents, on a small grid. The host must stay
 * intact: every host copy sits between canaries that are checked after the
 * download, and a known-good vadd launched on the same device afterwards
 * must still give the right answer. A kernel exception (BoundsError,
 * DivideError, InexactError) is an expected answer; invalid IR, an internal
 * error, a device failure, a broken canary or a wrong vadd is a finding.
 *
 * Hangs: juke_launch_config has no run-time limit in this tree, so the
 * harness bounds the kernels instead: it skips sources with `while` or
 * `@goto` (unbounded loops), with more than three `for`, or with an integer
 * literal above KMAX, and gives integer arguments values in -3..8, so that
 * any loop runs at most KMAX^3 times per work-item. libFuzzer's -timeout
 * catches what still slips through (recursion the compiler accepts).
 * Signatures as fuzz_compile: "#sig" lines, else derived from the methods.
 * FUZZ_LAUNCH_VERBOSE=1 prints each compile error and launch answer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "fuzz_findings.h"
#include "fuzz_sigs.h"
#include "juke.h"
#include "kernel_mutator.h"

enum { KMAX = 64, MAX_ELEMS = 64, CANARY = 64 };

static const char vadd_src[] = "function fz_vadd!(c, a, b)\n"
                               "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                               "    if i <= length(c)\n"
                               "        @inbounds c[i] = a[i] + b[i]\n"
                               "    end\n"
                               "    return\n"
                               "end\n";

typedef struct FlState {
    juke_context *ctx;
    juke_device *dev;
    juke_module *vadd;
} FlState;

/* libFuzzer calls us without a user pointer: one context and device per process. */
static FlState *fl_state(void)
{
    static FlState st;
    if (!st.ctx) {
        st.ctx = juke_context_create();
        if (!st.ctx || juke_device_open(st.ctx, "cpu", &st.dev) != JUKE_OK ||
            juke_module_load_string(st.ctx, "fz_vadd.jl", vadd_src, &st.vadd) != JUKE_OK) {
            fprintf(stderr, "fuzz_launch: no CPU device or vadd: %s\n", st.ctx ? juke_errmsg(st.ctx) : "no context");
            abort();
        }
    }
    return &st;
}

static uint64_t fl_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Whether the source's loops are bounded as the header says. */
static int fl_bounded(const char *src)
{
    if (strstr(src, "while") || strstr(src, "@goto"))
        return 0;
    int fors = 0;
    for (const char *p = src; (p = strstr(p, "for")); p += 3)
        fors++;
    if (fors > 3)
        return 0;
    for (const char *p = src; *p; p++) {
        if (*p >= '0' && *p <= '9' &&
            (p == src || !strchr("_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.", p[-1]))) {
            char *end;
            unsigned long long v = strtoull(p, &end, 0);
            if (v > KMAX || end - p > 6)
                return 0;
            p = end - 1;
        }
    }
    return 1;
}

/* Blank every @inbounds, so that each access keeps its bounds check. */
static void fl_strip_inbounds(char *s)
{
    for (char *p = s; (p = strstr(p, "@inbounds"));)
        memset(p, ' ', 9);
}

typedef struct FlArg {
    juke_arg arg;
    juke_array *arr;
    uint8_t *host; /* CANARY | bytes | CANARY */
    size_t bytes;
} FlArg;

static const struct {
    const char *name;
    juke_type t;
} fl_types[] = {
    { "Bool", JUKE_BOOL },       { "Int8", JUKE_INT8 },       { "Int16", JUKE_INT16 }, { "Int32", JUKE_INT32 },
    { "Int64", JUKE_INT64 },     { "Int", JUKE_INT64 },       { "UInt8", JUKE_UINT8 }, { "UInt16", JUKE_UINT16 },
    { "UInt32", JUKE_UINT32 },   { "UInt64", JUKE_UINT64 },   { "UInt", JUKE_UINT64 }, { "Float16", JUKE_FLOAT16 },
    { "Float32", JUKE_FLOAT32 }, { "Float64", JUKE_FLOAT64 },
};

static int fl_elem(const char *name, size_t n, juke_type *t)
{
    for (size_t i = 0; i < sizeof fl_types / sizeof fl_types[0]; i++)
        if (strlen(fl_types[i].name) == n && !strncmp(fl_types[i].name, name, n)) {
            *t = fl_types[i].t;
            return 1;
        }
    return 0;
}

/* Random element bits: small integers, floats in -4..4, Bool 0 or 1. */
static void fl_fill(uint8_t *p, juke_type t, int64_t n, uint64_t *rng)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t v = (int64_t)(fl_rand(rng) % 12) - 3;
        double d = (double)(int64_t)(fl_rand(rng) % 801 - 400) / 100.0;
        switch (t) {
        case JUKE_BOOL: p[i] = (uint8_t)(v & 1); break;
        case JUKE_INT8:
        case JUKE_UINT8: ((int8_t *)p)[i] = (int8_t)v; break;
        case JUKE_INT16:
        case JUKE_UINT16: ((int16_t *)p)[i] = (int16_t)v; break;
        case JUKE_INT32:
        case JUKE_UINT32: ((int32_t *)p)[i] = (int32_t)v; break;
        case JUKE_INT64:
        case JUKE_UINT64: ((int64_t *)p)[i] = v; break;
        case JUKE_FLOAT16: ((uint16_t *)p)[i] = (uint16_t)(0x3c00 + (fl_rand(rng) % 0x400)); break; /* 1..2 */
        case JUKE_FLOAT32: ((float *)p)[i] = (float)d; break;
        case JUKE_FLOAT64: ((double *)p)[i] = d; break;
        default: break; /* JUKE_VALUE is no element type */
        }
    }
}

static void fl_canary_check(const FlArg *a, const char *what)
{
    for (size_t i = 0; i < CANARY; i++)
        if (a->host[i] != (uint8_t)(0xA5 ^ i) || a->host[CANARY + a->bytes + i] != (uint8_t)(0x5A ^ i)) {
            fz_check_finding(0, 1, "host canary overwritten", what);
            return;
        }
}

/* The argument for type name ty; 0 when the harness does not model it. */
static int fl_make_arg(FlState *st, const char *ty, uint64_t *rng, FlArg *out)
{
    memset(out, 0, sizeof *out);
    juke_type t;
    int nd = 0;
    const char *lb = strchr(ty, '{');
    if (!lb) {
        if (!fl_elem(ty, strlen(ty), &t))
            return 0;
        out->arg.is_array = false;
        out->arg.type = t;
        int64_t v = (int64_t)(fl_rand(rng) % 12) - 3;
        if (t == JUKE_FLOAT32)
            out->arg.v.f32 = (float)v / 2;
        else if (t == JUKE_FLOAT64)
            out->arg.v.f64 = (double)v / 2;
        else if (t == JUKE_FLOAT16)
            out->arg.v.f16 = 0x3c00;
        else if (t == JUKE_BOOL)
            out->arg.v.i = v & 1;
        else if (t >= JUKE_UINT8 && t <= JUKE_UINT64)
            out->arg.v.u = (uint64_t)(v < 0 ? -v : v);
        else
            out->arg.v.i = v;
        return 1;
    }
    const char *comma = strchr(lb, ',');
    const char *rb = strchr(lb, '}');
    if (!rb)
        return 0;
    if (!strncmp(ty, "Vector{", 7))
        nd = 1;
    else if (!strncmp(ty, "Matrix{", 7))
        nd = 2;
    else if (!strncmp(ty, "Array{", 6) && comma && comma < rb)
        nd = atoi(comma + 1);
    if (nd < 1 || nd > 3 || !fl_elem(lb + 1, (size_t)((comma && comma < rb ? comma : rb) - lb - 1), &t))
        return 0;
    int64_t dims[3], n = 1;
    for (int d = 0; d < nd; d++) {
        dims[d] = 1 + (int64_t)(fl_rand(rng) % (nd == 1 ? MAX_ELEMS : 4));
        n *= dims[d];
    }
    if (juke_array_create(st->dev, t, nd, dims, &out->arr) != JUKE_OK)
        return 0;
    out->bytes = (size_t)n * juke_sizeof(t);
    out->host = malloc(out->bytes + 2 * CANARY);
    if (!out->host) {
        juke_array_free(out->arr);
        out->arr = NULL;
        return 0;
    }
    for (size_t i = 0; i < CANARY; i++) {
        out->host[i] = (uint8_t)(0xA5 ^ i);
        out->host[CANARY + out->bytes + i] = (uint8_t)(0x5A ^ i);
    }
    fl_fill(out->host + CANARY, t, n, rng);
    if (juke_array_upload(out->arr, out->host + CANARY, out->bytes) != JUKE_OK)
        fz_check_finding(0, 1, "upload", juke_errmsg(st->ctx));
    out->arg = juke_arg_array(out->arr);
    return 1;
}

/* A known-good vadd on the same device: a broken device or host shows here. */
static void fl_vadd_still_works(FlState *st, uint64_t *rng)
{
    enum { N = 37 };
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)(int)(fl_rand(rng) % 1000);
        b[i] = (float)(int)(fl_rand(rng) % 1000);
        c[i] = -1;
    }
    int64_t n = N;
    juke_array *da = NULL, *db = NULL, *dc = NULL;
    if (juke_array_create(st->dev, JUKE_FLOAT32, 1, &n, &da) || juke_array_create(st->dev, JUKE_FLOAT32, 1, &n, &db) ||
        juke_array_create(st->dev, JUKE_FLOAT32, 1, &n, &dc) || juke_array_upload(da, a, sizeof a) ||
        juke_array_upload(db, b, sizeof b) || juke_array_upload(dc, c, sizeof c)) {
        fz_check_finding(0, 1, "vadd arrays", juke_errmsg(st->ctx));
    } else {
        juke_arg args[3] = { juke_arg_array(dc), juke_arg_array(da), juke_arg_array(db) };
        juke_launch_config cfg = { { 16, 1, 1 }, { 3, 1, 1 }, 0, false, NULL };
        juke_status s = juke_launch(st->dev, st->vadd, "fz_vadd!", args, 3, &cfg);
        if (s != JUKE_OK || juke_array_download(dc, c, sizeof c) != JUKE_OK)
            fz_check_finding(0, 1, "vadd after the kernel failed", juke_errmsg(st->ctx));
        for (int i = 0; i < N && s == JUKE_OK; i++)
            if (c[i] != a[i] + b[i]) {
                fz_check_finding(0, 1, "vadd after the kernel is wrong", "");
                break;
            }
    }
    juke_array_free(da);
    juke_array_free(db);
    juke_array_free(dc);
}

static void fl_launch(FlState *st, juke_module *mod, const FzSig *sig, uint64_t seed)
{
    uint64_t rng = seed | 1;
    FlArg args[FZ_MAXARGS];
    juke_arg jargs[FZ_MAXARGS];
    int n = 0, ok = 1;
    for (; n < sig->nargs; n++) {
        if (!fl_make_arg(st, sig->types[n], &rng, &args[n])) {
            ok = 0;
            break;
        }
        jargs[n] = args[n].arg;
    }
    if (ok) {
        juke_launch_config cfg = {
            { (uint32_t)(1 + fl_rand(&rng) % 16), 1, 1 }, { (uint32_t)(1 + fl_rand(&rng) % 3), 1, 1 }, 0, false, NULL
        };
        juke_status s = juke_launch(st->dev, mod, sig->func, jargs, n, &cfg);
        if (getenv("FUZZ_LAUNCH_VERBOSE")) /* what each launch answered, to see the target reach the device */
            fprintf(stderr, "fuzz_launch: %s: %s %s\n", sig->func, juke_status_name(s), s ? juke_errmsg(st->ctx) : "");
        fz_check_finding(s == JUKE_ERR_INVALID_IR, s == JUKE_ERR_INTERNAL || s == JUKE_ERR_DEVICE, "launch",
                         juke_errmsg(st->ctx));
        for (int i = 0; i < n; i++) {
            if (!args[i].arr)
                continue;
            memset(args[i].host + CANARY, 0xCC, args[i].bytes);
            if (juke_array_download(args[i].arr, args[i].host + CANARY, args[i].bytes) != JUKE_OK)
                fz_check_finding(0, 1, "download", juke_errmsg(st->ctx));
            fl_canary_check(&args[i], sig->func);
        }
        fl_vadd_still_works(st, &rng);
    }
    for (int i = 0; i < n; i++) {
        juke_array_free(args[i].arr);
        free(args[i].host);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FlState *st = fl_state();
    if (memchr(data, 0, size))
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    fl_strip_inbounds(text);
    if (!fl_bounded(text)) {
        free(text);
        return 0;
    }
    juke_module *mod;
    FzSig sigs[FZ_MAXSIG];
    int n = fz_load_sigs(st->ctx, text, size, fz_hash(data, size), &mod, sigs);
    if (mod) {
        for (int i = 0; i < n; i++) {
            const char *tn[FZ_MAXARGS];
            fz_type_names(&sigs[i], tn);
            juke_options o;
            juke_options_default(&o);
            o.target = "cpu";
            juke_kernel *k = NULL;
            juke_status s = juke_compile(mod, sigs[i].func, tn, sigs[i].nargs, &o, &k);
            fz_check_finding(s == JUKE_ERR_INVALID_IR, s == JUKE_ERR_INTERNAL, "cpu", juke_errmsg(st->ctx));
            if (s == JUKE_OK)
                fl_launch(st, mod, &sigs[i], fz_hash(data, size) + (uint64_t)i);
            else if (getenv("FUZZ_LAUNCH_VERBOSE"))
                fprintf(stderr, "fuzz_launch: %s: compile: %s\n", sigs[i].func, juke_errmsg(st->ctx));
        }
        juke_module_free(mod);
    }
    free(text);
    return 0;
}
