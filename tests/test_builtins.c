/* test_builtins.c: the built-in table (compiler/builtins.def) against what depends on it: docs/language.md's
 * list of built-in names, the math list the back end reads, ir_verify's per-row contract, and the internal
 * helpers lowering calls by id (a for loop over a range of Int32, Complex{T} as a value), run on the CPU with
 * random inputs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "builtins_type.h"
#include "juke.h"
#include "testutil.h"

static uint64_t rng;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The `names` between docs/language.md's builtins markers, as a NUL-separated list in *out; their count. */
static int doc_names(char **out)
{
    const char *root = getenv("JUKE_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/language.md", root ? root : ".");
    char *doc = tu_read_file(path, NULL);
    assert_non_null(doc);
    char *b = strstr(doc, "<!-- builtins: begin -->"), *e = b ? strstr(b, "<!-- builtins: end -->") : NULL;
    assert_non_null(b);
    assert_non_null(e);
    *e = 0;
    char *names = calloc(1, strlen(b) + 1), *w = names;
    int n = 0;
    for (char *p = strchr(b, '`'); p; p = strchr(p, '`')) {
        char *q = strchr(p + 1, '`');
        assert_non_null(q);
        memcpy(w, p + 1, (size_t)(q - p - 1));
        w += q - p;
        n++;
        p = q + 1;
    }
    free(doc);
    *out = names;
    return n;
}

/* Every Julia name of the table is in the documented list, and every documented name calls a row. */
static void test_doc_lists_the_table(void **state)
{
    (void)state;
    char *names;
    int n = doc_names(&names);
    int bad = 0, ntable = 0;
    for (int i = 0; i < BI__COUNT; i++)
        for (const char *const *nm = builtin_rows[i].names; nm && *nm; nm++) {
            ntable++;
            bool found = false;
            const char *p = names;
            for (int k = 0; k < n && !found; k++, p += strlen(p) + 1)
                found = strcmp(p, *nm) == 0;
            if (!found) {
                fprintf(stderr, "built-in `%s` (%s) is missing from docs/language.md's list\n", *nm,
                        builtin_name((BuiltinId)i));
                bad++;
            }
        }
    const char *p = names;
    for (int k = 0; k < n; k++, p += strlen(p) + 1)
        if (!builtin_lookup(p)) {
            fprintf(stderr, "docs/language.md lists `%s`, which no row of compiler/builtins.def has\n", p);
            bad++;
        }
    free(names);
    assert_int_equal(bad, 0);
    assert_int_equal(ntable, n); /* and no name twice */
}

/* Each row is well formed: its id is its index, a name calls one row only and through a typing rule, and a
 * row no name calls is either one lowering calls by id (with a typing rule) or one another row's typing
 * resolves to (without). */
static void test_rows_are_well_formed(void **state)
{
    (void)state;
    for (int i = 0; i < BI__COUNT; i++) {
        const BuiltinRow *r = &builtin_rows[i];
        assert_int_equal(r->id, i);
        assert_non_null(r->printed);
        assert_true((r->math == NULL) == (r->math_arity == 0));
        for (const char *const *nm = r->names; nm && *nm; nm++) {
            assert_ptr_equal(builtin_lookup(*nm), r);
            assert_true(r->type != type_none);
        }
        if (!r->names)
            assert_true((r->type == type_none) == !(r->flags & BF_BY_ID));
        else
            assert_false(r->flags & BF_BY_ID);
    }
    /* lowering's helpers are reached by id only: no kernel can call them by a name */
    assert_null(builtin_lookup("#iterval"));
    assert_null(builtin_lookup("#nonempty"));
    assert_null(builtin_lookup("#complextype"));
}

/* The back end's math list is the table's math column. */
static void test_math_column(void **state)
{
    (void)state;
    for (int i = 0; i < BI__COUNT; i++)
        if (builtin_rows[i].math)
            assert_int_equal(builtin_math_arity(builtin_rows[i].math), builtin_rows[i].math_arity);
    /* the functions the back end's list named before it read the table */
    static const char *const unary[] = { "sin",   "cos",  "tan",  "asin",  "acos",  "atan", "sinh", "cosh",
                                         "tanh",  "exp",  "exp2", "exp10", "expm1", "log",  "log2", "log10",
                                         "log1p", "cbrt", "sqrt", "asinh", "acosh", "atanh" };
    for (size_t i = 0; i < sizeof unary / sizeof *unary; i++)
        assert_int_equal(builtin_math_arity(unary[i]), 1);
    assert_int_equal(builtin_math_arity("pow"), 2);
    assert_int_equal(builtin_math_arity("sin"), 1);
    assert_int_equal(builtin_math_arity("atan2"), 2);
    assert_int_equal(builtin_math_arity("hypot"), 2);
    assert_int_equal(builtin_math_arity("no_such_function"), 0);
}

/* A typed function `f(x) = builtin(x, x)` of Float32, the call's builtin and optype as given. */
static IrFunc *typed_call(Arena *a, TypeTable *tt, BuiltinId id, const Type *optype)
{
    SrcLoc loc = { 0 };
    IrFunc *f = ir_func_new(a, "f", loc);
    f->typed = true;
    const Type *f32 = ty_prim(tt, TY_FLOAT32);
    int fn = ir_emit(a, f, IR_NAME, loc);
    f->insts[fn].name = "+";
    f->insts[fn].type = ty_function(tt, "+");
    int x = ir_emit(a, f, IR_CONST, loc);
    f->insts[x].lit = LIT_FLOAT32;
    f->insts[x].fval = (double)(rnd() % 1000) / 7.0 + 1.0;
    f->insts[x].type = f32;
    int c = ir_emit(a, f, IR_CALL, loc);
    ir_set_args(a, f, c, (int[]){ fn, x, x }, 3);
    f->insts[c].type = f32;
    f->insts[c].builtin = id;
    f->insts[c].optype = optype;
    int r = ir_emit(a, f, IR_RETURN, loc);
    ir_set_args(a, f, r, &c, 1);
    return f;
}

/* ir_verify rejects a call left unresolved (BI_NONE, a row typing always replaces) and a built-in without
 * the operand type its row needs. */
static void test_verify_checks_row_contracts(void **state)
{
    (void)state;
    Arena a = { 0 };
    TypeTable *tt = types_new(&a);
    const Type *f32 = ty_prim(tt, TY_FLOAT32);
    Diags d = { 0 };
    assert_true(ir_verify(typed_call(&a, tt, BI_ADD, f32), &d));
    assert_int_equal(d.nerrors, 0);
    assert_false(ir_verify(typed_call(&a, tt, BI_ADD, NULL), &d));
    assert_non_null(strstr(d.text.data, "built-in + (value 2) has no operand type"));
    diag_reset(&d);
    assert_false(ir_verify(typed_call(&a, tt, BI_NONE, NULL), &d));
    assert_non_null(strstr(d.text.data, "call 2 is not resolved after inference"));
    diag_reset(&d);
    assert_false(ir_verify(typed_call(&a, tt, BI_EACHINDEX, NULL), &d));
    assert_non_null(strstr(d.text.data, "call 2 is not resolved after inference (eachindex)"));
    diag_reset(&d);
    sb_free(&d.text);
    arena_free(&a);
}

static const char *const src = "function loop!(y, x, n)\n"
                               "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                               "    s = 0f0\n"
                               "    for k in Int32(1):Int32(2):n\n"
                               "        s += x[i] * Float32(k)\n"
                               "    end\n"
                               "    z = Complex{Float32}(x[i], s)\n"
                               "    y[i] = abs2(z) + sqrt(abs(x[i]))\n"
                               "    return\n"
                               "end\n";

/* The helpers lowering calls by id (#nonempty, #iterval converting the counter to Int32, #complextype)
 * compute what Julia does. */
static void test_helpers_called_by_id_run(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    juke_device *dev;
    assert_int_equal(juke_module_load_string(ctx, "builtins.jl", src, &m), JUKE_OK);
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    enum { NX = 256 };
    int64_t n = NX;
    float x[NX], y[NX];
    for (int i = 0; i < NX; i++)
        x[i] = (float)((double)(rnd() % 20001) / 1000.0 - 10.0);
    int32_t stop = (int32_t)(rnd() % 12); /* 0 gives an empty loop */
    juke_array *dx, *dy;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &dx), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &dy), JUKE_OK);
    assert_int_equal(juke_array_upload(dx, x, sizeof x), JUKE_OK);
    juke_arg args[3] = { juke_arg_array(dy), juke_arg_array(dx), juke_arg_i32(stop) };
    juke_launch_config cfg = { { 64, 1, 1 }, { NX / 64, 1, 1 }, 0, false };
    assert_int_equal(juke_launch(dev, m, "loop!", args, 3, &cfg), JUKE_OK);
    assert_int_equal(juke_array_download(dy, y, sizeof y), JUKE_OK);
    for (int i = 0; i < NX; i++) {
        float s = 0;
        for (int32_t k = 1; k <= stop; k += 2)
            s += x[i] * (float)k;
        float want = x[i] * x[i] + s * s + sqrtf(fabsf(x[i]));
        assert_true(fabsf(y[i] - want) <= 1e-5f * fmaxf(1.0f, fabsf(want)));
    }
    juke_context_destroy(ctx);
}

int main(void)
{
    rng = (uint64_t)time(NULL) | 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doc_lists_the_table),
        cmocka_unit_test(test_rows_are_well_formed),
        cmocka_unit_test(test_math_column),
        cmocka_unit_test(test_verify_checks_row_contracts),
        cmocka_unit_test(test_helpers_called_by_id_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
