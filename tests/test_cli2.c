/* test_cli2.c: the command line's own subcommands and defaults: --version,
 * targets, devices, the disk cache (cache list|clear|path, --cache-dir,
 * --no-cache, the per-user default), run -v's timings, the outputs of a run
 * without --out, the default launch size, the environment named in --help,
 * and the shell completion and man page made from the help texts.
 *
 *   test_cli2 JUKE */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "juke.h"
#include "npy.h"
#include "targets.h"
#include "testutil.h"

static const char *juke;
static char tmp[256];
static uint64_t rng;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

typedef struct Out {
    int status;
    char *out, *err;
} Out;

/* Run `env juke args` in the scratch directory (args are shell words). */
static Out run(const char *env, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && env XDG_CACHE_HOME='%s/xdg' %s '%s' %s >out.txt 2>err.txt", tmp, tmp,
             env ? env : "", juke, args);
    int st = system(cmd);
    Out o = { WIFEXITED(st) ? WEXITSTATUS(st) : -1, NULL, NULL };
    char p[512];
    snprintf(p, sizeof p, "%s/out.txt", tmp);
    o.out = tu_read_file(p, NULL);
    snprintf(p, sizeof p, "%s/err.txt", tmp);
    o.err = tu_read_file(p, NULL);
    return o;
}

static void out_free(Out *o)
{
    free(o->out);
    free(o->err);
}

static void expect_in(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle))
        fail_msg("expected \"%s\" in:\n%s", needle, hay ? hay : "(null)");
}

static void write_file(const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", tmp, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void write_f32(const char *name, const float *v, int n)
{
    char p[512], *err = NULL;
    snprintf(p, sizeof p, "%s/%s", tmp, name);
    NpyArray a = { JUKE_T_FLOAT32, 1, { n }, 4, (size_t)n, (void *)v };
    assert_int_equal(npy_write_file(p, &a, &err), 0);
}

static const char vadd_src[] = "function vadd!(c, a, b)\n"
                               "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                               "    if i <= length(c)\n"
                               "        @inbounds c[i] = a[i] + b[i]\n"
                               "    end\n"
                               "    return\n"
                               "end\n";

static void test_version_targets_devices(void **state)
{
    (void)state;
    Out o = run(NULL, "--version");
    assert_int_equal(o.status, 0);
    /* the version and the sources' identity: 16 hex digits, the same the library reports */
    const char *id = juke_build_id();
    assert_int_equal(strlen(id), 16);
    assert_int_equal(strspn(id, "0123456789abcdef"), 16);
    char want[80];
    snprintf(want, sizeof want, "juke 0.1.0 (sources %s)\n", id);
    assert_string_equal(o.out, want);
    out_free(&o);
    o = run(NULL, "targets");
    assert_int_equal(o.status, 0);
    for (int i = 0; i < target_count(); i++) {
        char line[64];
        snprintf(line, sizeof line, "%-8s %s", target_at(i)->name, target_at(i)->label);
        expect_in(o.out, line);
    }
    char def[96];
    snprintf(def, sizeof def, "default:    %s   (juke's default target)", target_default_spec);
    expect_in(o.out, def);
    expect_in(o.out, "gfx942");
    expect_in(o.out, "sm_90");
    out_free(&o);
    o = run(NULL, "devices");
    assert_int_equal(o.status, 0);
    expect_in(o.out, "auto: ");
    expect_in(o.out, "  why: auto: ");
    expect_in(o.out, "cpu   cpu (");
    out_free(&o);
}

/* The cache, the disk cache's default, run -v, and a run without --out. */
static void test_cache_and_run(void **state)
{
    (void)state;
    write_file("vadd.jl", vadd_src);
    int n = 200 + (int)(rnd() % 800);
    float *a = malloc(sizeof(float) * (size_t)n), *b = malloc(sizeof(float) * (size_t)n),
          *c = calloc((size_t)n, sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = (float)(rnd() % 10000) / 64.0f;
        b[i] = (float)(rnd() % 10000) / 64.0f;
    }
    write_f32("a.npy", a, n);
    write_f32("b.npy", b, n);
    write_f32("c.npy", c, n);
    char xdg[512];
    snprintf(xdg, sizeof xdg, "%s/xdg/juke\n", tmp);
    Out o = run(NULL, "cache path");
    assert_string_equal(o.out, xdg);
    out_free(&o);
    o = run(NULL, "cache path --cache-dir elsewhere");
    assert_string_equal(o.out, "elsewhere\n");
    out_free(&o);
    o = run(NULL, "cache path --no-cache");
    assert_int_equal(o.status, 1);
    expect_in(o.err, "no disk cache (--no-cache)");
    out_free(&o);
    /* a first run compiles and saves, a second one reads the disk cache */
    o = run(NULL, "run -v --device cpu vadd.jl 'vadd!' c.npy a.npy b.npy");
    assert_int_equal(o.status, 0);
    expect_in(o.err, "juke: compile: ");
    expect_in(o.err, "(compiled; disk cache miss in ");
    expect_in(o.err, "juke: run: ");
    char want[160];
    snprintf(want, sizeof want,
             "juke: launching vadd! with groupsize 256 (default), gridsize %d (default: covers "
             "argument 1's %d elements)",
             (n + 255) / 256, n);
    expect_in(o.err, want);
    expect_in(o.err, "juke: argument 1 (c.npy) was modified: wrote c.out.npy\n");
    assert_null(strstr(o.err, "a.npy) was modified"));
    out_free(&o);
    char p[512], *err = NULL;
    NpyArray got;
    snprintf(p, sizeof p, "%s/c.out.npy", tmp);
    assert_int_equal(npy_read_file(p, &got, &err), 0);
    assert_int_equal(got.length, n);
    for (int i = 0; i < n; i++)
        assert_true(((float *)got.data)[i] == a[i] + b[i]);
    npy_free(&got);
    snprintf(p, sizeof p, "%s/a.out.npy", tmp);
    assert_int_not_equal(access(p, F_OK), 0);
    o = run(NULL, "run -v --device cpu --groupsize 64 --gridsize 1 vadd.jl 'vadd!' c.npy a.npy b.npy");
    assert_int_equal(o.status, 0);
    expect_in(o.err, "(disk cache hit in ");
    assert_null(strstr(o.err, "launching vadd! with"));
    out_free(&o);
    /* --no-cache: compiled again, nothing read */
    o = run(NULL, "run -v --no-cache --device cpu vadd.jl 'vadd!' c.npy a.npy b.npy");
    expect_in(o.err, "(compiled; no disk cache)");
    out_free(&o);
    /* list shows the entry; clear removes juke's entries only */
    o = run(NULL, "cache list");
    assert_int_equal(o.status, 0);
    expect_in(o.out, "vadd!");
    expect_in(o.out, " cpu ");
    expect_in(o.out, "1 entry, ");
    out_free(&o);
    snprintf(p, sizeof p, "%s/xdg/juke/notes.jkc", tmp);
    FILE *f = fopen(p, "w");
    fputs("not juke's\n", f);
    fclose(f);
    o = run(NULL, "cache clear");
    assert_int_equal(o.status, 0);
    expect_in(o.out, "removed 1 entry");
    out_free(&o);
    assert_int_equal(access(p, F_OK), 0);
    o = run(NULL, "cache list");
    expect_in(o.out, "0 entries");
    out_free(&o);
    free(a);
    free(b);
    free(c);
}

/* --help names every environment variable the sources read. */
static void test_help_environment(void **state)
{
    (void)state;
    Out o = run(NULL, "--help");
    assert_int_equal(o.status, 0);
    const char *root = getenv("JUKE_SOURCE_ROOT");
    assert_non_null(root);
    static const char *const files[] = { "compiler/api.c",     "compiler/llvm_pipeline.c",
                                         "compiler/targets.c", "runtime/runtime.c",
                                         "runtime/dev_cpu.c",  "runtime/dev_hip.c",
                                         "runtime/dev_cuda.c", "tools/juke.c" };
    static const char *const marks[] = { "getenv(\"", ".env = \"", ".devlib_env = \"" };
    int found = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", root, files[i]);
        char *text = tu_read_file(p, NULL);
        assert_non_null(text);
        for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++)
            for (char *q = strstr(text, marks[m]); q; q = strstr(q + 1, marks[m])) {
                char name[64];
                if (sscanf(q + strlen(marks[m]), "%63[A-Z_]", name) == 1) {
                    expect_in(o.out, name);
                    found++;
                }
            }
        free(text);
    }
    assert_true(found >= 10);
    out_free(&o);
}

/* tools/completion/ is juke --completion's output; the man page is roff. */
static void test_completion_and_man(void **state)
{
    (void)state;
    const char *root = getenv("JUKE_SOURCE_ROOT");
    static const char *const shells[][2] = { { "bash", "tools/completion/juke.bash" },
                                             { "zsh", "tools/completion/_juke" } };
    for (int i = 0; i < 2; i++) {
        char args[64], p[512];
        snprintf(args, sizeof args, "--completion %s", shells[i][0]);
        Out o = run(NULL, args);
        assert_int_equal(o.status, 0);
        snprintf(p, sizeof p, "%s/%s", root, shells[i][1]);
        char *committed = tu_read_file(p, NULL);
        assert_non_null(committed);
        if (strcmp(committed, o.out) != 0)
            fail_msg("%s differs from `juke --completion %s`: regenerate it", shells[i][1], shells[i][0]);
        expect_in(o.out, "--cache-dir");
        expect_in(o.out, "--groupsize");
        expect_in(o.out, "targets");
        free(committed);
        out_free(&o);
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "bash -n '%s/tools/completion/juke.bash'", root);
    assert_int_equal(system(cmd), 0);
    Out o = run(NULL, "--man");
    assert_int_equal(o.status, 0);
    assert_int_equal(strncmp(o.out, ".TH JUKE 1 ", 11), 0);
    expect_in(o.out, ".SS cache\n");
    expect_in(o.out, ".SH ENVIRONMENT\n");
    expect_in(o.out, "JUKE_CPU_THREADS");
    out_free(&o);
    o = run(NULL, "--completion fish");
    assert_int_equal(o.status, 2);
    out_free(&o);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    static char abs_juke[4096];
    juke = realpath(argv[1], abs_juke) ? abs_juke : argv[1]; /* the runs cd into the scratch directory */
    snprintf(tmp, sizeof tmp, "/tmp/juke_cli2_XXXXXX");
    if (!mkdtemp(tmp))
        return 1;
    rng = (uint64_t)time(NULL) * 2654435761u | 1;
    printf("# seed %llu\n", (unsigned long long)rng);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_targets_devices),
        cmocka_unit_test(test_cache_and_run),
        cmocka_unit_test(test_help_environment),
        cmocka_unit_test(test_completion_and_man),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        r = r ? r : 1;
    return r;
}
