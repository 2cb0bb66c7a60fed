/* test_cpu_safety.c: the CPU device keeps kernels from harming the host.
 * Overruns of device arrays hit guard pages and come back as kernel faults
 * (no host memory read or written); traps and stack overflows are faults
 * too; barrier divergence is reported with the barrier's location and the
 * work-items involved; the host's signal dispositions and signal stack are
 * the same after any launch as before. Kernels that cannot be written in the
 * language on purpose (stack overflow, an unchecked division, a signal sent)
 * come from cpu_safety_fixture.c. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "abi.h"
#include "juke.h"
#include "runtime.h"
#include "testutil.h"

static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static uint64_t rnd_in(uint64_t lo, uint64_t hi)
{
    return lo + rnd() % (hi - lo + 1);
}

static const char *src = "function oob_read!(out, x, off)\n" /* 1 */
                         "    i = workitemIdx().x\n"
                         "    @inbounds out[i] = x[i + off]\n"
                         "    return\n"
                         "end\n" /* 5 */
                         "function oob_write!(x, off, v)\n"
                         "    i = workitemIdx().x\n"
                         "    @inbounds x[i + off] = v\n"
                         "    return\n"
                         "end\n" /* 10 */
                         "function early!(x, m)\n"
                         "    i = workitemIdx().x\n"
                         "    if i > m\n"
                         "        return\n"
                         "    end\n" /* 15 */
                         "    sync_workgroup()\n"
                         "    @inbounds x[i] = 1f0\n"
                         "    return\n"
                         "end\n"
                         "function branch!(x, m)\n" /* 20 */
                         "    i = workitemIdx().x\n"
                         "    if i <= m\n"
                         "        sync_workgroup()\n"
                         "    end\n"
                         "    @inbounds x[i] = 2f0\n" /* 25 */
                         "    return\n"
                         "end\n"
                         "function two!(x)\n"
                         "    j = workitemIdx().y\n"
                         "    if j == 1\n" /* 30 */
                         "        sync_workgroup()\n"
                         "    else\n"
                         "      sync_workgroup()\n"
                         "    end\n"
                         "    @inbounds x[workitemIdx().x] = 3f0\n" /* 35 */
                         "    return\n"
                         "end\n"
                         "function bsum!(out, x)\n"
                         "    item = workitemIdx().x\n"
                         "    n = workgroupDim().x\n" /* 40 */
                         "    shared = @ROCStaticLocalArray(Float32, 256, false)\n"
                         "    i = (workgroupIdx().x - 1) * n + item\n"
                         "    @inbounds shared[item] = i <= length(x) ? x[i] : 0f0\n"
                         "    d = n ÷ 2\n"
                         "    while d > 0\n" /* 45 */
                         "        sync_workgroup()\n"
                         "        if item <= d\n"
                         "            @inbounds shared[item] += shared[item + d]\n"
                         "        end\n"
                         "        d ÷= 2\n" /* 50 */
                         "    end\n"
                         "    if item == 1\n"
                         "        @inbounds out[workgroupIdx().x] = shared[1]\n"
                         "    end\n"
                         "    return\n" /* 55 */
                         "end\n"
                         "function local_oob!(x, k)\n"
                         "    s = @ROCStaticLocalArray(Float32, 64, false)\n"
                         "    @inbounds s[workitemIdx().x + k] = 1f0\n"
                         "    @inbounds x[1] = s[1]\n" /* 60 */
                         "    return\n"
                         "end\n"
                         "function one_bad!(out, x, g, j)\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
                         "    k = workgroupIdx().x == g && workitemIdx().x == j ? length(x) + 16 : i\n" /* 65 */
                         "    @inbounds out[i] = x[k]\n"
                         "    return\n"
                         "end\n"
                         "function one_throw!(out, x, g, j)\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n" /* 70 */
                         "    k = workgroupIdx().x == g && workitemIdx().x == j ? length(x) + 1 : i\n"
                         "    out[i] = x[k]\n"
                         "    return\n"
                         "end\n"
                         /* the same after a barrier: a kernel of regions, its groups in runs too */
                         "function one_bad_synced!(out, x, g, j)\n" /* 75 */
                         "    t = workitemIdx().x\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + t\n"
                         "    s = @ROCStaticLocalArray(UInt64, 128, false)\n"
                         "    @inbounds s[t] = x[i]\n"
                         "    sync_workgroup()\n" /* 80 */
                         "    k = workgroupIdx().x == g && t == j ? length(x) + 16 : i\n"
                         "    @inbounds out[i] = x[k] + s[t] - x[i]\n"
                         "    return\n"
                         "end\n"
                         "function one_throw_synced!(out, x, g, j)\n" /* 85 */
                         "    t = workitemIdx().x\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + t\n"
                         "    s = @ROCStaticLocalArray(UInt64, 128, false)\n"
                         "    @inbounds s[t] = x[i]\n"
                         "    sync_workgroup()\n" /* 90 */
                         "    k = workgroupIdx().x == g && t == j ? length(x) + 1 : i\n"
                         "    out[i] = x[k] + s[t] - x[i]\n"
                         "    return\n"
                         "end\n"
                         /* group g's items past m leave before the barrier; in the groups before it every item
                          * records its status (the branch differs between items), and the ones past m return
                          * after the barrier, recorded too */
                         "function late!(x, g, m)\n" /* 95 */
                         "    i = workitemIdx().x\n"
                         "    if workgroupIdx().x == g && i > m\n"
                         "        return\n"
                         "    end\n"
                         "    sync_workgroup()\n" /* 100 */
                         "    if i > m\n"
                         "        return\n"
                         "    end\n"
                         "    @inbounds x[(workgroupIdx().x - 1) * workgroupDim().x + i] = 4f0\n"
                         "    return\n" /* 105 */
                         "end\n";

typedef struct Fx {
    juke_context *ctx;
    juke_module *m;
    juke_device *dev;
} Fx;

static int fx_setup(void **state)
{
    Fx *fx = calloc(1, sizeof *fx);
    fx->ctx = juke_context_create();
    if (juke_module_load_string(fx->ctx, "kernel.jl", src, &fx->m) != JUKE_OK ||
        juke_device_open(fx->ctx, "cpu", &fx->dev) != JUKE_OK)
        fail_msg("%s", juke_errmsg(fx->ctx));
    *state = fx;
    return 0;
}

static int fx_teardown(void **state)
{
    Fx *fx = *state;
    juke_context_destroy(fx->ctx);
    free(fx);
    return 0;
}

static juke_array *array_of(Fx *fx, juke_type t, int64_t n, const void *host)
{
    juke_array *a = NULL;
    assert_int_equal(juke_array_create(fx->dev, t, 1, &n, &a), JUKE_OK);
    if (host)
        assert_int_equal(juke_array_upload(a, host, (size_t)n * juke_sizeof(t)), JUKE_OK);
    return a;
}

static juke_status launch(Fx *fx, const char *fn, juke_arg *args, int nargs, uint32_t gx, uint32_t gy)
{
    juke_launch_config cfg = { { gx, gy, 1 }, { 1, 1, 1 }, 0, false };
    return juke_launch(fx->dev, fx->m, fn, args, nargs, &cfg);
}

static void expect_msg(Fx *fx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void expect_msg(Fx *fx, const char *fmt, ...)
{
    char want[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    if (!strstr(juke_errmsg(fx->ctx), want))
        fail_msg("expected \"%s\" in:\n%s", want, juke_errmsg(fx->ctx));
}

/* A correct vadd-like launch after a failed one: the device still works. */
static void expect_usable(Fx *fx)
{
    int64_t n = (int64_t)rnd_in(1, 200);
    uint64_t *x = malloc((size_t)n * 8), *out = calloc((size_t)n, 8);
    for (int64_t i = 0; i < n; i++)
        x[i] = rnd() | 1;
    juke_array *dx = array_of(fx, JUKE_UINT64, n, x), *dout = array_of(fx, JUKE_UINT64, n, NULL);
    juke_arg args[3] = { juke_arg_array(dout), juke_arg_array(dx), juke_arg_i64(0) };
    if (launch(fx, "oob_read!", args, 3, (uint32_t)n, 1) != JUKE_OK)
        fail_msg("%s", juke_errmsg(fx->ctx));
    assert_int_equal(juke_array_download(dout, out, (size_t)n * 8), JUKE_OK);
    assert_memory_equal(out, x, (size_t)n * 8);
    juke_array_free(dx);
    juke_array_free(dout);
    free(x);
    free(out);
}

/* An @inbounds read past the end faults at the guard page: the items before
 * it copied their elements, the rest wrote nothing (or the zeroed slack up
 * to the next 64 bytes), and no host memory reaches the output. */
static void test_oob_read(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 6; round++) {
        /* the first n - off items read in bounds, the other nine or more past the end: beyond the up to 63
         * bytes of slack after an array, into its guard page */
        int64_t n = (int64_t)rnd_in(1, 300), group = (int64_t)rnd_in(16, 128);
        int64_t off = n - (int64_t)rnd_in(0, (uint64_t)(n < 7 ? n : 7));
        uint64_t *x = malloc((size_t)n * 8), *out = malloc((size_t)group * 8);
        for (int64_t i = 0; i < n; i++)
            x[i] = rnd() | 1;
        juke_array *dx = array_of(fx, JUKE_UINT64, n, x), *dout = array_of(fx, JUKE_UINT64, group, NULL);
        juke_arg args[3] = { juke_arg_array(dout), juke_arg_array(dx), juke_arg_i64(off) };
        assert_int_equal(launch(fx, "oob_read!", args, 3, (uint32_t)group, 1), JUKE_ERR_KERNEL);
        expect_msg(fx, "oob_read!: kernel fault: SIGSEGV (invalid memory access at 0x");
        expect_msg(fx, "past the end of a %" PRId64 "-byte device array) in work-group (1, 1, 1)", n * 8);
        assert_int_equal(juke_array_download(dout, out, (size_t)group * 8), JUKE_OK);
        for (int64_t j = 0; j < group; j++) {
            uint64_t want = j + 1 + off <= n ? x[j + off] : 0;
            if (out[j] != want)
                fail_msg("n %" PRId64 " off %" PRId64 ": out[%" PRId64 "] = %#" PRIx64 ", want %#" PRIx64, n, off, j,
                         out[j], want);
        }
        /* far below the start: the guard page under the array */
        long page = sysconf(_SC_PAGESIZE);
        args[2] = juke_arg_i64(-page / 8 - 1);
        assert_int_equal(launch(fx, "oob_read!", args, 3, 1, 1), JUKE_ERR_KERNEL);
        expect_msg(fx, "bytes before the start of a %" PRId64 "-byte device array", n * 8);
        juke_array_free(dx);
        juke_array_free(dout);
        free(x);
        free(out);
        expect_usable(fx);
    }
}

/* An @inbounds write past the end faults before it reaches host memory:
 * canaries on the heap are unchanged and the allocator still works. */
static void test_oob_write(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 6; round++) {
        size_t ncan = 16;
        unsigned char *can[16], *copy[16];
        size_t len[16];
        for (size_t c = 0; c < ncan; c++) {
            len[c] = rnd_in(1, 5000);
            can[c] = malloc(len[c]);
            copy[c] = malloc(len[c]);
            for (size_t b = 0; b < len[c]; b++)
                can[c][b] = copy[c][b] = (unsigned char)rnd();
        }
        int64_t n = (int64_t)rnd_in(1, 2000), group = (int64_t)rnd_in(32, 1024);
        float *x = malloc((size_t)n * 4), *back = malloc((size_t)n * 4);
        for (int64_t i = 0; i < n; i++)
            x[i] = (float)(rnd() % 1000) + 0.5f;
        juke_array *dx = array_of(fx, JUKE_FLOAT32, n, x);
        float v = (float)(rnd() % 100) + 0.25f;
        int64_t off = n - (int64_t)rnd_in(0, 16 < n ? 16 : (uint64_t)n);
        juke_arg args[3] = { juke_arg_array(dx), juke_arg_i64(off), juke_arg_f32(v) };
        assert_int_equal(launch(fx, "oob_write!", args, 3, (uint32_t)group, 1), JUKE_ERR_KERNEL);
        expect_msg(fx, "oob_write!: kernel fault: SIGSEGV (invalid memory access at 0x");
        expect_msg(fx, "past the end of a %" PRId64 "-byte device array)", n * 4);
        assert_int_equal(juke_array_download(dx, back, (size_t)n * 4), JUKE_OK);
        for (int64_t i = 0; i < n; i++)
            assert_true(back[i] == (i + 1 > off ? v : x[i]));
        for (size_t c = 0; c < ncan; c++) {
            assert_memory_equal(can[c], copy[c], len[c]);
            free(can[c]);
            free(copy[c]);
        }
        void *many[256];
        for (int k = 0; k < 256; k++) {
            many[k] = malloc(rnd_in(1, 4096));
            assert_non_null(many[k]);
        }
        for (int k = 0; k < 256; k++)
            free(many[k]);
        juke_array_free(dx);
        free(x);
        free(back);
        expect_usable(fx);
    }
}

/* Local memory has its guard page too. */
static void test_local_overrun(void **state)
{
    Fx *fx = *state;
    juke_array *dx = array_of(fx, JUKE_FLOAT32, 4, NULL);
    juke_arg args[2] = { juke_arg_array(dx), juke_arg_i64((int64_t)rnd_in(1, 64)) };
    assert_int_equal(launch(fx, "local_oob!", args, 2, 64, 1), JUKE_ERR_KERNEL);
    expect_msg(fx, "local_oob!: kernel fault: SIGSEGV (invalid memory access at 0x");
    expect_msg(fx, "past the end of the group's 256 bytes of local memory)");
    juke_array_free(dx);
    expect_usable(fx);
}

/* Items as the message lists them: " (x, 1, 1), ..." for 1-based xs from `first`, at most four. */
static void item_list(char *buf, size_t size, int64_t first, int64_t count)
{
    size_t k = 0;
    for (int64_t i = 0; i < count && i < 4; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s (%" PRId64 ", 1, 1)", i ? "," : "", first + i);
    if (count > 4)
        snprintf(buf + k, size - k, " and %" PRId64 " more", count - 4);
}

static void test_divergence_early_return(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 4; round++) {
        int64_t group = (int64_t)rnd_in(2, 1024), m = (int64_t)rnd_in(1, (uint64_t)group - 1);
        juke_array *dx = array_of(fx, JUKE_FLOAT32, group, NULL);
        juke_arg args[2] = { juke_arg_array(dx), juke_arg_i64(m) };
        assert_int_equal(launch(fx, "early!", args, 2, (uint32_t)group, 1), JUKE_ERR_KERNEL);
        char items[256];
        expect_msg(fx, "early!: barrier divergence: not every work-item of the workgroup reached this barrier\n"
                       "  at kernel.jl:16:5\n  in workgroup (1, 1, 1), work-item (1, 1, 1)\n");
        item_list(items, sizeof items, 1, m);
        expect_msg(fx, "\n  %" PRId64 " wait here:%s\n", m, items);
        item_list(items, sizeof items, m + 1, group - m);
        expect_msg(fx, "\n  %" PRId64 " have returned:%s\n", group - m, items);
        expect_msg(fx, "\n  16 |     sync_workgroup()");
        juke_array_free(dx);
        expect_usable(fx);
    }
}

static void test_divergence_branch(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 4; round++) {
        int64_t group = (int64_t)rnd_in(2, 1024), m = (int64_t)rnd_in(1, (uint64_t)group - 1);
        juke_array *dx = array_of(fx, JUKE_FLOAT32, group, NULL);
        juke_arg args[2] = { juke_arg_array(dx), juke_arg_i64(m) };
        assert_int_equal(launch(fx, "branch!", args, 2, (uint32_t)group, 1), JUKE_ERR_KERNEL);
        char items[256];
        expect_msg(fx, "branch!: barrier divergence: not every work-item of the workgroup reached this barrier\n"
                       "  at kernel.jl:23:9\n");
        item_list(items, sizeof items, 1, m);
        expect_msg(fx, "\n  %" PRId64 " wait here:%s\n", m, items);
        item_list(items, sizeof items, m + 1, group - m);
        expect_msg(fx, "\n  %" PRId64 " have returned:%s\n", group - m, items);
        juke_array_free(dx);
        /* when every item takes the branch, there is no divergence */
        dx = array_of(fx, JUKE_FLOAT32, group, NULL);
        args[0] = juke_arg_array(dx);
        args[1] = juke_arg_i64(group);
        assert_int_equal(launch(fx, "branch!", args, 2, (uint32_t)group, 1), JUKE_OK);
        juke_array_free(dx);
    }
}

/* Rows y == 1 wait at one barrier, rows y == 2 at another. */
static void test_divergence_two_barriers(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 4; round++) {
        int64_t gx = (int64_t)rnd_in(1, 300);
        juke_array *dx = array_of(fx, JUKE_FLOAT32, gx, NULL);
        juke_arg args[1] = { juke_arg_array(dx) };
        assert_int_equal(launch(fx, "two!", args, 1, (uint32_t)gx, 2), JUKE_ERR_KERNEL);
        expect_msg(fx, "two!: barrier divergence: not every work-item of the workgroup reached this barrier\n"
                       "  at kernel.jl:31:9\n");
        char a[256], b[256];
        size_t ka = 0, kb = 0;
        for (int64_t i = 0; i < gx && i < 4; i++) {
            ka += (size_t)snprintf(a + ka, sizeof a - ka, "%s (%" PRId64 ", 1, 1)", i ? "," : "", i + 1);
            kb += (size_t)snprintf(b + kb, sizeof b - kb, "%s (%" PRId64 ", 2, 1)", i ? "," : "", i + 1);
        }
        if (gx > 4) {
            snprintf(a + ka, sizeof a - ka, " and %" PRId64 " more", gx - 4);
            snprintf(b + kb, sizeof b - kb, " and %" PRId64 " more", gx - 4);
        }
        expect_msg(fx, "\n  %" PRId64 " wait here:%s\n", gx, a);
        expect_msg(fx, "\n  %" PRId64 " wait at another barrier, at kernel.jl:33:7:%s\n", gx, b);
        assert_null(strstr(juke_errmsg(fx->ctx), "returned"));
        juke_array_free(dx);
        expect_usable(fx);
    }
}

/* A divergence in a later group of a run than groups whose items recorded their statuses, at the barrier and
 * at returns after it: the report names the group, who waits and who returned, as for the first group. */
static void test_divergence_late_group(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 4; round++) {
        int64_t group = (int64_t)rnd_in(2, 256), m = (int64_t)rnd_in(1, (uint64_t)group - 1);
        int64_t grid = (int64_t)rnd_in(2, 40), g = (int64_t)rnd_in(2, (uint64_t)grid);
        juke_array *dx = array_of(fx, JUKE_FLOAT32, group * grid, NULL);
        juke_arg args[3] = { juke_arg_array(dx), juke_arg_i64(g), juke_arg_i64(m) };
        assert_int_equal(launch(fx, "late!", args, 3, (uint32_t)group, 1), JUKE_OK); /* one group: none diverges */
        juke_launch_config cfg = { { (uint32_t)group, 1, 1 }, { (uint32_t)grid, 1, 1 }, 0, false };
        assert_int_equal(juke_launch(fx->dev, fx->m, "late!", args, 3, &cfg), JUKE_ERR_KERNEL);
        char items[256];
        expect_msg(fx,
                   "late!: barrier divergence: not every work-item of the workgroup reached this barrier\n"
                   "  at kernel.jl:100:5\n  in workgroup (%" PRId64 ", 1, 1), work-item (1, 1, 1)\n",
                   g);
        item_list(items, sizeof items, 1, m);
        expect_msg(fx, "\n  %" PRId64 " wait here:%s\n", m, items);
        item_list(items, sizeof items, m + 1, group - m);
        expect_msg(fx, "\n  %" PRId64 " have returned:%s\n", group - m, items);
        juke_array_free(dx);
        expect_usable(fx);
    }
}

/* A barrier in a loop, every item at every barrier: the right sums. */
static void test_barrier_loop_correct(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 5; round++) {
        int64_t group = 1 << rnd_in(1, 8), ngroups = (int64_t)rnd_in(1, 40);
        int64_t n = group * ngroups - (int64_t)rnd_in(0, (uint64_t)group - 1);
        float *x = malloc((size_t)n * 4), *out = malloc((size_t)ngroups * 4);
        for (int64_t i = 0; i < n; i++)
            x[i] = (float)rnd_in(1, 64);
        juke_array *dx = array_of(fx, JUKE_FLOAT32, n, x), *dout = array_of(fx, JUKE_FLOAT32, ngroups, NULL);
        juke_arg args[2] = { juke_arg_array(dout), juke_arg_array(dx) };
        juke_launch_config cfg = { { (uint32_t)group, 1, 1 }, { (uint32_t)ngroups, 1, 1 }, 0, false };
        if (juke_launch(fx->dev, fx->m, "bsum!", args, 2, &cfg) != JUKE_OK)
            fail_msg("%s", juke_errmsg(fx->ctx));
        assert_int_equal(juke_array_download(dout, out, (size_t)ngroups * 4), JUKE_OK);
        for (int64_t g = 0; g < ngroups; g++) {
            float want = 0;
            for (int64_t i = g * group; i < (g + 1) * group && i < n; i++)
                want += x[i];
            assert_true(out[g] == want);
        }
        juke_array_free(dx);
        juke_array_free(dout);
        free(x);
        free(out);
    }
}

/* ---- the host's signal state ---- */

typedef struct SigState {
    struct sigaction act[NSIG];
    stack_t ss;
} SigState;

static void sig_snapshot(SigState *s)
{
    memset(s, 0, sizeof *s);
    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, NULL, &s->act[sig]);
    assert_int_equal(sigaltstack(NULL, &s->ss), 0);
}

static void sig_expect_same(const SigState *a, const char *after)
{
    SigState b;
    sig_snapshot(&b);
    for (int sig = 1; sig < NSIG; sig++) {
        const struct sigaction *x = &a->act[sig], *y = &b.act[sig];
        bool same_mask = true;
        for (int k = 1; k < NSIG; k++) /* the bytes of sigset_t past the kernel's mask are not defined */
            same_mask &= sigismember(&x->sa_mask, k) == sigismember(&y->sa_mask, k);
        if (x->sa_handler != y->sa_handler || x->sa_flags != y->sa_flags || !same_mask)
            fail_msg("after %s: the disposition of signal %d changed", after, sig);
    }
    if (a->ss.ss_sp != b.ss.ss_sp || a->ss.ss_size != b.ss.ss_size || a->ss.ss_flags != b.ss.ss_flags)
        fail_msg("after %s: the thread's signal stack changed", after);
}

static volatile sig_atomic_t host_handled;
static void host_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    host_handled++;
}

static void launches_keep_state(Fx *fx)
{
    SigState before;
    sig_snapshot(&before);
    expect_usable(fx);
    sig_expect_same(&before, "a launch");
    int64_t n = (int64_t)rnd_in(1, 100);
    juke_array *dx = array_of(fx, JUKE_FLOAT32, n, NULL);
    juke_arg args[3] = { juke_arg_array(dx), juke_arg_i64(n), juke_arg_f32(1.5f) };
    assert_int_equal(launch(fx, "oob_write!", args, 3, 64, 1), JUKE_ERR_KERNEL);
    sig_expect_same(&before, "a faulting launch");
    juke_arg dargs[2] = { juke_arg_array(dx), juke_arg_i64(1) };
    assert_int_equal(launch(fx, "early!", dargs, 2, 2, 1), JUKE_ERR_KERNEL);
    sig_expect_same(&before, "a diverging launch");
    juke_array_free(dx);
}

static void test_signal_state(void **state)
{
    Fx *fx = *state;
    /* the dispositions as the test process has them (SIG_DFL, mostly) */
    launches_keep_state(fx);
    /* a host with its own handlers and its own signal stack */
    struct sigaction sa, old[3];
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = host_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);
    int sigs[3] = { SIGSEGV, SIGBUS, SIGFPE };
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
    static char altmem[1 << 16];
    stack_t ss = { .ss_sp = altmem, .ss_size = sizeof altmem, .ss_flags = 0 }, oldss;
    assert_int_equal(sigaltstack(&ss, &oldss), 0);
    launches_keep_state(fx);
    assert_int_equal(sigaltstack(&oldss, NULL), 0);
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
    /* SIGSEGV ignored */
    signal(SIGSEGV, SIG_IGN);
    launches_keep_state(fx);
    signal(SIGSEGV, SIG_DFL);
}

/* A worker runs groups in batches (one set-up and one sigsetjmp per run of groups, not per group): a fault
 * or an exception in one work-item of a group deep in a large grid still names that group and that item,
 * and after an exception the group's other work-items still run, as on a GPU. */
static void test_batched_groups(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 6; round++) {
        int64_t group = (int64_t)rnd_in(8, 128), ngroups = (int64_t)rnd_in(64, 600), n = group * ngroups;
        int64_t g = (int64_t)rnd_in(1, (uint64_t)ngroups), j = (int64_t)rnd_in(1, (uint64_t)group);
        uint64_t *x = malloc((size_t)n * 8), *out = malloc((size_t)n * 8);
        for (int64_t i = 0; i < n; i++)
            x[i] = rnd() | 1;
        juke_array *dx = array_of(fx, JUKE_UINT64, n, x), *dout = array_of(fx, JUKE_UINT64, n, NULL);
        juke_arg args[4] = { juke_arg_array(dout), juke_arg_array(dx), juke_arg_i64(g), juke_arg_i64(j) };
        juke_launch_config cfg = { { (uint32_t)group, 1, 1 }, { (uint32_t)ngroups, 1, 1 }, 0, false };
        assert_int_equal(juke_launch(fx->dev, fx->m, "one_bad!", args, 4, &cfg), JUKE_ERR_KERNEL);
        expect_msg(fx,
                   "past the end of a %" PRId64 "-byte device array) in work-group (%" PRId64
                   ", 1, 1), work-item (%" PRId64 ", 1, 1)",
                   n * 8, g, j);
        juke_array_free(dout);
        dout = array_of(fx, JUKE_UINT64, n, NULL);
        args[0] = juke_arg_array(dout);
        assert_int_equal(juke_launch(fx->dev, fx->m, "one_throw!", args, 4, &cfg), JUKE_ERR_KERNEL);
        expect_msg(fx, "BoundsError: attempt to access %" PRId64 "-element", n);
        expect_msg(fx, "in workgroup (%" PRId64 ", 1, 1), work-item (%" PRId64 ", 1, 1)", g, j);
        assert_int_equal(juke_array_download(dout, out, (size_t)n * 8), JUKE_OK);
        for (int64_t i = (g - 1) * group; i < g * group; i++)
            if (out[i] != (i == (g - 1) * group + j - 1 ? 0 : x[i]))
                fail_msg("group %" PRId64 " of %" PRId64 ", item %" PRId64 " threw: out[%" PRId64 "] = %#" PRIx64, g,
                         ngroups, j, i + 1, out[i]);
        /* the same with a barrier before the access: the groups run as regions, in runs as well */
        juke_array_free(dout);
        dout = array_of(fx, JUKE_UINT64, n, NULL);
        args[0] = juke_arg_array(dout);
        assert_int_equal(juke_launch(fx->dev, fx->m, "one_bad_synced!", args, 4, &cfg), JUKE_ERR_KERNEL);
        expect_msg(fx, "in work-group (%" PRId64 ", 1, 1), work-item (%" PRId64 ", 1, 1)", g, j);
        assert_int_equal(juke_launch(fx->dev, fx->m, "one_throw_synced!", args, 4, &cfg), JUKE_ERR_KERNEL);
        expect_msg(fx, "BoundsError: attempt to access %" PRId64 "-element", n);
        expect_msg(fx, "in workgroup (%" PRId64 ", 1, 1), work-item (%" PRId64 ", 1, 1)", g, j);
        args[2] = juke_arg_i64(0); /* no group throws: every result */
        assert_int_equal(juke_launch(fx->dev, fx->m, "one_throw_synced!", args, 4, &cfg), JUKE_OK);
        assert_int_equal(juke_array_download(dout, out, (size_t)n * 8), JUKE_OK);
        assert_memory_equal(out, x, (size_t)n * 8);
        juke_array_free(dx);
        juke_array_free(dout);
        free(x);
        free(out);
        expect_usable(fx);
    }
}

/* ---- the fixture's kernels, through the runtime ---- */

typedef struct RtFx {
    RtDevice *dev;
    RtModule *mod;
} RtFx;

static void rt_fx_open(RtFx *fx)
{
    size_t size = 0;
    uint8_t *image = tu_read_file(SAFETY_FIXTURE_SO, &size);
    assert_non_null(image);
    char *err = NULL;
    assert_int_equal(rt_device_open("cpu", 0, &fx->dev, NULL, &err), 0);
    if (rt_module_load(fx->dev, image, size, &fx->mod, &err) != 0)
        fail_msg("%s", err);
    free(image);
}

static void rt_fx_close(RtFx *fx)
{
    rt_module_unload(fx->mod);
    rt_device_close(fx->dev);
}

static int rt_run(RtFx *fx, const char *name, RtArg *args, int nargs, uint32_t group, JukeExceptionRecord *exc)
{
    RtFunction *f;
    char *err = NULL;
    if (rt_function_get(fx->mod, name, &f, &err) != 0)
        fail_msg("%s", err);
    uint32_t grid[3] = { 1, 1, 1 }, gs[3] = { group, 1, 1 };
    int rc = rt_launch(f, args, nargs, grid, gs, 0, true, exc, &err);
    if (rc < 0)
        fail_msg("%s: %s", name, err);
    return rc;
}

/* A work-item that recurses without end overflows its stack: a fault,
 * whether it runs as a fiber (its guard page) or on a thread's own stack. */
static void test_stack_overflow(void **state)
{
    (void)state;
    RtFx fx;
    rt_fx_open(&fx);
    SigState before;
    sig_snapshot(&before);
    const char *names[2] = { "deep_fibers", "deep" };
    for (int k = 0; k < 2; k++) {
        uint32_t group = (uint32_t)rnd_in(1, 8);
        int64_t out[8] = { 0 }, depth = (int64_t)rnd_in(1, 50);
        struct {
            int64_t depth;
            int64_t *out;
        } a = { depth, out };
        RtArg args[2] = { { &a.depth, 8, 8 }, { &a.out, 8, 8 } };
        JukeExceptionRecord exc;
        assert_int_equal(rt_run(&fx, names[k], args, 2, group, &exc), 0); /* shallow: fine */
        for (uint32_t i = 0; i < group; i++)
            assert_int_equal(out[i], (int64_t)(char)0 + depth);
        a.depth = INT64_C(1) << 40;
        assert_int_equal(rt_run(&fx, names[k], args, 2, group, &exc), 1);
        assert_int_equal(exc.kind, JUKE_EXC_FAULT);
        assert_int_equal(exc.aux, SIGSEGV);
        assert_int_equal(exc.index[2], JUKE_FAULT_STACK);
        assert_int_equal(exc.group[0], 1);
        assert_true(exc.item[0] >= 1 && exc.item[0] <= group);
        sig_expect_same(&before, "a stack overflow");
    }
    rt_fx_close(&fx);
}

/* An integer division by zero that no check caught traps: SIGFPE. */
static void test_sigfpe(void **state)
{
    (void)state;
    RtFx fx;
    rt_fx_open(&fx);
    int64_t out[4] = { 0 };
    struct {
        int64_t num, den;
        int64_t *out;
    } a = { (int64_t)rnd_in(1, 1000000), 0, out };
    RtArg args[3] = { { &a.num, 8, 8 }, { &a.den, 8, 8 }, { &a.out, 8, 8 } };
    JukeExceptionRecord exc;
    assert_int_equal(rt_run(&fx, "divide", args, 3, 4, &exc), 1);
    assert_int_equal(exc.kind, JUKE_EXC_FAULT);
    assert_int_equal(exc.aux, SIGFPE);
    assert_int_equal(exc.index[1], FPE_INTDIV);
    a.den = (int64_t)rnd_in(1, 1000);
    assert_int_equal(rt_run(&fx, "divide", args, 3, 4, &exc), 0);
    assert_int_equal(out[3], a.num / a.den);
    rt_fx_close(&fx);
}

/* A signal sent (not a fault) while a kernel runs goes to the host's handler;
 * with the default disposition it ends the process as without juke. */
static void test_signal_chained(void **state)
{
    (void)state;
    RtFx fx;
    rt_fx_open(&fx);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = host_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old);
    host_handled = 0;
    int64_t sig = SIGSEGV;
    RtArg args[1] = { { &sig, 8, 8 } };
    JukeExceptionRecord exc;
    assert_int_equal(rt_run(&fx, "sendsig", args, 1, 1, &exc), 0);
    assert_int_equal(host_handled, 1);
    sigaction(SIGSEGV, &old, NULL);
    rt_fx_close(&fx);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        RtFx c;
        rt_fx_open(&c);
        rt_run(&c, "sendsig", args, 1, 1, &exc);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
}

int main(void)
{
    const char *seed = getenv("JUKE_TEST_SEED");
    rng = seed ? strtoull(seed, NULL, 0) : (uint64_t)time(NULL) * 2654435761u;
    if (!rng)
        rng = 1;
    printf("# seed %#" PRIx64 " (JUKE_TEST_SEED to repeat)\n", rng);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_oob_read, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_oob_write, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_local_overrun, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_divergence_early_return, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_divergence_branch, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_divergence_two_barriers, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_divergence_late_group, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_barrier_loop_correct, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_signal_state, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_batched_groups, fx_setup, fx_teardown),
        cmocka_unit_test(test_stack_overflow),
        cmocka_unit_test(test_sigfpe),
        cmocka_unit_test(test_signal_chained),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
