/* dev_cpu.c: the CPU backend. A code object is an ELF shared object with the
 * table of runtime/abi.h; workgroups run on a pool of threads (the calling
 * thread plus nthreads-1 workers, created at open and joined at close), and
 * the work-items of a group run one after another, or as fibers
 * when the kernel synchronises the group with barriers. */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "backend.h"

#define CPU_MAX_GROUP 1024u
#define CPU_MAX_LOCAL (64u * 1024u)
/* Compiled kernels keep their frames small, but a work-item may call libm. */
#define CPU_FIBER_STACK (128u * 1024u)

enum { FIBER_RUNNABLE, FIBER_AT_BARRIER, FIBER_DONE };

/* On x86-64 a fiber switch is a few instructions (rt_cpu_fiber_switch below);
 * ucontext's swapcontext makes a sigprocmask system call per switch, which
 * costs ~150 ns, twice per work-item and barrier. ucontext remains for other
 * machines and under AddressSanitizer, which understands it. */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define CPU_FAST_FIBERS 1
typedef struct FiberCtx {
    void *sp;
} FiberCtx;
#else
#define CPU_FAST_FIBERS 0
typedef ucontext_t FiberCtx;
#endif

typedef struct CpuDev CpuDev;

/* One thread's scratch for running workgroups; reused across groups. */
typedef struct CpuWorker {
    CpuDev *cd;
    pthread_t thread;
    bool started;
    uint8_t *lds;
    size_t lds_cap;
    JukeCpuState *states;     /* one per work-item (fibers) or [0] (sequential) */
    FiberCtx *ctx;
    uint8_t *status;
    uint32_t cap;             /* items the arrays above hold */
    uint8_t *stacks;          /* mmap'd: per fiber a guard page then CPU_FIBER_STACK bytes */
    size_t stacks_len;
    uint32_t nstacks;
    FiberCtx sched;           /* the group scheduler, resumed when a fiber yields */
    jmp_buf seq_jmp;          /* sequential mode: exit_item returns to the item loop */
} CpuWorker;

struct CpuDev {
    int nthreads;
    CpuWorker *workers;       /* [0] is the launching thread's */
    size_t page;
    pthread_mutex_t mu;
    pthread_cond_t start_cv, done_cv;
    uint64_t generation;      /* bumped per launch; workers run each generation once */
    bool quit;
    int active;               /* pool workers still busy with this generation */
    /* the current launch */
    const JukeCpuKernelInfo *k;
    const void *kernarg;
    uint32_t grid[3], group[3];
    size_t lds_bytes;
    uint32_t dynamic_lds_bytes;
    uint64_t ngroups;
    _Atomic uint64_t next_group;
    char *job_err;
    JukeExceptionRecord *exc; /* kernels write it with atomics */
    /* the run-time limit: the watchdog sets `cancel`, which every loop
     * back-edge of the kernel reads (JukeCpuState.cancel) */
    uint32_t cancel;
    pthread_cond_t wd_cv;     /* CLOCK_MONOTONIC; wakes the watchdog when the launch ends */
    bool wd_done;
    struct timespec wd_deadline;
};

typedef struct CpuModule {
    void *handle;
    int fd;                   /* memfd kept open: dlopen matches "/proc/self/fd/N" names */
    const JukeCpuKernelInfo *table;
    uint32_t count;
} CpuModule;

/* ---- work-items ------------------------------------------------------------ */

static void cpu_seq_barrier(JukeCpuState *st) { (void)st; }

static void cpu_seq_exit(JukeCpuState *st)
{
    CpuWorker *w = st->runtime;
    longjmp(w->seq_jmp, 1);
}

#if CPU_FAST_FIBERS
/* rt_cpu_fiber_switch(save, to): push the callee-saved registers (System V
 * x86-64: rbx rbp r12-r15, plus MXCSR and the x87 control word), store rsp
 * into *save, load `to` as rsp, pop the other fiber's registers, return into
 * it. A new fiber's stack is made to look like one that switched away, with
 * rt_cpu_fiber_start as its return address and the JukeCpuState* in r12.
 * Frame, from the saved rsp up: mxcsr(4) fcw(4) r15 r14 r13 r12 rbx rbp ret. */
void rt_cpu_fiber_switch(void **save, void *to);
void rt_cpu_fiber_start(void);
__asm__(".text\n"
        ".globl rt_cpu_fiber_switch\n"
        ".hidden rt_cpu_fiber_switch\n"
        ".type rt_cpu_fiber_switch,@function\n"
        "rt_cpu_fiber_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size rt_cpu_fiber_switch, .-rt_cpu_fiber_switch\n"
        ".globl rt_cpu_fiber_start\n"
        ".hidden rt_cpu_fiber_start\n"
        ".type rt_cpu_fiber_start,@function\n"
        "rt_cpu_fiber_start:\n"
        "    movq %r12, %rdi\n"
        "    call rt_cpu_fiber_main\n"
        "    ud2\n"
        ".size rt_cpu_fiber_start, .-rt_cpu_fiber_start\n");

static void cpu_fiber_to_sched(CpuWorker *w, uint32_t i) { rt_cpu_fiber_switch(&w->ctx[i].sp, w->sched.sp); }
static void cpu_fiber_resume(CpuWorker *w, uint32_t i) { rt_cpu_fiber_switch(&w->sched.sp, w->ctx[i].sp); }
#else
static void cpu_fiber_to_sched(CpuWorker *w, uint32_t i) { swapcontext(&w->ctx[i], &w->sched); }
static void cpu_fiber_resume(CpuWorker *w, uint32_t i) { swapcontext(&w->sched, &w->ctx[i]); }
#endif

static void cpu_fiber_barrier(JukeCpuState *st)
{
    CpuWorker *w = st->runtime;
    uint32_t i = (uint32_t)(st - w->states);
    w->status[i] = FIBER_AT_BARRIER;
    cpu_fiber_to_sched(w, i);
}

/* A finished fiber is never resumed: its saved context is simply dropped. */
static void cpu_fiber_exit(JukeCpuState *st)
{
    CpuWorker *w = st->runtime;
    uint32_t i = (uint32_t)(st - w->states);
    w->status[i] = FIBER_DONE;
    cpu_fiber_to_sched(w, i);
}

void rt_cpu_fiber_main(JukeCpuState *st);
__attribute__((visibility("hidden"), used)) void rt_cpu_fiber_main(JukeCpuState *st)
{
    CpuWorker *w = st->runtime;
    w->cd->k->entry(w->cd->kernarg, st);
    cpu_fiber_exit(st);
}

#if !CPU_FAST_FIBERS
/* makecontext passes ints: the state pointer arrives in two halves. */
static void cpu_fiber_main_uc(unsigned lo, unsigned hi)
{
    rt_cpu_fiber_main((JukeCpuState *)(uintptr_t)(((uint64_t)hi << 32) | lo));
}
#endif

/* Prepare fiber i to start st's work-item on the stack [base, base+size). */
static int cpu_fiber_init(CpuWorker *w, uint32_t i, JukeCpuState *st, uint8_t *base, size_t size, char **err)
{
#if CPU_FAST_FIBERS
    uint64_t *sp = (uint64_t *)(((uintptr_t)(base + size) & ~(uintptr_t)15) - 80);
    sp[0] = 0x1f80 | ((uint64_t)0x037f << 32); /* default MXCSR, x87 control word */
    sp[1] = 0;                                 /* r15 */
    sp[2] = 0;                                 /* r14 */
    sp[3] = 0;                                 /* r13 */
    sp[4] = (uint64_t)(uintptr_t)st;           /* r12 */
    sp[5] = 0;                                 /* rbx */
    sp[6] = 0;                                 /* rbp */
    sp[7] = (uint64_t)(uintptr_t)rt_cpu_fiber_start;
    sp[8] = 0;                                 /* rt_cpu_fiber_start's frame: rsp is 16-aligned before its call */
    w->ctx[i].sp = sp;
    (void)err;
#else
    ucontext_t *c = &w->ctx[i];
    if (getcontext(c) != 0)
        return rt_fail(err, "cpu: getcontext failed: %s", strerror(errno));
    c->uc_stack.ss_sp = base;
    c->uc_stack.ss_size = size;
    c->uc_link = &w->sched;
    uint64_t p = (uint64_t)(uintptr_t)st;
    makecontext(c, (void (*)(void))cpu_fiber_main_uc, 2, (unsigned)(p & 0xffffffffu), (unsigned)(p >> 32));
#endif
    return 0;
}

/* Make room for n work-items' state (and fibers when `fibers`). */
static int cpu_worker_reserve(CpuWorker *w, uint32_t n, bool fibers, char **err)
{
    if (n > w->cap) {
        JukeCpuState *s = realloc(w->states, n * sizeof *s);
        if (s)
            w->states = s;
        FiberCtx *c = realloc(w->ctx, n * sizeof *c);
        if (c)
            w->ctx = c;
        uint8_t *st = realloc(w->status, n);
        if (st)
            w->status = st;
        if (!s || !c || !st)
            return rt_fail(err, "cpu: out of memory for %u work-items", n);
        w->cap = n;
    }
    if (fibers && n > w->nstacks) {
        size_t slot = CPU_FIBER_STACK + w->cd->page;
        size_t len = slot * n;
        uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                          -1, 0);
        if (p == MAP_FAILED)
            return rt_fail(err, "cpu: cannot map %zu bytes of work-item stacks: %s", len, strerror(errno));
        for (uint32_t i = 0; i < n; i++)
            mprotect(p + i * slot, w->cd->page, PROT_NONE); /* a guard page under each stack */
        if (w->stacks)
            munmap(w->stacks, w->stacks_len);
        w->stacks = p;
        w->stacks_len = len;
        w->nstacks = n;
    }
    return 0;
}

/* Run work-item i (linear, x fastest) of the group set up in w->states[0]. */
static void cpu_seq_item(CpuWorker *w, JukeCpuEntry entry, uint32_t i)
{
    JukeCpuState *st = &w->states[0];
    const uint32_t *gd = st->group_dim;
    st->item[0] = i % gd[0];
    st->item[1] = i / gd[0] % gd[1];
    st->item[2] = i / gd[0] / gd[1];
    entry(w->cd->kernarg, st);
}

/* Run the n work-items one after another; exit_item longjmps back here and
 * the loop goes on with the next item. Kept apart from cpu_run_group so the
 * setjmp does not span the fiber code. */
static __attribute__((noinline)) void cpu_run_seq(CpuWorker *w, JukeCpuEntry entry, uint32_t n)
{
    volatile uint32_t next = 0;
    setjmp(w->seq_jmp);
    while (next < n)
        cpu_seq_item(w, entry, next++);
}

/* Run workgroup `gi` (linear, x fastest) on worker w. */
static int cpu_run_group(CpuWorker *w, uint64_t gi, char **err)
{
    CpuDev *cd = w->cd;
    const uint32_t *gd = cd->group;
    uint32_t n = gd[0] * gd[1] * gd[2];
    bool fibers = cd->k->uses_barrier != 0;
    if (cpu_worker_reserve(w, fibers ? n : 1, fibers, err) != 0)
        return -1;
    if (cd->lds_bytes > w->lds_cap) {
        uint8_t *l = aligned_alloc(64, (cd->lds_bytes + 63) & ~(size_t)63);
        if (!l)
            return rt_fail(err, "cpu: out of memory for %zu bytes of local memory", cd->lds_bytes);
        free(w->lds);
        w->lds = l;
        w->lds_cap = cd->lds_bytes;
    }
    memset(w->lds, 0, cd->lds_bytes);
    JukeCpuState proto = {
        .group = {(uint32_t)(gi % cd->grid[0]), (uint32_t)(gi / cd->grid[0] % cd->grid[1]),
                  (uint32_t)(gi / cd->grid[0] / cd->grid[1])},
        .group_dim = {gd[0], gd[1], gd[2]},
        .grid_groups = {cd->grid[0], cd->grid[1], cd->grid[2]},
        .lds = w->lds,
        .runtime = w,
        .dynamic_lds_bytes = cd->dynamic_lds_bytes,
        .cancel = &cd->cancel,
    };
    JukeCpuEntry entry = cd->k->entry;
    if (!fibers) {
        proto.barrier = cpu_seq_barrier;
        proto.exit_item = cpu_seq_exit;
        w->states[0] = proto;
        cpu_run_seq(w, entry, n);
        return 0;
    }
    proto.barrier = cpu_fiber_barrier;
    proto.exit_item = cpu_fiber_exit;
    size_t slot = CPU_FIBER_STACK + cd->page;
    for (uint32_t i = 0; i < n; i++) {
        JukeCpuState *st = &w->states[i];
        *st = proto;
        st->item[0] = i % gd[0];
        st->item[1] = i / gd[0] % gd[1];
        st->item[2] = i / gd[0] / gd[1];
        w->status[i] = FIBER_RUNNABLE;
        if (cpu_fiber_init(w, i, st, w->stacks + i * slot + cd->page, CPU_FIBER_STACK, err) != 0)
            return -1;
    }
    /* Each round resumes every live fiber once; a fiber yields at a barrier
     * or ends, so after a round every live work-item waits at a barrier and
     * the next round releases them all. */
    uint32_t live = n;
    while (live > 0) {
        for (uint32_t i = 0; i < n; i++) {
            if (w->status[i] == FIBER_DONE)
                continue;
            w->status[i] = FIBER_RUNNABLE;
            cpu_fiber_resume(w, i);
            if (w->status[i] == FIBER_DONE)
                live--;
        }
    }
    return 0;
}

/* Take groups until none are left (or a kernel raised an exception: the
 * launch fails anyway, so the rest of the grid is skipped). */
static void cpu_run_groups(CpuWorker *w)
{
    CpuDev *cd = w->cd;
    for (;;) {
        if (__atomic_load_n(&cd->exc->flag, __ATOMIC_RELAXED) != 0)
            break;
        uint64_t gi = atomic_fetch_add_explicit(&cd->next_group, 1, memory_order_relaxed);
        if (gi >= cd->ngroups)
            break;
        char *e = NULL;
        if (cpu_run_group(w, gi, &e) != 0) {
            pthread_mutex_lock(&cd->mu);
            if (!cd->job_err)
                cd->job_err = e;
            else
                free(e);
            pthread_mutex_unlock(&cd->mu);
            atomic_store(&cd->next_group, cd->ngroups);
            break;
        }
    }
}

static void *cpu_worker_main(void *arg)
{
    CpuWorker *w = arg;
    CpuDev *cd = w->cd;
    uint64_t seen = 0;
    pthread_mutex_lock(&cd->mu);
    for (;;) {
        while (!cd->quit && seen == cd->generation)
            pthread_cond_wait(&cd->start_cv, &cd->mu);
        if (cd->quit)
            break;
        seen = cd->generation;
        pthread_mutex_unlock(&cd->mu);
        cpu_run_groups(w);
        pthread_mutex_lock(&cd->mu);
        if (--cd->active == 0)
            pthread_cond_signal(&cd->done_cv);
    }
    pthread_mutex_unlock(&cd->mu);
    return NULL;
}

/* Sleep until the launch ends or its deadline passes; then ask the kernel
 * to stop. */
static void *cpu_watchdog_main(void *arg)
{
    CpuDev *cd = arg;
    pthread_mutex_lock(&cd->mu);
    while (!cd->wd_done) {
        if (pthread_cond_timedwait(&cd->wd_cv, &cd->mu, &cd->wd_deadline) == ETIMEDOUT) {
            if (!cd->wd_done)
                __atomic_store_n(&cd->cancel, 1, __ATOMIC_RELAXED);
            break;
        }
    }
    pthread_mutex_unlock(&cd->mu);
    return NULL;
}

/* ---- the device ------------------------------------------------------------ */

static int cpu_count_threads(void)
{
    const char *env = getenv("JUKE_CPU_THREADS");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v >= 1 && v <= 1024)
            return (int)v;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n > 1024 ? 1024 : n) : 1;
}

static void cpu_worker_free(CpuWorker *w)
{
    free(w->lds);
    free(w->states);
    free(w->ctx);
    free(w->status);
    if (w->stacks)
        munmap(w->stacks, w->stacks_len);
}

static void cpu_close(RtDevice *dev)
{
    CpuDev *cd = dev->priv;
    if (!cd)
        return;
    pthread_mutex_lock(&cd->mu);
    cd->quit = true;
    pthread_cond_broadcast(&cd->start_cv);
    pthread_mutex_unlock(&cd->mu);
    for (int i = 0; i < cd->nthreads; i++) {
        if (cd->workers[i].started)
            pthread_join(cd->workers[i].thread, NULL);
        cpu_worker_free(&cd->workers[i]);
    }
    pthread_mutex_destroy(&cd->mu);
    pthread_cond_destroy(&cd->start_cv);
    pthread_cond_destroy(&cd->done_cv);
    pthread_cond_destroy(&cd->wd_cv);
    free(cd->workers);
    free(cd->exc);
    free(cd);
    dev->priv = NULL;
}

static int cpu_alloc(RtDevice *dev, size_t bytes, void **devptr, char **err)
{
    /* 64 bytes: a cache line, and enough for any vector load of compiled code. */
    size_t rounded = (bytes + 63) & ~(size_t)63;
    if (rounded < bytes || !(*devptr = aligned_alloc(64, rounded)))
        return rt_fail(err, "cpu: out of memory allocating %zu bytes", bytes);
    return 0;
}

static void cpu_free(RtDevice *dev, void *p) { free(p); }

static int cpu_copy(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    memmove(dst, src, bytes);
    return 0;
}

/* ---- code objects ---------------------------------------------------------- */

static bool cpu_write_all(int fd, const void *buf, size_t size)
{
    const uint8_t *p = buf;
    while (size) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        size -= (size_t)w;
    }
    return true;
}

/* dlopen the image from a memfd, or else from a private temporary file that
 * is unlinked as soon as it is mapped. */
static int cpu_dlopen_image(const void *image, size_t size, void **handle, int *fd_out, char **err)
{
    *fd_out = -1;
    int fd = memfd_create("juke-cpu-code", MFD_CLOEXEC);
    if (fd >= 0) {
        if (cpu_write_all(fd, image, size)) {
            char path[64];
            snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
            *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            if (*handle) {
                *fd_out = fd;
                return 0;
            }
            const char *de = dlerror();
            /* /proc may be missing or noexec; fall back to a file. */
            if (access(path, R_OK) == 0) {
                close(fd);
                return rt_fail(err, "cpu: cannot load the code object: %s", de ? de : "dlopen failed");
            }
        }
        close(fd);
    }
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/juke-cpu-XXXXXX.so", dir);
    fd = mkstemps(path, 3);
    if (fd < 0)
        return rt_fail(err, "cpu: cannot create a temporary file in %s: %s", dir, strerror(errno));
    bool ok = cpu_write_all(fd, image, size);
    close(fd);
    if (!ok) {
        unlink(path);
        return rt_fail(err, "cpu: cannot write the code object to %s: %s", path, strerror(errno));
    }
    *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const char *de = *handle ? NULL : dlerror();
    unlink(path);
    if (!*handle)
        return rt_fail(err, "cpu: cannot load the code object: %s", de ? de : "dlopen failed");
    return 0;
}

static int cpu_module_load(RtModule *m, const void *image, size_t size, char **err)
{
    if (size < 4 || memcmp(image, "\177ELF", 4) != 0)
        return rt_fail(err, "cpu: the code object is not an ELF shared object");
    CpuModule *cm = calloc(1, sizeof *cm);
    if (!cm)
        return rt_fail(err, "cpu: out of memory");
    if (cpu_dlopen_image(image, size, &cm->handle, &cm->fd, err) != 0) {
        free(cm);
        return -1;
    }
    cm->table = dlsym(cm->handle, JUKE_CPU_TABLE_SYMBOL);
    const uint32_t *count = dlsym(cm->handle, JUKE_CPU_COUNT_SYMBOL);
    if (!cm->table || !count) {
        const char *missing = cm->table ? JUKE_CPU_COUNT_SYMBOL : JUKE_CPU_TABLE_SYMBOL;
        dlclose(cm->handle);
        if (cm->fd >= 0)
            close(cm->fd);
        free(cm);
        return rt_fail(err, "cpu: not a juke CPU code object: it does not export %s", missing);
    }
    cm->count = *count;
    m->priv = cm;
    return 0;
}

static void cpu_module_unload(RtModule *m)
{
    CpuModule *cm = m->priv;
    if (!cm)
        return;
    dlclose(cm->handle);
    if (cm->fd >= 0)
        close(cm->fd);
    free(cm);
}

static int cpu_function_get(RtFunction *f, const char *name, char **err)
{
    CpuModule *cm = f->mod->priv;
    for (uint32_t i = 0; i < cm->count; i++) {
        const JukeCpuKernelInfo *k = &cm->table[i];
        if (k->name && strcmp(k->name, name) == 0) {
            if (!k->entry)
                return rt_fail(err, "cpu: kernel '%s' has no entry point", name);
            f->priv = (void *)k;
            RtFunctionInfo *info = &f->info;
            snprintf(info->name, sizeof info->name, "%s", name);
            info->kernarg_size = k->kernarg_size;
            info->static_lds_bytes = k->static_lds_bytes;
            info->max_group_size = k->max_group_size;
            info->has_exception_arg = true;
            info->wavefront_size = 1;
            return 0;
        }
    }
    char list[512] = "";
    size_t len = 0;
    for (uint32_t i = 0; i < cm->count && len + 1 < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                cm->table[i].name ? cm->table[i].name : "?");
    return rt_fail(err, "no kernel '%s' in the code object (it has: %s)", name, cm->count ? list : "none");
}

/* ---- launches ----------------------------------------------------------------
 * Kernel-argument buffer (abi.h): each explicit argument at the next offset
 * aligned to its alignment, then the exception-record pointer aligned to 8. */
static int cpu_launch(RtFunction *f, void *stream, const RtArg *args, int nargs, const uint32_t grid[3], const uint32_t group[3],
                      uint32_t shmem_bytes, bool sync, double timeout_s, JukeExceptionRecord *exc, char **err)
{
    RtDevice *dev = f->mod->dev;
    CpuDev *cd = dev->priv;
    const JukeCpuKernelInfo *k = f->priv;
    size_t off = 0;
    for (int i = 0; i < nargs; i++) {
        uint32_t al = args[i].align ? args[i].align : 1;
        if (al & (al - 1))
            return rt_fail(err, "launch of %s: argument %d has alignment %u, not a power of two", k->name, i + 1, al);
        off = (off + al - 1) & ~(size_t)(al - 1);
        off += args[i].size;
    }
    off = (off + 7) & ~(size_t)7;
    size_t total = off + 8;
    if (k->kernarg_size && total != k->kernarg_size)
        return rt_fail(err, "launch of %s: the arguments take %zu bytes, the kernel expects %u (check their number and types)",
                       k->name, total - 8, k->kernarg_size - 8);
    uint64_t small[64];
    uint8_t *buf = total <= sizeof small ? (uint8_t *)small : calloc(1, total);
    if (!buf)
        return rt_fail(err, "cpu: out of memory for %zu bytes of kernel arguments", total);
    memset(buf, 0, total);
    off = 0;
    for (int i = 0; i < nargs; i++) {
        uint32_t al = args[i].align ? args[i].align : 1;
        off = (off + al - 1) & ~(size_t)(al - 1);
        if (args[i].size)
            memcpy(buf + off, args[i].data, args[i].size);
        off += args[i].size;
    }
    off = (off + 7) & ~(size_t)7;

    pthread_mutex_lock(&dev->lock);
    void *excp = cd->exc;
    memcpy(buf + off, &excp, 8);
    memset(cd->exc, 0, sizeof *cd->exc);
    cd->k = k;
    cd->kernarg = buf;
    memcpy(cd->grid, grid, sizeof cd->grid);
    memcpy(cd->group, group, sizeof cd->group);
    cd->lds_bytes = (((size_t)k->static_lds_bytes + 15) & ~(size_t)15) + shmem_bytes;
    if (cd->lds_bytes == 0)
        cd->lds_bytes = 16; /* st->lds is never NULL */
    cd->dynamic_lds_bytes = shmem_bytes;
    cd->ngroups = (uint64_t)grid[0] * grid[1] * grid[2];
    atomic_store(&cd->next_group, 0);
    cd->job_err = NULL;
    __atomic_store_n(&cd->cancel, 0, __ATOMIC_RELAXED);
    pthread_t watchdog;
    bool watched = false;
    if (timeout_s > 0) {
        clock_gettime(CLOCK_MONOTONIC, &cd->wd_deadline);
        double whole = floor(timeout_s);
        cd->wd_deadline.tv_sec += (time_t)whole;
        cd->wd_deadline.tv_nsec += (long)((timeout_s - whole) * 1e9);
        if (cd->wd_deadline.tv_nsec >= 1000000000L) {
            cd->wd_deadline.tv_sec++;
            cd->wd_deadline.tv_nsec -= 1000000000L;
        }
        cd->wd_done = false;
        int e = pthread_create(&watchdog, NULL, cpu_watchdog_main, cd);
        if (e != 0) {
            pthread_mutex_unlock(&dev->lock);
            if (buf != (uint8_t *)small)
                free(buf);
            return rt_fail(err, "cpu: cannot start the run-time limit's watchdog thread: %s", strerror(e));
        }
        watched = true;
    }
    /* One group needs no help; otherwise wake the pool and take part. */
    int helpers = cd->ngroups > 1 ? cd->nthreads - 1 : 0;
    if (helpers > 0) {
        pthread_mutex_lock(&cd->mu);
        cd->active = cd->nthreads - 1;
        cd->generation++;
        pthread_cond_broadcast(&cd->start_cv);
        pthread_mutex_unlock(&cd->mu);
    }
    cpu_run_groups(&cd->workers[0]);
    pthread_mutex_lock(&cd->mu);
    while (helpers > 0 && cd->active > 0)
        pthread_cond_wait(&cd->done_cv, &cd->mu);
    char *job_err = cd->job_err;
    cd->job_err = NULL;
    if (watched) {
        cd->wd_done = true;
        pthread_cond_signal(&cd->wd_cv);
    }
    pthread_mutex_unlock(&cd->mu);
    if (watched)
        pthread_join(watchdog, NULL);
    if (buf != (uint8_t *)small)
        free(buf);
    cd->kernarg = NULL;

    /* A failed group (job_err) outranks an exception. */
    int rc = rt_exception_take(cd->exc, job_err ? NULL : exc);
    if (rc == 1 && exc && exc->kind == JUKE_EXC_TIMEOUT)
        exc->index[0] = (int64_t)(timeout_s * 1e6 + 0.5);
    if (job_err) {
        rc = -1;
        if (err)
            *err = job_err;
        else
            free(job_err);
    }
    pthread_mutex_unlock(&dev->lock);
    (void)sync;
    return rc;
}

/* CPU launches finish before rt_launch returns, exceptions included. */
static int cpu_synchronize(RtDevice *dev, void *stream, JukeExceptionRecord *exc, char **err) { return 0; }

/* CPU launches run to completion: a stream only needs to be a distinct handle. */
static int cpu_stream_create(RtDevice *dev, void **stream, char **err)
{
    *stream = dev;
    return 0;
}

static void cpu_stream_destroy(RtDevice *dev, void *stream) {}

static int rt_cpu_open(RtDevice *dev, int index, char **short_why, char **err);

const RtBackend rt_cpu_backend = {
    .spec = "cpu",
    .indexed = false,
    .absent = NULL,
    .open = rt_cpu_open,
    .kind = RT_CPU,
    .close = cpu_close,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .upload = cpu_copy,
    .download = cpu_copy,
    .d2d = cpu_copy,
    .module_load = cpu_module_load,
    .module_unload = cpu_module_unload,
    .function_get = cpu_function_get,
    .launch = cpu_launch,
    .synchronize = cpu_synchronize,
    .stream_create = cpu_stream_create,
    .stream_destroy = cpu_stream_destroy,
};

static int rt_cpu_open(RtDevice *dev, int index, char **short_why, char **err)
{
    (void)index;
    (void)short_why;
    CpuDev *cd = calloc(1, sizeof *cd);
    if (!cd)
        return rt_fail(err, "cpu: out of memory");
    cd->nthreads = cpu_count_threads();
    long page = sysconf(_SC_PAGESIZE);
    cd->page = page > 0 ? (size_t)page : 4096;
    cd->workers = calloc((size_t)cd->nthreads, sizeof *cd->workers);
    cd->exc = aligned_alloc(64, (sizeof(JukeExceptionRecord) + 63) & ~(size_t)63);
    if (!cd->workers || !cd->exc) {
        free(cd->workers);
        free(cd->exc);
        free(cd);
        return rt_fail(err, "cpu: out of memory");
    }
    memset(cd->exc, 0, sizeof *cd->exc);
    pthread_mutex_init(&cd->mu, NULL);
    pthread_cond_init(&cd->start_cv, NULL);
    pthread_cond_init(&cd->done_cv, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&cd->wd_cv, &ca);
    pthread_condattr_destroy(&ca);
    dev->priv = cd;
    dev->be = &rt_cpu_backend;
    for (int i = 0; i < cd->nthreads; i++) {
        cd->workers[i].cd = cd;
        if (i == 0)
            continue;
        int rc = pthread_create(&cd->workers[i].thread, NULL, cpu_worker_main, &cd->workers[i]);
        if (rc != 0) {
            cpu_close(dev);
            return rt_fail(err, "cpu: cannot start worker thread %d: %s", i, strerror(rc));
        }
        cd->workers[i].started = true;
    }
    dev->cpu_threads = cd->nthreads;
    snprintf(dev->name, sizeof dev->name, "cpu (%d thread%s)", cd->nthreads, cd->nthreads == 1 ? "" : "s");
#if defined(__x86_64__)
    snprintf(dev->arch, sizeof dev->arch, "x86-64");
#elif defined(__aarch64__)
    snprintf(dev->arch, sizeof dev->arch, "aarch64");
#else
    snprintf(dev->arch, sizeof dev->arch, "cpu");
#endif
    dev->max_group_size = CPU_MAX_GROUP;
    dev->max_local_bytes = CPU_MAX_LOCAL;
    return 0;
}
