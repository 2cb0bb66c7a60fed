/* test_signals.c: juke leaves the host process's signal state alone. In-process
 * lld once installed LLVM's signal handlers (INT, TERM, SEGV, USR1, ...) and an
 * alternate signal stack through sys::RemoveFileOnSignal, and they outlived
 * juke_context_destroy: SIGUSR1 then no longer killed the host. Here every
 * disposition 1..NSIG-1, the signal mask and the thread's sigaltstack are
 * recorded, a context compiles for the CPU, gfx90a and sm_90, launches on the
 * CPU, prints assembly and is destroyed, and everything must read the same;
 * a forked child then still dies of SIGUSR1.
 *
 * The RemoveFileOnSignal entries each link leaked (a node of LLVM's
 * FilesToRemove list, tens of bytes) are too small to measure through
 * malloc statistics against LLVM's own caches; they are covered here instead:
 * sys::RemoveFileOnSignal always calls RegisterHandlers, which installs the
 * handlers on its first call in a process, so unchanged dispositions after
 * the first links of this process mean no entry was ever added. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
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

static const char scale_src[] = "function scale!(y, x, a)\n"
                                "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                                "    if i <= length(y)\n"
                                "        @inbounds y[i] = a * x[i]\n"
                                "    end\n"
                                "    return\n"
                                "end\n";

/* The process's signal state as a host sees it. */
typedef struct SigState {
    struct sigaction act[NSIG];
    sigset_t mask;
    stack_t alt;
} SigState;

static void sig_record(SigState *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 1; i < NSIG; i++)
        sigaction(i, NULL, &s->act[i]); /* fails (EINVAL) for signals glibc reserves: stays zero */
    pthread_sigmask(SIG_SETMASK, NULL, &s->mask);
    sigaltstack(NULL, &s->alt);
}

/* Compare two records, naming the first differences. Returns how many differ. */
static int sig_diff(const SigState *a, const SigState *b)
{
    int n = 0;
    for (int i = 1; i < NSIG; i++) {
        const struct sigaction *x = &a->act[i], *y = &b->act[i];
        bool same = x->sa_handler == y->sa_handler && x->sa_flags == y->sa_flags;
        for (int j = 1; same && j < NSIG; j++)
            if (sigismember(&x->sa_mask, j) != sigismember(&y->sa_mask, j))
                same = false;
        if (!same && n++ < 8)
            print_error("signal %d (%s): handler %p flags %#x before, %p flags %#x after\n", i, strsignal(i),
                        (void *)x->sa_handler, (unsigned)x->sa_flags, (void *)y->sa_handler, (unsigned)y->sa_flags);
    }
    for (int j = 1; j < NSIG; j++)
        if (sigismember(&a->mask, j) != sigismember(&b->mask, j)) {
            print_error("signal %d's mask bit changed\n", j);
            n++;
        }
    if (a->alt.ss_sp != b->alt.ss_sp || a->alt.ss_size != b->alt.ss_size || a->alt.ss_flags != b->alt.ss_flags) {
        print_error("sigaltstack: %p size %zu flags %#x before, %p size %zu flags %#x after\n", a->alt.ss_sp,
                    a->alt.ss_size, (unsigned)a->alt.ss_flags, b->alt.ss_sp, b->alt.ss_size, (unsigned)b->alt.ss_flags);
        n++;
    }
    return n;
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Compile scale! for target and print its assembly; gfx90a and sm_90 must
 * link (gfx90a goes through lld). */
static void compile_for(juke_module *m, const char *target, juke_context *ctx)
{
    static const char *const types[] = { "Vector{Float32}", "Vector{Float32}", "Float32" };
    juke_options o;
    juke_options_default(&o);
    o.target = target;
    o.cache_dir = NULL;
    juke_kernel *k = NULL;
    juke_status st = juke_compile(m, "scale!", types, 3, &o, &k);
    if (st != JUKE_OK)
        print_error("compile for %s: %s\n", target, juke_errmsg(ctx));
    assert_int_equal(st, JUKE_OK);
    const char *text = juke_kernel_dump(k, JUKE_DUMP_ASM);
    assert_non_null(text);
    assert_true(strlen(text) > 0);
    size_t size = 0;
    assert_non_null(juke_kernel_code_object(k, &size));
    assert_true(size > 0);
}

/* One context's whole life: compile for three targets, launch on the CPU and
 * check the result, destroy. */
static void use_juke_once(uint64_t seed)
{
    juke_context *ctx = juke_context_create();
    assert_non_null(ctx);
    juke_module *m = NULL;
    assert_int_equal(juke_module_load_string(ctx, "scale.jl", scale_src, &m), JUKE_OK);
    compile_for(m, "cpu", ctx);
    compile_for(m, "gfx90a", ctx);
    compile_for(m, "sm_90", ctx);

    juke_device *dev = NULL;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    enum { N = 300 };
    float x[N], y[N];
    uint64_t s = seed;
    for (int i = 0; i < N; i++)
        x[i] = (float)(int)(next_random(&s) % 2001 - 1000) / 8.0f;
    float a = (float)(int)(next_random(&s) % 31 + 1) / 4.0f;
    int64_t dims[1] = { N };
    juke_array *ax = NULL, *ay = NULL;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, dims, &ax), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, dims, &ay), JUKE_OK);
    assert_int_equal(juke_array_upload(ax, x, sizeof x), JUKE_OK);
    juke_arg args[3] = { juke_arg_array(ay), juke_arg_array(ax), juke_arg_f32(a) };
    juke_launch_config cfg = { .groupsize = { 64, 1, 1 }, .gridsize = { (N + 63) / 64, 1, 1 } };
    juke_status st = juke_launch(dev, m, "scale!", args, 3, &cfg);
    if (st != JUKE_OK)
        print_error("launch: %s\n", juke_errmsg(ctx));
    assert_int_equal(st, JUKE_OK);
    assert_int_equal(juke_array_download(ay, y, sizeof y), JUKE_OK);
    for (int i = 0; i < N; i++)
        assert_true(y[i] == a * x[i]);
    juke_context_destroy(ctx);
}

static void test_signal_state_unchanged(void **state)
{
    (void)state;
    SigState before, after;
    sig_record(&before);
    use_juke_once((uint64_t)time(NULL) | 1);
    sig_record(&after);
    assert_int_equal(sig_diff(&before, &after), 0);

    /* A second round: whatever LLVM caches after its first use must not
     * install anything either. */
    use_juke_once((uint64_t)getpid() * 2654435761u | 1);
    sig_record(&after);
    assert_int_equal(sig_diff(&before, &after), 0);
}

/* The default action of SIGUSR1 still ends the process (LLVM's handler
 * swallowed it). */
static void test_sigusr1_kills(void **state)
{
    (void)state;
    use_juke_once(12345);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        raise(SIGUSR1);
        _exit(0);
    }
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (!WIFSIGNALED(ws))
        print_error("the child exited with status %d instead of dying of SIGUSR1\n", WEXITSTATUS(ws));
    assert_true(WIFSIGNALED(ws));
    assert_int_equal(WTERMSIG(ws), SIGUSR1);
}

/* A host's own handler and alternate stack stay in place through juke calls. */
static volatile sig_atomic_t host_got;
static void host_handler(int sig)
{
    host_got = sig;
}

static void test_host_handler_kept(void **state)
{
    (void)state;
    struct sigaction sa = { 0 }, old_term, old_usr1;
    sa.sa_handler = host_handler;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGTERM, &sa, &old_term), 0);
    assert_int_equal(sigaction(SIGUSR1, &sa, &old_usr1), 0);
    static char altstack[64 * 1024];
    stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack }, old_ss;
    assert_int_equal(sigaltstack(&ss, &old_ss), 0);
    SigState before, after;
    sig_record(&before);
    use_juke_once(777);
    sig_record(&after);
    assert_int_equal(sig_diff(&before, &after), 0);
    host_got = 0;
    raise(SIGUSR1);
    assert_int_equal(host_got, SIGUSR1);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGUSR1, &old_usr1, NULL);
    sigaltstack(&old_ss, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal_state_unchanged),
        cmocka_unit_test(test_sigusr1_kills),
        cmocka_unit_test(test_host_handler_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
