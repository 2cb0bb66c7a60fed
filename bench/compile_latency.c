/* compile_latency.c: what a JIT user waits for, on this machine's CPU.
 *
 *   compile_latency ACCEPTANCE_DIR [RUNS]
 *
 * 1. cold compile: a new context, source text → code object ready, for
 *    vadd, diffusion2d, block_sum and mathfuns on gfx90a, sm_90 and cpu,
 *    (a) first in a fresh process (a forked child: LLVM's one-time set-up
 *    included) and (b) in a new context of a warm process; each stage timed
 *    (context, parse = juke_module_load_string, then the resources dump's
 *    front end / LLVM IR / optimise / code object);
 * 2. cached: juke_compile again with the same types, and juke_kernel_for with
 *    the same argument types (the launch path's lookup), ns per call;
 * 3. the API's launch cost above the runtime's: juke_launch vs rt_launch of
 *    the same empty kernel on the CPU device;
 * 4. what the AMDGPU and CPU code objects pay for ld.lld: cold compiles with
 *    JUKE_LLD_SPAWN=1 (ld.lld-19 spawned) against lld in process; spawning
 *    ld.lld-19 on the kernel's relocatable object, /bin/true, and this
 *    program (the start-up of a process linked with libLLVM);
 * 5. the same kernels through hipcc --genco -O3 (HIP C++, bench/hip/
 *    kernels.hip) and nvcc -O3 -ptx, timed in the same run.
 * Medians over RUNS (default 9). Lines starting with RESULT feed RESULTS.md.
 * --loop and --first measure one kernel (a warm process's cold compiles, a fresh process's first). */
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "benchutil.h"
#include "juke.h"
#include "runtime.h"

extern char **environ;

typedef struct Case {
    const char *name, *file, *function;
    int nargs;
    const char *types[4];
    int hip_kernel; /* -DKERNEL=N of bench/hip/kernels.hip */
} Case;

static const Case cases[] = {
    { "vadd", "vadd.jl", "vadd!", 3, { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" }, 1 },
    { "diffusion2d", "diffusion2d.jl", "diffusion2d!", 3, { "Matrix{Float64}", "Matrix{Float64}", "Float64" }, 3 },
    { "block_sum", "block_sum.jl", "block_sum!", 2, { "Vector{Float32}", "Vector{Float32}" }, 4 },
    { "mathfuns", "mathfuns.jl", "mathfuns!", 2, { "Vector{Float32}", "Vector{Float32}" }, 5 },
};
#define NCASES 4
static const char *targets[] = { "gfx90a", "sm_90", "cpu" };
#define NTARGETS 3

/* wall-clock stages (the resources dump's for front end .. code object),
 * the wall total, and the CPU time (user + system, this process and the
 * children it waited for, i.e. a spawned ld.lld): on a shared machine the
 * wall times grow with the load, the CPU time much less. */
enum { S_CTX, S_PARSE, S_FRONT, S_IR, S_OPT, S_CODE, S_TOTAL, S_CPU, NSTAGE };
static const char *stage_names[NSTAGE] = { "context",  "parse",       "front_end", "llvm_ir",
                                           "optimise", "code_object", "total",     "cpu" };

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* CPU ms of this process plus its waited-for children. */
static double cpu_ms(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    double us =
        (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) * 1e6 +
        (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec + kids.ru_stime.tv_usec);
    return us / 1e3;
}

/* One cold compile in a new context; st[] gets the stage times (ms). */
static bool cold_compile(const char *src, const Case *c, const char *target, double st[NSTAGE])
{
    double c0 = cpu_ms();
    double t0 = now_ms();
    juke_context *ctx = juke_context_create();
    double t1 = now_ms();
    juke_module *m = NULL;
    if (juke_module_load_string(ctx, c->file, src, &m)) {
        fprintf(stderr, "%s: %s\n", c->file, juke_errmsg(ctx));
        return false;
    }
    double t2 = now_ms();
    juke_options o;
    juke_options_default(&o);
    o.target = target;
    juke_kernel *k = NULL;
    if (juke_compile(m, c->function, c->types, c->nargs, &o, &k)) {
        fprintf(stderr, "%s %s: %s\n", c->name, target, juke_errmsg(ctx));
        return false;
    }
    size_t size = 0;
    const void *co = juke_kernel_code_object(k, &size);
    double t3 = now_ms();
    st[S_CPU] = cpu_ms() - c0;
    if (!co || !size)
        return false;
    st[S_CTX] = t1 - t0;
    st[S_PARSE] = t2 - t1;
    st[S_TOTAL] = t3 - t0;
    const char *r = juke_kernel_dump(k, JUKE_DUMP_RESOURCES);
    const char *line = r ? strstr(r, "compile time:") : NULL;
    if (!line || sscanf(line, "compile time: front end %lf ms, LLVM IR %lf ms, optimise %lf ms, code object %lf ms",
                        &st[S_FRONT], &st[S_IR], &st[S_OPT], &st[S_CODE]) != 4) {
        fprintf(stderr, "no compile-time line in the resources dump\n");
        return false;
    }
    juke_context_destroy(ctx);
    return true;
}

/* The first compile of a fresh process: fork (this process has not touched
 * LLVM yet), compile once, send the stage times back through a pipe. */
static bool first_in_process(const char *src, const Case *c, const char *target, double st[NSTAGE])
{
    int fd[2];
    if (pipe(fd) != 0)
        return false;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        double s[NSTAGE];
        bool ok = cold_compile(src, c, target, s);
        if (ok && write(fd[1], s, sizeof s) != (ssize_t)sizeof s)
            ok = false;
        _exit(ok ? 0 : 1);
    }
    close(fd[1]);
    ssize_t n = read(fd[0], st, sizeof(double) * NSTAGE);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return n == (ssize_t)(sizeof(double) * NSTAGE) && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Wall time of a command (posix_spawnp + wait4), ms; *cpu gets its CPU
 * time (user + system, its waited-for descendants included); -1 on failure. */
static double time_cmd(char *const argv[], bool quiet, double *cpu)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (quiet) {
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1, 0);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
    }
    double t0 = now_ms();
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    wait4(pid, &status, 0, &ru);
    double t = now_ms() - t0;
    if (cpu)
        *cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

/* Median wall time over runs; *cpu_med the median CPU time, *wall_min the minimum wall time. */
static double median_cmd(char *const argv[], int runs, double *cpu_med, double *wall_min)
{
    double *t = malloc(sizeof(double) * (size_t)runs), *c = malloc(sizeof(double) * (size_t)runs);
    for (int i = 0; i < runs; i++) {
        t[i] = time_cmd(argv, true, &c[i]);
        if (t[i] < 0) {
            free(t);
            free(c);
            return -1;
        }
    }
    double m = bench_median(t, runs);
    if (wall_min)
        *wall_min = t[0];
    if (cpu_med)
        *cpu_med = bench_median(c, runs);
    free(t);
    free(c);
    return m;
}

/* LLVM's gfx90a code generation alone (what juke's "code object" stage does
 * before linking): the optimised module parsed from the dump, then emitted to
 * an object in memory, ms (median of runs); -1 on failure. */
static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double emit_only_ms(const char *module_text, int runs, double *cpu_med)
{
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMTargetRef target;
    char *err = NULL;
    if (LLVMGetTargetFromTriple("amdgcn-amd-amdhsa", &target, &err))
        return -1;
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, "amdgcn-amd-amdhsa", "gfx90a", "",
                                                      LLVMCodeGenLevelAggressive, LLVMRelocPIC, LLVMCodeModelDefault);
    double *t = malloc(sizeof(double) * (size_t)runs), *tc = malloc(sizeof(double) * (size_t)runs);
    for (int r = 0; r < runs; r++) {
        LLVMContextRef c = LLVMContextCreate();
        LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(module_text, strlen(module_text), "module");
        LLVMModuleRef m = NULL;
        if (LLVMParseIRInContext(c, mb, &m, &err)) {
            fprintf(stderr, "parse: %s\n", err);
            return -1;
        }
        LLVMMemoryBufferRef out = NULL;
        double t0 = now_ms(), c0 = thread_cpu_ms();
        if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, &out)) {
            fprintf(stderr, "emit: %s\n", err);
            return -1;
        }
        t[r] = now_ms() - t0;
        tc[r] = thread_cpu_ms() - c0;
        LLVMDisposeMemoryBuffer(out);
        LLVMDisposeModule(m);
        LLVMContextDispose(c);
    }
    LLVMDisposeTargetMachine(tm);
    double med = bench_median(t, runs);
    if (cpu_med)
        *cpu_med = bench_median(tc, runs);
    free(t);
    free(tc);
    return med;
}

static void print_loadavg(void)
{
    char buf[128] = "?";
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (!fgets(buf, sizeof buf, f))
            snprintf(buf, sizeof buf, "?\n");
        fclose(f);
    }
    printf("loadavg (1, 5, 15 min; other work on this machine disturbs the timings): %s", buf);
}

/* The source of the case named name in the acceptance directory dir, its index in *ci; NULL when there is no
 * such case or its file cannot be read. */
static char *read_case(const char *dir, const char *name, int *ci)
{
    *ci = -1;
    for (int i = 0; i < NCASES; i++)
        if (strcmp(cases[i].name, name) == 0)
            *ci = i;
    if (*ci < 0)
        return NULL;
    char p[2048];
    snprintf(p, sizeof p, "%s/%s", dir, cases[*ci].file);
    return bench_read_file(p, NULL);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--noop") == 0)
        return 0; /* measures a process start with libLLVM loaded (section 4) */
    if (argc >= 3 && strcmp(argv[1], "--split") == 0) {
        /* compile_latency --split ACCEPTANCE_DIR [RUNS]: vadd for gfx90a, the "code object" stage
         * (LLVM code generation + lld in process) against LLVM code generation alone, interleaved */
        int runs = argc >= 4 ? atoi(argv[3]) : 21;
        char p[2048];
        snprintf(p, sizeof p, "%s/vadd.jl", argv[2]);
        char *src = bench_read_file(p, NULL);
        if (!src || runs < 1)
            return 1;
        unsetenv("JUKE_CACHE_DIR");
        double *co = malloc(sizeof(double) * (size_t)runs), *cpu = malloc(sizeof(double) * (size_t)runs),
               *em = malloc(sizeof(double) * (size_t)runs), *emc = malloc(sizeof(double) * (size_t)runs);
        double st[NSTAGE];
        for (int r = 0; r < runs; r++) {
            double c0 = thread_cpu_ms();
            if (!cold_compile(src, &cases[0], "gfx90a", st))
                return 1;
            co[r] = st[S_CODE];
            cpu[r] = thread_cpu_ms() - c0;
            juke_context *ctx = juke_context_create();
            juke_module *m = NULL;
            juke_kernel *k = NULL;
            juke_options o;
            juke_options_default(&o);
            o.target = "gfx90a";
            juke_module_load_string(ctx, "vadd.jl", src, &m);
            juke_compile(m, cases[0].function, cases[0].types, cases[0].nargs, &o, &k);
            em[r] = emit_only_ms(juke_kernel_dump(k, JUKE_DUMP_LLVM_MODULE), 1, &emc[r]);
            juke_context_destroy(ctx);
        }
        double mco = bench_median(co, runs), mcpu = bench_median(cpu, runs), mem = bench_median(em, runs),
               memc = bench_median(emc, runs);
        printf("vadd gfx90a: code object stage %.3f ms (whole cold compile: thread CPU %.3f ms); LLVM code generation "
               "alone %.3f ms (CPU %.3f) => lld in process + the rest of the stage about %.3f ms\n",
               mco, mcpu, mem, memc, mco - mem);
        printf("RESULT split vadd gfx90a code_object_ms=%.3f emit_only_ms=%.3f emit_only_cpu=%.3f rest_ms=%.3f\n", mco,
               mem, memc, mco - mem);
        return 0;
    }
    if (argc >= 5 && strcmp(argv[1], "--first") == 0) {
        /* compile_latency --first ACCEPTANCE_DIR KERNEL TARGET [RUNS]: one kernel's first compile in a fresh
         * process (section 1a's forked child), medians of each stage; for an A/B of two builds in turn */
        int runs = argc >= 6 ? atoi(argv[5]) : 9, ci;
        char *src = read_case(argv[2], argv[3], &ci);
        if (!src || runs < 1)
            return 1;
        unsetenv("JUKE_CACHE_DIR");
        double *samp = malloc(sizeof(double) * (size_t)runs * NSTAGE), st[NSTAGE];
        for (int r = 0; r < runs; r++) {
            if (!first_in_process(src, &cases[ci], argv[4], st))
                return 1;
            for (int k = 0; k < NSTAGE; k++)
                samp[k * runs + r] = st[k];
        }
        printf("RESULT first %s %s", argv[4], argv[3]);
        for (int k = 0; k < NSTAGE; k++)
            printf(" %s=%.3f", stage_names[k], bench_median(samp + k * runs, runs));
        printf("\n");
        free(samp);
        free(src);
        return 0;
    }
    if (argc >= 5 && strcmp(argv[1], "--loop") == 0) {
        /* compile_latency --loop ACCEPTANCE_DIR KERNEL TARGET [RUNS]: cold compiles of one kernel in a warm process,
         * medians of each stage and of the thread CPU time (for perf record, and for one row quickly) */
        int runs = argc >= 6 ? atoi(argv[5]) : 41, ci;
        char *src = read_case(argv[2], argv[3], &ci);
        if (!src || runs < 1)
            return 1;
        unsetenv("JUKE_CACHE_DIR");
        double *samp = malloc(sizeof(double) * (size_t)runs * (NSTAGE + 1)), st[NSTAGE];
        cold_compile(src, &cases[ci], argv[4], st); /* warm-up */
        for (int r = 0; r < runs; r++) {
            double c0 = thread_cpu_ms();
            if (!cold_compile(src, &cases[ci], argv[4], st))
                return 1;
            samp[NSTAGE * runs + r] = thread_cpu_ms() - c0;
            for (int k = 0; k < NSTAGE; k++)
                samp[k * runs + r] = st[k];
        }
        printf("RESULT loop %s %s", argv[4], argv[3]);
        for (int s = 0; s < NSTAGE; s++)
            printf(" %s=%.3f", stage_names[s], bench_median(samp + s * runs, runs));
        printf(" thread_cpu=%.3f\n", bench_median(samp + NSTAGE * runs, runs));
        free(samp);
        free(src);
        return 0;
    }
    /* --cached: only the cached lookups (section 2), seconds instead of minutes */
    bool only_cached = argc >= 2 && strcmp(argv[1], "--cached") == 0;
    if (only_cached) {
        argc--;
        argv++;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: compile_latency [--cached] ACCEPTANCE_DIR [RUNS]\n");
        return 2;
    }
    const char *dir = argv[1];
    unsetenv("JUKE_CACHE_DIR"); /* cold means compiled, not read from the on-disk cache */
    unsetenv("JUKE_DUMP_DIR");
    unsetenv("JUKE_LLD_SPAWN");
    int runs = argc >= 3 ? atoi(argv[2]) : 9;
    if (runs < 1)
        runs = 9;
    char *src[NCASES];
    for (int i = 0; i < NCASES; i++) {
        char p[2048];
        snprintf(p, sizeof p, "%s/%s", dir, cases[i].file);
        if (!(src[i] = bench_read_file(p, NULL))) {
            fprintf(stderr, "cannot read %s\n", p);
            return 1;
        }
    }
    printf("compile_latency: %ld CPUs online, %d runs each, medians\n", sysconf(_SC_NPROCESSORS_ONLN), runs);
    print_loadavg();
    double *samp = malloc(sizeof(double) * (size_t)runs * NSTAGE);

    if (only_cached)
        goto cached;
    /* 1a. first compile in a fresh process (before this process touches LLVM) */
    printf("\n== cold, first compile in a fresh process (ms, medians): context, parse, front end, LLVM IR, optimise, "
           "code object,"
           " total, CPU; then the minimum total\n");
    for (int t = 0; t < NTARGETS; t++)
        for (int i = 0; i < NCASES; i++) {
            double med[NSTAGE];
            for (int r = 0; r < runs; r++) {
                double st[NSTAGE];
                if (!first_in_process(src[i], &cases[i], targets[t], st)) {
                    fprintf(stderr, "first-in-process compile of %s for %s failed\n", cases[i].name, targets[t]);
                    return 1;
                }
                for (int k = 0; k < NSTAGE; k++)
                    samp[k * runs + r] = st[k];
            }
            for (int s = 0; s < NSTAGE; s++)
                med[s] = bench_median(samp + s * runs, runs);
            double mintotal = samp[S_TOTAL * runs]; /* sorted by bench_median() */
            printf("%-7s %-12s", targets[t], cases[i].name);
            for (int s = 0; s < NSTAGE; s++)
                printf(" %8.2f", med[s]);
            printf("  min %8.2f\n", mintotal);
            printf("RESULT cold_first_process %s %s", targets[t], cases[i].name);
            for (int s = 0; s < NSTAGE; s++)
                printf(" %s=%.3f", stage_names[s], med[s]);
            printf(" min_total=%.3f\n", mintotal);
            fflush(stdout);
        }

    /* 1b. a new context in a warm process; for the targets that link with
     * ld.lld (gfx90a, cpu), once with lld in process (when this build has it)
     * and once spawning ld.lld-19 (JUKE_LLD_SPAWN=1) */
    printf("\n== cold, new context in a warm process (ms, medians): context, parse, front end, LLVM IR, optimise, code "
           "object,"
           " total, CPU; then the minimum total\n");
    for (int spawn = 0; spawn <= 1; spawn++) {
        if (spawn)
            setenv("JUKE_LLD_SPAWN", "1", 1);
        else
            unsetenv("JUKE_LLD_SPAWN");
        for (int t = 0; t < NTARGETS; t++) {
            if (spawn && strcmp(targets[t], "sm_90") == 0)
                continue; /* PTX needs no linker */
            for (int i = 0; i < NCASES; i++) {
                double st[NSTAGE], med[NSTAGE];
                cold_compile(src[i], &cases[i], targets[t], st); /* warm-up */
                for (int r = 0; r < runs; r++) {
                    if (!cold_compile(src[i], &cases[i], targets[t], st))
                        return 1;
                    for (int k = 0; k < NSTAGE; k++)
                        samp[k * runs + r] = st[k];
                }
                for (int s = 0; s < NSTAGE; s++)
                    med[s] = bench_median(samp + s * runs, runs);
                double mintotal = samp[S_TOTAL * runs];
                const char *mode = strcmp(targets[t], "sm_90") == 0 ? "-" : spawn ? "spawn" : "default";
                printf("%-7s %-12s %-8s", targets[t], cases[i].name, mode);
                for (int s = 0; s < NSTAGE; s++)
                    printf(" %8.2f", med[s]);
                printf("  min %8.2f\n", mintotal);
                printf("RESULT cold_new_context %s %s lld=%s", targets[t], cases[i].name, mode);
                for (int s = 0; s < NSTAGE; s++)
                    printf(" %s=%.3f", stage_names[s], med[s]);
                printf(" min_total=%.3f\n", mintotal);
                fflush(stdout);
            }
        }
    }
    unsetenv("JUKE_LLD_SPAWN");

cached:
    /* 2. cached lookups */
    printf("\n== cached: a second juke_compile with the same types, and juke_kernel_for (ns per call)\n");
    juke_context *ctx = juke_context_create();
    juke_device *cpu = NULL;
    if (juke_device_open(ctx, "cpu", &cpu)) {
        fprintf(stderr, "cpu device: %s\n", juke_errmsg(ctx));
        return 1;
    }
    for (int i = 0; i < NCASES; i++) {
        juke_module *m = NULL;
        juke_module_load_string(ctx, cases[i].file, src[i], &m);
        /* some unrelated kernels in the cache too, as a real program has */
        juke_options o;
        juke_options_default(&o);
        juke_kernel *k = NULL;
        o.target = "gfx90a";
        if (juke_compile(m, cases[i].function, cases[i].types, cases[i].nargs, &o, &k))
            return 1;
        /* juke_kernel_for: arrays of the right types on the cpu device */
        juke_arg args[4];
        juke_array *arrs[4] = { 0 };
        for (int a = 0; a < cases[i].nargs; a++) {
            const char *ty = cases[i].types[a];
            if (strncmp(ty, "Vector", 6) == 0 || strncmp(ty, "Matrix", 6) == 0) {
                int nd = ty[0] == 'V' ? 1 : 2;
                int64_t dims[2] = { 8, 8 };
                juke_array_create(cpu, strstr(ty, "Float64") ? JUKE_FLOAT64 : JUKE_FLOAT32, nd, dims, &arrs[a]);
                args[a] = juke_arg_array(arrs[a]);
            } else {
                args[a] = juke_arg_f64(0.5);
            }
        }
        juke_kernel *kc = NULL;
        if (juke_kernel_for(cpu, m, cases[i].function, args, cases[i].nargs, &kc)) {
            fprintf(stderr, "kernel_for: %s\n", juke_errmsg(ctx));
            return 1;
        }
        const int N = 20000;
        double tc[31], tk[31], tcc[31]; /* tcc: thread CPU time of the juke_compile loop */
        for (int r = 0; r < 31; r++) {
            double c0 = thread_cpu_ms(), t0 = now_ms();
            for (int j = 0; j < N; j++)
                juke_compile(m, cases[i].function, cases[i].types, cases[i].nargs, &o, &k);
            double t1 = now_ms();
            tcc[r] = (thread_cpu_ms() - c0) / N * 1e6;
            for (int j = 0; j < N; j++)
                juke_kernel_for(cpu, m, cases[i].function, args, cases[i].nargs, &kc);
            double t2 = now_ms();
            tc[r] = (t1 - t0) / N * 1e6;
            tk[r] = (t2 - t1) / N * 1e6;
        }
        double mc = bench_median(tc, 31), mk = bench_median(tk, 31), mcc = bench_median(tcc, 31);
        printf("%-12s juke_compile (cached) %7.1f ns (thread CPU %7.1f ns)   juke_kernel_for (cached) %7.1f ns\n",
               cases[i].name, mc, mcc, mk);
        printf("RESULT cached %s juke_compile_ns=%.1f juke_compile_cpu_ns=%.1f juke_kernel_for_ns=%.1f\n",
               cases[i].name, mc, mcc, mk);
        for (int a = 0; a < cases[i].nargs; a++)
            if (arrs[a])
                juke_array_free(arrs[a]);
    }
    if (only_cached)
        return 0;

    /* 3. juke_launch vs rt_launch of the same empty kernel on the CPU device */
    {
        printf("\n== launch path on the CPU device: juke_launch vs rt_launch, empty kernel, 1 work-item (ns per "
               "launch)\n");
        juke_module *m = NULL;
        if (juke_module_load_string(ctx, "empty.jl", "function empty!(x)\n    return\nend\n", &m))
            return 1;
        int64_t dims[1] = { 16 };
        juke_array *x = NULL;
        juke_array_create(cpu, JUKE_FLOAT32, 1, dims, &x);
        juke_arg a = juke_arg_array(x);
        juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false };
        juke_kernel *k = NULL;
        juke_kernel_for(cpu, m, "empty!", &a, 1, &k);
        juke_launch(cpu, m, "empty!", &a, 1, &cfg);
        size_t cosize = 0;
        const void *co = juke_kernel_code_object(k, &cosize);
        RtDevice *rd = NULL;
        RtModule *rm = NULL;
        RtFunction *rf = NULL;
        char *err = NULL;
        if (rt_device_open("cpu", 0, &rd, NULL, &err) || rt_module_load(rd, co, cosize, &rm, &err) ||
            rt_function_get(rm, juke_kernel_symbol(k), &rf, &err)) {
            fprintf(stderr, "rt: %s\n", err);
            return 1;
        }
        float host[16] = { 0 };
        void *dptr = NULL;
        rt_alloc(rd, sizeof host, &dptr, &err);
        uint64_t w[3] = { (uint64_t)(uintptr_t)dptr, 16, 16 };
        RtArg ra = { w, 24, 8 };
        uint32_t grid[3] = { 1, 1, 1 }, group[3] = { 1, 1, 1 };
        const int N = 5000;
        double tj[31], tr[31];
        for (int r = 0; r < 31; r++) {
            double t0 = now_ms();
            for (int j = 0; j < N; j++)
                juke_launch(cpu, m, "empty!", &a, 1, &cfg);
            double t1 = now_ms();
            for (int j = 0; j < N; j++)
                rt_launch(rf, &ra, 1, grid, group, 0, true, NULL, &err);
            double t2 = now_ms();
            tj[r] = (t1 - t0) / N * 1e6;
            tr[r] = (t2 - t1) / N * 1e6;
        }
        double mj = bench_median(tj, 31), mr = bench_median(tr, 31);
        printf("juke_launch %8.1f ns   rt_launch %8.1f ns   difference (the API's share) %+8.1f ns\n", mj, mr, mj - mr);
        printf("RESULT launch_cpu juke_launch_ns=%.1f rt_launch_ns=%.1f api_share_ns=%.1f\n", mj, mr, mj - mr);
        rt_free(rd, dptr);
        rt_module_unload(rm);
        rt_device_close(rd);
    }

    /* 4. ld.lld's share: spawn it on the kernel's relocatable object (made by llc-19 from the optimised module) */
    printf("\n== process spawns (ms): /bin/true, ld.lld-19 -shared on the kernel's object (gfx90a)\n");
    {
        char *tru[] = { "/bin/true", NULL };
        double mt = median_cmd(tru, runs * 3, NULL, NULL);
        printf("/bin/true spawn+wait: %.3f ms\n", mt);
        printf("RESULT spawn_true_ms=%.3f\n", mt);
        /* a process that links libLLVM.so.19 (this one): its start-up alone,
         * which the first-compile-in-a-fresh-process numbers above leave out */
        char self[4096];
        ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
        if (sl > 0) {
            self[sl] = '\0';
            char *noop[] = { self, "--noop", NULL };
            double sc = 0, smin = 0;
            double ms = median_cmd(noop, runs * 3, &sc, &smin);
            printf("this program's start-up (libLLVM.so.19 loaded, nothing run): %.3f ms (min %.3f, CPU %.3f)\n", ms,
                   smin, sc);
            printf("RESULT self_startup_ms=%.3f min=%.3f cpu=%.3f\n", ms, smin, sc);
        }
        /* ld.lld-19 is linked against libLLVM.so.19: its start-up alone */
        char *ver[] = { "ld.lld-19", "--version", NULL };
        double vc = 0, vmin = 0;
        double mv = median_cmd(ver, runs * 3, &vc, &vmin);
        printf("ld.lld-19 --version (start-up only): %.3f ms (min %.3f, CPU %.3f)\n", mv, vmin, vc);
        printf("RESULT lld_startup_ms=%.3f min=%.3f cpu=%.3f\n", mv, vmin, vc);
        for (int i = 0; i < NCASES; i++) {
            juke_module *m = NULL;
            juke_module_load_string(ctx, cases[i].file, src[i], &m);
            juke_options o;
            juke_options_default(&o);
            o.target = "gfx90a";
            juke_kernel *k = NULL;
            juke_compile(m, cases[i].function, cases[i].types, cases[i].nargs, &o, &k);
            char ll[256], obj[256];
            snprintf(ll, sizeof ll, "/tmp/juke-bench-%s.ll", cases[i].name);
            snprintf(obj, sizeof obj, "/tmp/juke-bench-%s.o", cases[i].name);
            FILE *f = fopen(ll, "w");
            fputs(juke_kernel_dump(k, JUKE_DUMP_LLVM_MODULE), f);
            fclose(f);
            char objarg[300];
            snprintf(objarg, sizeof objarg, "-o=%s", obj);
            char *llc[] = { "llc-19", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-filetype=obj", "-O3", ll, objarg,
                            NULL };
            if (time_cmd(llc, false, NULL) < 0) {
                printf("llc-19 failed for %s\n", cases[i].name);
                continue;
            }
            double emc = 0, em = emit_only_ms(juke_kernel_dump(k, JUKE_DUMP_LLVM_MODULE), runs, &emc);
            printf("%-12s LLVM gfx90a object emission alone (in process): %.3f ms (CPU %.3f)\n", cases[i].name, em,
                   emc);
            printf("RESULT emit_only %s ms=%.3f cpu=%.3f\n", cases[i].name, em, emc);
            char *lld[] = { "ld.lld-19", "-shared", "--no-undefined", "-o", "-", obj, NULL }; /* as juke runs it */
            double lc = 0, lmin = 0;
            double ml = median_cmd(lld, runs * 3, &lc, &lmin);
            printf("%-12s ld.lld-19 spawn+link: %.3f ms (min %.3f, CPU %.3f)\n", cases[i].name, ml, lmin, lc);
            printf("RESULT lld %s ms=%.3f min=%.3f cpu=%.3f\n", cases[i].name, ml, lmin, lc);
        }
    }

    /* 5. hipcc and nvcc on the HIP/CUDA C++ twins */
    printf("\n== hipcc --genco -O3 --offload-arch=gfx90a (HIP C++ twins, bench/hip/kernels.hip), and nvcc -O3 -ptx "
           "-arch=sm_90 (ms)\n");
    {
        char hipsrc[2048];
        snprintf(hipsrc, sizeof hipsrc, "%s",
                 getenv("JUKE_BENCH_HIP") ? getenv("JUKE_BENCH_HIP") : "bench/hip/kernels.hip");
        for (int i = 0; i < NCASES; i++) {
            char def[32];
            snprintf(def, sizeof def, "-DKERNEL=%d", cases[i].hip_kernel);
            char *hip[] = { "hipcc", "--genco", "-O3", "--offload-arch=gfx90a",
                            def,     hipsrc,    "-o",  "/tmp/juke-bench-hip.hsaco",
                            NULL };
            char *clang[] = { "clang++-15",
                              "-std=c++11",
                              "-isystem",
                              "/usr/lib/llvm-15/lib/clang/15.0.6/include/..",
                              "-isystem",
                              "/usr/hsa/include",
                              "--hip-version=5.2.21153",
                              "--rocm-path=/usr",
                              "--offload-arch=gfx90a",
                              "-mllvm",
                              "-amdgpu-early-inline-all=true",
                              "-mllvm",
                              "-amdgpu-function-calls=false",
                              "--hip-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                              "--cuda-device-only",
                              "-O3",
                              def,
                              "-x",
                              "hip",
                              hipsrc,
                              "-o",
                              "/tmp/juke-bench-hip.hsaco",
                              NULL };
            char *nvcc[] = { "/usr/local/cuda/bin/nvcc", "-O3", "-ptx", "-arch=sm_90", def, "-x", "cu", hipsrc, "-o",
                             "/tmp/juke-bench-nvcc.ptx", NULL };
            double hc, hmin, cc, cmin, nc, nmin;
            double mh = median_cmd(hip, runs, &hc, &hmin), mc = median_cmd(clang, runs, &cc, &cmin),
                   mn = median_cmd(nvcc, runs, &nc, &nmin);
            printf("%-12s hipcc %7.1f (min %7.1f, CPU %7.1f)  clang++-15 alone %7.1f (min %7.1f, CPU %7.1f)  "
                   "nvcc -ptx %7.1f (min %7.1f, CPU %7.1f)\n",
                   cases[i].name, mh, hmin, hc, mc, cmin, cc, mn, nmin, nc);
            printf("RESULT hipcc %s hipcc_ms=%.2f hipcc_min=%.2f hipcc_cpu=%.2f clang15_ms=%.2f clang15_min=%.2f "
                   "clang15_cpu=%.2f nvcc_ptx_ms=%.2f nvcc_min=%.2f nvcc_cpu=%.2f\n",
                   cases[i].name, mh, hmin, hc, mc, cmin, cc, mn, nmin, nc);
            fflush(stdout);
        }
    }
    print_loadavg();
    juke_context_destroy(ctx);
    free(samp);
    for (int i = 0; i < NCASES; i++)
        free(src[i]);
    return 0;
}
