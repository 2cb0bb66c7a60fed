/* test_launch_limits.c: launches checked against what is real: dynamic local
 * arrays against the memory the launch allocated, grids against the device's
 * limits (no count may wrap), and the run-time limit (timeout_s, --timeout).
 * Each test fails on a juke that checks the declared size, lets the group
 * count wrap, or has no run-time limit. argv[1]: the juke command. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "juke.h"

static const char *juke_cmd;
static uint64_t rng_state;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static const char *src = "function fill_dyn(x, n)\n"
                         "    s = @ROCDynamicLocalArray(Float32, n)\n"
                         "    t = workitemIdx().x\n"
                         "    for i in t:workgroupDim().x:n\n"
                         "        s[i] = Float32(i)\n"
                         "    end\n"
                         "    sync_workgroup()\n"
                         "    acc = 0f0\n"
                         "    for i in 1:n\n"
                         "        acc += s[i]\n"
                         "    end\n"
                         "    x[t] = acc\n"
                         "    return\n"
                         "end\n"
                         "function zero_dyn(x, n)\n"
                         "    s = @ROCDynamicLocalArray(Float32, n, true)\n"
                         "    x[1] = Float32(length(s))\n"
                         "    x[2] = Float32(size(s, 1))\n"
                         "    return\n"
                         "end\n"
                         "function const_dims(x)\n"
                         "    s = @ROCDynamicLocalArray(Float32, (4, 100000))\n"
                         "    s[1, 1] = x[1]\n"
                         "    s[4, 2] = x[2]\n"
                         "    x[3] = s[1, 1] + s[4, 2]\n"
                         "    return\n"
                         "end\n"
                         "function const_dims_zero(x)\n"
                         "    s = @ROCDynamicLocalArray(Float32, (4, 100000), true)\n"
                         "    x[1] = s[1, 1] + s[4, 1]\n"
                         "    return\n"
                         "end\n"
                         "function spin(x)\n"
                         "    i = 0\n"
                         "    while x[1] >= 0f0\n"
                         "        i += 1\n"
                         "    end\n"
                         "    x[2] = Float32(i)\n"
                         "    return\n"
                         "end\n"
                         "function count_up(x, n)\n"
                         "    acc = 0\n"
                         "    for i in 1:n\n"
                         "        acc += i % 7\n"
                         "    end\n"
                         "    x[1] = acc\n"
                         "    return\n"
                         "end\n"
                         "function vadd(c, a, b)\n"
                         "    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x\n"
                         "    if i <= length(c)\n"
                         "        c[i] = a[i] + b[i]\n"
                         "    end\n"
                         "    return\n"
                         "end\n";

typedef struct Fx {
    juke_context *ctx;
    juke_module *m;
    juke_device *dev;
} Fx;

static int setup(void **state)
{
    Fx *fx = calloc(1, sizeof *fx);
    fx->ctx = juke_context_create();
    if (juke_module_load_string(fx->ctx, "limits.jl", src, &fx->m) != JUKE_OK ||
        juke_device_open(fx->ctx, "cpu", &fx->dev) != JUKE_OK) {
        fprintf(stderr, "setup: %s\n", juke_errmsg(fx->ctx));
        return -1;
    }
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    Fx *fx = *state;
    juke_context_destroy(fx->ctx);
    free(fx);
    return 0;
}

static juke_array *farray(Fx *fx, int64_t n, const float *init)
{
    juke_array *a;
    assert_int_equal(juke_array_create(fx->dev, JUKE_FLOAT32, 1, &n, &a), JUKE_OK);
    if (init)
        assert_int_equal(juke_array_upload(a, init, (size_t)n * 4), JUKE_OK);
    return a;
}

/* vadd on fresh random inputs: the device (and the host heap under it) still works. */
static void check_vadd(Fx *fx)
{
    int64_t n = 1000 + rnd() % 3000;
    float *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4), *c = malloc((size_t)n * 4);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)(rnd() % 1000) - 500;
        b[i] = (float)(rnd() % 1000) * 0.25f;
    }
    juke_array *A = farray(fx, n, a), *B = farray(fx, n, b), *C = farray(fx, n, NULL);
    juke_arg args[3] = { juke_arg_array(C), juke_arg_array(A), juke_arg_array(B) };
    juke_launch_config cfg = { { 64, 1, 1 }, { (uint32_t)((n + 63) / 64), 1, 1 }, 0, false };
    assert_int_equal(juke_launch(fx->dev, fx->m, "vadd", args, 3, &cfg), JUKE_OK);
    assert_int_equal(juke_array_download(C, c, (size_t)n * 4), JUKE_OK);
    for (int64_t i = 0; i < n; i++)
        assert_true(c[i] == a[i] + b[i]);
    juke_array_free(A);
    juke_array_free(B);
    juke_array_free(C);
    free(a);
    free(b);
    free(c);
}

/* n beyond the shmem bytes: a BoundsError naming the allocation, the heap
 * intact; n within them: the right sums. Random n and shmem each round. */
static void test_dynamic_beyond_allocation(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 12; round++) {
        uint32_t cap = 1 + rnd() % 256;       /* Float32 elements allocated */
        uint32_t shmem = cap * 4 + rnd() % 4; /* a ragged tail holds no whole element */
        int64_t n = cap + 1 + rnd() % (cap * 3 + 1);
        uint32_t group = 1u << (rnd() % 6);
        float x[64];
        juke_array *X = farray(fx, 64, NULL);
        juke_arg args[2] = { juke_arg_array(X), juke_arg_i64(n) };
        juke_launch_config cfg = { { group, 1, 1 }, { 1 + rnd() % 4, 1, 1 }, shmem, false };
        assert_int_equal(juke_launch(fx->dev, fx->m, "fill_dyn", args, 2, &cfg), JUKE_ERR_KERNEL);
        /* the first work-item to step past the allocation reports its index */
        char want[200], tail[120];
        snprintf(want, sizeof want,
                 "fill_dyn: BoundsError: attempt to access %lld-element ROCDeviceVector{Float32, 3} "
                 "at index [",
                 (long long)n);
        snprintf(tail, sizeof tail, "]: the launch allocated dynamic local memory for %u element%s (shmem)\n", cap,
                 cap == 1 ? "" : "s");
        const char *msg = juke_errmsg(fx->ctx);
        if (strncmp(msg, want, strlen(want)) != 0)
            fail_msg("round %d: got\n%s\nwanted\n%s...", round, msg, want);
        char *end;
        long long at = strtoll(msg + strlen(want), &end, 10);
        assert_true(at > cap && at <= n);
        assert_true(strncmp(end, tail, strlen(tail)) == 0);
        /* the same array size within the allocation runs and sums right */
        n = 1 + rnd() % cap;
        args[1] = juke_arg_i64(n);
        assert_int_equal(juke_launch(fx->dev, fx->m, "fill_dyn", args, 2, &cfg), JUKE_OK);
        assert_int_equal(juke_array_download(X, x, sizeof x), JUKE_OK);
        for (uint32_t t = 0; t < group; t++)
            assert_true(x[t] == (float)(n * (n + 1) / 2));
        juke_array_free(X);
        check_vadd(fx);
    }
}

/* zeroinit=true with a negative n: an empty array (as Base.OneTo(n)), no element touched. */
static void test_zeroinit_negative(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 4; round++) {
        int64_t n = -1 - (int64_t)(rnd() % 100000);
        if (round == 3)
            n = INT64_MIN;
        float x[2] = { (float)(rnd() % 100) + 1, (float)(rnd() % 100) + 1 };
        juke_array *X = farray(fx, 2, x);
        juke_arg args[2] = { juke_arg_array(X), juke_arg_i64(n) };
        juke_launch_config cfg = { { 1 + rnd() % 64, 1, 1 }, { 1, 1, 1 }, 16 * (1 + rnd() % 8), false };
        assert_int_equal(juke_launch(fx->dev, fx->m, "zero_dyn", args, 2, &cfg), JUKE_OK);
        assert_int_equal(juke_array_download(X, x, sizeof x), JUKE_OK);
        assert_true(x[0] == 0.0f && x[1] == 0.0f);
        juke_array_free(X);
    }
    check_vadd(fx);
}

/* Constant dims (4,100000) with 16 or 32 bytes: the zero fill clears only
 * those; an access past them is a BoundsError, one within them works. */
static void test_const_dims_beyond_allocation(void **state)
{
    Fx *fx = *state;
    float x[3] = { (float)(rnd() % 1000), (float)(rnd() % 1000), -1 };
    juke_array *X = farray(fx, 3, x);
    juke_arg args[1] = { juke_arg_array(X) };
    juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 16, false };
    assert_int_equal(juke_launch(fx->dev, fx->m, "const_dims_zero", args, 1, &cfg), JUKE_OK);
    float y[3];
    assert_int_equal(juke_array_download(X, y, sizeof y), JUKE_OK);
    assert_true(y[0] == 0.0f);
    assert_int_equal(juke_array_upload(X, x, sizeof x), JUKE_OK);
    assert_int_equal(juke_launch(fx->dev, fx->m, "const_dims", args, 1, &cfg), JUKE_ERR_KERNEL);
    assert_non_null(strstr(juke_errmsg(fx->ctx), "400000-element ROCDeviceMatrix{Float32, 3} at index [8]: the launch "
                                                 "allocated dynamic local memory for 4 elements (shmem)"));
    cfg.shmem = 32;
    assert_int_equal(juke_launch(fx->dev, fx->m, "const_dims", args, 1, &cfg), JUKE_OK);
    assert_int_equal(juke_array_download(X, y, sizeof y), JUKE_OK);
    assert_true(y[2] == x[0] + x[1]);
    juke_array_free(X);
    check_vadd(fx);
}

/* 4194304×2097152×2097152 workgroups wrapped a 64-bit group count to 0 and ran nothing. */
static void test_grid_overflow_api(void **state)
{
    Fx *fx = *state;
    juke_array *X = farray(fx, 3, NULL);
    juke_arg args[1] = { juke_arg_array(X) };
    juke_launch_config cfg = { { 1, 1, 1 }, { 4194304, 2097152, 2097152 }, 0, false };
    assert_int_equal(juke_launch(fx->dev, fx->m, "spin", args, 1, &cfg), JUKE_ERR_ARGUMENT);
    assert_string_equal(juke_errmsg(fx->ctx), "spin: gridsize 4194304×2097152×2097152 of groupsize 1×1×1: "
                                              "18446744073709551616 work-items in all exceed the limit of 2^63-1");
    /* work-items per dimension past the 32-bit ids, at a random split */
    uint32_t group = 1u << (1 + rnd() % 10);
    juke_launch_config dim = { { group, 1, 1 }, { (uint32_t)(0x100000000ull / group), 1, 1 }, 0, false };
    assert_int_equal(juke_launch(fx->dev, fx->m, "spin", args, 1, &dim), JUKE_ERR_ARGUMENT);
    assert_non_null(strstr(juke_errmsg(fx->ctx), "4294967296 work-items in x exceed the CPU device's limit of 2^32-1"));
    juke_array_free(X);
}

/* Run juke with args; its exit status, stderr in buf. */
static int run_juke(char *buf, size_t n, ...)
{
    const char *argv[32] = { juke_cmd };
    int k = 1;
    va_list ap;
    va_start(ap, n);
    for (const char *a; k < 31 && (a = va_arg(ap, const char *));)
        argv[k++] = a;
    va_end(ap);
    argv[k] = NULL;
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        execv(juke_cmd, (char *const *)argv);
        _exit(127);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < n && (r = read(fd[0], buf + got, n - 1 - got)) > 0)
        got += (size_t)r;
    buf[got] = '\0';
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char tmpdir[256];

static const char *tmp_file(const char *name, const char *text)
{
    static char path[8][400];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, 400, "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static void test_grid_overflow_cli(void **state)
{
    (void)state;
    const char *k = tmp_file("nop.jl", "function nop(a)\n    return\nend\n");
    char out[4096];
    int rc = run_juke(out, sizeof out, "run", "--device", "cpu", "--groupsize", "1", "--gridsize",
                      "4194304,2097152,2097152", k, "nop", "3", NULL);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "nop: gridsize 4194304×2097152×2097152 of groupsize 1×1×1: 18446744073709551616 "
                                "work-items in all exceed the limit of 2^63-1"));
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* An endless loop with a limit of 0.5 s: cancelled within a few seconds,
 * reported at its loop, and the device then runs vadd right. */
static void test_timeout_cancels(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 2; round++) {
        float x[2] = { (float)(rnd() % 100), 0 };
        juke_array *X = farray(fx, 2, x);
        juke_arg args[1] = { juke_arg_array(X) };
        juke_launch_config cfg = { { 1 + rnd() % 128, 1, 1 }, { 1 + rnd() % 16, 1, 1 }, 0, false };
        cfg.timeout_s = 0.5;
        double t0 = now_s();
        assert_int_equal(juke_launch(fx->dev, fx->m, "spin", args, 1, &cfg), JUKE_ERR_KERNEL);
        double took = now_s() - t0;
        assert_true(took >= 0.45 && took < 4.0);
        assert_non_null(strstr(juke_errmsg(fx->ctx), "spin: run-time limit of 0.5 s exceeded: the kernel was cancelled "
                                                     "in this loop\n  at limits.jl:35:5"));
        juke_array_free(X);
        check_vadd(fx);
    }
}

/* timeout 0 is no limit: a loop of random length runs to its end (a zero
 * limit taken literally would cancel it at once), as does a generous one. */
static void test_timeout_zero_is_none(void **state)
{
    Fx *fx = *state;
    for (int round = 0; round < 2; round++) {
        int64_t n = 2000000 + rnd() % 2000000, want = 0;
        for (int64_t i = 1; i <= n; i++)
            want += i % 7;
        int64_t zero = 0, dims = 1, got = -1;
        juke_array *X;
        assert_int_equal(juke_array_create(fx->dev, JUKE_INT64, 1, &dims, &X), JUKE_OK);
        assert_int_equal(juke_array_upload(X, &zero, 8), JUKE_OK);
        juke_arg args[2] = { juke_arg_array(X), juke_arg_i64(n) };
        juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false };
        cfg.timeout_s = round == 0 ? 0 : 30;
        assert_int_equal(juke_launch(fx->dev, fx->m, "count_up", args, 2, &cfg), JUKE_OK);
        assert_int_equal(juke_array_download(X, &got, 8), JUKE_OK);
        assert_int_equal(got, want);
        juke_array_free(X);
    }
    juke_launch_config bad = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false };
    bad.timeout_s = -1;
    juke_array *X = farray(fx, 2, NULL);
    juke_arg args[1] = { juke_arg_array(X) };
    assert_int_equal(juke_launch(fx->dev, fx->m, "spin", args, 1, &bad), JUKE_ERR_ARGUMENT);
    juke_array_free(X);
}

static void test_timeout_cli(void **state)
{
    (void)state;
    const char *k = tmp_file("spin.jl", "function spin(x)\n    while x >= 0\n    end\n    return\nend\n");
    char out[4096];
    double t0 = now_s();
    int rc = run_juke(out, sizeof out, "run", "--device", "cpu", "--groupsize", "4", "--timeout", ".5", k, "spin", "3",
                      NULL);
    assert_int_equal(rc, 1);
    assert_true(now_s() - t0 < 10.0);
    assert_non_null(strstr(out, "spin: run-time limit of 0.5 s exceeded: the kernel was cancelled in this loop"));
    rc = run_juke(out, sizeof out, "run", "--device", "cpu", "--groupsize", "4", "--timeout", "-2", k, "spin", "3",
                  NULL);
    assert_int_equal(rc, 2);
}

/* Region kernels (barriers) under a limit: an endless loop through a barrier (the rounds never end) and an
 * endless loop between two barriers are both cancelled and reported at their loop. */
static void test_timeout_regions(void **state)
{
    (void)state;
    const char *k = tmp_file("spin_regions.jl", "function spin_round(x)\n"
                                                "    s = @ROCStaticLocalArray(Float32, 4, false)\n"
                                                "    while x >= 0\n"
                                                "        sync_workgroup()\n"
                                                "        @inbounds s[workitemIdx().x] += 1f0\n"
                                                "    end\n"
                                                "    return\n"
                                                "end\n"
                                                "function spin_inside(x)\n"
                                                "    sync_workgroup()\n"
                                                "    while x >= 0\n"
                                                "    end\n"
                                                "    sync_workgroup()\n"
                                                "    return\n"
                                                "end\n");
    const char *names[2] = { "spin_round", "spin_inside" }, *at[2] = { "spin_regions.jl:3:5", "spin_regions.jl:11:5" };
    for (int i = 0; i < 2; i++) {
        char out[4096];
        double t0 = now_s();
        int rc = run_juke(out, sizeof out, "run", "--device", "cpu", "--groupsize", "4", "--timeout", ".5", k, names[i],
                          "3", NULL);
        assert_int_equal(rc, 1);
        assert_true(now_s() - t0 < 10.0);
        assert_non_null(strstr(out, "run-time limit of 0.5 s exceeded: the kernel was cancelled in this loop"));
        assert_non_null(strstr(out, at[i]));
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_launch_limits JUKE\n");
        return 2;
    }
    juke_cmd = argv[1];
    rng_state = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
    fprintf(stderr, "test_launch_limits: seed %llu\n", (unsigned long long)rng_state);
    snprintf(tmpdir, sizeof tmpdir, "%s/juke-limits-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dynamic_beyond_allocation),
        cmocka_unit_test(test_zeroinit_negative),
        cmocka_unit_test(test_const_dims_beyond_allocation),
        cmocka_unit_test(test_grid_overflow_api),
        cmocka_unit_test(test_grid_overflow_cli),
        cmocka_unit_test(test_timeout_cancels),
        cmocka_unit_test(test_timeout_zero_is_none),
        cmocka_unit_test(test_timeout_cli),
        cmocka_unit_test(test_timeout_regions),
    };
    int rc = cmocka_run_group_tests(tests, setup, teardown);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return rc;
}
