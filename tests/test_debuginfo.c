/* test_debuginfo.c: source lines in the dumps (issue 13).
 * - The code object is byte-for-byte the same with and without line
 *   information (juke_options.debuginfo), for vadd and diffusion2d on
 *   gfx90a, sm_90 and the CPU: the dumps gain lines, the code does not.
 * - With lines, `juke llvm` has Julia's ";  @ file:line within `f`" comments
 *   and no debug metadata; the assembly has "; file:line: source" comments
 *   and no .loc or debug sections; without, neither.
 * - Golden LLVM and GCN listings with source lines sit in tests/golden
 *   (JUKE_UPDATE_GOLDEN=1 rewrites them, as in test_golden.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "juke.h"
#include "testutil.h"

typedef struct Case {
    const char *source, *function;
    int nargs;
    const char *types[3];
    const char *line_comment; /* a line of the body as the LLVM dump names it */
} Case;

static const Case cases[] = {
    { "vadd.jl",
      "vadd!",
      3,
      { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" },
      ";  @ vadd.jl:5 within `vadd!`" },
    { "diffusion2d.jl",
      "diffusion2d!",
      3,
      { "Matrix{Float64}", "Matrix{Float64}", "Float64" },
      ";  @ diffusion2d.jl:6 within `diffusion2d!`" },
};
static const char *const targets[] = { "gfx90a", "sm_90", "cpu" };

static char *load_source(const char *name)
{
    const char *acc = getenv("JUKE_ACCEPTANCE_DIR");
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", acc ? acc : "tests/kernels/acceptance", name);
    char *s = tu_read_file(path, NULL);
    if (!s)
        fail_msg("cannot read %s", path);
    return s;
}

/* A fresh context each time, so neither compile is the other's cache hit. */
static juke_kernel *compile(juke_context **ctx, const Case *c, const char *target, int debuginfo)
{
    char *src = load_source(c->source);
    *ctx = juke_context_create();
    assert_non_null(*ctx);
    juke_module *m = NULL;
    if (juke_module_load_string(*ctx, c->source, src, &m) != JUKE_OK)
        fail_msg("%s: %s", c->source, juke_errmsg(*ctx));
    free(src);
    juke_options o;
    juke_options_default(&o);
    o.target = target;
    o.debuginfo = debuginfo;
    juke_kernel *k = NULL;
    if (juke_compile(m, c->function, c->types, c->nargs, &o, &k) != JUKE_OK)
        fail_msg("%s on %s: %s", c->function, target, juke_errmsg(*ctx));
    return k;
}

static void test_code_object_unchanged(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            juke_context *c0, *c1;
            juke_kernel *k0 = compile(&c0, &cases[i], targets[t], JUKE_DEBUGINFO_NONE);
            juke_kernel *k1 = compile(&c1, &cases[i], targets[t], JUKE_DEBUGINFO_SOURCE);
            /* the listing first: it is made on demand, and must not disturb the code */
            const char *asm1 = juke_kernel_dump(k1, JUKE_DUMP_ASM);
            assert_non_null(asm1);
            size_t n0, n1;
            const void *o0 = juke_kernel_code_object(k0, &n0), *o1 = juke_kernel_code_object(k1, &n1);
            assert_non_null(o0);
            assert_true(n0 > 0);
            if (n0 != n1 || memcmp(o0, o1, n0) != 0)
                fail_msg("%s on %s: the code object differs with line information (%zu vs %zu bytes)",
                         cases[i].function, targets[t], n0, n1);
            juke_context_destroy(c0);
            juke_context_destroy(c1);
        }
}

static void test_llvm_dump_lines(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            juke_context *c0, *c1;
            juke_kernel *k0 = compile(&c0, &cases[i], targets[t], JUKE_DEBUGINFO_NONE);
            juke_kernel *k1 = compile(&c1, &cases[i], targets[t], JUKE_DEBUGINFO_SOURCE);
            const char *kinds[] = { "LLVM", "LLVM module", "raw LLVM" };
            juke_dump which[] = { JUKE_DUMP_LLVM, JUKE_DUMP_LLVM_MODULE, JUKE_DUMP_LLVM_RAW };
            for (int w = 0; w < 3; w++) {
                const char *with = juke_kernel_dump(k1, which[w]), *without = juke_kernel_dump(k0, which[w]);
                assert_non_null(with);
                assert_non_null(without);
                if (!strstr(with, cases[i].line_comment))
                    fail_msg("%s on %s: the %s dump lacks '%s':\n%s", cases[i].function, targets[t], kinds[w],
                             cases[i].line_comment, with);
                assert_null(strstr(with, "!dbg"));
                assert_null(strstr(with, "DILocation"));
                assert_null(strstr(with, "DISubprogram"));
                assert_null(strstr(with, "Debug Info Version"));
                assert_null(strstr(without, ";  @ "));
            }
            /* the same instructions, less the comment lines */
            const char *with = juke_kernel_dump(k1, JUKE_DUMP_LLVM), *without = juke_kernel_dump(k0, JUKE_DUMP_LLVM);
            size_t lw = 0, lo = 0;
            for (const char *p = with; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
                lw += strncmp(p, ";  @ ", 5) != 0 && strncmp(p, "; ", 2) != 0;
            for (const char *p = without; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
                lo += strncmp(p, "; ", 2) != 0;
            assert_int_equal(lw, lo);

            const char *asm1 = juke_kernel_dump(k1, JUKE_DUMP_ASM), *asm0 = juke_kernel_dump(k0, JUKE_DUMP_ASM);
            char want[128];
            const char *cm = strcmp(targets[t], "sm_90") == 0 ? "//" : strcmp(targets[t], "cpu") == 0 ? "#" : ";";
            snprintf(want, sizeof want, "%s %s:", cm, cases[i].source);
            if (!strstr(asm1, want))
                fail_msg("%s on %s: the assembly lacks '%s':\n%s", cases[i].function, targets[t], want, asm1);
            assert_null(strstr(asm0, want));
            assert_null(strstr(asm1, ".loc\t"));
            assert_null(strstr(asm1, ".debug_"));
            assert_null(strstr(asm1, ", debug"));
            juke_context_destroy(c0);
            juke_context_destroy(c1);
        }
}

typedef struct Golden {
    const char *golden; /* under tests/golden */
    const Case *c;
    juke_dump which;
} Golden;

static const Golden goldens[] = {
    { "vadd.llvm.ll", &cases[0], JUKE_DUMP_LLVM },
    { "vadd.gcn.s", &cases[0], JUKE_DUMP_ASM },
    { "diffusion2d.llvm.ll", &cases[1], JUKE_DUMP_LLVM },
    { "diffusion2d.gcn.s", &cases[1], JUKE_DUMP_ASM },
};

static void check_golden(void **state)
{
    const Golden *g = *state;
    const char *root = getenv("JUKE_SOURCE_ROOT");
    char path[2048];
    snprintf(path, sizeof path, "%s/tests/golden/%s", root ? root : ".", g->golden);
    juke_context *ctx;
    juke_kernel *k = compile(&ctx, g->c, "gfx90a", JUKE_DEBUGINFO_SOURCE);
    const char *out = juke_kernel_dump(k, g->which);
    assert_non_null(out);
    const char *update = getenv("JUKE_UPDATE_GOLDEN");
    if (update && *update && strcmp(update, "0") != 0) {
        FILE *f = fopen(path, "wb");
        if (!f || fputs(out, f) < 0)
            fail_msg("cannot write %s", path);
        fclose(f);
    } else {
        char *want = tu_read_file(path, NULL);
        if (!want)
            fail_msg("cannot read %s (run with JUKE_UPDATE_GOLDEN=1 to create it)", path);
        if (strcmp(want, out) != 0) {
            fprintf(stderr, "%s differs; the dump is:\n%s\n", path, out);
            free(want);
            fail_msg("%s: golden mismatch (JUKE_UPDATE_GOLDEN=1 rewrites it)", g->golden);
        }
        free(want);
    }
    juke_context_destroy(ctx);
}

int main(void)
{
    enum { NG = sizeof goldens / sizeof goldens[0] };
    struct CMUnitTest tests[NG + 2] = {
        cmocka_unit_test(test_code_object_unchanged),
        cmocka_unit_test(test_llvm_dump_lines),
    };
    for (int i = 0; i < NG; i++) {
        tests[2 + i].name = goldens[i].golden;
        tests[2 + i].test_func = check_golden;
        tests[2 + i].initial_state = (void *)&goldens[i];
    }
    return _cmocka_run_group_tests("debuginfo", tests, NG + 2, NULL, NULL);
}
