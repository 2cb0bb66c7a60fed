/* test_trace.c: the timeline (juke_options.trace_path, $JUKE_TRACE). On the
 * CPU device: compiles (a miss, then a hit in memory and on disk from a
 * second context), launches on the device's own stream and on two streams,
 * asynchronous launches with their synchronisations, uploads and downloads,
 * launches from several threads; the results are checked, and the trace is
 * checked by tests/trace_check.py (python3's json: the schema, the event
 * names, every kernel inside its launch and synchronisation). */
#include <pthread.h>
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

static const char *const src = "function axpy!(y, x, a)\n"
                               "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                               "    if i <= length(y)\n"
                               "        @inbounds y[i] = y[i] + a * x[i]\n"
                               "    end\n"
                               "    return\n"
                               "end\n";

static char tmpdir[256];
static uint64_t rng;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static float rand_f(void)
{
    return (float)(next_rand() % 2000001) / 1000.0f - 1000.0f;
}

/* Run tests/trace_check.py on path with extra arguments; its exit status. */
static int check_trace(const char *path, const char *extra)
{
    const char *root = getenv("JUKE_SOURCE_ROOT");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "python3 '%s/tests/trace_check.py' '%s' %s", root ? root : "..", path, extra);
    return system(cmd);
}

static bool file_has(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

/* axpy! of n random elements on dev (stream s, async or not), then the check
 * of y against the reference after synchronising. */
typedef struct Job {
    juke_device *dev;
    juke_module *m;
    juke_array *x, *y;
    float *hx, *hy, a;
    int n;
} Job;

static void job_init(Job *j, juke_device *dev, juke_module *m, int n)
{
    j->dev = dev;
    j->m = m;
    j->n = n;
    j->hx = malloc(sizeof(float) * (size_t)n);
    j->hy = malloc(sizeof(float) * (size_t)n);
    for (int i = 0; i < n; i++) {
        j->hx[i] = rand_f();
        j->hy[i] = rand_f();
    }
    j->a = rand_f();
    int64_t dims[1] = { n };
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, dims, &j->x), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, dims, &j->y), JUKE_OK);
    assert_int_equal(juke_array_upload(j->x, j->hx, sizeof(float) * (size_t)n), JUKE_OK);
    assert_int_equal(juke_array_upload(j->y, j->hy, sizeof(float) * (size_t)n), JUKE_OK);
}

static juke_status job_launch(Job *j, juke_stream *s, bool async)
{
    juke_arg args[3] = { juke_arg_array(j->y), juke_arg_array(j->x), juke_arg_f32(j->a) };
    juke_launch_config cfg = { .groupsize = { 64, 1, 1 }, .gridsize = { (uint32_t)(j->n + 63) / 64, 1, 1 } };
    cfg.stream = s;
    cfg.async = async;
    return juke_launch(j->dev, j->m, "axpy!", args, 3, &cfg);
}

/* y after `times` launches: y + times * a * x, in the kernel's own order of operations. */
static void job_check(Job *j, int times)
{
    float *got = malloc(sizeof(float) * (size_t)j->n);
    assert_int_equal(juke_array_download(j->y, got, sizeof(float) * (size_t)j->n), JUKE_OK);
    for (int i = 0; i < j->n; i++) {
        float want = j->hy[i];
        for (int t = 0; t < times; t++)
            want = want + j->a * j->hx[i];
        assert_true(got[i] == want);
    }
    free(got);
    free(j->hx);
    free(j->hy);
}

static void trace_compiles_launches_streams_copies(void **state)
{
    (void)state;
    char path[320], path2[320], cache[320];
    snprintf(path, sizeof path, "%s/t.json", tmpdir);
    snprintf(path2, sizeof path2, "%s/t2.json", tmpdir);
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    juke_context *ctx = juke_context_create();
    juke_options o;
    juke_options_default(&o);
    o.trace_path = path;
    o.cache_dir = cache;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_OK);
    /* written at once: a valid, empty timeline exists before anything ran */
    assert_int_equal(check_trace(path, ""), 0);
    juke_device *dev;
    juke_module *m;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    assert_int_equal(juke_module_load_string(ctx, "axpy.jl", src, &m), JUKE_OK);
    Job j;
    job_init(&j, dev, m, 1000 + (int)(next_rand() % 3000));
    /* a miss in memory and on disk, then the launch */
    assert_int_equal(job_launch(&j, NULL, false), JUKE_OK);
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    /* a hit in memory: the second handle (the launch took the same-shape variant, which a handle never
     * does, so the first handle compiles the kernel a handle gets) */
    juke_kernel *k;
    juke_arg args[3] = { juke_arg_array(j.y), juke_arg_array(j.x), juke_arg_f32(j.a) };
    assert_int_equal(juke_kernel_for(dev, m, "axpy!", args, 3, &k), JUKE_OK);
    assert_int_equal(juke_kernel_for(dev, m, "axpy!", args, 3, &k), JUKE_OK);
    /* two streams, asynchronous, each synchronised */
    juke_stream *s1, *s2;
    assert_int_equal(juke_stream_create(dev, &s1), JUKE_OK);
    assert_int_equal(juke_stream_create(dev, &s2), JUKE_OK);
    assert_int_equal(job_launch(&j, s1, true), JUKE_OK);
    assert_int_equal(juke_stream_synchronize(s1), JUKE_OK);
    assert_int_equal(job_launch(&j, s2, true), JUKE_OK);
    assert_int_equal(juke_stream_synchronize(s2), JUKE_OK);
    assert_int_equal(job_launch(&j, s1, true), JUKE_OK);
    assert_int_equal(job_launch(&j, s2, true), JUKE_OK);
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    job_check(&j, 5);
    juke_context_destroy(ctx);

    assert_int_equal(check_trace(path, "--contained --expect parse --expect infer --expect 'LLVM IR' --expect optimise "
                                       "--expect 'code object' --expect link --expect 'cache miss (memory)' "
                                       "--expect 'cache miss (disk)' --expect 'cache hit (memory)' "
                                       "--expect 'module load' --expect 'axpy!' --expect axpy_21 --expect upload "
                                       "--expect download --expect synchronize --expect 'synchronize stream'"),
                     0);
    /* one track per stream on the device's process */
    assert_true(file_has(path, "\"default stream\""));
    assert_true(file_has(path, "\"stream 1\""));
    assert_true(file_has(path, "\"stream 2\""));
    assert_true(file_has(path, "\"process_name\",\"ph\":\"M\",\"ts\":0,\"pid\":2,\"tid\":0,\"args\":{\"name\":\"cpu"));

    /* a second context on the same cache directory, traced through $JUKE_TRACE: a hit on disk */
    setenv("JUKE_TRACE", path2, 1);
    ctx = juke_context_create();
    unsetenv("JUKE_TRACE");
    o.trace_path = NULL;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_OK);
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    assert_int_equal(juke_module_load_string(ctx, "axpy.jl", src, &m), JUKE_OK);
    job_init(&j, dev, m, 500 + (int)(next_rand() % 500));
    assert_int_equal(job_launch(&j, NULL, false), JUKE_OK);
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    job_check(&j, 1);
    juke_context_destroy(ctx);
    assert_int_equal(check_trace(path2, "--contained --expect 'cache hit (disk)' --expect 'module load'"), 0);
    assert_false(file_has(path2, "\"optimise\""));
}

/* Without a trace path nothing is written and no file appears. */
static void trace_off_writes_nothing(void **state)
{
    (void)state;
    char path[320];
    snprintf(path, sizeof path, "%s/off.json", tmpdir);
    juke_context *ctx = juke_context_create();
    juke_device *dev;
    juke_module *m;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    assert_int_equal(juke_module_load_string(ctx, "axpy.jl", src, &m), JUKE_OK);
    Job j;
    job_init(&j, dev, m, 100 + (int)(next_rand() % 100));
    assert_int_equal(job_launch(&j, NULL, false), JUKE_OK);
    job_check(&j, 1);
    juke_context_destroy(ctx);
    struct stat st;
    assert_true(stat(path, &st) != 0);
}

/* A bad path fails at juke_set_options, naming the path; tracing stays off. */
static void trace_bad_path(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_options o;
    juke_options_default(&o);
    char bad[340];
    snprintf(bad, sizeof bad, "%s/no/such/dir/t.json", tmpdir);
    o.trace_path = bad;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_ERR_IO);
    assert_non_null(strstr(juke_errmsg(ctx), bad));
    assert_non_null(strstr(juke_errmsg(ctx), "No such file or directory"));
    juke_context_destroy(ctx);
}

enum { NTHREADS = 4, PER_THREAD = 5 };

typedef struct Worker {
    juke_device *dev;
    juke_module *m;
    Job job;
} Worker;

static void *worker_main(void *p)
{
    Worker *w = p;
    for (int i = 0; i < PER_THREAD; i++)
        if (job_launch(&w->job, NULL, false) != JUKE_OK)
            return (void *)1;
    return NULL;
}

/* Launches from several threads: every launch and kernel is in the trace, and it stays valid JSON. */
static void trace_threads(void **state)
{
    (void)state;
    char path[320];
    snprintf(path, sizeof path, "%s/threads.json", tmpdir);
    juke_context *ctx = juke_context_create();
    juke_options o;
    juke_options_default(&o);
    o.trace_path = path;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_OK);
    juke_device *dev;
    juke_module *m;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    assert_int_equal(juke_module_load_string(ctx, "axpy.jl", src, &m), JUKE_OK);
    Worker w[NTHREADS];
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        job_init(&w[i].job, dev, m, 200 + (int)(next_rand() % 200));
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
    for (int i = 0; i < NTHREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        assert_null(r);
    }
    for (int i = 0; i < NTHREADS; i++)
        job_check(&w[i].job, PER_THREAD);
    juke_context_destroy(ctx);
    assert_int_equal(check_trace(path, "--expect 'axpy!' --expect axpy_21"), 0);
    /* count the launches and kernels */
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char line[4096];
    int launches = 0, kernels = 0;
    while (fgets(line, sizeof line, f)) {
        launches += strstr(line, "\"cat\":\"launch\"") != NULL;
        kernels += strstr(line, "\"cat\":\"kernel\"") != NULL;
    }
    fclose(f);
    assert_int_equal(launches, NTHREADS * PER_THREAD);
    assert_int_equal(kernels, NTHREADS * PER_THREAD);
}

int main(void)
{
    if (system("python3 -c 'import json' >/dev/null 2>&1") != 0) {
        fprintf(stderr, "test_trace: python3 is missing (setup.sh installs it)\n");
        return 1;
    }
    rng = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
    if (!rng)
        rng = 88172645463325252ull;
    fprintf(stderr, "test_trace: seed %llu\n", (unsigned long long)rng);
    snprintf(tmpdir, sizeof tmpdir, "%s/juke_trace_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trace_compiles_launches_streams_copies),
        cmocka_unit_test(trace_off_writes_nothing),
        cmocka_unit_test(trace_bad_path),
        cmocka_unit_test(trace_threads),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        r = r ? r : 1;
    return r;
}
