/* dev_cpu.c: the CPU backend. A code object is an ELF shared object with the
 * table of runtime/abi.h; workgroups run on a pool of threads (the calling
 * thread plus nthreads-1 workers, created at open and joined at close), and
 * the work-items of a group run one after another, or as fibers
 * when the kernel synchronises the group with barriers.
 *
 * Kernels run in the host's process, so the device keeps them from harming
 * it: device arrays and local memory sit between PROT_NONE guard pages, a
 * fault in kernel code (SIGSEGV, SIGBUS, SIGFPE, SIGILL) becomes a kernel
 * exception instead of killing the host, and work-items that do not all meet
 * at the same barrier are reported as barrier divergence. */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
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
/* The stack a fault handler runs on (so a work-item whose stack overflowed
 * can still be reported): the handler only records and jumps. */
#define CPU_ALT_STACK (64u * 1024u)
/* A cooperative launch runs every workgroup at once, each on a thread of its own: at most this many groups,
 * and this many work-items in all (each a fiber with its own stack). */
#define CPU_COOP_MAX_GROUPS 256u
#define CPU_COOP_MAX_ITEMS 65536u
/* The kernels one code object may list: a bound on what a damaged image can make the loader copy. */
#define CPU_MAX_MODULE_KERNELS (1u << 20)

enum { FIBER_RUNNABLE, FIBER_AT_BARRIER, FIBER_AT_WAVE, FIBER_DONE };

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
    JukeCpuState *states; /* one per work-item (fibers) or [0] (sequential) */
    FiberCtx *ctx;
    uint8_t *status;
    uint32_t cap;    /* items the arrays above hold */
    uint8_t *stacks; /* mmap'd: per fiber a guard page then CPU_FIBER_STACK bytes */
    size_t stacks_len;
    uint32_t nstacks;
    uint64_t *bloc;            /* per fiber: the barrier it waits at, line << 32 | col */
    uint64_t loc_any, loc_all; /* this round's barrier locations or-ed and and-ed: equal if all are one */
    /* per fiber: the wavefront primitive it waits at (JukeCpuState.wave), its operands, its result */
    uint32_t *wprim;
    uint64_t *wx, *wy, *wres;
    uint32_t wave_size;  /* the launched kernel's (JukeCpuKernelInfo.wavefront_size) */
    bool grid_wait;      /* the group's work-items wait at sync_grid(): the grid barrier follows the group's */
    uint64_t coop_group; /* a cooperative launch's thread: the group it runs */
    uint8_t *lds_map;    /* mmap'd: a guard page, lds_cap bytes, a guard page */
    size_t lds_map_len;
    FiberCtx sched;  /* the group scheduler, resumed when a fiber yields */
    jmp_buf seq_jmp; /* sequential mode: exit_item returns to the item loop */
    /* fault recovery: the handler records the fault here and jumps back */
    sigjmp_buf fault_jmp;
    int fault_sig, fault_code;
    uintptr_t fault_addr, fault_sp;
    uint8_t *alt;   /* this worker thread's signal stack (pool workers) */
    uint8_t *spill; /* a region kernel's per-item scratch (JukeCpuState.spill) */
    size_t spill_cap;
} CpuWorker;

/* A device array: its data, and the mapping that holds it between guard pages. */
typedef struct CpuBlock {
    uintptr_t data; /* 0: an empty slot */
    size_t bytes;
    uint8_t *map;
    size_t map_len;
} CpuBlock;

struct CpuDev {
    int nthreads;
    CpuWorker *workers; /* [0] is the launching thread's */
    size_t page;
    pthread_mutex_t mu;
    pthread_cond_t start_cv, done_cv;
    uint64_t generation; /* bumped per launch; workers run each generation once */
    bool quit;
    uint64_t active; /* pool workers still busy with this generation (read by spinning threads: atomics) */
    /* the current launch */
    const JukeCpuKernelInfo *k;
    JukeCpuEntry group_entry; /* k's workgroup function, or NULL: one item at a time, or fibers */
    bool regions;             /* group_entry runs rounds between barriers (JUKE_CPU_GROUP_REGIONS) */
    bool owns_status;         /* and leaves the statuses zero when a group ends (JUKE_CPU_GROUP_OWNS_STATUS) */
    uint32_t spill_bytes;     /* per work-item, for regions */
    const void *kernarg;
    uint32_t grid[3], group[3];
    size_t lds_bytes;
    bool zero_lds; /* the kernel has local memory (static or dynamic): each group's starts zeroed */
    uint32_t dynamic_lds_bytes;
    uint64_t ngroups;
    _Atomic uint64_t next_group;
    char *job_err;
    JukeExceptionRecord *exc; /* kernels write it with atomics */
    /* the run-time limit: the watchdog sets `cancel`, which every loop
     * back-edge of the kernel reads (JukeCpuState.cancel) */
    uint32_t cancel;
    pthread_cond_t wd_cv; /* CLOCK_MONOTONIC; wakes the watchdog when the launch ends */
    bool wd_done;
    struct timespec wd_deadline;
    /* a cooperative launch: the grid barrier of sync_grid() among the groups still running */
    pthread_cond_t grid_cv;
    uint64_t grid_live, grid_arrived, grid_gen;
    /* the live device arrays, an open-addressed table keyed by data pointer */
    pthread_mutex_t blocks_mu;
    CpuBlock *blocks;
    size_t nblocks, blocks_cap; /* cap: 0 or a power of two */
};

typedef struct CpuModule {
    void *handle;
    int fd;                    /* memfd kept open: dlopen matches "/proc/self/fd/N" names */
    JukeCpuKernelInfo *table;  /* copies of the image's tables (cpu_copy_tables), names in `names` */
    JukeCpuGroupEntry *groups; /* parallel to table, or NULL (older code objects) */
    char *names;
    uint32_t count;
} CpuModule;

/* ---- work-items ------------------------------------------------------------ */

static void cpu_seq_barrier(JukeCpuState *st, uint32_t line, uint32_t col)
{
    (void)st, (void)line, (void)col;
}

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

static void cpu_fiber_to_sched(CpuWorker *w, uint32_t i)
{
    rt_cpu_fiber_switch(&w->ctx[i].sp, w->sched.sp);
}
static void cpu_fiber_resume(CpuWorker *w, uint32_t i)
{
    rt_cpu_fiber_switch(&w->sched.sp, w->ctx[i].sp);
}
#else
static void cpu_fiber_to_sched(CpuWorker *w, uint32_t i)
{
    swapcontext(&w->ctx[i], &w->sched);
}
static void cpu_fiber_resume(CpuWorker *w, uint32_t i)
{
    swapcontext(&w->sched, &w->ctx[i]);
}
#endif

/* The barrier of sync_workgroup() at line:col: wait there until the scheduler
 * finds every work-item of the group at this same barrier. */
static void cpu_fiber_barrier(JukeCpuState *st, uint32_t line, uint32_t col)
{
    CpuWorker *w = st->runtime;
    uint32_t i = (uint32_t)(st - w->states);
    uint64_t loc = (uint64_t)line << 32 | col;
    w->bloc[i] = loc;
    w->loc_any |= loc;
    w->loc_all &= loc;
    w->status[i] = FIBER_AT_BARRIER;
    cpu_fiber_to_sched(w, i);
}

/* A wavefront primitive: wait, with its operands, until the scheduler releases the lanes of this wave that
 * wait at the same primitive (cpu_wave_release), and take this lane's result. */
static uint64_t cpu_fiber_wave(JukeCpuState *st, uint32_t prim, uint64_t x, uint64_t y, uint32_t line, uint32_t col)
{
    CpuWorker *w = st->runtime;
    uint32_t i = (uint32_t)(st - w->states);
    w->bloc[i] = (uint64_t)line << 32 | col;
    w->wprim[i] = prim;
    w->wx[i] = x;
    w->wy[i] = y;
    w->status[i] = FIBER_AT_WAVE;
    cpu_fiber_to_sched(w, i);
    return w->wres[i];
}

/* Release one rendezvous of the wave of lanes [base, base + cnt): every other lane of the wave waits too (at
 * a barrier, a wavefront primitive) or has returned. The lanes that take part are those at the primitive
 * that comes first in the source (line, column, primitive): lanes that went ahead wait at later places, so
 * lanes in a loop or a branch run first and meet the others where the paths join, as a GPU's lanes
 * reconverge. false when no lane of the wave waits at a primitive. */
static bool cpu_wave_release(CpuWorker *w, uint32_t base, uint32_t cnt)
{
    uint32_t first = cnt;
    for (uint32_t k = 0; k < cnt; k++) {
        uint32_t i = base + k;
        if (w->status[i] != FIBER_AT_WAVE)
            continue;
        if (first == cnt || w->bloc[i] < w->bloc[base + first] ||
            (w->bloc[i] == w->bloc[base + first] && w->wprim[i] < w->wprim[base + first]))
            first = k;
    }
    if (first == cnt)
        return false;
    uint64_t loc = w->bloc[base + first];
    uint32_t prim = w->wprim[base + first];
    uint64_t mask = 0, votes = 0;
    for (uint32_t k = 0; k < cnt; k++) {
        uint32_t i = base + k;
        if (w->status[i] == FIBER_AT_WAVE && w->bloc[i] == loc && w->wprim[i] == prim) {
            mask |= (uint64_t)1 << k;
            if (w->wx[i])
                votes |= (uint64_t)1 << k;
        }
    }
    uint32_t lowest = (uint32_t)__builtin_ctzll(mask);
    for (uint32_t k = 0; k < cnt; k++) {
        uint32_t i = base + k;
        if (!(mask >> k & 1))
            continue;
        uint64_t r = 0, src = w->wy[i];
        switch (prim) {
        case JUKE_WAVE_MASK: r = mask; break;
        case JUKE_WAVE_BALLOT: r = votes; break;
        case JUKE_WAVE_READ:
        case JUKE_WAVE_READ_UNIFORM: r = src < cnt && (mask >> src & 1) ? w->wx[base + src] : 0; break;
        case JUKE_WAVE_READ_FIRST: r = w->wx[base + lowest]; break;
        default: break;
        }
        w->wres[i] = r;
        w->status[i] = FIBER_RUNNABLE;
    }
    return true;
}

/* sync_grid(): a barrier of the group (cpu_run_fibers), after which the group waits for the others
 * (cpu_grid_arrive). */
static void cpu_fiber_grid_sync(JukeCpuState *st, uint32_t line, uint32_t col)
{
    CpuWorker *w = st->runtime;
    w->grid_wait = true;
    cpu_fiber_barrier(st, line, col);
}

/* The group of w is at the grid barrier: wait until every group still running is (or has ended). */
static void cpu_grid_arrive(CpuDev *cd)
{
    pthread_mutex_lock(&cd->mu);
    uint64_t gen = cd->grid_gen;
    if (++cd->grid_arrived >= cd->grid_live) {
        cd->grid_arrived = 0;
        cd->grid_gen++;
        pthread_cond_broadcast(&cd->grid_cv);
    } else {
        while (cd->grid_gen == gen)
            pthread_cond_wait(&cd->grid_cv, &cd->mu);
    }
    pthread_mutex_unlock(&cd->mu);
}

/* A group of a cooperative launch ended: the grid barrier no longer waits for it. */
static void cpu_grid_leave(CpuDev *cd)
{
    pthread_mutex_lock(&cd->mu);
    cd->grid_live--;
    if (cd->grid_arrived > 0 && cd->grid_arrived >= cd->grid_live) {
        cd->grid_arrived = 0;
        cd->grid_gen++;
        pthread_cond_broadcast(&cd->grid_cv);
    }
    pthread_mutex_unlock(&cd->mu);
}

/* Outside a cooperative launch sync_grid() cannot pass (the API refuses such launches first). */
static void cpu_seq_grid_sync(JukeCpuState *st, uint32_t line, uint32_t col)
{
    (void)st, (void)line, (void)col;
}

/* Code objects of older juke (uses_barrier 1) call barrier(st) without a
 * location: every barrier is "line 0", so only items that returned early
 * can be told apart. */
static void cpu_fiber_barrier_noloc(JukeCpuState *st)
{
    cpu_fiber_barrier(st, 0, 0);
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
    sp[8] = 0; /* rt_cpu_fiber_start's frame: rsp is 16-aligned before its call */
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
        uint64_t *bl = realloc(w->bloc, n * sizeof *bl);
        if (bl)
            w->bloc = bl;
        uint32_t *wp = realloc(w->wprim, n * sizeof *wp);
        if (wp)
            w->wprim = wp;
        uint64_t *wx = realloc(w->wx, n * sizeof *wx), *wy = wx ? realloc(w->wy, n * sizeof *wy) : NULL;
        if (wx)
            w->wx = wx;
        if (wy)
            w->wy = wy;
        uint64_t *wr = wy ? realloc(w->wres, n * sizeof *wr) : NULL;
        if (wr)
            w->wres = wr;
        if (!s || !c || !st || !bl || !wp || !wx || !wy || !wr)
            return rt_fail(err, "cpu: out of memory for %u work-items", n);
        w->cap = n;
    }
    if (fibers && n > w->nstacks) {
        size_t slot = CPU_FIBER_STACK + w->cd->page;
        size_t len = slot * n;
        uint8_t *p =
            mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
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

/* ---- faults ------------------------------------------------------------------
 * A fault in kernel code (an overrun into a guard page, any other bad
 * access, an integer trap, a stack overflow onto a fiber's guard page) must
 * not kill the host: while a launch runs, juke's handler catches SIGSEGV,
 * SIGBUS, SIGFPE and SIGILL; in a thread that is running kernel code it
 * records the fault and siglongjmps back to that worker's group loop
 * (cpu_run_items), and the fault becomes the launch's exception. Recovery is
 * sound because kernel code holds no locks and owns no allocations: the
 * abandoned work-items' stacks and states are reinitialised by the next
 * group. A fault anywhere else is passed on to the host's disposition.
 *
 * Signal dispositions belong to the process, not to a context, and launches
 * of several devices (of several contexts) may overlap: the first launch to
 * start saves the host's dispositions and installs the handler, the last to
 * end restores them exactly. That needs one process-wide lock and count, the
 * runtime's only mutable statics besides `cpu_running` (a signal handler is
 * given no context, so it finds the worker through a thread-local). A host
 * that changes these dispositions while a CPU launch runs has them replaced
 * when the last launch ends. */
static pthread_mutex_t cpu_sig_mu = PTHREAD_MUTEX_INITIALIZER;
static int cpu_sig_users;
static const int cpu_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
#define CPU_NSIGS ((int)(sizeof cpu_sigs / sizeof cpu_sigs[0]))
static struct sigaction cpu_sig_prev[CPU_NSIGS];
static _Thread_local CpuWorker *cpu_running;

static uintptr_t cpu_context_sp(void *uc)
{
#if defined(__x86_64__)
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.sp;
#else
    (void)uc;
    return 0;
#endif
}

/* Hand a signal that is not a kernel's fault to the disposition the host had.
 * For SIG_DFL (or SIG_IGN, which the kernel does not honour for a fault) the
 * default action is restored: a fault then recurs when the handler returns and
 * ends the process as it would have without juke; a sent signal is raised again. */
static void cpu_chain(int sig, siginfo_t *si, void *uc)
{
    int k = 0;
    while (k < CPU_NSIGS - 1 && cpu_sigs[k] != sig)
        k++;
    const struct sigaction *p = &cpu_sig_prev[k];
    bool sent = si->si_code <= 0;
    if (p->sa_handler == SIG_IGN && sent)
        return;
    if (p->sa_handler == SIG_DFL || p->sa_handler == SIG_IGN) {
        signal(sig, SIG_DFL);
        if (sent)
            raise(sig);
        return;
    }
    if (p->sa_flags & SA_SIGINFO)
        p->sa_sigaction(sig, si, uc);
    else
        p->sa_handler(sig);
}

static void cpu_fault_handler(int sig, siginfo_t *si, void *uc)
{
    CpuWorker *w = cpu_running;
    if (!w || si->si_code <= 0) { /* not in kernel code, or sent by kill() rather than raised by an instruction */
        cpu_chain(sig, si, uc);
        return;
    }
    cpu_running = NULL;
    w->fault_sig = sig;
    w->fault_code = si->si_code;
    w->fault_addr = (uintptr_t)si->si_addr;
    w->fault_sp = cpu_context_sp(uc);
    siglongjmp(w->fault_jmp, 1);
}

/* Install the fault handler for a launch (SA_NODEFER and an empty mask: the
 * handler leaves the signal mask as it was, so siglongjmp need not restore it). */
static void cpu_signals_acquire(void)
{
    pthread_mutex_lock(&cpu_sig_mu);
    if (cpu_sig_users++ == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = cpu_fault_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < CPU_NSIGS; i++)
            sigaction(cpu_sigs[i], &sa, &cpu_sig_prev[i]);
    }
    pthread_mutex_unlock(&cpu_sig_mu);
}

/* The last launch to end puts the host's dispositions back. */
static void cpu_signals_release(void)
{
    pthread_mutex_lock(&cpu_sig_mu);
    if (--cpu_sig_users == 0)
        for (int i = 0; i < CPU_NSIGS; i++)
            sigaction(cpu_sigs[i], &cpu_sig_prev[i], NULL);
    pthread_mutex_unlock(&cpu_sig_mu);
}

/* A mapping of len bytes: a PROT_NONE guard page, then a stack for the fault
 * handler (on the worker threads for good; lent to a launching thread). */
static uint8_t *cpu_alt_stack_map(size_t page)
{
    uint8_t *p =
        mmap(NULL, page + CPU_ALT_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    mprotect(p, page, PROT_NONE);
    return p;
}

/* What the fault address is: past either end of a device array or of the
 * group's local memory, or on a stack's guard page. Called after the jump
 * back, outside the handler (it takes the table's lock). */
static void cpu_classify_fault(CpuWorker *w, JukeExceptionRecord *r)
{
    CpuDev *cd = w->cd;
    uintptr_t a = w->fault_addr;
    size_t page = cd->page;
    if (w->fault_sig != SIGSEGV && w->fault_sig != SIGBUS)
        return;
    pthread_mutex_lock(&cd->blocks_mu);
    for (size_t i = 0; i < cd->blocks_cap; i++) {
        const CpuBlock *b = &cd->blocks[i];
        uintptr_t lo = (uintptr_t)b->map, hi = lo + b->map_len;
        if (!b->data || a < lo || a >= hi)
            continue;
        bool after = a >= b->data + b->bytes;
        r->index[2] = after ? JUKE_FAULT_ARRAY_AFTER : JUKE_FAULT_ARRAY_BEFORE;
        r->index[3] = (int64_t)(after ? a - (b->data + b->bytes) : b->data - a);
        r->dims[0] = (int64_t)b->bytes;
        pthread_mutex_unlock(&cd->blocks_mu);
        return;
    }
    pthread_mutex_unlock(&cd->blocks_mu);
    uintptr_t lds = (uintptr_t)w->states[0].lds, lo = (uintptr_t)w->lds_map;
    if (w->lds_map && a >= lo && a < lo + w->lds_map_len) {
        bool after = a >= lds + cd->lds_bytes;
        r->index[2] = after ? JUKE_FAULT_LOCAL_AFTER : JUKE_FAULT_LOCAL_BEFORE;
        r->index[3] = (int64_t)(after ? a - (lds + cd->lds_bytes) : lds - a);
        r->dims[0] = (int64_t)cd->lds_bytes;
        return;
    }
    uintptr_t st = (uintptr_t)w->stacks;
    size_t slot = CPU_FIBER_STACK + page;
    bool fiber_guard = w->stacks && a >= st && a < st + w->stacks_len && (a - st) % slot < page;
    /* on the thread's own stack, a fault just below the stack pointer is an overflow onto its guard */
    bool below_sp = w->fault_sp && a < w->fault_sp + page && a + 16 * page >= w->fault_sp;
    if (fiber_guard || below_sp) {
        r->index[2] = JUKE_FAULT_STACK;
        r->dims[0] = fiber_guard ? CPU_FIBER_STACK : 0;
    }
}

/* Make the fault w recorded the launch's exception (unless another work-item
 * raised one first). */
static void cpu_report_fault(CpuWorker *w, const JukeCpuState *st)
{
    JukeExceptionRecord *r = w->cd->exc;
    uint32_t expect = 0;
    if (!__atomic_compare_exchange_n(&r->flag, &expect, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        return;
    r->kind = JUKE_EXC_FAULT;
    r->line = r->col = 0;
    r->ndims = 0;
    r->aux = (uint32_t)w->fault_sig;
    memset(r->index, 0, sizeof r->index);
    memset(r->dims, 0, sizeof r->dims);
    r->index[0] = (int64_t)w->fault_addr;
    r->index[1] = w->fault_code;
    cpu_classify_fault(w, r);
    for (int d = 0; d < 3; d++) {
        r->group[d] = st->group[d] + 1;
        r->item[d] = st->item[d] + 1;
    }
    __atomic_store_n(&r->flag, 2, __ATOMIC_RELEASE);
}

/* Add 0-based work-item i to a list of at most JUKE_PACKED_ITEMS (abi.h). */
static void cpu_pack_item(int64_t *count, int64_t *packed, uint32_t i)
{
    if (*count < JUKE_PACKED_ITEMS)
        *packed |= (int64_t)(i + 1) << (16 * *count);
    (*count)++;
}

/* The group's live work-items are not all at one barrier: record which wait
 * where and which have returned (abi.h, barrier divergence records). */
static void cpu_report_divergence(CpuWorker *w, uint32_t n)
{
    JukeExceptionRecord *r = w->cd->exc;
    uint32_t expect = 0;
    if (!__atomic_compare_exchange_n(&r->flag, &expect, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        return;
    uint32_t first = 0;
    while (first < n && w->status[first] == FIBER_DONE)
        first++;
    uint64_t at = w->bloc[first], other = 0;
    memset(r->index, 0, sizeof r->index);
    memset(r->dims, 0, sizeof r->dims);
    for (uint32_t i = 0; i < n; i++) {
        if (w->status[i] == FIBER_DONE)
            cpu_pack_item(&r->index[2], &r->index[3], i);
        else if (w->bloc[i] == at)
            cpu_pack_item(&r->index[0], &r->index[1], i);
        else {
            if (r->dims[0] == 0)
                other = w->bloc[i];
            cpu_pack_item(&r->dims[0], &r->dims[1], i);
        }
    }
    const JukeCpuState *st = &w->states[first];
    r->kind = JUKE_EXC_BARRIER;
    r->line = (uint32_t)(at >> 32);
    r->col = (uint32_t)at;
    r->ndims = 0;
    r->aux = 0;
    r->dims[2] = (int64_t)other;
    r->dims[3] = (int64_t)st->group_dim[0] | (int64_t)st->group_dim[1] << 16 | (int64_t)st->group_dim[2] << 32;
    for (int d = 0; d < 3; d++) {
        r->group[d] = st->group[d] + 1;
        r->item[d] = st->item[d] + 1;
    }
    __atomic_store_n(&r->flag, 2, __ATOMIC_RELEASE);
}

/* ---- running a group ----------------------------------------------------- */

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

/* Run the n work-items one after another: all at once through the kernel's workgroup function `group`
 * when it has one, else one by one. exit_item longjmps back here and the items after the one that ended
 * (the workgroup function leaves its index in st->item) go on one by one. Kept apart from cpu_run_group so
 * the setjmp does not span the fiber code. */
static __attribute__((noinline)) void cpu_run_seq(CpuWorker *w, JukeCpuEntry entry, JukeCpuEntry group, uint32_t n)
{
    volatile uint32_t next = 0;
    volatile bool whole = group != NULL;
    if (w->cd->regions && group) {
        /* an exit_item the kernel did not handle itself ends the group, as a fiber's ends it at its barrier */
        if (setjmp(w->seq_jmp) == 0)
            group(w->cd->kernarg, &w->states[0]);
        return;
    }
    if (setjmp(w->seq_jmp) != 0 && whole) {
        const JukeCpuState *st = &w->states[0];
        whole = false;
        next = (st->item[2] * st->group_dim[1] + st->item[1]) * st->group_dim[0] + st->item[0] + 1;
    }
    if (whole) {
        group(w->cd->kernarg, &w->states[0]);
        return;
    }
    while (next < n)
        cpu_seq_item(w, entry, next++);
}

/* Run the n work-items of the group as fibers, each from proto. Each round
 * resumes every live fiber once; a fiber yields at a barrier or ends. After
 * a round the live work-items must all wait at one barrier, which the next
 * round releases; if some have returned, or they wait at different barriers,
 * that is barrier divergence (unless an exception ended some of them). */
static int cpu_run_fibers(CpuWorker *w, const JukeCpuState *proto, uint32_t n, char **err)
{
    CpuDev *cd = w->cd;
    const uint32_t *gd = proto->group_dim;
    size_t slot = CPU_FIBER_STACK + cd->page;
    for (uint32_t i = 0; i < n; i++) {
        JukeCpuState *st = &w->states[i];
        *st = *proto;
        st->item[0] = i % gd[0];
        st->item[1] = i / gd[0] % gd[1];
        st->item[2] = i / gd[0] / gd[1];
        w->status[i] = FIBER_RUNNABLE;
        if (cpu_fiber_init(w, i, st, w->stacks + i * slot + cd->page, CPU_FIBER_STACK, err) != 0)
            return -1;
    }
    uint32_t live = n, ws = w->wave_size ? w->wave_size : n;
    w->loc_any = 0;
    w->loc_all = ~(uint64_t)0;
    while (live > 0) {
        for (uint32_t i = 0; i < n; i++) {
            if (w->status[i] != FIBER_RUNNABLE)
                continue;
            cpu_fiber_resume(w, i);
            if (w->status[i] == FIBER_DONE)
                live--;
        }
        if (live == 0)
            break;
        /* every fiber waits or has returned: first the waves' rendezvous, then the group's barrier */
        bool released = false;
        if (w->wave_size)
            for (uint32_t base = 0; base < n; base += ws)
                released |= cpu_wave_release(w, base, n - base < ws ? n - base : ws);
        if (released)
            continue;
        if (live < n || w->loc_any != w->loc_all) {
            if (__atomic_load_n(&cd->exc->flag, __ATOMIC_ACQUIRE) == 0)
                cpu_report_divergence(w, n);
            return 0;
        }
        if (w->grid_wait) {
            w->grid_wait = false;
            cpu_grid_arrive(cd);
        }
        for (uint32_t i = 0; i < n; i++)
            if (w->status[i] == FIBER_AT_BARRIER)
                w->status[i] = FIBER_RUNNABLE;
        w->loc_any = 0;
        w->loc_all = ~(uint64_t)0;
    }
    return 0;
}

/* The fiber whose stack held the stack pointer at the fault (0 if none did). */
static uint32_t cpu_faulting_fiber(const CpuWorker *w, uint32_t n)
{
    size_t slot = CPU_FIBER_STACK + w->cd->page;
    uintptr_t st = (uintptr_t)w->stacks, sp = w->fault_sp;
    /* slot i is fiber i's guard page, then its stack: an overflow leaves sp in either */
    uint32_t i = sp >= st && sp < st + w->stacks_len ? (uint32_t)((sp - st) / slot) : 0;
    return i < n ? i : 0;
}

/* JukeCpuState.region_round: after a round of a region kernel's work-items, go on when every item that has
 * not ended waits at the same barrier (as cpu_run_fibers releases a barrier; abi.h says what the nonzero
 * values tell the workgroup function); else the group is done, and
 * if items wait while others ended or wait elsewhere, that is barrier divergence (unless an exception ended
 * some). */
static uint32_t cpu_region_round(JukeCpuState *st, const uint64_t *locs)
{
    CpuWorker *w = st->runtime;
    const uint32_t *status = (const uint32_t *)st->spill;
    const uint32_t *gd = st->group_dim;
    uint32_t n = gd[0] * gd[1] * gd[2], waiting = 0;
    /* the common case first: every item stopped at the same place (two statuses a word, four words a step:
     * this runs after every round) */
    uint32_t s0 = status[0], i = 0;
    uint64_t s2 = (uint64_t)s0 << 32 | s0, d[4] = { 0, 0, 0, 0 };
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 4; k++) {
            uint64_t v;
            memcpy(&v, status + i + 2 * k, sizeof v);
            d[k] |= v ^ s2;
        }
    uint64_t differ = d[0] | d[1] | d[2] | d[3];
    for (; i < n; i++)
        differ |= status[i] ^ s0;
    if (!differ)
        return s0 < JUKE_CPU_REGION_RETURNED ? s0 + 2 : 0;
    uint64_t any = 0, all = ~(uint64_t)0;
    for (uint32_t i = 0; i < n; i++) {
        if (status[i] >= JUKE_CPU_REGION_RETURNED)
            continue;
        waiting++;
        any |= locs[status[i]];
        all &= locs[status[i]];
    }
    if (waiting == n && any == all)
        return 1;
    if (waiting == 0 || __atomic_load_n(&w->cd->exc->flag, __ATOMIC_ACQUIRE) != 0)
        return 0;
    uint32_t first = n;
    for (uint32_t i = 0; i < n; i++) {
        bool ended = status[i] >= JUKE_CPU_REGION_RETURNED;
        w->status[i] = ended ? FIBER_DONE : FIBER_AT_BARRIER;
        w->bloc[i] = ended ? 0 : locs[status[i]];
        if (!ended && first == n)
            first = i;
    }
    w->states[first] = *st;
    w->states[first].item[0] = first % gd[0];
    w->states[first].item[1] = first / gd[0] % gd[1];
    w->states[first].item[2] = first / gd[0] / gd[1];
    cpu_report_divergence(w, n);
    return 0;
}

/* The callbacks of a group whose work-items run as fibers. */
static void cpu_fiber_proto(CpuWorker *w, JukeCpuState *proto)
{
    proto->barrier = w->cd->k->uses_barrier == JUKE_CPU_BARRIER_LOC
                         ? cpu_fiber_barrier
                         : (void (*)(JukeCpuState *, uint32_t, uint32_t))(void (*)(void))cpu_fiber_barrier_noloc;
    proto->exit_item = cpu_fiber_exit;
    proto->wave = cpu_fiber_wave;
    proto->spill = NULL;
    proto->region_round = NULL;
}

/* Run the group's work-items from proto (through the workgroup function `group` if not NULL). A fault in
 * them comes back here through the handler's siglongjmp: *faulted is set and the group's remaining
 * work-items are abandoned. */
static __attribute__((noinline)) int cpu_run_items_once(CpuWorker *w, const JukeCpuState *proto, uint32_t n,
                                                        bool fibers, JukeCpuEntry group, bool *faulted, char **err)
{
    *faulted = false;
    if (sigsetjmp(w->fault_jmp, 0) != 0) {
        *faulted = true;
        return 0;
    }
    int rc = 0;
    cpu_running = w;
    if (fibers) {
        rc = cpu_run_fibers(w, proto, n, err);
    } else {
        w->states[0] = *proto;
        cpu_run_seq(w, w->cd->k->entry, group, n);
    }
    cpu_running = NULL;
    return rc;
}

/* After a fault in the workgroup function `group` (w->fault_* recorded, w->states[0] the state it faulted in):
 * the workgroup function runs items in vectors and does not say which item faulted, nor stop at the faulting
 * item as the one-by-one mode does, so the group runs again from its start (proto), one item at a time, with
 * its local memory zeroed again, and the fault it meets is reported (the first one when it meets none). */
static int cpu_refault_items(CpuWorker *w, const JukeCpuState *proto, uint32_t n, char **err)
{
    int sig = w->fault_sig, code = w->fault_code;
    uintptr_t addr = w->fault_addr, sp = w->fault_sp;
    JukeCpuState st = w->states[0];
    if (w->cd->zero_lds)
        memset(proto->lds, 0, w->cd->lds_bytes);
    JukeCpuState again = *proto;
    bool fibers = w->cd->regions, faulted;
    if (fibers) {
        if (cpu_worker_reserve(w, n, true, err) != 0)
            return -1;
        cpu_fiber_proto(w, &again);
    } else {
        again.exit_item = cpu_seq_exit;
    }
    int rc = cpu_run_items_once(w, &again, n, fibers, NULL, &faulted, err);
    if (!faulted) {
        w->fault_sig = sig, w->fault_code = code, w->fault_addr = addr, w->fault_sp = sp;
        w->states[0] = st;
        fibers = false;
    }
    cpu_report_fault(w, &w->states[fibers ? cpu_faulting_fiber(w, n) : 0]);
    return rc;
}

/* Run the group's work-items from proto; a fault becomes the launch's exception. */
static int cpu_run_items(CpuWorker *w, const JukeCpuState *proto, uint32_t n, bool fibers, char **err)
{
    bool faulted;
    JukeCpuEntry group = fibers ? NULL : w->cd->group_entry;
    int rc = cpu_run_items_once(w, proto, n, fibers, group, &faulted, err);
    if (faulted && group)
        return cpu_refault_items(w, proto, n, err);
    if (faulted)
        cpu_report_fault(w, &w->states[fibers ? cpu_faulting_fiber(w, n) : 0]);
    return rc;
}

/* Local memory of `bytes` for this worker's groups, its end against a guard
 * page (its start 64-byte aligned, so up to 63 bytes of slack after it). */
static uint8_t *cpu_worker_lds(CpuWorker *w, size_t bytes, char **err)
{
    size_t page = w->cd->page;
    size_t cap = w->lds_map ? w->lds_map_len - 2 * page : 0;
    if (bytes > cap) {
        size_t body = (bytes + page - 1) & ~(page - 1);
        size_t len = body + 2 * page;
        uint8_t *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED || mprotect(p + page, body, PROT_READ | PROT_WRITE) != 0) {
            if (p != MAP_FAILED)
                munmap(p, len);
            rt_fail(err, "cpu: out of memory for %zu bytes of local memory", bytes);
            return NULL;
        }
        if (w->lds_map)
            munmap(w->lds_map, w->lds_map_len);
        w->lds_map = p;
        w->lds_map_len = len;
        cap = body;
    }
    return (uint8_t *)(((uintptr_t)(w->lds_map + page + cap) - bytes) & ~(uintptr_t)63);
}

/* The spill of a region kernel's n work-items (JukeCpuState.spill: their statuses first), for worker w. */
static uint8_t *cpu_worker_spill(CpuWorker *w, uint32_t n, char **err)
{
    size_t bytes = (size_t)w->cd->spill_bytes * n;
    if (bytes > w->spill_cap) {
        free(w->spill);
        w->spill = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
        w->spill_cap = w->spill ? bytes : 0;
        if (!w->spill) {
            rt_fail(err, "cpu: out of memory for %zu bytes of work-item state", bytes);
            return NULL;
        }
    }
    return w->spill;
}

/* Run workgroup `gi` (linear, x fastest) on worker w. */
static int cpu_run_group(CpuWorker *w, uint64_t gi, char **err)
{
    CpuDev *cd = w->cd;
    const uint32_t *gd = cd->group;
    uint32_t n = gd[0] * gd[1] * gd[2];
    bool regions = cd->regions && cd->group_entry;
    bool fibers = cd->k->uses_barrier != 0 && !regions;
    /* regions: the states of n items, for a divergence report */
    if (cpu_worker_reserve(w, fibers || regions ? n : 1, fibers, err) != 0)
        return -1;
    uint8_t *lds = cpu_worker_lds(w, cd->lds_bytes, err);
    if (!lds)
        return -1;
    if (cd->zero_lds)
        memset(lds, 0, cd->lds_bytes);
    JukeCpuState proto = {
        .group = { (uint32_t)(gi % cd->grid[0]), (uint32_t)(gi / cd->grid[0] % cd->grid[1]),
                   (uint32_t)(gi / cd->grid[0] / cd->grid[1]) },
        .group_dim = { gd[0], gd[1], gd[2] },
        .grid_groups = { cd->grid[0], cd->grid[1], cd->grid[2] },
        .lds = lds,
        .runtime = w,
        .dynamic_lds_bytes = cd->dynamic_lds_bytes,
        .cancel = &cd->cancel,
    };
    if (!fibers) {
        proto.barrier = cpu_seq_barrier;
        proto.exit_item = cpu_seq_exit;
    } else {
        cpu_fiber_proto(w, &proto);
    }
    if (regions) {
        if (!cpu_worker_spill(w, n, err))
            return -1;
        memset(w->spill, 0, (size_t)n * 4);
        proto.spill = w->spill;
        proto.region_round = cpu_region_round;
    }
    proto.grid_sync = fibers && cd->grid_live ? cpu_fiber_grid_sync : cpu_seq_grid_sync;
    w->grid_wait = false;
    w->wave_size = cd->k->flags & JUKE_CPU_USES_WAVE ? cd->k->wavefront_size : 0;
    return cpu_run_items(w, &proto, n, fibers, err);
}

/* Groups *gi .. end - 1 (linear, x fastest) of a kernel without barriers, or of one whose workgroup function
 * runs regions (cd->regions), from w->states[0] (set up for group *gi), through the workgroup function when
 * the kernel has one. exit_item longjmps back here: the items of that group after the one that ended (the
 * workgroup function leaves its index in st->item) go on one by one, and *next is that next item while they
 * do (0 while a group runs whole), so that a fault knows how the group ran; a region kernel's group ends
 * there, as a fiber's would at its next barrier (*next = n). One setjmp for the whole run, not one per
 * group: a group of a memory-bound kernel is a few KiB of traffic. Kept apart from cpu_run_seq_groups so its
 * setjmp does not span the sigsetjmp. */
static __attribute__((noinline)) void cpu_run_seq_range(CpuWorker *w, volatile uint64_t *gi, uint64_t end,
                                                        volatile uint32_t *next)
{
    CpuDev *cd = w->cd;
    JukeCpuState *st = &w->states[0];
    JukeCpuEntry entry = cd->k->entry, group = cd->group_entry;
    const uint32_t *gd = st->group_dim;
    uint32_t n = gd[0] * gd[1] * gd[2];
    bool regions = cd->regions && group;
    /* the statuses are zero (every item at the start) when a group starts: the group entry that owns them
     * leaves them so, unless an exit_item ended its group */
    volatile bool zeroed = false;
    if (setjmp(w->seq_jmp) != 0) {
        *next = regions ? n : (st->item[2] * gd[1] + st->item[1]) * gd[0] + st->item[0] + 1;
        zeroed = false;
    }
    while (*gi < end) {
        if (*next == 0) {
            if (__atomic_load_n(&cd->exc->flag, __ATOMIC_RELAXED) != 0)
                return;
            if (cd->zero_lds)
                memset(st->lds, 0, cd->lds_bytes);
            if (regions && !zeroed)
                memset(st->spill, 0, (size_t)n * 4);
            zeroed = cd->owns_status;
            if (group) {
                group(cd->kernarg, st);
            } else {
                for (uint32_t i = 0; i < n; i++)
                    cpu_seq_item(w, entry, i);
            }
        } else {
            while (*next < n)
                cpu_seq_item(w, entry, (*next)++);
        }
        *next = 0;
        /* the next group's indices, x fastest */
        ++*gi;
        if (++st->group[0] == cd->grid[0]) {
            st->group[0] = 0;
            if (++st->group[1] == cd->grid[1]) {
                st->group[1] = 0;
                st->group[2]++;
            }
        }
    }
}

/* Run groups first .. end - 1 of a kernel without barriers, or of one whose workgroup function runs regions,
 * on w: one set-up of the state and one sigsetjmp for the run. A fault in group gi becomes the launch's
 * exception as cpu_run_items makes it (the group runs again item by item, or as fibers for regions, when it
 * faulted in the workgroup function). */
static int cpu_run_seq_groups(CpuWorker *w, uint64_t first, uint64_t end, char **err)
{
    CpuDev *cd = w->cd;
    const uint32_t *gd = cd->group;
    uint32_t n = gd[0] * gd[1] * gd[2];
    bool regions = cd->regions && cd->group_entry;
    /* regions: the states of n items, for a divergence report (cpu_region_round) */
    if (cpu_worker_reserve(w, regions ? n : 1, false, err) != 0)
        return -1;
    uint8_t *lds = cpu_worker_lds(w, cd->lds_bytes, err);
    if (!lds)
        return -1;
    uint8_t *spill = regions ? cpu_worker_spill(w, n, err) : NULL;
    if (regions && !spill)
        return -1;
    w->states[0] = (JukeCpuState){
        .group = { (uint32_t)(first % cd->grid[0]), (uint32_t)(first / cd->grid[0] % cd->grid[1]),
                   (uint32_t)(first / cd->grid[0] / cd->grid[1]) },
        .group_dim = { gd[0], gd[1], gd[2] },
        .grid_groups = { cd->grid[0], cd->grid[1], cd->grid[2] },
        .lds = lds,
        .barrier = cpu_seq_barrier,
        .exit_item = cpu_seq_exit,
        .runtime = w,
        .dynamic_lds_bytes = cd->dynamic_lds_bytes,
        .cancel = &cd->cancel,
        .grid_sync = cpu_seq_grid_sync,
        .spill = spill,
        .region_round = regions ? cpu_region_round : NULL,
    };
    w->grid_wait = false;
    w->wave_size = cd->k->flags & JUKE_CPU_USES_WAVE ? cd->k->wavefront_size : 0;
    volatile uint64_t gi = first;
    volatile uint32_t next = 0;
    if (sigsetjmp(w->fault_jmp, 0) != 0) {
        if (!cd->group_entry || next != 0) {
            cpu_report_fault(w, &w->states[0]);
            return 0;
        }
        JukeCpuState proto = w->states[0];
        proto.item[0] = proto.item[1] = proto.item[2] = 0;
        return cpu_refault_items(w, &proto, n, err);
    }
    cpu_running = w;
    cpu_run_seq_range(w, &gi, end, &next);
    cpu_running = NULL;
    return 0;
}

/* Keep e as the launch's error if it is the first (taking it), else free it. */
static void cpu_job_fail(CpuDev *cd, char *e)
{
    pthread_mutex_lock(&cd->mu);
    if (!cd->job_err)
        cd->job_err = e;
    else
        free(e);
    pthread_mutex_unlock(&cd->mu);
}

/* Take groups until none are left (or a kernel raised an exception: the
 * launch fails anyway, so the rest of the grid is skipped). Groups are taken
 * in runs of consecutive ones, about 16 runs per thread, so that each thread
 * streams through its own stretch of memory: a run is a 16th of the thread's
 * share however large the grid (a cap of 64 groups made memcopy's 2^16 groups
 * 1024 short runs, ~13 % slower on 2 cores than runs of 2048; RESULTS §24),
 * and the last run taken bounds how long one thread waits for the other. */
static void cpu_run_groups(CpuWorker *w)
{
    CpuDev *cd = w->cd;
    uint64_t run = cd->ngroups / ((uint64_t)cd->nthreads * 16);
    run = run < 1 ? 1 : run;
    for (;;) {
        uint64_t first = atomic_fetch_add_explicit(&cd->next_group, run, memory_order_relaxed);
        if (first >= cd->ngroups)
            break;
        uint64_t end = first + run < cd->ngroups ? first + run : cd->ngroups;
        if (!cd->k->uses_barrier || (cd->regions && cd->group_entry)) {
            char *e = NULL;
            if (cpu_run_seq_groups(w, first, end, &e) != 0) {
                cpu_job_fail(cd, e);
                atomic_store(&cd->next_group, cd->ngroups);
                return;
            }
            continue;
        }
        for (uint64_t gi = first; gi < end; gi++) {
            if (__atomic_load_n(&cd->exc->flag, __ATOMIC_RELAXED) != 0)
                return;
            char *e = NULL;
            if (cpu_run_group(w, gi, &e) != 0) {
                cpu_job_fail(cd, e);
                atomic_store(&cd->next_group, cd->ngroups);
                return;
            }
        }
    }
}

/* How long the pool's threads spin before they sleep: a worker after its share of a launch, waiting for the
 * next (a time loop launches again within microseconds), and the launching thread waiting for the workers'
 * last runs. A sleep costs a futex wake-up, and on a loaded machine the woken thread may wait a scheduler
 * tick (4 ms) for a core; OpenMP's threads spin likewise (libgomp: GOMP_SPINCOUNT, a few ms). */
#define CPU_SPIN_NS 200000L

static void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Spin until (*p == v) == until_eq (acquire loads), at most CPU_SPIN_NS; whether it came. */
static bool cpu_spin(const uint64_t *p, uint64_t v, bool until_eq)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 1;; i++) {
        if ((__atomic_load_n(p, __ATOMIC_ACQUIRE) == v) == until_eq)
            return true;
        cpu_pause();
        if (i % 64 == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > CPU_SPIN_NS)
                return false;
        }
    }
}

static void *cpu_worker_main(void *arg)
{
    CpuWorker *w = arg;
    CpuDev *cd = w->cd;
    uint64_t seen = 0;
    /* The thread is juke's: its signal stack stays for its lifetime. */
    stack_t ss = { .ss_sp = w->alt ? w->alt + cd->page : NULL, .ss_size = CPU_ALT_STACK, .ss_flags = 0 };
    if (w->alt)
        sigaltstack(&ss, NULL);
    for (;;) {
        if (seen)
            cpu_spin(&cd->generation, seen, false);
        pthread_mutex_lock(&cd->mu);
        while (!cd->quit && seen == cd->generation)
            pthread_cond_wait(&cd->start_cv, &cd->mu);
        if (cd->quit) {
            pthread_mutex_unlock(&cd->mu);
            break;
        }
        seen = cd->generation;
        pthread_mutex_unlock(&cd->mu);
        cpu_run_groups(w);
        pthread_mutex_lock(&cd->mu);
        if (__atomic_sub_fetch(&cd->active, 1, __ATOMIC_RELEASE) == 0)
            pthread_cond_signal(&cd->done_cv);
        pthread_mutex_unlock(&cd->mu);
    }
    ss.ss_flags = SS_DISABLE;
    if (w->alt)
        sigaltstack(&ss, NULL);
    return NULL;
}

/* A cooperative launch's thread: runs its one group, then leaves the grid barrier. */
static void *cpu_coop_main(void *arg)
{
    CpuWorker *w = arg;
    CpuDev *cd = w->cd;
    stack_t ss = { .ss_sp = w->alt ? w->alt + cd->page : NULL, .ss_size = CPU_ALT_STACK, .ss_flags = 0 };
    if (w->alt)
        sigaltstack(&ss, NULL);
    char *e = NULL;
    if (cpu_run_group(w, w->coop_group, &e) != 0)
        cpu_job_fail(cd, e);
    cpu_grid_leave(cd);
    ss.ss_flags = SS_DISABLE;
    if (w->alt)
        sigaltstack(&ss, NULL);
    return NULL;
}

static void cpu_worker_free(CpuWorker *w);

/* Run every group of the launch at once, each on a thread of its own (sync_grid needs them all resident). */
static void cpu_run_cooperative(CpuDev *cd)
{
    uint64_t n = cd->ngroups;
    CpuWorker *ws = calloc((size_t)n, sizeof *ws);
    if (!ws) {
        cd->job_err = strdup("cpu: out of memory for a cooperative launch");
        return;
    }
    cd->grid_live = n;
    cd->grid_arrived = 0;
    uint64_t started = 0;
    for (uint64_t g = 0; g < n; g++) {
        ws[g].cd = cd;
        ws[g].coop_group = g;
        ws[g].alt = cpu_alt_stack_map(cd->page);
        int rc = pthread_create(&ws[g].thread, NULL, cpu_coop_main, &ws[g]);
        if (rc != 0) {
            pthread_mutex_lock(&cd->mu);
            if (!cd->job_err) {
                char msg[160];
                snprintf(msg, sizeof msg, "cpu: cannot start a thread for workgroup %llu of a cooperative launch: %s",
                         (unsigned long long)g + 1, strerror(rc));
                cd->job_err = strdup(msg);
            }
            pthread_mutex_unlock(&cd->mu);
            /* the groups never started leave the barrier at once */
            for (uint64_t k = g; k < n; k++)
                cpu_grid_leave(cd);
            break;
        }
        started++;
    }
    for (uint64_t g = 0; g < started; g++)
        pthread_join(ws[g].thread, NULL);
    for (uint64_t g = 0; g < n; g++)
        cpu_worker_free(&ws[g]);
    free(ws);
    cd->grid_live = 0;
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

/* Worker threads: as many as asked (RtDevice.cpu_threads), else one per core
 * the process may run on. */
static int cpu_count_threads(int asked)
{
    if (asked >= 1 && asked <= 1024)
        return asked;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n > 1024 ? 1024 : n) : 1;
}

static void cpu_worker_free(CpuWorker *w)
{
    free(w->states);
    free(w->spill);
    free(w->ctx);
    free(w->status);
    free(w->bloc);
    free(w->wprim);
    free(w->wx);
    free(w->wy);
    free(w->wres);
    if (w->stacks)
        munmap(w->stacks, w->stacks_len);
    if (w->lds_map)
        munmap(w->lds_map, w->lds_map_len);
    if (w->alt)
        munmap(w->alt, w->cd->page + CPU_ALT_STACK);
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
    pthread_cond_destroy(&cd->grid_cv);
    pthread_cond_destroy(&cd->wd_cv);
    /* arrays the caller did not free (juke_device_close frees its own first) */
    for (size_t i = 0; i < cd->blocks_cap; i++)
        if (cd->blocks[i].data)
            munmap(cd->blocks[i].map, cd->blocks[i].map_len);
    free(cd->blocks);
    pthread_mutex_destroy(&cd->blocks_mu);
    free(cd->workers);
    free(cd->exc);
    free(cd);
    dev->priv = NULL;
}

/* ---- device arrays -----------------------------------------------------------
 * Each array has a mapping of its own: a PROT_NONE guard page, the data, a
 * guard page, with the data's end placed against the upper guard, so a
 * kernel running past either end of an array faults at once instead of
 * reading or corrupting the host's memory. The start stays 64-byte aligned
 * (a cache line, and enough for any vector load of compiled code), so up to
 * 63 bytes after the end are slack that does not fault: zero-filled and the
 * array's own, never the host's. The cost is page granularity: an array
 * takes its bytes rounded up to whole pages, plus two guard pages of address
 * space (no memory) and a mapping, which suits device arrays (few, large).
 * munmap needs the mapping, so the live arrays are kept in a table. */

static size_t cpu_block_home(const CpuDev *cd, uintptr_t data)
{
    return (size_t)((data >> 6) * 0x9E3779B97F4A7C15ull) & (cd->blocks_cap - 1);
}

/* The slot holding data, or the empty slot where it would go. */
static size_t cpu_block_slot(const CpuDev *cd, uintptr_t data)
{
    size_t i = cpu_block_home(cd, data);
    while (cd->blocks[i].data && cd->blocks[i].data != data)
        i = (i + 1) & (cd->blocks_cap - 1);
    return i;
}

/* Add b to the table (the caller holds blocks_mu); false when out of memory. */
static bool cpu_block_add(CpuDev *cd, CpuBlock b)
{
    if ((cd->nblocks + 1) * 2 > cd->blocks_cap) {
        size_t cap = cd->blocks_cap ? cd->blocks_cap * 2 : 64;
        CpuBlock *nb = calloc(cap, sizeof *nb), *old = cd->blocks;
        if (!nb)
            return false;
        size_t oldcap = cd->blocks_cap;
        cd->blocks = nb;
        cd->blocks_cap = cap;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].data)
                cd->blocks[cpu_block_slot(cd, old[i].data)] = old[i];
        free(old);
    }
    cd->blocks[cpu_block_slot(cd, b.data)] = b;
    cd->nblocks++;
    return true;
}

/* Take data's entry out of the table into *out (the caller holds
 * blocks_mu); false when data is no array of this device. Later entries of
 * the probe run shift back so lookups never meet a hole. */
static bool cpu_block_take(CpuDev *cd, uintptr_t data, CpuBlock *out)
{
    if (!cd->blocks_cap)
        return false;
    size_t mask = cd->blocks_cap - 1, i = cpu_block_slot(cd, data);
    if (!cd->blocks[i].data)
        return false;
    *out = cd->blocks[i];
    for (size_t j = (i + 1) & mask; cd->blocks[j].data; j = (j + 1) & mask) {
        size_t h = cpu_block_home(cd, cd->blocks[j].data);
        /* the entry at j may move to the hole at i unless its home lies cyclically in (i, j] */
        bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (!stays) {
            cd->blocks[i] = cd->blocks[j];
            i = j;
        }
    }
    cd->blocks[i].data = 0;
    cd->nblocks--;
    return true;
}

static int cpu_alloc(RtDevice *dev, size_t bytes, void **devptr, char **err)
{
    CpuDev *cd = dev->priv;
    size_t page = cd->page;
    size_t body = (bytes + 63) & ~(size_t)63;
    body = (body + page - 1) & ~(page - 1);
    size_t len = body + 2 * page;
    if (body < bytes || len < body)
        return rt_fail(err, "cpu: out of memory allocating %zu bytes", bytes);
    uint8_t *map = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return rt_fail(err, "cpu: out of memory allocating %zu bytes: %s", bytes, strerror(errno));
    if (mprotect(map + page, body, PROT_READ | PROT_WRITE) != 0) {
        int e = errno;
        munmap(map, len);
        return rt_fail(err, "cpu: out of memory allocating %zu bytes: %s", bytes, strerror(e));
    }
    CpuBlock b = { ((uintptr_t)(map + page + body) - bytes) & ~(uintptr_t)63, bytes, map, len };
    pthread_mutex_lock(&cd->blocks_mu);
    bool ok = cpu_block_add(cd, b);
    pthread_mutex_unlock(&cd->blocks_mu);
    if (!ok) {
        munmap(map, len);
        return rt_fail(err, "cpu: out of memory allocating %zu bytes", bytes);
    }
    *devptr = (void *)b.data;
    return 0;
}

/* A pointer that is no array of this device is ignored. */
static void cpu_free(RtDevice *dev, void *p)
{
    CpuDev *cd = dev->priv;
    CpuBlock b;
    pthread_mutex_lock(&cd->blocks_mu);
    bool found = cpu_block_take(cd, (uintptr_t)p, &b);
    pthread_mutex_unlock(&cd->blocks_mu);
    if (found)
        munmap(b.map, b.map_len);
}

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

static void cpu_module_unload(RtModule *m)
{
    CpuModule *cm = m->priv;
    if (!cm)
        return;
    m->priv = NULL;
    dlclose(cm->handle);
    if (cm->fd >= 0)
        close(cm->fd);
    free(cm->table);
    free(cm->groups);
    free(cm->names);
    free(cm);
}

/* The kernel table, its names and the group table, copied out of the loaded image into the module's own memory:
 * the one function that reads the image's data. The dynamic loader maps the image with its own mmap, which
 * ThreadSanitizer does not see, so the image's addresses may still carry TSan's records of memory that was there
 * before (another thread's fiber stack): reads of it from anywhere else would be reported as races
 * (tests/tsan.supp names this function). */
static int cpu_copy_tables(CpuModule *cm, const JukeCpuKernelInfo *table, const JukeCpuGroupEntry *groups,
                           const uint32_t *nkernels, char **err)
{
    uint32_t count = *nkernels;
    if (count > CPU_MAX_MODULE_KERNELS)
        return rt_fail(err, "cpu: the code object lists %u kernels (at most %u)", count, CPU_MAX_MODULE_KERNELS);
    size_t names = 0;
    for (uint32_t i = 0; i < count; i++)
        names += table[i].name ? strlen(table[i].name) + 1 : 0;
    cm->table = malloc(sizeof *cm->table * (count ? count : 1));
    cm->groups = groups ? malloc(sizeof *cm->groups * (count ? count : 1)) : NULL;
    cm->names = malloc(names ? names : 1);
    if (!cm->table || (groups && !cm->groups) || !cm->names)
        return rt_fail(err, "cpu: out of memory");
    char *at = cm->names;
    for (uint32_t i = 0; i < count; i++) {
        cm->table[i] = table[i];
        if (table[i].name) {
            size_t n = strlen(table[i].name) + 1;
            cm->table[i].name = memcpy(at, table[i].name, n);
            at += n;
        }
        if (groups)
            cm->groups[i] = groups[i];
    }
    cm->count = count;
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
    const JukeCpuKernelInfo *table = dlsym(cm->handle, JUKE_CPU_TABLE_SYMBOL);
    const uint32_t *count = dlsym(cm->handle, JUKE_CPU_COUNT_SYMBOL);
    int rc = 0;
    if (!table || !count)
        rc = rt_fail(err, "cpu: not a juke CPU code object: it does not export %s",
                     table ? JUKE_CPU_COUNT_SYMBOL : JUKE_CPU_TABLE_SYMBOL);
    else
        rc = cpu_copy_tables(cm, table, dlsym(cm->handle, JUKE_CPU_GROUP_SYMBOL), count, err);
    m->priv = cm;
    if (rc)
        cpu_module_unload(m);
    return rc;
}

/* A global of the shared object: its address, and its size from the symbol table. */
static int cpu_global_get(RtModule *m, const char *name, void **devptr, size_t *bytes, char **err)
{
    CpuModule *cm = m->priv;
    void *p = dlsym(cm->handle, name);
    const ElfW(Sym) *sym = NULL;
    Dl_info info;
    if (!p || !dladdr1(p, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym || ELF64_ST_TYPE(sym->st_info) != STT_OBJECT)
        return rt_fail(err, "the code object has no global `%s`", name);
    *devptr = p;
    *bytes = (size_t)sym->st_size;
    return 0;
}

static int cpu_function_get(RtFunction *f, const char *name, char **err)
{
    CpuModule *cm = f->mod->priv;
    for (uint32_t i = 0; i < cm->count; i++) {
        const JukeCpuKernelInfo *k = &cm->table[i];
        if (k->name && strcmp(k->name, name) == 0) {
            if (!k->entry)
                return rt_fail(err, "cpu: kernel '%s' has no entry point", name);
            f->priv = (void *)k; /* (the module's copy of the entry) */
            RtFunctionInfo *info = &f->info;
            snprintf(info->name, sizeof info->name, "%s", name);
            info->kernarg_size = k->kernarg_size;
            info->static_lds_bytes = k->static_lds_bytes;
            info->max_group_size = k->max_group_size;
            info->has_exception_arg = true;
            info->wavefront_size = k->wavefront_size;
            if ((k->flags & JUKE_CPU_USES_WAVE) && k->wavefront_size != 32 && k->wavefront_size != 64)
                return rt_fail(err, "cpu: kernel '%s' has wavefront size %u (32 or 64)", name, k->wavefront_size);
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
static int cpu_launch(RtFunction *f, void *stream, const RtArg *args, int nargs, const uint32_t grid[3],
                      const uint32_t group[3], uint32_t shmem_bytes, unsigned flags, double timeout_s,
                      JukeExceptionRecord *exc, char **err)
{
    bool sync = flags & RT_LAUNCH_SYNC;
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
    if (flags & RT_LAUNCH_COOPERATIVE) {
        uint64_t ng = (uint64_t)grid[0] * grid[1] * grid[2], items = ng * group[0] * group[1] * group[2];
        if (ng > CPU_COOP_MAX_GROUPS || items > CPU_COOP_MAX_ITEMS)
            return rt_fail(err,
                           "cooperative launch of %llu workgroups (%llu work-items): the cpu device keeps at most %u "
                           "workgroups and %u work-items resident at once",
                           (unsigned long long)ng, (unsigned long long)items, CPU_COOP_MAX_GROUPS, CPU_COOP_MAX_ITEMS);
    }
    if (k->kernarg_size && total != k->kernarg_size)
        return rt_fail(
            err, "launch of %s: the arguments take %zu bytes, the kernel expects %u (check their number and types)",
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
    cpu_signals_acquire();
    /* The launching thread runs groups too: lend it a signal stack for the
     * launch if it has none, and give it back after (the host's own, if it
     * has one, serves as it is). */
    stack_t host_ss, lent = { .ss_sp = cd->workers[0].alt ? cd->workers[0].alt + cd->page : NULL,
                              .ss_size = CPU_ALT_STACK,
                              .ss_flags = 0 };
    bool lend = lent.ss_sp && sigaltstack(NULL, &host_ss) == 0 && (host_ss.ss_flags & SS_DISABLE);
    if (lend)
        lend = sigaltstack(&lent, NULL) == 0;
    void *excp = cd->exc;
    memcpy(buf + off, &excp, 8);
    memset(cd->exc, 0, sizeof *cd->exc);
    cd->k = k;
    const CpuModule *cm = f->mod->priv;
    const JukeCpuGroupEntry *ge = cm->groups ? &cm->groups[k - cm->table] : NULL;
    cd->regions =
        ge && (ge->flags & JUKE_CPU_GROUP_REGIONS) && !(k->flags & (JUKE_CPU_USES_WAVE | JUKE_CPU_USES_GRID_SYNC));
    cd->group_entry = ge && (k->uses_barrier ? cd->regions : !(ge->flags & JUKE_CPU_GROUP_REGIONS)) ? ge->entry : NULL;
    cd->spill_bytes = ge ? ge->spill_bytes : 0;
    cd->owns_status = cd->regions && (ge->flags & JUKE_CPU_GROUP_OWNS_STATUS);
    cd->kernarg = buf;
    memcpy(cd->grid, grid, sizeof cd->grid);
    memcpy(cd->group, group, sizeof cd->group);
    cd->lds_bytes = (((size_t)k->static_lds_bytes + 15) & ~(size_t)15) + shmem_bytes;
    if (cd->lds_bytes == 0)
        cd->lds_bytes = 16; /* st->lds is never NULL */
    cd->zero_lds = k->static_lds_bytes + (uint64_t)shmem_bytes > 0;
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
    /* One group needs no help; otherwise wake the pool and take part. A cooperative launch runs every group
     * at once, on threads of its own. */
    bool coop = (flags & RT_LAUNCH_COOPERATIVE) != 0;
    int helpers = cd->ngroups > 1 && !coop ? cd->nthreads - 1 : 0;
    if (helpers > 0) {
        pthread_mutex_lock(&cd->mu);
        cd->active = (uint64_t)cd->nthreads - 1;
        __atomic_store_n(&cd->generation, cd->generation + 1, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&cd->start_cv);
        pthread_mutex_unlock(&cd->mu);
    }
    if (coop)
        cpu_run_cooperative(cd);
    else
        cpu_run_groups(&cd->workers[0]);
    if (helpers > 0)
        cpu_spin(&cd->active, 0, true);
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
    if (lend)
        sigaltstack(&host_ss, NULL);
    cpu_signals_release();
    if (buf != (uint8_t *)small)
        free(buf);
    cd->kernarg = NULL;

    /* A failed group (job_err) outranks an exception. */
    int rc = rt_exception_take(dev, cd->exc, job_err ? NULL : exc);
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
static int cpu_synchronize(RtDevice *dev, void *stream, JukeExceptionRecord *exc, char **err)
{
    return 0;
}

/* CPU launches run to completion: a stream only needs to be a distinct handle. */
static int cpu_stream_create(RtDevice *dev, void **stream, char **err)
{
    *stream = dev;
    return 0;
}

static void cpu_stream_destroy(RtDevice *dev, void *stream) {}

/* A CPU event is the monotonic clock read at record: every launch has
 * finished by then. */
static int cpu_event_create(RtDevice *dev, void **ev, char **err)
{
    (void)dev;
    *ev = calloc(1, sizeof(struct timespec));
    return *ev ? 0 : rt_fail(err, "out of memory");
}

static void cpu_event_destroy(RtDevice *dev, void *ev)
{
    free(ev);
}

static int cpu_event_record(RtDevice *dev, void *ev, void *stream, char **err)
{
    clock_gettime(CLOCK_MONOTONIC, ev);
    return 0;
}

static int cpu_event_synchronize(RtDevice *dev, void *ev, char **err)
{
    return 0;
}

static int cpu_event_elapsed(RtDevice *dev, void *start, void *end, float *ms, char **err)
{
    const struct timespec *a = start, *b = end;
    *ms = (float)((double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) * 1e-6);
    return 0;
}

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
    .global_get = cpu_global_get,
    .launch = cpu_launch,
    .synchronize = cpu_synchronize,
    .stream_create = cpu_stream_create,
    .stream_destroy = cpu_stream_destroy,
    .event_create = cpu_event_create,
    .event_destroy = cpu_event_destroy,
    .event_record = cpu_event_record,
    .event_synchronize = cpu_event_synchronize,
    .event_elapsed = cpu_event_elapsed,
};

static int rt_cpu_open(RtDevice *dev, int index, char **short_why, char **err)
{
    (void)index;
    (void)short_why;
    CpuDev *cd = calloc(1, sizeof *cd);
    if (!cd)
        return rt_fail(err, "cpu: out of memory");
    cd->nthreads = cpu_count_threads(dev->cpu_threads);
    long page = sysconf(_SC_PAGESIZE);
    cd->page = page > 0 ? (size_t)page : 4096;
    cd->workers = calloc((size_t)cd->nthreads, sizeof *cd->workers);
    cd->exc = aligned_alloc(64, JUKE_EXC_BUFFER_BYTES);
    if (!cd->workers || !cd->exc) {
        free(cd->workers);
        free(cd->exc);
        free(cd);
        return rt_fail(err, "cpu: out of memory");
    }
    rt_exception_buffer_init(cd->exc);
    dev->exc_host = cd->exc;
    dev->print_sorted = true;
    pthread_mutex_init(&cd->mu, NULL);
    pthread_mutex_init(&cd->blocks_mu, NULL);
    pthread_cond_init(&cd->start_cv, NULL);
    pthread_cond_init(&cd->done_cv, NULL);
    pthread_cond_init(&cd->grid_cv, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&cd->wd_cv, &ca);
    pthread_condattr_destroy(&ca);
    dev->priv = cd;
    dev->be = &rt_cpu_backend;
    for (int i = 0; i < cd->nthreads; i++) {
        cd->workers[i].cd = cd;
        /* without a signal stack a stack overflow cannot be reported, but all else works */
        cd->workers[i].alt = cpu_alt_stack_map(cd->page);
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
