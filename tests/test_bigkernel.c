/* test_bigkernel.c: a generated 3,000-statement branchy kernel (if/else
 * chains, nested branches, straight-line updates, all bounds-checked)
 * compiles for gfx90a and the CPU, and its CPU run matches a reference
 * computed here statement by statement. Statements and inputs are drawn
 * afresh each run (the seed is printed). Huge kernels used to take tens of
 * seconds in LLVM (bench/RESULTS.md, "Large kernels"); the speed goal lives
 * in that benchmark, not here. */
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

#include "juke.h"

#define NSTMTS 3000
#define NELEMS 300

typedef enum { S_IFELSE, S_NESTED, S_AXPY, S_CROSS } StmtKind;

/* One statement of the kernel: its kind and up to three constants. */
typedef struct Stmt {
    StmtKind kind;
    float k[3];
} Stmt;

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A float in [-2, 2) with two decimals, so that its source text is exact. */
static float rng_const(uint64_t *s)
{
    return (float)((int)(rng_next(s) % 400) - 200) / 100.0f;
}

typedef struct Buf {
    char *p;
    size_t len, cap;
} Buf;

static void put(Buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        assert_true(n >= 0);
        if (b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        b->cap = b->cap * 2 + (size_t)n + 1;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
}

/* The kernel big!(a, b, x): a and b have the same length; b[j] with
 * j = length(a) + 1 - i reads another element than a[i]. */
static char *kernel_source(const Stmt *st, int n)
{
    Buf b = { malloc(1 << 16), 0, 1 << 16 };
    assert_non_null(b.p);
    b.p[0] = 0;
    put(&b, "function big!(a, b, x)\n"
            "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
            "    if i <= length(a)\n"
            "        j = length(a) + 1 - i\n");
    for (int s = 0; s < n; s++) {
        const float *k = st[s].k;
        switch (st[s].kind) {
        case S_IFELSE:
            put(&b,
                "        if a[i] > %.2ff0\n            a[i] -= 1f0\n        else\n            a[i] += 2f0\n"
                "        end\n",
                k[0]);
            break;
        case S_NESTED:
            put(&b,
                "        if a[i] > %.2ff0\n            if b[j] > %.2ff0\n                a[i] -= x\n"
                "            else\n                b[j] += 0.5f0\n            end\n"
                "        elseif a[i] < %.2ff0\n            a[i] *= 0.75f0\n        end\n",
                k[0], k[1], k[2]);
            break;
        case S_AXPY: put(&b, "        a[i] += x * %.2ff0\n", k[0]); break;
        case S_CROSS: put(&b, "        b[j] = b[j] * 0.5f0 + a[i] * %.2ff0\n", k[0]); break;
        }
    }
    put(&b, "    end\n    return\nend\n");
    return b.p;
}

/* The same statements in C, Julia's Float32 semantics (no contraction). */
static void reference(const Stmt *st, int n, float *a, float *b, int len, float x)
{
    for (int i = 0; i < len; i++) {
        int j = len - 1 - i;
        for (int s = 0; s < n; s++) {
            const float *k = st[s].k;
            switch (st[s].kind) {
            case S_IFELSE:
                if (a[i] > k[0])
                    a[i] -= 1.0f;
                else
                    a[i] += 2.0f;
                break;
            case S_NESTED:
                if (a[i] > k[0]) {
                    if (b[j] > k[1])
                        a[i] -= x;
                    else
                        b[j] += 0.5f;
                } else if (a[i] < k[2]) {
                    a[i] *= 0.75f;
                }
                break;
            case S_AXPY: {
                volatile float p = x * k[0];
                a[i] += p;
                break;
            }
            case S_CROSS: {
                volatile float p = b[j] * 0.5f, q = a[i] * k[0];
                b[j] = p + q;
                break;
            }
            }
        }
    }
}

static void test_big_branchy_kernel(void **state)
{
    (void)state;
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20) ^ 0x9e3779b97f4a7c15ull;
    printf("test_bigkernel seed %llu\n", (unsigned long long)seed);
    uint64_t rng = seed;
    Stmt *st = calloc(NSTMTS, sizeof *st);
    assert_non_null(st);
    for (int s = 0; s < NSTMTS; s++) {
        uint64_t r = rng_next(&rng) % 100;
        /* mostly branches, as in the "big branchy kernels" */
        st[s].kind = r < 50 ? S_IFELSE : r < 75 ? S_NESTED : r < 90 ? S_AXPY : S_CROSS;
        for (int q = 0; q < 3; q++)
            st[s].k[q] = rng_const(&rng);
    }
    char *src = kernel_source(st, NSTMTS);

    juke_context *ctx = juke_context_create();
    assert_non_null(ctx);
    juke_module *m = NULL;
    if (juke_module_load_string(ctx, "big.jl", src, &m) != JUKE_OK)
        fail_msg("load: %s", juke_errmsg(ctx));
    const char *types[] = { "Vector{Float32}", "Vector{Float32}", "Float32" };
    static const char *const targets[] = { "gfx90a", "cpu" };
    for (int t = 0; t < 2; t++) {
        juke_options o;
        juke_options_default(&o);
        o.target = targets[t];
        juke_kernel *k = NULL;
        if (juke_compile(m, "big!", types, 3, &o, &k) != JUKE_OK)
            fail_msg("compile for %s: %s", targets[t], juke_errmsg(ctx));
        size_t size = 0;
        assert_non_null(juke_kernel_code_object(k, &size));
        assert_true(size > 0);
    }

    float *a = malloc(NELEMS * sizeof *a), *b = malloc(NELEMS * sizeof *b);
    float *ra = malloc(NELEMS * sizeof *ra), *rb = malloc(NELEMS * sizeof *rb);
    assert_true(a && b && ra && rb);
    for (int i = 0; i < NELEMS; i++) {
        a[i] = ra[i] = (float)((int)(rng_next(&rng) % 4001) - 2000) / 1000.0f;
        b[i] = rb[i] = (float)((int)(rng_next(&rng) % 4001) - 2000) / 1000.0f;
    }
    float x = (float)((int)(rng_next(&rng) % 2001) - 1000) / 1000.0f;
    reference(st, NSTMTS, ra, rb, NELEMS, x);

    juke_device *dev = NULL;
    if (juke_device_open(ctx, "cpu", &dev) != JUKE_OK)
        fail_msg("cpu device: %s", juke_errmsg(ctx));
    int64_t n = NELEMS;
    juke_array *da = NULL, *db = NULL;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &da), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &db), JUKE_OK);
    assert_int_equal(juke_array_upload(da, a, NELEMS * sizeof *a), JUKE_OK);
    assert_int_equal(juke_array_upload(db, b, NELEMS * sizeof *b), JUKE_OK);
    juke_arg args[3] = { juke_arg_array(da), juke_arg_array(db), juke_arg_f32(x) };
    juke_launch_config cfg = { { 64, 1, 1 }, { (NELEMS + 63) / 64, 1, 1 }, 0, false, NULL };
    if (juke_launch(dev, m, "big!", args, 3, &cfg) != JUKE_OK)
        fail_msg("launch: %s", juke_errmsg(ctx));
    assert_int_equal(juke_array_download(da, a, NELEMS * sizeof *a), JUKE_OK);
    assert_int_equal(juke_array_download(db, b, NELEMS * sizeof *b), JUKE_OK);
    for (int i = 0; i < NELEMS; i++) {
        if (a[i] != ra[i] || b[i] != rb[i])
            fail_msg("seed %llu: element %d: a %.9g (want %.9g), b %.9g (want %.9g)", (unsigned long long)seed, i + 1,
                     a[i], ra[i], b[i], rb[i]);
    }
    juke_array_free(da);
    juke_array_free(db);
    juke_context_destroy(ctx);
    free(a);
    free(b);
    free(ra);
    free(rb);
    free(src);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big_branchy_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
