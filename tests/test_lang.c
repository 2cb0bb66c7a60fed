/* test_lang.c: the language test suite. Every .jl file in tests/lang (and
 * in tests/lang/errors) is a kernel program whose expectations are written
 * inline, in comments, Wren style; this runner compiles and runs each through
 * the public API (juke.h) on the "cpu" device and checks them. One cmocka
 * test per file; JUKE_LANG_FILTER=substring runs only the matching files.
 *
 * Directives (each on a comment line of its own, `#` then the directive):
 *
 *   # run: f!(ARG, ...) [groupsize X[,Y[,Z]]] [gridsize X[,Y[,Z]] | ndrange X[,Y,...]] [shmem BYTES]
 *                      [wavefrontsize 32|64] [cooperative] [seed N]
 *       Launch f! with these arguments (outer/f!: the function f! defined inside the function outer, as
 *       juke.h names it, outer/f!#2 the second of outer's; f! alone where one function defines it). An ARG is `name = VALUE` (the name is
 *       what the expectations below refer to), VALUE a Julia literal as `juke run`
 *       takes one (tools/literal.h, the one parser of them), parsed once the file's
 *       module is loaded:
 *         zeros(T, d1[, d2, d3])        a zeroed array of element type T
 *         T[v1, v2, ...]                a vector with these elements (ComplexF32 and ComplexF64: the
 *                                       parts in turn, ComplexF32[1, 2, 3, 4] is [1+2im, 3+4im]
 *                                       (LIT_COMPLEX_PARTS); so are a complex array's values in `expect`)
 *         reshape(T[v...], d1, d2...)   an array of those dims (column-major)
 *         collect(T, a:b)               the vector T.(a:b)
 *         T[v1, v2, ...]                of a tuple or struct type T, or Int128 / UInt128: a vector of those
 *                                       values (juke_array_create_value), each written as a run's value
 *                                       argument is (NTuple{2, Float32}[(1f0, 2f0)], P[P(1, 2.5)]); its
 *                                       `expect` lists the elements so, compared bytewise; reshape(T[...], d1, d2...)
 *                                       of those makes an array of those dims
 *         5  -5  0x1f  2.5  1e-3  2.5f0  true  Int32(5)  UInt8(3)  Float16(1.5)  typemin(Int64)
 *                                       a scalar, typed as Julia types the literal
 *         (1f0, 2), (a = 1, b = 2f0), P(1, 2.5), Val(4), typeof(+), conj, 3:9, 1.0+2.0im, ComplexF32(1, 2)
 *                                       a tuple, named tuple, struct or value without bits (lit_parse_value)
 *       groupsize defaults to 1, gridsize to 1 (workgroups, as AMDGPU.jl counts); wavefrontsize compiles
 *       the kernel for waves of 32 or 64 lanes (juke_options.wavefront_size; default 64 on the cpu; a run
 *       whose results depend on the wave size names it): on a cuda device a run of 64 is skipped with its
 *       expectations (warps are 32 wide), on a hip or amdemu device of a gfx9 processor a run of 32 (its waves
 *       are 64 wide), and in the targets mode gfx11 takes the size, sm_* 32;
 *       cooperative launches it so (juke_launch_config.cooperative: every workgroup resident, sync_grid).
 *       ndrange (work-items, KernelAbstractions' launch; a @kernel needs one) replaces gridsize: the
 *       grid is the ndrange rounded up to whole groups, and without groupsize the library picks one;
 *       an ndrange of more than 3 dimensions (up to JUKE_NDRANGE_MAX) launches linearly (juke.h). A
 *       dimension written lo:hi is KernelAbstractions' offset range (juke_launch_config.ndrange_offset).
 *       `ndrange T[...]`, an array literal of CartesianIndex{N} or NTuple{N} values (no spaces outside its
 *       brackets), is KernelAbstractions' index-map ndrange (juke_launch_config.ndrange_map).
 *       seed N keys the kernel's random numbers (juke_launch_config.seed), else each launch gets a fresh seed.
 *       A file may hold several runs; the expectations after a run check it.
 *   # expect NAME: [v1, v2, ...]       array argument NAME equals this, exactly
 *                                       (floats bit-for-bit up to NaN payloads:
 *                                       -0.0 differs from 0.0; NaN equals NaN)
 *   # expect NAME.FIELD: [v...]         ... the array field FIELD of a value argument NAME (a struct that
 *                                       holds arrays, as a closure's captures: f = Body(zeros(T, n), ...));
 *                                       NAME.N the Nth field of a tuple of arrays (c = (A, B): c.2 is B)
 *   # expect NAME ≈ [v...] [rtol R]     floats within a relative tolerance
 *                                       (default 1e-6 for Float32/Float16, 1e-14 for Float64)
 *       Values: integers (decimal or 0x hex), floats (1.5, 1e-3, 1.5f0), Inf,
 *       -Inf, NaN, true, false, typemin(T), typemax(T).
 *   # expect exception: TEXT            the run raises a kernel exception whose
 *                                       message contains TEXT
 *   # expect exception at: LINE:COL     ... raised at this place of the file
 *   # expect typed: TEXT                the typed IR of the run's signature
 *                                       (juke_typed) contains TEXT
 *   # expect error: MESSAGE             a compile error with exactly this message
 *   # expect error at: LINE:COL         ... at this place (applies to the
 *                                       error line above it); {file} in the
 *                                       message stands for the file's path
 *       Errors are compared as a set: the file (its load, else its first run)
 *       must report exactly the expected errors, no more. Notes are not counted.
 *   # expect output: TEXT               what the run printed (@rocprintf, @rocprint,
 *                                       @rocprintln), through juke_set_print_callback:
 *                                       the TEXT of every `expect output` line after the
 *                                       run, concatenated, equals it exactly; in TEXT,
 *                                       \n is a newline, \s a space (a trailing one
 *                                       would be trimmed) and \\ a backslash (end a
 *                                       line with \n where the output does); checked on
 *                                       the cpu device (NVPTX prints with vprintf)
 *   # expect print note: TEXT           the runtime's note on lost records contains TEXT
 *   # errors on: cpu                    the expected errors are the cpu target's (a target
 *                                       intrinsic, ...): a device of another target skips the file
 *   # compile targets: T1 T2 ...        in the targets mode below, compile this file's
 *                                       runs only for these of the listed targets (say why
 *                                       in a comment: a gfx11-only instruction, ...)
 *
 * The targets mode (`test_lang --targets gfx90a,gfx942,gfx1100,sm_90`, the
 * `lang_targets` test): instead of running on the cpu device, every run's
 * signature is compiled for each of those targets (juke_compile), which must
 * succeed; files that expect compile errors are skipped. With `--cache-dir
 * DIR` the kernels are saved in that disk cache, for a GPU machine without
 * LLVM (bench/prepare_h200.sh): there `test_lang --device cuda` (built
 * against the runtime-only libjuke as bench/lang_gpu) runs every file on the
 * GPU, its kernels taken from $JUKE_CACHE_DIR. */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "juke.h"
#include "literal.h"
#include "testutil.h"

enum { MAX_ARGS = 48, MAX_FILES = 512, MAX_ERRS = 32 };

typedef struct Env {
    juke_context *ctx;
    juke_device *dev;
    /* what the current run printed (stream 1) and noted (stream 2) */
    char *out, *note;
    size_t outlen, notelen;
    char *targets[16]; /* the targets mode: compile for these instead of running */
    int ntargets;
    const char *cache_dir; /* the targets mode: save the kernels there ("" = nowhere) */
    const char *device;    /* where the runs run: "cpu" unless --device */
    int opt;               /* --opt N: the optimisation level of every compile (-1: the library's default) */
} Env;
static Env env;

static void capture(char **buf, size_t *len, const char *text, size_t n)
{
    char *b = realloc(*buf, *len + n + 1);
    if (!b)
        return;
    memcpy(b + *len, text, n);
    *len += n;
    b[*len] = 0;
    *buf = b;
}

static void print_to_env(void *user, int stream, const char *text, size_t len)
{
    (void)user;
    if (stream == 1)
        capture(&env.out, &env.outlen, text, len);
    else
        capture(&env.note, &env.notelen, text, len);
}

/* ---- small helpers ---- */

static float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, b;
    if (exp == 0x1f)
        b = sign | 0x7f800000 | (man << 13);
    else if (exp == 0) {
        if (!man)
            b = sign;
        else {
            int e = -1;
            do {
                e++;
                man <<= 1;
            } while (!(man & 0x400));
            b = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ff) << 13);
        }
    } else
        b = sign | ((exp + 127 - 15) << 23) | (man << 13);
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static bool is_float_type(juke_type t)
{
    return t == JUKE_FLOAT16 || t == JUKE_FLOAT32 || t == JUKE_FLOAT64 || t == JUKE_COMPLEXF32 || t == JUKE_COMPLEXF64;
}
/* A complex array's values are listed (and stored, loaded, compared) part by part: re, im, re, im, ... */
static int parts(juke_type t)
{
    return t == JUKE_COMPLEXF32 || t == JUKE_COMPLEXF64 ? 2 : 1;
}
static bool is_unsigned_type(juke_type t)
{
    return t >= JUKE_UINT8 && t <= JUKE_UINT64;
}

/* ---- values in directives ---- */

typedef struct Val {
    bool is_float;
    int64_t i;      /* integers (two's complement bits for large unsigned values) */
    double f;       /* floats */
    juke_type type; /* the Julia type of the literal (scalars) */
} Val;

typedef struct Cursor {
    const char *p;
    const char *file;
    int line;
    char err[256];
} Cursor;

static void skip_ws(Cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t')
        c->p++;
}

static bool accept(Cursor *c, const char *tok)
{
    skip_ws(c);
    size_t n = strlen(tok);
    if (strncmp(c->p, tok, n) != 0)
        return false;
    c->p += n;
    return true;
}

static bool ident(Cursor *c, char *buf, size_t n)
{
    skip_ws(c);
    size_t i = 0;
    while (isalnum((unsigned char)*c->p) || *c->p == '_' || *c->p == '!' || (unsigned char)*c->p >= 0x80) {
        if (i + 1 < n)
            buf[i++] = *c->p;
        c->p++;
    }
    buf[i] = 0;
    return i > 0;
}

static bool cerr(Cursor *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    return false;
}

/* A number as Julia types its literal (lit_parse: 5 Int64, 0x1f UInt8 by its digits, 2.5 Float64, 2.5f0
 * Float32, Inf32, typemin(Int8)), written up to a ',', ']', ':', blank or the end. */
static bool parse_number(Cursor *c, Val *v)
{
    skip_ws(c);
    const char *s = c->p, *p = s;
    if (strncmp(p, "typemin(", 8) == 0 || strncmp(p, "typemax(", 8) == 0)
        p = strchr(p, ')') ? strchr(p, ')') + 1 : p + strlen(p);
    else /* a sign after e or f is an exponent's: 1e-3, 2f+1 */
        for (p += *p == '-' || *p == '+'; isalnum((unsigned char)*p) || *p == '_' || *p == '.' ||
                                          ((*p == '-' || *p == '+') && p - s >= 2 && strchr("eEf", p[-1]) &&
                                           (isdigit((unsigned char)p[-2]) || p[-2] == '.'));
             p++)
            ;
    char text[64];
    juke_arg a;
    const char *why;
    if (p == s || (size_t)(p - s) >= sizeof text)
        return cerr(c, "expected a number at \"%.20s\"", s);
    memcpy(text, s, (size_t)(p - s));
    text[p - s] = 0;
    char *end;
    if (!lit_parse(text, &a, &why)) {
        /* a decimal past typemax(Int64) (Julia's Int128): an expected UInt64's value */
        unsigned long long u = isdigit((unsigned char)text[0]) ? strtoull(text, &end, 10) : 0;
        if (!u || *end)
            return cerr(c, "expected a number at \"%.20s\": %s", s, why);
        a = juke_arg_u64(u);
    }
    memset(v, 0, sizeof *v);
    v->type = a.type;
    v->is_float = a.type == JUKE_FLOAT16 || a.type == JUKE_FLOAT32 || a.type == JUKE_FLOAT64;
    if (v->is_float)
        v->f = a.type == JUKE_FLOAT16 ? f16_to_f32(a.v.f16) : a.type == JUKE_FLOAT32 ? a.v.f32 : a.v.f64;
    else
        v->i = a.v.i; /* an unsigned value's bits */
    c->p = p;
    return true;
}

/* [v1, v2, ...] */
static int parse_list(Cursor *c, Val **out)
{
    if (!accept(c, "[")) {
        cerr(c, "expected '['");
        return -1;
    }
    int n = 0, cap = 16;
    Val *vs = malloc(sizeof(Val) * (size_t)cap);
    if (accept(c, "]")) {
        *out = vs;
        return 0;
    }
    do {
        if (n == cap)
            vs = realloc(vs, sizeof(Val) * (size_t)(cap *= 2));
        if (!parse_number(c, &vs[n++])) {
            free(vs);
            return -1;
        }
    } while (accept(c, ","));
    if (!accept(c, "]")) {
        free(vs);
        cerr(c, "expected ']' at \"%.20s\"", c->p);
        return -1;
    }
    *out = vs;
    return n;
}

/* ---- the host side of arguments ---- */

typedef struct LArg {
    char name[64];
    char *text;          /* the value as written (malloc), parsed (literal.h) when the run's module is loaded */
    char host_type[256]; /* "Vector{Float32}" for juke_typed */
    LitArray lit;        /* an array argument's type, dims and elements */
    LitBlobs blobs;
    bool is_array;
    juke_array *arr;
    juke_arg arg;
} LArg;

typedef struct Run {
    char fn[128];
    LArg args[MAX_ARGS];
    int nargs;
    uint32_t group[3], grid[3], shmem;
    bool group_set;
    uint32_t ndims; /* a KernelAbstractions launch over ndrange */
    uint64_t ndrange[JUKE_NDRANGE_MAX];
    int64_t offset[JUKE_NDRANGE_MAX]; /* an offset ndrange's lo - 1 per dimension (lo:hi) */
    LArg map;                         /* an index-map ndrange (its text non-NULL): an array argument of its own */
    int wavefront_size;               /* 0: the default */
    bool cooperative;
    bool seeded;
    uint64_t seed;
} Run;

/* Element i of a host array as a Val. */
static Val load_elem(const void *host, juke_type t, int64_t i)
{
    Val v = { .type = t };
    switch (t) {
    case JUKE_BOOL: v.i = ((const uint8_t *)host)[i]; break;
    case JUKE_INT8: v.i = ((const int8_t *)host)[i]; break;
    case JUKE_UINT8: v.i = ((const uint8_t *)host)[i]; break;
    case JUKE_INT16: v.i = ((const int16_t *)host)[i]; break;
    case JUKE_UINT16: v.i = ((const uint16_t *)host)[i]; break;
    case JUKE_INT32: v.i = ((const int32_t *)host)[i]; break;
    case JUKE_UINT32: v.i = ((const uint32_t *)host)[i]; break;
    case JUKE_INT64:
    case JUKE_UINT64: v.i = ((const int64_t *)host)[i]; break;
    case JUKE_FLOAT16:
        v.is_float = true;
        v.f = f16_to_f32(((const uint16_t *)host)[i]);
        break;
    case JUKE_FLOAT32:
    case JUKE_COMPLEXF32: /* i counts parts */
        v.is_float = true;
        v.f = ((const float *)host)[i];
        break;
    case JUKE_FLOAT64:
    case JUKE_COMPLEXF64:
        v.is_float = true;
        v.f = ((const double *)host)[i];
        break;
    default: break; /* JUKE_VALUE is no element type */
    }
    return v;
}

static void show_val(char *buf, size_t n, const Val *v)
{
    if (v->is_float)
        snprintf(buf, n, "%.17g", v->f);
    else if (is_unsigned_type(v->type))
        snprintf(buf, n, "0x%llx", (unsigned long long)v->i);
    else
        snprintf(buf, n, "%lld", (long long)v->i);
}

/* Parse the arguments of r (their text) for module m: each one's juke_arg, or an array's elements on the
 * host, and its type. False with the reason in why. */
static bool resolve_args(Run *r, juke_module *m, char *why, size_t n)
{
    for (int i = 0; i < r->nargs + (r->map.text != NULL); i++) {
        LArg *a = i < r->nargs ? &r->args[i] : &r->map;
        char w[440]; /* with the name and ": ", within the callers' 512 */
        lit_blobs_free(&a->blobs);
        lit_array_free(&a->lit);
        a->is_array = lit_is_array(a->text);
        if (a->is_array ? !lit_parse_array(env.ctx, m, a->text, LIT_COMPLEX_PARTS, &a->lit, w, sizeof w)
                        : !lit_parse_value(env.ctx, m, env.dev, a->text, &a->arg, &a->blobs, w, sizeof w)) {
            snprintf(why, n, "%s: %s", a->name, w);
            return false;
        }
        if (a->is_array)
            lit_array_type(&a->lit, a->host_type, sizeof a->host_type);
        else
            snprintf(a->host_type, sizeof a->host_type, "%s",
                     a->arg.type == JUKE_VALUE ? a->arg.v.value.type : lit_type_name(a->arg.type));
    }
    return true;
}

/* The end of the bracketed text that starts at p ('[', '(' or '{' matched with nesting), or NULL. */
static const char *bracket_end(const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        if (*p == '[' || *p == '(' || *p == '{')
            depth++;
        else if ((*p == ']' || *p == ')' || *p == '}') && --depth == 0)
            return p;
    }
    return NULL;
}

/* name = VALUE: the value's text, up to the ',' or ')' that ends it (brackets nest) */
static bool parse_arg(Cursor *c, LArg *a)
{
    if (!ident(c, a->name, sizeof a->name) || !accept(c, "="))
        return cerr(c, "expected `name = value` at \"%.30s\"", c->p);
    skip_ws(c);
    const char *p = c->p;
    for (int depth = 0; *p && !(depth == 0 && (*p == ',' || *p == ')')); p++)
        depth += strchr("([{", *p) ? 1 : strchr(")]}", *p) ? -1 : 0;
    size_t n = (size_t)(p - c->p);
    while (n && c->p[n - 1] == ' ')
        n--;
    if (n == 0 || !(a->text = strndup(c->p, n)))
        return cerr(c, "expected a value at \"%.30s\"", c->p);
    c->p = p;
    return true;
}

static bool parse_dims3(Cursor *c, uint32_t *out)
{
    out[0] = out[1] = out[2] = 1;
    for (int i = 0; i < 3; i++) {
        Val v;
        if (!parse_number(c, &v) || v.is_float)
            return cerr(c, "bad size");
        out[i] = (uint32_t)v.i;
        if (!accept(c, ","))
            break;
    }
    return true;
}

/* f!(a = ..., b = ...) groupsize X gridsize Y shmem Z */
static bool parse_run(Cursor *c, Run *r)
{
    memset(r, 0, sizeof *r);
    r->group[0] = r->group[1] = r->group[2] = 1;
    r->grid[0] = r->grid[1] = r->grid[2] = 1;
    if (!ident(c, r->fn, sizeof r->fn))
        return cerr(c, "expected f(args...)");
    if (*c->p == '/') { /* outer/f: the function f defined inside outer (juke.h) */
        size_t len = strlen(r->fn);
        c->p++;
        if (len + 1 >= sizeof r->fn || !ident(c, r->fn + len + 1, sizeof r->fn - len - 1))
            return cerr(c, "expected f(args...)");
        r->fn[len] = '/';
        len = strlen(r->fn);
        if (*c->p == '#' && isdigit((unsigned char)c->p[1]) && len + 2 < sizeof r->fn) { /* outer/f!#2: the second */
            r->fn[len++] = *c->p++;
            while (isdigit((unsigned char)*c->p) && len + 1 < sizeof r->fn)
                r->fn[len++] = *c->p++;
            r->fn[len] = 0;
        }
    }
    if (!accept(c, "("))
        return cerr(c, "expected f(args...)");
    if (!accept(c, ")")) {
        do {
            if (r->nargs == MAX_ARGS)
                return cerr(c, "too many arguments");
            if (!parse_arg(c, &r->args[r->nargs++]))
                return false;
        } while (accept(c, ","));
        if (!accept(c, ")"))
            return cerr(c, "expected ')' at \"%.20s\"", c->p);
    }
    for (;;) {
        if (accept(c, "groupsize")) {
            if (!parse_dims3(c, r->group))
                return false;
            r->group_set = true;
        } else if (accept(c, "ndrange")) {
            skip_ws(c);
            if (isalpha((unsigned char)*c->p)) { /* an index map, T[...] */
                const char *p = c->p;
                for (int depth = 0; *p && !(depth == 0 && isspace((unsigned char)*p)); p++)
                    depth += strchr("([{", *p) ? 1 : strchr(")]}", *p) ? -1 : 0;
                snprintf(r->map.name, sizeof r->map.name, "ndrange");
                if (!lit_is_array(c->p) || !(r->map.text = strndup(c->p, (size_t)(p - c->p))))
                    return cerr(c, "bad ndrange map");
                c->p = p;
                continue;
            }
            do { /* N, or a range lo:hi (an offset ndrange) */
                Val v, hi;
                if (r->ndims == JUKE_NDRANGE_MAX || !parse_number(c, &v) || v.is_float)
                    return cerr(c, "bad ndrange");
                if (accept(c, ":")) {
                    if (!parse_number(c, &hi) || hi.is_float)
                        return cerr(c, "bad ndrange range");
                    r->offset[r->ndims] = v.i - 1;
                    v.i = hi.i >= v.i ? hi.i - v.i + 1 : 0;
                } else if (v.i < 0) {
                    return cerr(c, "bad ndrange");
                }
                r->ndrange[r->ndims++] = (uint64_t)v.i;
            } while (accept(c, ","));
        } else if (accept(c, "gridsize")) {
            if (!parse_dims3(c, r->grid))
                return false;
        } else if (accept(c, "shmem")) {
            Val v;
            if (!parse_number(c, &v))
                return false;
            r->shmem = (uint32_t)v.i;
        } else if (accept(c, "wavefrontsize")) {
            Val v;
            if (!parse_number(c, &v) || (v.i != 32 && v.i != 64))
                return cerr(c, "wavefrontsize expects 32 or 64");
            r->wavefront_size = (int)v.i;
        } else if (accept(c, "cooperative")) {
            r->cooperative = true;
        } else if (accept(c, "seed")) {
            Val v;
            if (!parse_number(c, &v))
                return false;
            r->seeded = true;
            r->seed = (uint64_t)v.i;
        } else {
            break;
        }
    }
    skip_ws(c);
    if (*c->p && *c->p != '\n' && *c->p != '\r')
        return cerr(c, "unexpected \"%.20s\"", c->p);
    return true;
}

static void free_run(Run *r)
{
    for (int i = 0; i < r->nargs + 1; i++) {
        LArg *a = i < r->nargs ? &r->args[i] : &r->map;
        lit_blobs_free(&a->blobs);
        lit_array_free(&a->lit);
        free(a->text);
        a->text = NULL;
        if (a->arr)
            juke_array_free(a->arr);
        a->arr = NULL;
    }
    r->nargs = 0;
}

/* ---- directives ---- */

typedef struct Directive {
    int line;
    const char *text; /* after "# ", up to the end of the line (NUL-terminated copy) */
} Directive;

static int collect_directives(char *src, Directive *out, int max)
{
    int n = 0, line = 1;
    for (char *p = src; *p;) {
        char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char *q = p;
        while (q < p + len && (*q == ' ' || *q == '\t'))
            q++;
        if (q < p + len && *q == '#' && q[1] != '=') {
            q++;
            while (q < p + len && *q == ' ')
                q++;
            if ((strncmp(q, "run:", 4) == 0 || strncmp(q, "expect", 6) == 0 || strncmp(q, "errors on:", 10) == 0 ||
                 strncmp(q, "compile targets:", 16) == 0) &&
                n < max) {
                char *t = malloc(len + 1);
                size_t k = (size_t)(p + len - q);
                memcpy(t, q, k);
                t[k] = 0;
                while (k && (t[k - 1] == '\r' || t[k - 1] == ' '))
                    t[--k] = 0;
                out[n++] = (Directive){ line, t };
            }
        }
        line++;
        if (!e)
            break;
        p = e + 1;
    }
    return n;
}

typedef struct ExpErr {
    char msg[512];
    int line, col; /* 0 = not given */
    bool matched;
} ExpErr;

typedef struct FileCheck {
    const char *path;
    const char *base;
    int failures;
    char log[8192];
    size_t loglen;
} FileCheck;

static void fc_fail(FileCheck *fc, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fc_fail(FileCheck *fc, int line, const char *fmt, ...)
{
    fc->failures++;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s:%d: %s\n", fc->path, line, msg);
}

/* Compare the "file:L:C: error: MSG" lines of an error text with the expected errors. */
static void check_errors(FileCheck *fc, const char *text, ExpErr *ex, int nex, int line)
{
    int actual = 0;
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *tag = strstr(p, ": error: ");
        if (tag && tag < p + len) {
            actual++;
            /* path:L:C before the tag */
            int l = 0, col = 0;
            const char *q = tag;
            const char *c2 = q;
            while (c2 > p && isdigit((unsigned char)c2[-1]))
                c2--;
            col = atoi(c2);
            const char *l2 = c2 - 1;
            while (l2 > p && isdigit((unsigned char)l2[-1]))
                l2--;
            l = atoi(l2);
            const char *msg = tag + strlen(": error: ");
            size_t mlen = (size_t)(p + len - msg);
            bool found = false;
            for (int i = 0; i < nex && !found; i++) {
                if (ex[i].matched || strlen(ex[i].msg) != mlen || strncmp(ex[i].msg, msg, mlen) != 0)
                    continue;
                if (ex[i].line && (ex[i].line != l || ex[i].col != col))
                    continue;
                ex[i].matched = found = true;
            }
            if (!found)
                fc_fail(fc, line, "unexpected error: %.*s", (int)len, p);
        }
        if (!e)
            break;
        p = e + 1;
    }
    for (int i = 0; i < nex; i++)
        if (!ex[i].matched)
            fc_fail(fc, line, "expected error not reported: %d:%d: %s", ex[i].line, ex[i].col, ex[i].msg);
    if (!actual && nex)
        fc_fail(fc, line, "no errors; full message:\n%s", text);
    else if (fc->failures)
        fprintf(stderr, "  the messages were:\n%s\n", text);
}

static bool vals_equal(const Val *got, const Val *want, juke_type t)
{
    if (is_float_type(t)) {
        double w = want->is_float ? want->f : (double)want->i;
        if (t == JUKE_FLOAT32 || t == JUKE_COMPLEXF32)
            w = (double)(float)w;
        if (isnan(got->f) || isnan(w))
            return isnan(got->f) && isnan(w);
        return got->f == w && signbit(got->f) == signbit(w);
    }
    int64_t w = want->is_float ? (int64_t)want->f : want->i;
    switch (t) {
    case JUKE_BOOL: return (got->i != 0) == (w != 0);
    case JUKE_INT8: return got->i == (int8_t)w;
    case JUKE_UINT8: return got->i == (uint8_t)w;
    case JUKE_INT16: return got->i == (int16_t)w;
    case JUKE_UINT16: return got->i == (uint16_t)w;
    case JUKE_INT32: return got->i == (int32_t)w;
    case JUKE_UINT32: return got->i == (uint32_t)w;
    default: return got->i == w;
    }
}

static void check_array(FileCheck *fc, Directive *d, juke_module *m, Run *r, const char *rest)
{
    Cursor c = { .p = rest, .file = fc->path, .line = d->line };
    char name[64];
    if (!ident(&c, name, sizeof name)) {
        fc_fail(fc, d->line, "bad expectation");
        return;
    }
    char field[64] = "";
    if (*c.p == '.' && (c.p++, !ident(&c, field, sizeof field))) {
        fc_fail(fc, d->line, "bad expectation: NAME.FIELD");
        return;
    }
    bool approx = false;
    if (accept(&c, "≈"))
        approx = true;
    else if (!accept(&c, ":")) {
        fc_fail(fc, d->line, "expected `:` or `≈` after the name");
        return;
    }
    LArg *a = NULL, fa;
    for (int i = 0; i < r->nargs; i++)
        if (strcmp(r->args[i].name, name) == 0)
            a = &r->args[i];
    if (a && field[0]) { /* NAME.FIELD: an array field of a value argument (a struct of arrays, a closure's) */
        int fi = -1;
        LArg *v = a;
        a = NULL;
        if (!v->is_array && v->arg.type == JUKE_VALUE && juke_value_field(m, v->host_type, field, &fi) == JUKE_OK)
            for (int k = 0; k < v->blobs.narrays; k++)
                if (v->blobs.array_fields[k] == fi) {
                    memset(&fa, 0, sizeof fa);
                    fa.is_array = true;
                    fa.arr = v->blobs.arrays[k];
                    fa.lit.type = juke_array_eltype(fa.arr);
                    fa.lit.len = juke_array_length(fa.arr);
                    a = &fa;
                }
    }
    if (!a || !a->is_array) {
        fc_fail(fc, d->line, "no array argument `%s%s%s` in the run", name, field[0] ? "." : "", field);
        return;
    }
    if (a->lit.type == JUKE_VALUE) { /* a value array: [v1, v2, ...] written as its elements were, compared bytewise */
        skip_ws(&c);
        const char *end = *c.p == '[' ? bracket_end(c.p) : NULL;
        size_t es = a->lit.elsize;
        char why[512];
        LitArray want = { 0 };
        size_t tn = end ? strlen(a->lit.elemtype) + (size_t)(end - c.p) + 2 : 0;
        char *text = end ? malloc(tn) : NULL;
        if (!text || approx) {
            fc_fail(fc, d->line, "expect %s: [v1, ...] of its %s elements, exactly", name, a->lit.elemtype);
            free(text);
            return;
        }
        snprintf(text, tn, "%s%.*s", a->lit.elemtype, (int)(end - c.p + 1), c.p); /* T[v1, ...] */
        unsigned char *got = calloc((size_t)(a->lit.len ? a->lit.len : 1), es);
        if (!lit_parse_array(env.ctx, m, text, 0, &want, why, sizeof why))
            fc_fail(fc, d->line, "expect %s: %s", name, why);
        else if (want.len != a->lit.len)
            fc_fail(fc, d->line, "%lld expected values for the %lld elements of %s", (long long)want.len,
                    (long long)a->lit.len, name);
        else if (juke_array_download(a->arr, got, (size_t)a->lit.len * es) != JUKE_OK)
            fc_fail(fc, d->line, "download: %s", juke_errmsg(env.ctx));
        else
            for (int64_t i = 0; i < a->lit.len; i++)
                if (memcmp(got + (size_t)i * es, want.host + (size_t)i * es, es) != 0) {
                    fc_fail(fc, d->line, "%s[%lld] differs from the expected element %lld", name, (long long)i + 1,
                            (long long)i + 1);
                    break;
                }
        lit_array_free(&want);
        free(text);
        free(got);
        return;
    }
    Val *want = NULL;
    int n = parse_list(&c, &want);
    if (n < 0) {
        fc_fail(fc, d->line, "%s", c.err);
        return;
    }
    juke_type at = a->lit.type;
    int64_t alen = a->lit.len;
    double rtol = at == JUKE_FLOAT64 || at == JUKE_COMPLEXF64   ? 1e-14
                  : at == JUKE_FLOAT32 || at == JUKE_COMPLEXF32 ? 1e-6
                                                                : 1e-3;
    if (accept(&c, "rtol")) {
        Val t;
        if (parse_number(&c, &t))
            rtol = t.is_float ? t.f : (double)t.i;
    }
    if (n != alen * parts(at)) {
        fc_fail(fc, d->line, "%d expected values for the %lld elements of %s", n, (long long)alen, name);
        free(want);
        return;
    }
    void *host = calloc((size_t)(alen ? alen : 1), juke_sizeof(at));
    if (juke_array_download(a->arr, host, (size_t)alen * juke_sizeof(at)) != JUKE_OK) {
        fc_fail(fc, d->line, "download: %s", juke_errmsg(env.ctx));
    } else {
        int shown = 0;
        for (int64_t i = 0; i < alen * parts(at); i++) {
            Val got = load_elem(host, at, i);
            bool ok;
            if (approx && is_float_type(at)) {
                double w = want[i].is_float ? want[i].f : (double)want[i].i;
                ok = (isnan(w) && isnan(got.f)) || got.f == w || fabs(got.f - w) <= rtol * fmax(fabs(w), 1e-300);
            } else {
                ok = vals_equal(&got, &want[i], at);
            }
            if (!ok && shown++ < 8) {
                char g[64], w[64];
                show_val(g, sizeof g, &got);
                show_val(w, sizeof w, &want[i]);
                fc_fail(fc, d->line, "%s[%lld] = %s, want %s", name, (long long)i + 1, g, w);
            }
        }
    }
    free(host);
    free(want);
}

static juke_status do_launch(FileCheck *fc, juke_module *m, Run *r, int line)
{
    juke_arg args[MAX_ARGS];
    char why[512];
    if (!resolve_args(r, m, why, sizeof why)) {
        fc_fail(fc, line, "argument %s", why);
        return JUKE_ERR_ARGUMENT;
    }
    for (int i = 0; i < r->nargs + (r->map.text != NULL); i++) {
        LArg *a = i < r->nargs ? &r->args[i] : &r->map;
        if (a->is_array) {
            if (lit_array_make(env.dev, m, &a->lit, &a->arr) != JUKE_OK) {
                fc_fail(fc, line, "array %s: %s", a->name, juke_errmsg(env.ctx));
                return JUKE_ERR_ARGUMENT;
            }
            a->arg = juke_arg_array(a->arr);
        }
        if (i < r->nargs)
            args[i] = a->arg;
    }
    juke_launch_config cfg = {
        { r->group[0], r->group[1], r->group[2] }, { r->grid[0], r->grid[1], r->grid[2] }, r->shmem, false
    };
    env.outlen = env.notelen = 0;
    if (env.out)
        env.out[0] = 0;
    if (env.note)
        env.note[0] = 0;
    cfg.cooperative = r->cooperative;
    cfg.seeded = r->seeded;
    cfg.seed = r->seed;
    if (r->ndims) { /* the grid covers the ndrange; without a groupsize, the library picks one */
        memset(cfg.gridsize, 0, sizeof cfg.gridsize);
        if (!r->group_set)
            memset(cfg.groupsize, 0, sizeof cfg.groupsize);
        cfg.ndims = r->ndims;
        memcpy(cfg.ndrange, r->ndrange, sizeof cfg.ndrange);
        memcpy(cfg.ndrange_offset, r->offset, sizeof cfg.ndrange_offset);
    }
    if (r->map.arr) { /* an index map: the whole ndrange */
        memset(cfg.gridsize, 0, sizeof cfg.gridsize);
        cfg.ndrange_map = r->map.arr;
    }
    if (!r->wavefront_size)
        return juke_launch(env.dev, m, r->fn, args, r->nargs, &cfg);
    juke_options o;
    juke_options_default(&o);
    if (env.opt >= 0)
        o.opt_level = env.opt;
    o.wavefront_size = r->wavefront_size;
    juke_set_options(env.ctx, &o);
    juke_status st = juke_launch(env.dev, m, r->fn, args, r->nargs, &cfg);
    o.wavefront_size = 0;
    juke_set_options(env.ctx, &o);
    return st;
}

/* Does the list of processors `only` (a `compile targets:` directive) name the device's processor? */
static bool names_device(const char *only)
{
    const char *dev = juke_device_name(env.dev);
    char word[64];
    int n;
    for (const char *p = only; sscanf(p, " %63s%n", word, &n) == 1; p += n)
        if (dev && strstr(dev, word))
            return true;
    return false;
}

/* The targets mode: every run's signature compiles for every listed target
 * (or those of the file's `compile targets:` directive). */
static void compile_file(FileCheck *fc, const char *path, Directive *ds, int nd)
{
    const char *only = NULL;
    for (int i = 0; i < nd; i++)
        if (strncmp(ds[i].text, "compile targets:", 16) == 0)
            only = ds[i].text + 16;
    juke_module *m = NULL;
    if (juke_module_load_file(env.ctx, path, &m) != JUKE_OK) {
        fc_fail(fc, 1, "load failed: %s", juke_errmsg(env.ctx));
        return;
    }
    for (int i = 0; i < nd; i++) {
        if (strncmp(ds[i].text, "run:", 4) != 0)
            continue;
        Run run = { 0 };
        Cursor c = { .p = ds[i].text + 4, .file = path, .line = ds[i].line };
        if (!parse_run(&c, &run)) {
            fc_fail(fc, ds[i].line, "bad run directive: %s", c.err);
            continue;
        }
        const char *types[MAX_ARGS + 1];
        int ntypes = run.nargs;
        char why[512];
        if (!resolve_args(&run, m, why, sizeof why)) {
            fc_fail(fc, ds[i].line, "argument %s", why);
            free_run(&run);
            continue;
        }
        for (int k = 0; k < run.nargs; k++)
            types[k] = run.args[k].host_type;
        char hidden[512];
        if (run.map
                .text) { /* an index map's __KaMap of the 1-D ndrange, its static groupsize, and the map (launch.c) */
            snprintf(hidden, sizeof hidden, "__KaMap{Tuple{Int64,Val{%u}},%s}", (unsigned)run.group[0],
                     run.map.host_type);
            types[ntypes++] = hidden;
        } else if (run.ndims) { /* a @kernel's hidden ndrange, NTuple{ndims,Int64}, then a static groupsize; an offset
                            ndrange's __KaOffset of that and its offsets (launch.c) */
            bool offset = false;
            char ints[128] = "";
            for (uint32_t d = 0; d < run.ndims; d++) {
                snprintf(ints + strlen(ints), sizeof ints - strlen(ints), d ? ",Int64" : "Int64");
                offset = offset || run.offset[d];
            }
            snprintf(hidden, sizeof hidden, "%sTuple{%s", offset ? "__KaOffset{" : "", ints);
            for (uint32_t d = 0; run.group_set && run.ndims <= 3 && d < run.ndims; d++)
                snprintf(hidden + strlen(hidden), sizeof hidden - strlen(hidden), ",Val{%u}",
                         run.group[d] ? (unsigned)run.group[d] : 1u);
            snprintf(hidden + strlen(hidden), sizeof hidden - strlen(hidden), offset ? "},Tuple{%s}}" : "}", ints);
            types[ntypes++] = hidden;
        }
        for (int t = 0; t < env.ntargets; t++) {
            const char *tg = env.targets[t];
            if (only) {
                size_t n = strlen(tg);
                const char *p = only;
                bool listed = false;
                while ((p = strstr(p, tg)) != NULL) {
                    if ((p == only || p[-1] == ' ') && (p[n] == 0 || p[n] == ' '))
                        listed = true;
                    p += n;
                }
                if (!listed)
                    continue;
            }
            juke_options o;
            juke_options_default(&o);
            o.target = tg;
            o.cache_dir = env.cache_dir;
            if (strncmp(tg, "gfx11", 5) == 0 || (strncmp(tg, "sm_", 3) == 0 && run.wavefront_size == 32))
                o.wavefront_size = run.wavefront_size;
            juke_kernel *k = NULL;
            if (juke_compile(m, run.fn, types, ntypes, &o, &k) != JUKE_OK)
                fc_fail(fc, ds[i].line, "%s for %s: %s", run.fn, tg, juke_errmsg(env.ctx));
        }
        free_run(&run);
    }
    juke_module_free(m);
}

static void run_file(void **state)
{
    const char *path = *state;
    FileCheck fc = { .path = path };
    const char *slash = strrchr(path, '/');
    fc.base = slash ? slash + 1 : path;
    char *src = tu_read_file(path, NULL);
    if (!src)
        fail_msg("cannot read %s", path);
    Directive ds[256];
    int nd = collect_directives(src, ds, 256);
    if (!nd)
        fail_msg("%s has no directives", path);

    /* the error expectations of the whole file */
    ExpErr *ex = calloc(MAX_ERRS, sizeof(ExpErr));
    int nex = 0;
    for (int i = 0; i < nd; i++) {
        const char *t = ds[i].text;
        if (strncmp(t, "expect error at:", 16) == 0) {
            if (!nex)
                fc_fail(&fc, ds[i].line, "`expect error at` without an `expect error` above");
            else if (sscanf(t + 16, " %d:%d", &ex[nex - 1].line, &ex[nex - 1].col) != 2)
                fc_fail(&fc, ds[i].line, "expected LINE:COL");
        } else if (strncmp(t, "expect error:", 13) == 0 && nex < MAX_ERRS) {
            const char *m = t + 13;
            while (*m == ' ')
                m++;
            /* {file} stands for the path the file was loaded from */
            char buf[sizeof ex[0].msg];
            size_t k = 0;
            for (const char *q = m; *q && k + 1 < sizeof buf; q++) {
                if (strncmp(q, "{file}", 6) == 0) {
                    k += (size_t)snprintf(buf + k, sizeof buf - k, "%s", path);
                    if (k >= sizeof buf)
                        k = sizeof buf - 1;
                    q += 5;
                } else {
                    buf[k++] = *q;
                }
            }
            buf[k] = 0;
            snprintf(ex[nex++].msg, sizeof ex[0].msg, "%s", buf);
        }
    }

    /* the runtime-only build (bench/lang_gpu) takes its kernels from a disk cache: the compile errors
     * cannot arise there, and the cpu run checks the files that expect them */
    bool cpu_errors = false;
    for (int i = 0; i < nd; i++)
        cpu_errors |= strcmp(ds[i].text, "errors on: cpu") == 0;
    if (nex && (!JUKE_HAVE_COMPILER || (cpu_errors && strcmp(env.device, "cpu") != 0))) {
        for (int i = 0; i < nd; i++)
            free((void *)ds[i].text);
        free(ex);
        free(src);
        skip();
    }
    /* a file for some processors only (`compile targets:`) runs on the cpu and on devices of those */
    for (int i = 0; !env.ntargets && strcmp(env.device, "cpu") != 0 && i < nd; i++)
        if (strncmp(ds[i].text, "compile targets:", 16) == 0 && !names_device(ds[i].text + 16)) {
            for (int k = 0; k < nd; k++)
                free((void *)ds[k].text);
            free(ex);
            free(src);
            skip();
        }
    if (env.ntargets) {
        if (!nex)
            compile_file(&fc, path, ds, nd);
        for (int i = 0; i < nd; i++)
            free((void *)ds[i].text);
        free(ex);
        free(src);
        if (fc.failures)
            fail_msg("%s: %d failed expectation(s)", path, fc.failures);
        return;
    }

    juke_module *m = NULL;
    juke_status st = juke_module_load_file(env.ctx, path, &m);
    bool errors_checked = false;
    if (st != JUKE_OK) {
        if (!nex)
            fc_fail(&fc, 1, "load failed: %s: %s", juke_status_name(st), juke_errmsg(env.ctx));
        else
            check_errors(&fc, juke_errmsg(env.ctx), ex, nex, 1);
        errors_checked = true;
    }

    Run run = { 0 };
    bool have_run = false, skipped = false;
    juke_status lst = JUKE_OK;
    char *lmsg = NULL;
    char want_out[8192];
    size_t wlen = 0;
    int out_line = 0; /* the first `expect output` of the current run, 0 if none */
    for (int i = 0; m && i <= nd; i++) {
        if (i == nd || strncmp(ds[i].text, "run:", 4) == 0) {
            /* on cuda the kernels print with vprintf, to the process's stdout: checked on the cpu only */
            if (out_line && strcmp(env.device, "cpu") == 0 &&
                (env.outlen != wlen || memcmp(env.out ? env.out : "", want_out, wlen) != 0))
                fc_fail(&fc, out_line, "the run printed\n%s\n---- instead of\n%.*s\n----", env.out ? env.out : "",
                        (int)wlen, want_out);
            out_line = 0;
            wlen = 0;
            if (i == nd)
                break;
        }
        Directive *d = &ds[i];
        const char *t = d->text;
        if (strncmp(t, "run:", 4) == 0) {
            free_run(&run);
            Cursor c = { .p = t + 4, .file = path, .line = d->line };
            if (!parse_run(&c, &run)) {
                fc_fail(&fc, d->line, "bad run directive: %s", c.err);
                have_run = false;
                continue;
            }
            have_run = true;
            /* warps are 32 wide; GCN/CDNA waves (hip, amdemu: gfx9) are 64 wide */
            skipped = (run.wavefront_size == 64 && strncmp(env.device, "cuda", 4) == 0) ||
                      (run.wavefront_size == 32 &&
                       (strncmp(env.device, "hip", 3) == 0 || strncmp(env.device, "amdemu", 6) == 0) &&
                       !strstr(juke_device_name(env.dev), "gfx1"));
            if (skipped)
                continue;
            lst = do_launch(&fc, m, &run, d->line);
            free(lmsg);
            lmsg = strdup(juke_errmsg(env.ctx));
            if (lst == JUKE_ERR_COMPILE && nex && !errors_checked) {
                check_errors(&fc, lmsg, ex, nex, d->line);
                errors_checked = true;
            } else if (lst != JUKE_OK && lst != JUKE_ERR_KERNEL) {
                fc_fail(&fc, d->line, "launch of %s: %s: %s", run.fn, juke_status_name(lst), lmsg);
            } else if (lst == JUKE_ERR_KERNEL) {
                /* checked by `expect exception` below; an unexpected one fails there */
                bool expected = false;
                for (int k = i + 1; k < nd && strncmp(ds[k].text, "run:", 4) != 0; k++)
                    if (strncmp(ds[k].text, "expect exception:", 17) == 0)
                        expected = true;
                if (!expected)
                    fc_fail(&fc, d->line, "kernel exception: %s", lmsg);
            }
            continue;
        }
        if (strncmp(t, "expect error", 12) == 0 || strncmp(t, "errors on:", 10) == 0 ||
            strncmp(t, "compile targets:", 16) == 0 || skipped)
            continue;
        if (!have_run) {
            fc_fail(&fc, d->line, "expectation before any `run:`");
            continue;
        }
        if (strncmp(t, "expect exception at:", 20) == 0) {
            int l, col;
            char want[64];
            if (sscanf(t + 20, " %d:%d", &l, &col) != 2) {
                fc_fail(&fc, d->line, "expected LINE:COL");
                continue;
            }
            snprintf(want, sizeof want, "%s:%d:%d", fc.base, l, col);
            if (lst != JUKE_ERR_KERNEL || !strstr(lmsg, want))
                fc_fail(&fc, d->line, "exception not at %s: %s", want, lmsg);
        } else if (strncmp(t, "expect exception:", 17) == 0) {
            const char *want = t + 17;
            while (*want == ' ')
                want++;
            if (lst != JUKE_ERR_KERNEL)
                fc_fail(&fc, d->line, "expected the exception `%s`; the launch gave %s %s", want, juke_status_name(lst),
                        lmsg);
            else if (!strstr(lmsg, want))
                fc_fail(&fc, d->line, "exception message lacks `%s`: %s", want, lmsg);
        } else if (strncmp(t, "expect output:", 14) == 0) {
            const char *q = t + 14;
            if (*q == ' ')
                q++;
            if (!out_line)
                out_line = d->line;
            for (; *q && wlen + 1 < sizeof want_out; q++) {
                if (q[0] == '\\' && q[1] == 'n') {
                    want_out[wlen++] = '\n';
                    q++;
                } else if (q[0] == '\\' && q[1] == 's') {
                    want_out[wlen++] = ' ';
                    q++;
                } else if (q[0] == '\\' && q[1] == '\\') {
                    want_out[wlen++] = '\\';
                    q++;
                } else {
                    want_out[wlen++] = *q;
                }
            }
        } else if (strncmp(t, "expect print note:", 18) == 0) {
            const char *want = t + 18;
            while (*want == ' ')
                want++;
            if (!env.note || !strstr(env.note, want))
                fc_fail(&fc, d->line, "the runtime's note lacks `%s`: %s", want, env.note ? env.note : "(none)");
        } else if (strncmp(t, "expect typed:", 13) == 0) {
            const char *want = t + 13;
            while (*want == ' ')
                want++;
            const char *types[MAX_ARGS];
            for (int k = 0; k < run.nargs; k++)
                types[k] = run.args[k].host_type;
            char *out = NULL;
            juke_status ts = juke_typed(m, run.fn, types, run.nargs, &out);
            if (ts != JUKE_OK)
                fc_fail(&fc, d->line, "juke_typed: %s", juke_errmsg(env.ctx));
            else if (!strstr(out, want))
                fc_fail(&fc, d->line, "typed IR lacks `%s`:\n%s", want, out);
            juke_free(out);
        } else if (strncmp(t, "expect ", 7) == 0) {
            if (lst != JUKE_OK)
                continue; /* already reported */
            check_array(&fc, d, m, &run, t + 7);
        } else {
            fc_fail(&fc, d->line, "unknown directive: %s", t);
        }
    }
    if (nex && !errors_checked)
        fc_fail(&fc, 1, "expected %d compile error(s), but the file compiled and ran", nex);
    free_run(&run);
    free(lmsg);
    if (m)
        juke_module_free(m);
    for (int i = 0; i < nd; i++)
        free((void *)ds[i].text);
    free(ex);
    free(src);
    if (fc.failures)
        fail_msg("%s: %d failed expectation(s)", path, fc.failures);
}

/* ---- discovery ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(const char *dir, char **out, int n, int max)
{
    DIR *d = opendir(dir);
    if (!d)
        return n;
    struct dirent *e;
    const char *filter = getenv("JUKE_LANG_FILTER");
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".jl") != 0)
            continue;
        if (filter && *filter && !strstr(e->d_name, filter))
            continue;
        size_t pl = strlen(dir) + len + 2;
        out[n] = malloc(pl);
        snprintf(out[n], pl, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

static int setup(void **state)
{
    (void)state;
    env.ctx = juke_context_create();
    if (env.ntargets) /* a cpu device only to make the arrays inside value arguments (their types are all) */
        return env.ctx && juke_device_open(env.ctx, "cpu", &env.dev) == JUKE_OK ? 0 : -1;
    if (!env.ctx || juke_device_open(env.ctx, env.device, &env.dev)) {
        fprintf(stderr, "cannot open the %s device: %s\n", env.device, env.ctx ? juke_errmsg(env.ctx) : "no context");
        return -1;
    }
    juke_set_print_callback(env.ctx, print_to_env, NULL);
    if (env.opt >= 0) {
        juke_options o;
        juke_options_default(&o);
        o.opt_level = env.opt;
        juke_set_options(env.ctx, &o);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    juke_context_destroy(env.ctx);
    free(env.out);
    free(env.note);
    return 0;
}

int main(int argc, char **argv)
{
    const char *root = getenv("JUKE_SOURCE_ROOT");
    char dir[2048], edir[2048];
    snprintf(dir, sizeof dir, "%s/tests/lang", root ? root : ".");
    snprintf(edir, sizeof edir, "%s/tests/lang/errors", root ? root : ".");
    static char *files[MAX_FILES];
    int n = list_dir(dir, files, 0, MAX_FILES);
    n = list_dir(edir, files, n, MAX_FILES);
    if (!n) {
        fprintf(stderr, "test_lang: no .jl files under %s (set JUKE_SOURCE_ROOT)\n", dir);
        return 1;
    }
    qsort(files, (size_t)n, sizeof files[0], cmp_str);
    static char tlist[256];
    env.device = "cpu";
    env.cache_dir = "";
    env.opt = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--targets") == 0)
            snprintf(tlist, sizeof tlist, "%s", argv[i + 1]);
        else if (strcmp(argv[i], "--cache-dir") == 0)
            env.cache_dir = argv[i + 1];
        else if (strcmp(argv[i], "--device") == 0)
            env.device = argv[i + 1];
        else if (strcmp(argv[i], "--opt") == 0)
            env.opt = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: test_lang [--targets T1,T2...] [--cache-dir DIR] [--device SPEC] [--opt N]\n");
            return 2;
        }
    }
    if (argc % 2 == 0) {
        fprintf(stderr, "usage: test_lang [--targets T1,T2...] [--cache-dir DIR] [--device SPEC] [--opt N]\n");
        return 2;
    }
    for (char *save = NULL, *t = strtok_r(tlist, ",", &save); t && env.ntargets < 16; t = strtok_r(NULL, ",", &save))
        env.targets[env.ntargets++] = t;
    struct CMUnitTest *tests = calloc((size_t)n, sizeof *tests);
    for (int i = 0; i < n; i++) {
        const char *rel = strstr(files[i], "tests/lang/");
        tests[i].name = rel ? rel + strlen("tests/lang/") : files[i];
        tests[i].test_func = run_file;
        tests[i].initial_state = files[i];
    }
    int rc = _cmocka_run_group_tests("lang", tests, (size_t)n, setup, teardown);
    for (int i = 0; i < n; i++)
        free(files[i]);
    free(tests);
    return rc;
}
