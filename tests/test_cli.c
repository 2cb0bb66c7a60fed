/* test_cli.c: the `juke` command (run as a child process: exit status,
 * stdout, stderr), its Julia-literal parser, and the dump-directory writer.
 *
 *   test_cli JUKE_EXE
 *
 * The end-to-end tests skip while the library still answers
 * JUKE_ERR_UNSUPPORTED for a stage (parts not yet written), never otherwise. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "dumps.h"
#include "juke.h"
#include "literal.h"
#include "npy.h"
#include "targets.h"

/* Set once by main from argv; read by every test. */
typedef struct Env {
    const char *juke;       /* the juke binary */
    const char *src_root;   /* the source tree (examples/vadd.jl) */
    const char *acceptance; /* the acceptance kernels, or NULL when absent */
    char tmp[256];          /* this run's scratch directory */
} Env;

static const char oob_src[] = "# The last work-item writes one element past the end.\n"
                              "function oob!(x)\n"
                              "    i = workitemIdx().x\n"
                              "    x[i + 1] = 1f0\n"
                              "    return\n"
                              "end\n";
static const char saxpy_src[] = "function saxpy!(y, a, x)\n"
                                "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
                                "    if i <= length(y)\n"
                                "        @inbounds y[i] = a * x[i] + y[i]\n"
                                "    end\n"
                                "    return nothing\n"
                                "end\n";

/* ---- helpers ------------------------------------------------------------ */

static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (size)
        *size = n;
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *path_in(const Env *e, const char *name)
{
    char *p;
    assert_true(asprintf(&p, "%s/%s", e->tmp, name) > 0);
    return p;
}

/* The result of running juke once. */
typedef struct Run {
    int status; /* exit status, or 128 + signal */
    char *out, *err;
} Run;

static void run_free(Run *r)
{
    free(r->out);
    free(r->err);
}

/* Run juke with the NULL-terminated arguments; env_kv ("NAME=VALUE") is
 * added to the child's environment when not NULL. */
static Run run_juke_v(const Env *e, const char *env_kv, const char *const *args)
{
    char *out_path = path_in(e, "stdout.txt"), *err_path = path_in(e, "stderr.txt");
    const char *argv[64] = { e->juke };
    int n = 1;
    for (; args[n - 1]; n++) {
        assert_true(n < 63);
        argv[n] = args[n - 1];
    }
    argv[n] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fi = open("/dev/null", O_RDONLY);
        if (fo < 0 || fe < 0 || fi < 0)
            _exit(126);
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        if (env_kv)
            putenv((char *)env_kv);
        execv(e->juke, (char *const *)argv);
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    Run r = { WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws), read_all(out_path, NULL),
              read_all(err_path, NULL) };
    assert_non_null(r.out);
    assert_non_null(r.err);
    free(out_path);
    free(err_path);
    return r;
}

#define RUN_JUKE(e, env_kv, ...) run_juke_v((e), (env_kv), (const char *const[]){ __VA_ARGS__, NULL })

/* Assert an exit status, showing what juke said when it differs. */
static void expect_status(const Run *r, int status)
{
    if (r->status != status)
        print_error("juke exited %d, expected %d\nstdout:\n%s\nstderr:\n%s\n", r->status, status, r->out, r->err);
    assert_int_equal(r->status, status);
}

static void expect_contains(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        print_error("expected to find '%s' in:\n%s\n", needle, text);
    assert_non_null(strstr(text, needle));
}

static void expect_contains_nocase(const char *text, const char *needle)
{
    if (!strcasestr(text, needle))
        print_error("expected to find '%s' (any case) in:\n%s\n", needle, text);
    assert_non_null(strcasestr(text, needle));
}

static uint64_t next_random(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* A random nonzero Float32 k * 2^-20 in [-16, 16]: sums and products by
 * small factors stay exact. */
static float random_f32(uint64_t *s)
{
    uint64_t r = next_random(s);
    float v = (float)((int64_t)((r >> 40) % (1u << 24)) + 1) / 1048576.0f;
    return (r & 1) ? -v : v;
}

static void write_npy_f32(const char *path, const float *x, int64_t n)
{
    NpyArray a = {
        .type = JUKE_T_FLOAT32, .ndims = 1, .dims = { n }, .elsize = 4, .length = (size_t)n, .data = (void *)x
    };
    char *err = NULL;
    if (npy_write_file(path, &a, &err) != 0)
        print_error("npy_write_file: %s\n", err ? err : "?");
    assert_null(err);
}

static float *read_npy_f32(const char *path, int64_t n)
{
    NpyArray a;
    char *err = NULL;
    if (npy_read_file(path, &a, &err) != 0)
        print_error("npy_read_file: %s\n", err ? err : "?");
    assert_null(err);
    assert_int_equal(a.type, JUKE_T_FLOAT32);
    assert_int_equal(a.ndims, 1);
    assert_int_equal(a.dims[0], n);
    return a.data;
}

/* ---- the library's readiness, for the end-to-end tests ------------------- */

/* Skip the calling test when the library says a stage is not written yet. */
static void skip_if_unsupported(juke_context *ctx, juke_status st, const char *what)
{
    if (st == JUKE_ERR_UNSUPPORTED) {
        print_message("skipping: %s is not available yet: %s\n", what, juke_errmsg(ctx));
        juke_context_destroy(ctx);
        skip();
    }
}

/* need: 0 the front end (typed IR), 1 compiling for gfx90a, 2 running on the CPU. */
static void require_library(const Env *e, int need)
{
    static const char *const types[] = { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" };
    juke_context *ctx = juke_context_create();
    assert_non_null(ctx);
    char *path;
    assert_true(asprintf(&path, "%s/examples/vadd.jl", e->src_root) > 0);
    juke_module *m = NULL;
    juke_status st = juke_module_load_file(ctx, path, &m);
    free(path);
    skip_if_unsupported(ctx, st, "loading a module");
    char *typed = NULL;
    if (st == JUKE_OK) {
        st = juke_typed(m, "vadd!", types, 3, &typed);
        juke_free(typed);
        skip_if_unsupported(ctx, st, "typed IR");
    }
    if (st == JUKE_OK && need >= 1) {
        juke_options o;
        juke_options_default(&o);
        o.target = need == 2 ? "cpu" : "gfx90a";
        juke_kernel *k;
        st = juke_compile(m, "vadd!", types, 3, &o, &k);
        skip_if_unsupported(ctx, st, "compiling");
    }
    if (st == JUKE_OK && need >= 2) {
        juke_device *dev;
        st = juke_device_open(ctx, "cpu", &dev);
        skip_if_unsupported(ctx, st, "the cpu device");
    }
    juke_context_destroy(ctx);
}

/* ---- usage and help ----------------------------------------------------- */

static void test_usage_errors(void **state)
{
    const Env *e = *state;
    static const char *const cases[][10] = {
        { NULL },
        { "frobnicate", NULL },
        { "typed", NULL },
        { "typed", "file.jl", NULL },
        { "llvm", "--bogus", "x.jl", "f", NULL },
        { "llvm", "-O", "7", "x.jl", "f", NULL },
        { "gcn", "--target", "cpu", "x.jl", "f", NULL },
        { "compile", "x.jl", "f", NULL },                               /* no -o */
        { "run", "--cache-dir", "d", "--no-cache", "x.jl", "f", NULL }, /* two disk caches */
        { "run", "--groupsize", "0", "x.jl", "f", NULL },
        { "run", "--groupsize", "4,a", "x.jl", "f", NULL },
        { "run", "--groupsize", "4", "--out", "3=o.npy", "x.jl", "f", "a.npy", NULL },
        { "run", "--groupsize", "4", "--out", "1=o.npy", "x.jl", "f", "2.5", NULL },
        { "run", "--groupsize", "4", "--target", "gfx90a", "x.jl", "f", NULL },
        { "help", "nosuch", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r = run_juke_v(e, NULL, cases[i]);
        expect_status(&r, 2);
        expect_contains(r.err, "try 'juke");
        assert_string_equal(r.out, "");
        run_free(&r);
    }
}

static void test_missing_file(void **state)
{
    const Env *e = *state;
    Run r = RUN_JUKE(e, NULL, "typed", "/nonexistent/k.jl", "f", "Float32");
    expect_status(&r, 1);
    expect_contains(r.err, "could not read");
    expect_contains(r.err, "/nonexistent/k.jl");
    run_free(&r);
}

static void test_bad_literal(void **state)
{
    const Env *e = *state;
    char *k = path_in(e, "saxpy.jl");
    write_text(k, saxpy_src);
    Run r = RUN_JUKE(e, NULL, "run", "--device", "cpu", "--groupsize", "4", k, "saxpy!", "y.npy", "Int8(300)", "x.npy");
    expect_status(&r, 2);
    expect_contains(r.err, "InexactError");
    run_free(&r);
    free(k);
}

static void test_help(void **state)
{
    const Env *e = *state;
    static const char *const subs[] = { "lowered", "typed", "llvm", "gcn", "asm", "resources", "compile", "run" };
    Run r = RUN_JUKE(e, NULL, "--help");
    expect_status(&r, 0);
    expect_contains(r.out, "usage: juke");
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        expect_contains(r.out, subs[i]);
    run_free(&r);

    r = RUN_JUKE(e, NULL, "--version");
    expect_status(&r, 0);
    expect_contains(r.out, "juke " JUKE_VERSION_STRING);
    run_free(&r);

    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        char synopsis[64];
        snprintf(synopsis, sizeof synopsis, "usage: juke %s ", subs[i]);
        r = RUN_JUKE(e, NULL, subs[i], "--help");
        expect_status(&r, 0);
        expect_contains(r.out, synopsis);
        expect_contains(r.out, "FILE FUNCTION");
        run_free(&r);
        r = RUN_JUKE(e, NULL, "help", subs[i]);
        expect_status(&r, 0);
        expect_contains(r.out, synopsis);
        run_free(&r);
    }
    r = RUN_JUKE(e, NULL, "run", "--help");
    expect_contains(r.out, "--groupsize");
    expect_contains(r.out, "--out K=PATH.npy");
    run_free(&r);
    r = RUN_JUKE(e, NULL, "llvm", "--help");
    expect_contains(r.out, "--raw");
    expect_contains(r.out, "--target");
    run_free(&r);
}

/* ---- Julia literals ----------------------------------------------------- */

static void test_literals(void **state)
{
    (void)state;
    juke_arg a;
    const char *why;
    assert_true(lit_parse("2.5f0", &a, &why));
    assert_int_equal(a.type, JUKE_FLOAT32);
    assert_true(a.v.f32 == 2.5f);
    assert_true(lit_parse("1f-3", &a, &why));
    assert_true(a.type == JUKE_FLOAT32 && a.v.f32 == 1e-3f);
    assert_true(lit_parse("2.5", &a, &why) && a.type == JUKE_FLOAT64 && a.v.f64 == 2.5);
    assert_true(lit_parse("1e-3", &a, &why) && a.type == JUKE_FLOAT64 && a.v.f64 == 1e-3);
    assert_true(lit_parse("3", &a, &why) && a.type == JUKE_INT64 && a.v.i == 3);
    assert_true(lit_parse("-3", &a, &why) && a.type == JUKE_INT64 && a.v.i == -3);
    assert_true(lit_parse("1_000_003", &a, &why) && a.type == JUKE_INT64 && a.v.i == 1000003);
    assert_true(lit_parse("0x1f", &a, &why) && a.type == JUKE_UINT8 && a.v.u == 0x1f);
    assert_true(lit_parse("0x001f", &a, &why) && a.type == JUKE_UINT16 && a.v.u == 0x1f);
    assert_true(lit_parse("0x0000001f", &a, &why) && a.type == JUKE_UINT32);
    assert_true(lit_parse("0x00000000001f", &a, &why) && a.type == JUKE_UINT64);
    assert_true(lit_parse("-0x01", &a, &why) && a.type == JUKE_UINT8 && a.v.u == 0xff);
    assert_true(lit_parse("0b101", &a, &why) && a.type == JUKE_UINT8 && a.v.u == 5);
    assert_true(lit_parse("true", &a, &why) && a.type == JUKE_BOOL && a.v.i == 1);
    assert_true(lit_parse("false", &a, &why) && a.type == JUKE_BOOL && a.v.i == 0);
    assert_true(lit_parse("Int32(7)", &a, &why) && a.type == JUKE_INT32 && a.v.i == 7);
    assert_true(lit_parse("Int32(-7)", &a, &why) && a.type == JUKE_INT32 && a.v.i == -7);
    assert_true(lit_parse("Int32(7.0)", &a, &why) && a.type == JUKE_INT32 && a.v.i == 7);
    assert_true(lit_parse("UInt8(1)", &a, &why) && a.type == JUKE_UINT8 && a.v.u == 1);
    assert_true(lit_parse("Int8(-128)", &a, &why) && a.type == JUKE_INT8 && a.v.i == -128);
    assert_true(lit_parse("Float16(1.5)", &a, &why) && a.type == JUKE_FLOAT16 && a.v.f16 == 0x3e00);
    assert_true(lit_parse("Float32(0.1)", &a, &why) && a.type == JUKE_FLOAT32 && a.v.f32 == (float)0.1);
    assert_true(lit_parse("Inf32", &a, &why) && a.type == JUKE_FLOAT32 && isinf(a.v.f32));
    assert_true(lit_parse("NaN", &a, &why) && a.type == JUKE_FLOAT64 && isnan(a.v.f64));
    static const char *const bad[] = {
        "Int32(7.5)", "UInt8(256)", "UInt8(-1)", "Int8(128)",           "Bool(2)", "abc",
        "1e",         "Int32(",     "Foo(1)",    "9223372036854775808", "0x",      "--1"
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why = NULL;
        if (lit_parse(bad[i], &a, &why))
            print_error("'%s' parsed\n", bad[i]);
        assert_false(lit_parse(bad[i], &a, &why));
        assert_non_null(why);
    }
    /* Random Int32 and Float32 values round-trip through their text. */
    uint64_t s = 0x1234567ULL;
    for (int i = 0; i < 10000; i++) {
        char text[64];
        int32_t v = (int32_t)next_random(&s);
        snprintf(text, sizeof text, "Int32(%d)", v);
        assert_true(lit_parse(text, &a, &why) && a.type == JUKE_INT32 && a.v.i == v);
        float f = random_f32(&s);
        snprintf(text, sizeof text, "%.8e", (double)f);
        *strchr(text, 'e') = 'f'; /* 1.25f-03, as Julia writes a Float32 */
        assert_true(lit_parse(text, &a, &why) && a.type == JUKE_FLOAT32 && a.v.f32 == f);
    }
}

/* Float16(x) against the compiler's own conversion, on random doubles. */
static void test_float16_rounding(void **state)
{
    (void)state;
    uint64_t s = 42;
    for (int i = 0; i < 200000; i++) {
        double x = ldexp((double)(next_random(&s) >> 11) / 9007199254740992.0, (int)(next_random(&s) % 50) - 30);
        if (i & 1)
            x = -x;
        _Float16 h = (_Float16)x;
        uint16_t bits;
        memcpy(&bits, &h, sizeof bits);
        if (lit_f64_to_f16(x) != bits)
            print_error("Float16(%a): 0x%04x, expected 0x%04x\n", x, lit_f64_to_f16(x), bits);
        assert_int_equal(lit_f64_to_f16(x), bits);
    }
    assert_int_equal(lit_f64_to_f16(65520.0), 0x7c00); /* rounds up to Inf */
    assert_int_equal(lit_f64_to_f16(65519.0), 0x7bff);
    assert_int_equal(lit_f64_to_f16(0x1p-25), 0x0000); /* a tie to even: 0 */
    assert_int_equal(lit_f64_to_f16(0x1.8p-25), 0x0001);
}

/* ---- the dump directory ------------------------------------------------- */

/* Every entry of dir, hidden ones (a leftover temporary file) included. */
static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    closedir(d);
    return n;
}

static void test_dumps_dir(void **state)
{
    const Env *e = *state;
    uint64_t s = 7;
    char text[6][64];
    for (int i = 0; i < 6; i++)
        snprintf(text[i], sizeof text[i], "dump %d: %016llx\n", i, (unsigned long long)next_random(&s));
    unsigned char obj[333];
    for (size_t i = 0; i < sizeof obj; i++)
        obj[i] = (unsigned char)next_random(&s);
    DumpSet ds = { text[0], text[1], text[2], text[3], text[4], text[5], obj, sizeof obj, "hsaco" };
    char *dir = path_in(e, "dumps/a/b/");
    char *err = NULL;
    /* the hash is FNV-1a, computed here by hand, so the names stay put */
    assert_int_equal(dumps_write_dir(dir, "vadd!", "vadd!/3(Float32)", &ds, &err), 0);
    assert_null(err);
    static const char *const suffixes[] = { "lowered.jl", "typed.jl", "unopt.ll", "opt.ll", "asm", "resources.txt" };
    for (int i = 0; i < 6; i++) {
        char *p;
        assert_true(asprintf(&p, "%svadd!_a0efb2.%s", dir, suffixes[i]) > 0);
        char *got = read_all(p, NULL);
        assert_non_null(got);
        assert_string_equal(got, text[i]);
        free(got);
        free(p);
    }
    char *p;
    size_t size;
    assert_true(asprintf(&p, "%svadd!_a0efb2.hsaco", dir) > 0);
    char *got = read_all(p, &size);
    assert_int_equal(size, sizeof obj);
    assert_memory_equal(got, obj, sizeof obj);
    free(got);
    free(p);
    assert_int_equal(count_files(dir), 7); /* no temporary files left */

    /* '/' and control characters become '_'; NULL members write nothing;
     * writing again replaces. */
    DumpSet few = { .typed = text[2], .code_object = obj, .code_object_size = 5, .code_object_ext = "so" };
    assert_int_equal(dumps_write_dir(dir, "a/b\nc", "a/b/2", &few, &err), 0);
    assert_true(asprintf(&p, "%sa_b_c_c41314.typed.jl", dir) > 0);
    got = read_all(p, NULL);
    assert_non_null(got);
    assert_string_equal(got, text[2]);
    free(got);
    free(p);
    assert_int_equal(count_files(dir), 9);
    assert_int_equal(dumps_write_dir(dir, "a/b\nc", "a/b/2", &few, &err), 0);
    assert_int_equal(count_files(dir), 9);

    /* A file where a directory should be: a message naming the path. */
    char *file = path_in(e, "dumps/plainfile");
    write_text(file, "x");
    char *below = path_in(e, "dumps/plainfile/sub");
    assert_int_equal(dumps_write_dir(below, "k", "k", &ds, &err), -1);
    assert_non_null(err);
    expect_contains(err, "plainfile");
    expect_contains(err, "not a directory");
    free(err);
    err = NULL;
    /* Permission: only meaningful when not root. */
    if (geteuid() != 0) {
        char *ro = path_in(e, "dumps/ro");
        assert_int_equal(mkdir(ro, 0555), 0);
        char *sub = path_in(e, "dumps/ro/sub");
        assert_int_equal(dumps_write_dir(sub, "k", "k", &ds, &err), -1);
        expect_contains(err, "ro/sub");
        expect_contains(err, "Permission denied");
        free(err);
        err = NULL;
        assert_int_equal(dumps_write_dir(ro, "k", "k", &ds, &err), -1);
        expect_contains(err, "ro/k_621bc6.lowered.jl");
        free(err);
        free(sub);
        free(ro);
    }
    free(below);
    free(file);
    free(dir);
}

/* ---- end to end --------------------------------------------------------- */

static char *vadd_path(const Env *e)
{
    char *p;
    assert_true(asprintf(&p, "%s/examples/vadd.jl", e->src_root) > 0);
    return p;
}

static void test_e2e_typed(void **state)
{
    const Env *e = *state;
    require_library(e, 0);
    char *vadd = vadd_path(e);
    Run r = RUN_JUKE(e, NULL, "typed", vadd, "vadd!", "Vector{Float32}", "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 0);
    expect_contains(r.out, "Float32");
    run_free(&r);
    r = RUN_JUKE(e, NULL, "lowered", vadd, "vadd!");
    expect_status(&r, 0);
    assert_true(strlen(r.out) > 0);
    run_free(&r);
    /* A type error is a compile error: exit 1 and the library's message. */
    r = RUN_JUKE(e, NULL, "typed", vadd, "nosuch!", "Vector{Float32}");
    expect_status(&r, 1);
    expect_contains(r.err, "nosuch!");
    run_free(&r);
    /* A syntax error: file:line:col, the source line and a caret. */
    char *bad = path_in(e, "bad.jl");
    write_text(bad, "function f!(x)\n    x[1] = y +\nend\n");
    r = RUN_JUKE(e, NULL, "lowered", bad, "f!");
    expect_status(&r, 1);
    expect_contains(r.err, "bad.jl:3:1");
    expect_contains(r.err, "^");
    assert_string_equal(r.out, "");
    run_free(&r);
    free(bad);
    free(vadd);
    if (e->acceptance) {
        char *mandel;
        assert_true(asprintf(&mandel, "%s/mandelbrot.jl", e->acceptance) > 0);
        r = RUN_JUKE(e, NULL, "typed", mandel, "mandelbrot!", "Matrix{Int32}", "Float32", "Float32", "Float32",
                     "Float32", "Int32");
        expect_status(&r, 0);
        expect_contains(r.out, "Int32");
        run_free(&r);
        free(mandel);
    }
}

static void test_e2e_dumps(void **state)
{
    const Env *e = *state;
    require_library(e, 1);
    char *vadd = vadd_path(e);
    char *dumpdir = path_in(e, "e2e-dumps"), *hsaco = path_in(e, "vadd.hsaco");
    char *kv;
    assert_true(asprintf(&kv, "JUKE_DUMP_DIR=%s", dumpdir) > 0);
    Run r = RUN_JUKE(e, kv, "compile", "--target", "gfx90a", "-o", hsaco, vadd, "vadd!", "Vector{Float32}",
                     "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 0);
    run_free(&r);
    size_t size;
    char *obj = read_all(hsaco, &size);
    assert_non_null(obj);
    assert_true(size > 64);
    assert_memory_equal(obj, "\177ELF", 4);
    free(obj);
    static const char *const suffixes[] = { ".lowered.jl", ".typed.jl",      ".unopt.ll", ".opt.ll",
                                            ".asm",        ".resources.txt", ".hsaco" };
    DIR *d = opendir(dumpdir);
    assert_non_null(d);
    int found[7] = { 0 };
    struct dirent *de;
    while ((de = readdir(d)))
        for (int i = 0; i < 7; i++)
            if (!strncmp(de->d_name, "vadd!_", 6) && strlen(de->d_name) > strlen(suffixes[i]) &&
                !strcmp(de->d_name + strlen(de->d_name) - strlen(suffixes[i]), suffixes[i]))
                found[i]++;
    closedir(d);
    for (int i = 0; i < 7; i++) {
        if (found[i] != 1)
            print_error("%s: %d files ending in %s\n", dumpdir, found[i], suffixes[i]);
        assert_int_equal(found[i], 1);
    }

    /* --dump-dir does what JUKE_DUMP_DIR does, for another target. */
    char *dumpdir2 = path_in(e, "e2e-dumps-cpu"), *so = path_in(e, "vadd.so");
    r = RUN_JUKE(e, NULL, "compile", "--target", "cpu", "--dump-dir", dumpdir2, "-o", so, vadd, "vadd!",
                 "Vector{Float32}", "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 0);
    run_free(&r);
    assert_int_equal(count_files(dumpdir2), 7);
    obj = read_all(so, &size);
    assert_non_null(obj);
    assert_memory_equal(obj, "\177ELF", 4);
    free(obj);
    free(so);
    free(dumpdir2);

    /* Each dump subcommand prints something of its kind. */
    static const struct {
        const char *sub, *flag, *target, *needle;
    } dumps[] = {
        { "llvm", NULL, "gfx90a", "define" },
        { "llvm", "--raw", "gfx90a", "define" },
        { "llvm", "--module", "gfx90a", "define" },
        { "gcn", NULL, "gfx90a", "s_endpgm" },
        { "asm", NULL, "gfx942", "s_endpgm" },
        { "resources", NULL, "gfx90a", "VGPR" },
        { "asm", NULL, "cpu", "ret" },
        { "llvm", "-O0", "cpu", "define" },
    };
    for (size_t i = 0; i < sizeof dumps / sizeof dumps[0]; i++) {
        const char *args[12] = { dumps[i].sub, "--target", dumps[i].target };
        int n = 3;
        if (dumps[i].flag)
            args[n++] = dumps[i].flag;
        args[n++] = vadd;
        args[n++] = "vadd!";
        for (int k = 0; k < 3; k++)
            args[n++] = "Vector{Float32}";
        args[n] = NULL;
        r = run_juke_v(e, NULL, args);
        expect_status(&r, 0);
        expect_contains_nocase(r.out, dumps[i].needle);
        run_free(&r);
    }
    free(kv);
    free(hsaco);
    free(dumpdir);
    free(vadd);
}

static void test_e2e_run_vadd(void **state)
{
    const Env *e = *state;
    require_library(e, 2);
    const int64_t n = 1000 + 37;
    uint64_t s = 99;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    for (int64_t i = 0; i < n; i++) {
        a[i] = random_f32(&s);
        b[i] = random_f32(&s);
        c[i] = random_f32(&s);
    }
    char *pa = path_in(e, "a.npy"), *pb = path_in(e, "b.npy"), *pc = path_in(e, "c.npy"),
         *pout = path_in(e, "c_out.npy"), *vadd = vadd_path(e);
    write_npy_f32(pa, a, n);
    write_npy_f32(pb, b, n);
    write_npy_f32(pc, c, n);
    char grid[32], out[300];
    snprintf(grid, sizeof grid, "%lld", (long long)((n + 255) / 256));
    snprintf(out, sizeof out, "1=%s", pout);
    Run r = RUN_JUKE(e, NULL, "run", "--device", "cpu", "--groupsize", "256", "--gridsize", grid, "--out", out, "-v",
                     vadd, "vadd!", pc, pa, pb);
    expect_status(&r, 0);
    expect_contains(r.err, "cpu");
    run_free(&r);
    float *got = read_npy_f32(pout, n);
    for (int64_t i = 0; i < n; i++)
        if (got[i] != a[i] + b[i]) {
            print_error("c[%lld] = %g, expected %g\n", (long long)i + 1, (double)got[i], (double)(a[i] + b[i]));
            fail();
        }
    free(got);

    /* A scalar literal argument: saxpy!(y, 2.5f0, x). */
    char *saxpy = path_in(e, "saxpy.jl");
    write_text(saxpy, saxpy_src);
    r = RUN_JUKE(e, NULL, "run", "--device", "cpu", "--groupsize", "128", "--gridsize", "9", "--out", out, saxpy,
                 "saxpy!", pc, "2.5f0", pa);
    expect_status(&r, 0);
    assert_string_equal(r.out, "");
    run_free(&r);
    got = read_npy_f32(pout, n);
    for (int64_t i = 0; i < n; i++)
        if (got[i] != 2.5f * a[i] + c[i]) {
            print_error("y[%lld] = %g, expected %g\n", (long long)i + 1, (double)got[i], (double)(2.5f * a[i] + c[i]));
            fail();
        }
    free(got);
    free(saxpy);
    free(a);
    free(b);
    free(c);
    free(pa);
    free(pb);
    free(pc);
    free(pout);
    free(vadd);
}

static void test_e2e_run_oob(void **state)
{
    const Env *e = *state;
    require_library(e, 2);
    float x[64];
    uint64_t s = 5;
    for (int i = 0; i < 64; i++)
        x[i] = random_f32(&s);
    char *px = path_in(e, "x.npy"), *k = path_in(e, "oob.jl");
    write_npy_f32(px, x, 64);
    write_text(k, oob_src);
    Run r = RUN_JUKE(e, NULL, "run", "--device", "cpu", "--groupsize", "64", k, "oob!", px);
    expect_status(&r, 1);
    expect_contains(r.err, "BoundsError");
    expect_contains(r.err, "oob!");
    expect_contains(r.err, "65");
    run_free(&r);
    free(px);
    free(k);
}

/* ---- main ----------------------------------------------------------------- */

/* Every target of the registry (targets.c), by its name and by each of its
 * processors, is accepted by the library and by the CLI alike, and `juke gcn`
 * takes exactly the AMDGPU ones; an unknown spec is refused by both with the
 * same message. */
static void test_registry_targets(void **state)
{
    const Env *e = *state;
    require_library(e, 0);
    char *vadd = vadd_path(e);
    juke_context *ctx = juke_context_create();
    juke_module *m = NULL;
    assert_int_equal(juke_module_load_file(ctx, vadd, &m), JUKE_OK);
    const char *types[] = { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" };
    int checked = 0;
    for (int i = 0; i < target_count(); i++) {
        const TargetInfo *t = target_at(i);
        for (int j = -1; j < 0 || t->procs[j]; j++) {
            char spec[128];
            if (j < 0)
                snprintf(spec, sizeof spec, "%s", t->name);
            else
                snprintf(spec, sizeof spec, "%s%s", t->proc_separator ? t->proc_separator : "", t->procs[j]);
            juke_options o;
            juke_options_default(&o);
            o.target = spec;
            juke_kernel *k = NULL;
            juke_status st = juke_compile(m, "vadd!", types, 3, &o, &k);
            if (st != JUKE_OK)
                fprintf(stderr, "library refuses %s: %s\n", spec, juke_errmsg(ctx));
            assert_int_equal(st, JUKE_OK);
            Run r = RUN_JUKE(e, NULL, "asm", "--target", spec, vadd, "vadd!", types[0], types[1], types[2]);
            expect_status(&r, 0);
            run_free(&r);
            r = RUN_JUKE(e, NULL, "gcn", "--target", spec, vadd, "vadd!", types[0], types[1], types[2]);
            expect_status(&r, t->kind == TARGET_AMDGPU ? 0 : 2);
            run_free(&r);
            checked++;
        }
    }
    assert_true(checked >= 40);
    juke_options o;
    juke_options_default(&o);
    o.target = "amdgcn";
    juke_kernel *k = NULL;
    assert_int_equal(juke_compile(m, "vadd!", types, 3, &o, &k), JUKE_ERR_ARGUMENT);
    char *want = strdup(juke_errmsg(ctx));
    Run r = RUN_JUKE(e, NULL, "gcn", "--target", "amdgcn", vadd, "vadd!", types[0], types[1], types[2]);
    expect_status(&r, 1);
    expect_contains(r.err, want);
    run_free(&r);
    free(want);
    juke_context_destroy(ctx);
    free(vadd);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_cli JUKE_EXE\n");
        return 2;
    }
    Env env = { .juke = argv[1] };
    env.src_root = getenv("JUKE_SOURCE_ROOT") ? getenv("JUKE_SOURCE_ROOT") : ".";
    const char *acc = getenv("JUKE_ACCEPTANCE_DIR");
    struct stat st;
    if (acc && stat(acc, &st) == 0 && S_ISDIR(st.st_mode))
        env.acceptance = acc;
    snprintf(env.tmp, sizeof env.tmp, "%s/juke-test-cli-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(env.tmp)) {
        perror("mkdtemp");
        return 1;
    }
    void *state = &env;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_usage_errors, state), cmocka_unit_test_prestate(test_missing_file, state),
        cmocka_unit_test_prestate(test_bad_literal, state),  cmocka_unit_test_prestate(test_help, state),
        cmocka_unit_test_prestate(test_literals, state),     cmocka_unit_test_prestate(test_float16_rounding, state),
        cmocka_unit_test_prestate(test_dumps_dir, state),    cmocka_unit_test_prestate(test_e2e_typed, state),
        cmocka_unit_test_prestate(test_e2e_dumps, state),    cmocka_unit_test_prestate(test_e2e_run_vadd, state),
        cmocka_unit_test_prestate(test_e2e_run_oob, state),  cmocka_unit_test_prestate(test_registry_targets, state),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (!failed) {
        char *cmd;
        if (asprintf(&cmd, "rm -rf '%s'", env.tmp) > 0 && system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", env.tmp);
        free(cmd);
    } else {
        fprintf(stderr, "test files kept in %s\n", env.tmp);
    }
    return failed ? 1 : 0;
}
