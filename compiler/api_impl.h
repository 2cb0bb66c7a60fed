/* api_impl.h: what the files of the embedding API share (api.c: handles and
 * the pipeline; launch.c: launches, argument checks and exception messages;
 * kcache.c: the disk cache): the handles' layouts and a few helpers.
 * Internal; never installed. */
#ifndef JUKE_API_IMPL_H
#define JUKE_API_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "codegen.h"
#include "frontend.h"
#include "juke.h"
#include "kcache.h"
#include "runtime.h"
#include "trace.h"

/* The per-thread error store: each thread's last message, the most recently
 * failed thread last. Threads come and go in a host, and pthread_t cannot
 * say whether one still lives, so the store keeps the JUKE_MAX_ERROR_THREADS
 * most recent ones (juke.h documents it for juke_errmsg). */
typedef struct ThreadError {
    pthread_t tid;
    char *msg;
} ThreadError;
enum { JUKE_MAX_ERROR_THREADS = 64 };

/* Locking. Lock order, outermost first: ctx->lock (the handle lists, the
 * options, the error store) → dev->lock (a device's launches, its launch
 * memo and last_async) → k->load_lock (a kernel's assembly listing and its
 * per-device loaded modules, `loaded`). A thread holding one of them takes
 * only locks to its right. The runtime's own locks (RtDevice.lock,
 * RtModule.lock) are innermost. */

typedef struct Loaded {
    juke_device *dev;
    RtModule *mod;
    RtFunction *fn;
} Loaded;

/* The device a kernel handle last launched on, read without a lock by
 * juke_kernel_launch: each is written once and published whole, and lives
 * until the kernel is freed (k->fast_all), so a reader never sees half of
 * one. */
typedef struct FastLoad {
    juke_device *dev;
    RtFunction *fn;
    struct FastLoad *next;
} FastLoad;

/* A launch argument's type in one uint16_t: 0x8000 | elem << 4 | ndims for
 * an array, the juke_type for a scalar, API_SIG_NONE for a type no juke_arg
 * has (a tuple, a struct). */
enum { API_SIG_NONE = 0xffff };

struct juke_kernel {
    juke_context *ctx;
    juke_module *module;
    char *key;
    char *function;
    int id; /* order of compilation in its context */
    char *lowered, *typed, *resources;
    CodeObject co;
    double ms_frontend;
    bool from_disk; /* read from the disk cache (kcache_load), not compiled here */
    /* what it was compiled from, to compile again for the assembly when a
     * kernel compiled for a launch (without it) is asked for it */
    char **argtypes;
    int nargs;
    TargetOptions to;
    char *to_proc, *to_devlibs;
    Loaded *loaded;
    int nloaded, capl;
    pthread_mutex_t load_lock;
    uint16_t sig[64];         /* the argument types as launches give them (API_SIG_NONE...) */
    uint32_t argsize[64];     /* each argument's bytes and alignment (docs/abi.md); 0 bytes: a ghost, */
    uint32_t argalign[64];    /* which the code object takes no parameter for */
    int vararg_from;          /* the arguments from this one on are the kernel's vararg (f(g, x...)), one tuple
                                 parameter of the code object; -1: none */
    int ka_ndims;             /* a KernelAbstractions @kernel: its ndrange's dimensions (its hidden last argument) */
    uint32_t ka_groupsize[3]; /* ... compiled for this static groupsize (Val{G} fields of that argument), or 0s */
    bool ka_offset;           /* ... for an offset ndrange (that argument a __KaOffset: the ndrange, its offsets) */
    bool ka_map;              /* ... for an index-map ndrange (a __KaMap: the 1-D ndrange, the map's array) */
    FastLoad *fast;           /* atomic: see FastLoad */
    FastLoad *fast_all;       /* every FastLoad made, under load_lock */
};

/* cmemo.c: a module's explicit compiles, (the caller's strings, options,
 * variant) → kernel, under ctx->lock. */
typedef struct CmemoEntry {
    uint64_t hash;
    juke_kernel *k; /* NULL: an empty slot */
    char *blob;     /* function, argument types, target, device libraries */
    int nargs, variant, opt_level, cov, wavefront, debuginfo;
} CmemoEntry;
typedef struct Cmemo {
    CmemoEntry *slots; /* NULL until the first entry */
} Cmemo;
uint64_t cmemo_hash(const char *function, const char *const *argtypes, int nargs, const juke_options *o, int variant);
juke_kernel *cmemo_find(const Cmemo *cm, uint64_t h, const char *function, const char *const *argtypes, int nargs,
                        const juke_options *o, int variant);
void cmemo_add(Cmemo *cm, uint64_t h, const char *function, const char *const *argtypes, int nargs,
               const juke_options *o, int variant, juke_kernel *k);
void cmemo_free(Cmemo *cm);

struct juke_module {
    juke_context *ctx;
    FeModule *fe;
    char *name;
    Cmemo memo; /* juke_compile's, under ctx->lock */
};

struct juke_device {
    juke_context *ctx;
    RtDevice *rt;
    char *target; /* what kernels are compiled for: "gfx90a", "sm_90", "cpu" */
    pthread_mutex_t lock;
    juke_kernel *last_async; /* the last kernel launched asynchronously, for exceptions at synchronize */
    juke_stream **streams;
    int nstreams, capstreams;
    juke_event **events;
    int nevents, capevents;
    /* Recent launches: (module, function, argument signature, options
     * generation) → kernel and loaded function, so a repeated launch skips
     * building the cache key (a few strcmps instead of string formatting). */
    struct LaunchMemo {
        juke_module *m;
        char function[64];
        int nargs;
        unsigned gen;
        uint16_t sig[64];
        unsigned variant; /* API_VARIANT_*: the arguments' class */
        juke_kernel *k;
        RtFunction *fn;
    } memo[16];
    int nmemo, next_memo;
};

struct juke_stream {
    juke_device *dev;
    RtStream *rt;
};

struct juke_event {
    juke_device *dev;
    RtEvent *rt;
    bool recorded; /* recording it is the host's promise to wait on; unrecorded is a bad argument */
};

struct juke_array {
    juke_device *dev;
    void *ptr;
    juke_type elem;
    int ndims;
    int64_t dims[8];
    int64_t length;
    bool borrowed;    /* juke_array_wrap: the host's memory, never freed by juke */
    size_t elsize;    /* elem JUKE_VALUE (juke_array_create_value): an element's bytes, */
    char eltype[128]; /* and its Julia type ("Params") */
};

/* The bytes of one element of a. */
static inline size_t api_elsize(const juke_array *a)
{
    return a->elem == JUKE_VALUE ? a->elsize : juke_sizeof(a->elem);
}

struct juke_context {
    pthread_mutex_t lock;
    juke_options opts;
    char *opt_target, *opt_devlibs, *opt_dumpdir, *opt_cachedir;
    char *env_dumpdir, *env_cachedir;
    /* what the environment said when the context was created: the library
     * reads it nowhere else */
    char *env_devlibs[8]; /* per target row (targets.c): $JUKE_DEVICE_LIBS, $JUKE_LIBDEVICE */
    int env_linker;       /* JUKE_LINK_SPAWN with $JUKE_LLD_SPAWN=1, _TMPDIR with $JUKE_LLD_NO_MEMFD=1 */
    int env_cpu_threads;  /* $JUKE_CPU_THREADS, 0 if unset or not 1..1024 */
    int env_merge_checks; /* $JUKE_MERGE_CHECKS: 1 merge bounds checks on every target, -1 on none, 0
                             (unset) the targets' default (TargetOptions.merge_checks) */
    ThreadError *errors;
    int nerrors, caperrors;
    juke_module **modules;
    int nmodules, capmodules;
    juke_kernel **kernels;
    int nkernels, capkernels;
    juke_device **devices;
    int ndevices, capdevices;
    juke_array **arrays;
    int narrays, caparrays;
    int next_kernel_id;
    JkAllocator alloc; /* the host's allocator for the front end's arenas (fn NULL: malloc) */
    unsigned opts_gen; /* bumped by juke_set_options: launch memos of older options are stale */
    Kcache *kc;        /* the on-disk kernel cache's state (kcache.h) */
    /* the timeline ($JUKE_TRACE or juke_options.trace_path): set once, then
     * only retargeted, freed at destroy; read with api_trace */
    Trace *trace;
    /* juke_set_print_callback (read by api_print_sink under lock) */
    juke_print_fn print_fn;
    void *print_user;
    uint64_t launches_seeded; /* launches given a fresh random-number seed (atomic), mixed into the next one */
    struct ArrayOps *aops;    /* the modules array operations generated (arrayops.h), made at first use */
};

/* Append item to a growable array of pointers; false when out of memory. */
bool api_push(void **items, int *n, int *cap, void *item);
/* Remove item (order not kept). */
void api_remove(void **items, int *n, void *item);
/* Make msg (malloc'd, taken) this thread's error message on ctx. */
void api_set_error(juke_context *ctx, char *msg);
/* Format this thread's error message on ctx; returns st. */
juke_status api_fail(juke_context *ctx, juke_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Specialise and compile function for the argument types (cached in memory
 * and, with a cache directory, on disk); want_asm also makes the listing. */
/* Is function a KernelAbstractions @kernel (ka.c), which takes its launch's
 * ndrange as a hidden last argument? */
bool api_is_ka_kernel(const juke_module *m, const char *function);
/* The function a host call that names `function` compiles (fe_kernel_name): a function defined inside
 * another is launched by its name, or outer/name. Each public entry taking a function name maps it once. */
const char *api_function(const juke_module *m, const char *function);
/* Launch-time variants of one kernel (Triton style): the class of a
 * launch's arguments, a bit each, in the cache key; the kernel compiled for
 * a class assumes its facts (TargetOptions). API_VARIANT_INDEX32: every
 * device array the launch passes, an argument or one inside a value argument
 * (a struct of arrays), has fewer than 2^31 elements. API_VARIANT_SAMESHAPE
 * (juke_launch's class only, never a kernel handle's, which later launches
 * may give other shapes): two or more device arrays, all of one shape.
 * API_VARIANT_SMALLGRID (juke_launch's class only): every dimension of the
 * grid has at most 2^20 workgroups, so with groups of at most 1024 every
 * work-item index fits in 31 bits. */
enum { API_VARIANT_GENERAL = 0, API_VARIANT_INDEX32 = 1, API_VARIANT_SAMESHAPE = 2, API_VARIANT_SMALLGRID = 4 };
juke_status api_compile_kernel(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                               const juke_options *o, unsigned variant, bool want_asm, juke_kernel **out);
/* The launch signature (API_SIG_NONE...) of an argument type as juke_compile takes it. */
uint16_t api_arg_signature(const char *type);
/* The context's trace, NULL when tracing is off: one load on the launch path. */
static inline Trace *api_trace(juke_context *ctx)
{
    return __atomic_load_n(&ctx->trace, __ATOMIC_ACQUIRE);
}
/* Have dev's runtime report its kernels' device spans to ctx's trace. */
void api_trace_attach(juke_device *dev);
/* Start tracing ctx to path, or send the trace there from now on (what was
 * recorded goes to the old file first). */
juke_status api_trace_start(juke_context *ctx, const char *path);

/* Does a JUKE_VALUE argument's type text name the type a kernel was compiled for (blanks aside)? */
bool api_value_matches(const char *given, const char *compiled);
/* Whether every device array inside value argument a (a struct or tuple of arrays, at any depth) has fewer
 * than 2^31 elements (API_VARIANT_INDEX32); *len the length of the first that has not. True for any other
 * argument. */
bool api_value_fits32(juke_module *m, const juke_arg *a, int64_t *len);

/* Julia's name of a juke_type / JukeTypeCode ("Float32"); "?" if none. */
const char *api_type_name(int t);

#endif
