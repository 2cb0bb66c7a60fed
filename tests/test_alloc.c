/* test_alloc.c: the failing-allocator test. A compile (load, lower, dispatch,
 * infer, and code generation for the CPU) runs with an allocator that fails
 * its Nth allocation, for every N from 1 to the number of allocations the
 * compile makes (for all but the first case a sample of them, see
 * test_case). Each run must end in an error ("out of memory", or another
 * clean error) or, past the last allocation, in success: never a crash, and
 * never a leak (the allocator counts live bytes, which must be 0 once the
 * module is freed; under ASan in CI any use of a failed allocation shows too).
 *
 * The hook is JkAllocator (compiler/common.h) given to fe_load_with: the
 * module's arena and every compilation's take their memory from it, one call
 * per arena_alloc (block_min = 1). LLVM's own allocations are out of scope:
 * LLVM aborts when operator new fails, so it is not driven here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codegen.h"
#include "frontend.h"
#include "types.h"

typedef struct FailAlloc {
    long calls;      /* allocations so far */
    long fail_at;    /* fail the allocation with this number (1-based); 0 = never */
    long failed;     /* how many were refused */
    long live_bytes; /* allocated and not yet freed */
} FailAlloc;

static void *fail_alloc(void *ud, void *ptr, size_t oldsize, size_t newsize)
{
    FailAlloc *fa = ud;
    if (newsize == 0) {
        free(ptr);
        fa->live_bytes -= (long)oldsize;
        return NULL;
    }
    assert_null(ptr); /* arenas never grow a block */
    if (++fa->calls == fa->fail_at) {
        fa->failed++;
        return NULL;
    }
    void *p = malloc(newsize);
    if (p)
        fa->live_bytes += (long)newsize;
    return p;
}

typedef struct Case {
    const char *file;
    const char *function;
    const char *types[6];
    int ntypes;
} Case;

static const Case cases[] = {
    { "vadd.jl", "vadd!", { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" }, 3 },
    { "block_sum.jl", "block_sum!", { "Vector{Float32}", "Vector{Float32}" }, 2 },
    { "dispatch.jl", "apply_scale!", { "Vector{Int32}", "Vector{Int32}" }, 2 },
    { "mandelbrot.jl", "mandelbrot!", { "Matrix{Int32}", "Float32", "Float32", "Float32", "Float32", "Int32" }, 6 },
    { "intops.jl", "intops!", { "Vector{Int64}", "Vector{Int64}", "Vector{Int64}" }, 3 },
    { "transpose.jl", "transpose!", { "Matrix{Float32}", "Matrix{Float32}" }, 2 },
};

typedef enum Outcome { OUT_OK, OUT_ERROR } Outcome;

/* One compile with fa; returns how it ended. *nfe: allocations made before
 * code generation (to know whether a failure at N can fall in codegen). */
static Outcome compile_once(const Case *cs, const char *text, FailAlloc *fa, bool codegen, long *nfe, char **msg)
{
    JkAllocator al = { fail_alloc, fa, 1 };
    Diags d = { 0 };
    Outcome out = OUT_ERROR;
    FeModule *m = fe_load_with(&al, cs->file, text, strlen(text), &d);
    if (m) {
        FeCompilation *c = fe_compilation_new(m, &d);
        if (c) {
            const Type *types[6];
            bool ok = true;
            for (int i = 0; i < cs->ntypes && ok; i++) {
                StrBuf err = { 0 };
                types[i] = ty_parse(c->types, cs->types[i], &err);
                ok = types[i] != NULL;
                if (!ok) /* no arena memory for the type: an error, as the API reports it */
                    diag_plain(&d, DIAG_INTERNAL, "argument type %s: %s", cs->types[i],
                               err.data ? err.data : "out of memory");
                sb_free(&err);
            }
            Spec *s = ok ? fe_specialize(c, cs->function, types, cs->ntypes, (SrcLoc){ 0 }) : NULL;
            if (s) {
                StrBuf sb = { 0 };
                fe_print_typed(&sb, c);
                sb_free(&sb);
            }
            if (nfe)
                *nfe = fa->calls;
            if (s && codegen) {
                TargetOptions to = { 0 };
                to.kind = TARGET_CPU;
                to.opt_level = 0;
                CodeObject co = { 0 };
                if (cg_compile(&d, c->types, c->specs, c->nspecs, &to, &co))
                    out = OUT_OK;
                code_object_free(&co);
            } else if (s) {
                out = OUT_OK;
            }
            fe_compilation_free(c);
        } else {
            diag_plain(&d, DIAG_INTERNAL, "out of memory");
        }
        fe_module_free(m);
    }
    if (out == OUT_ERROR && msg)
        *msg = d.text.data ? strdup(d.text.data) : NULL;
    diag_reset(&d);
    return out;
}

static char *read_kernel(const char *file)
{
    const char *dir = getenv("JUKE_ACCEPTANCE_DIR");
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/kernels/acceptance", file);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

static void test_case(void **state)
{
    const Case *cs = *state;
    char *text = read_kernel(cs->file);
    /* a clean run: how many allocations, and it must succeed */
    FailAlloc fa = { 0 };
    long nfe = 0;
    char *msg = NULL;
    if (compile_once(cs, text, &fa, true, &nfe, &msg) != OUT_OK)
        fail_msg("%s: the compile fails without any failing allocation:\n%s", cs->file, msg ? msg : "");
    long total = fa.calls;
    assert_int_equal(fa.live_bytes, 0);
    assert_true(total > 10);
    /* Every allocation of the first case is failed in turn. The others share most of theirs with it (the
     * Base prelude's definitions, added to every module): there the first 2000 and then every 7th,
     * unless JUKE_ALLOC_FULL=1 (.ci/run sets it): then every allocation of every case fails in turn. */
    const char *full = getenv("JUKE_ALLOC_FULL");
    long stride = cs == &cases[0] || (full && *full == '1') ? 1 : 7;
    int errors = 0;
    for (long n = 1; n <= total; n += n < 2000 ? 1 : stride) {
        FailAlloc f = { 0, n, 0, 0 };
        msg = NULL;
        Outcome o = compile_once(cs, text, &f, n > nfe, NULL, &msg);
        if (f.live_bytes != 0)
            fail_msg("%s: failing allocation %ld of %ld leaks %ld bytes", cs->file, n, total, f.live_bytes);
        if (f.failed && o == OUT_OK)
            fail_msg("%s: allocation %ld of %ld failed, yet the compile reports success", cs->file, n, total);
        if (o == OUT_ERROR) {
            errors++;
            if (!msg || !*msg)
                fail_msg("%s: failing allocation %ld of %ld: an error without a message", cs->file, n, total);
        }
        free(msg);
    }
    print_message("# %s: %ld allocations (%ld in the front end), failed in turn (stride %ld past 2000): %d clean "
                  "errors\n",
                  cs->file, total, nfe, stride, errors);
    free(text);
}

int main(void)
{
    struct CMUnitTest tests[sizeof cases / sizeof cases[0]];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        tests[i] = (struct CMUnitTest){ cases[i].file, test_case, NULL, NULL, (void *)&cases[i] };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
