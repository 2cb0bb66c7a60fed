/* test_golden.c: golden dumps. The typed IR (juke_typed, like @code_typed)
 * of acceptance kernels and one lowered IR (juke_lowered, like
 * @code_lowered) must match tests/golden/<name> exactly. Run with
 * JUKE_UPDATE_GOLDEN=1 to rewrite the files after an intended change of the
 * printer or the front end (then review the diff). Sources are loaded under
 * their base name so the dumps do not depend on where the tree lives. */
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

typedef struct Golden {
    const char *golden; /* file name under tests/golden */
    const char *source; /* file name under tests/kernels/acceptance */
    const char *function;
    bool typed; /* juke_typed, else juke_lowered */
    int nargs;
    const char *types[8];
} Golden;

static const Golden goldens[] = {
    { "vadd.typed.jl", "vadd.jl", "vadd!", true, 3, { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" } },
    { "mandelbrot.typed.jl",
      "mandelbrot.jl",
      "mandelbrot!",
      true,
      6,
      { "Matrix{Int32}", "Float32", "Float32", "Float32", "Float32", "Int32" } },
    { "block_sum.typed.jl", "block_sum.jl", "block_sum!", true, 2, { "Vector{Float32}", "Vector{Float32}" } },
    { "dispatch_float32.typed.jl", "dispatch.jl", "apply_scale!", true, 2, { "Vector{Float32}", "Vector{Float32}" } },
    { "dispatch_int32.typed.jl", "dispatch.jl", "apply_scale!", true, 2, { "Vector{Int32}", "Vector{Int32}" } },
    { "intops_int32.typed.jl", "intops.jl", "intops!", true, 3, { "Vector{Int32}", "Vector{Int32}", "Vector{Int32}" } },
    { "mandelbrot.lowered.jl", "mandelbrot.jl", "mandelbrot!", false, 0, { NULL } },
};

static void check_golden(void **state)
{
    const Golden *g = *state;
    const char *root = getenv("JUKE_SOURCE_ROOT");
    const char *acc = getenv("JUKE_ACCEPTANCE_DIR");
    char src_path[2048], gold_path[2048];
    snprintf(src_path, sizeof src_path, "%s/%s", acc ? acc : "tests/kernels/acceptance", g->source);
    snprintf(gold_path, sizeof gold_path, "%s/tests/golden/%s", root ? root : ".", g->golden);
    char *src = tu_read_file(src_path, NULL);
    if (!src)
        fail_msg("cannot read %s", src_path);
    juke_context *ctx = juke_context_create();
    assert_non_null(ctx);
    juke_module *m = NULL;
    if (juke_module_load_string(ctx, g->source, src, &m) != JUKE_OK)
        fail_msg("%s: %s", g->source, juke_errmsg(ctx));
    char *out = NULL;
    juke_status st = g->typed ? juke_typed(m, g->function, g->types, g->nargs, &out)
                              : juke_lowered(m, g->function, g->types, g->nargs, &out);
    if (st != JUKE_OK)
        fail_msg("%s %s: %s", g->typed ? "typed" : "lowered", g->function, juke_errmsg(ctx));
    const char *update = getenv("JUKE_UPDATE_GOLDEN");
    if (update && *update && strcmp(update, "0") != 0) {
        FILE *f = fopen(gold_path, "wb");
        if (!f || fputs(out, f) < 0)
            fail_msg("cannot write %s", gold_path);
        fclose(f);
        fprintf(stderr, "updated %s\n", gold_path);
    } else {
        char *want = tu_read_file(gold_path, NULL);
        if (!want)
            fail_msg("cannot read %s (run with JUKE_UPDATE_GOLDEN=1 to create it)", gold_path);
        if (strcmp(want, out) != 0) {
            /* show the first differing line */
            const char *a = want, *b = out;
            int line = 1;
            while (*a && *a == *b) {
                if (*a == '\n')
                    line++;
                a++, b++;
            }
            fprintf(stderr, "%s differs from the dump at line %d; the dump is:\n%s\n", gold_path, line, out);
            free(want);
            juke_free(out);
            fail_msg("%s: golden mismatch (JUKE_UPDATE_GOLDEN=1 rewrites it)", g->golden);
        }
        free(want);
    }
    juke_free(out);
    juke_context_destroy(ctx);
    free(src);
}

int main(void)
{
    enum { N = sizeof goldens / sizeof goldens[0] };
    struct CMUnitTest tests[N];
    for (int i = 0; i < N; i++) {
        memset(&tests[i], 0, sizeof tests[i]);
        tests[i].name = goldens[i].golden;
        tests[i].test_func = check_golden;
        tests[i].initial_state = (void *)&goldens[i];
    }
    return _cmocka_run_group_tests("golden", tests, N, NULL, NULL);
}
