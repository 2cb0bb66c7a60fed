/* test_unsupported.c: in a build without LLVM (-Dcompiler=false), compiling
 * a kernel the cache does not hold is JUKE_ERR_UNSUPPORTED (this build lacks
 * the feature), not a compile error of the source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "juke.h"

static void test_compile_unsupported(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "k.jl", "function f(y)\n    y[1] = 1f0\n    return\nend\n", &m),
                     JUKE_OK);
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    const char *t[] = { "Vector{Float32}" };
    juke_kernel *k;
    assert_int_equal(juke_compile(m, "f", t, 1, &o, &k), JUKE_ERR_UNSUPPORTED);
    assert_non_null(strstr(juke_errmsg(ctx), "built without LLVM (-Dcompiler=false)"));
    juke_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_compile_unsupported) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
