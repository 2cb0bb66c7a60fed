/* backend.h: what runtime.c shares with the device backends (dev_cpu.c,
 * dev_hip.c, dev_cuda.c). Internal to the runtime; tests include it to reach
 * the PTX parameter parser.
 *
 * Ownership: a device owns its modules' memory only through the caller (the
 * caller unloads modules before closing the device); a module owns the
 * functions rt_function_get returns (freed by rt_module_unload). */
#ifndef JUKE_RT_BACKEND_H
#define JUKE_RT_BACKEND_H

#include <pthread.h>
#include <stdarg.h>

#include "runtime.h"

/* A device backend: one per file (dev_cpu.c, dev_hip.c, dev_cuda.c), listed
 * in runtime.c's table, which parses device specs and orders "auto" from it. */
typedef struct RtBackend {
    RtKind kind;
    const char *spec;   /* "hip": the device spec's name */
    bool indexed;       /* "hip:N" names device N */
    const char *absent; /* "no AMD GPU": what "auto" says when it cannot open one; NULL: always there */
    /* Fill dev (name, arch, limits, priv, be) for device `index`. On failure
     * the backend releases what it acquired (runtime.c frees dev), and *err
     * says why, starting with "<absent>: " when the driver or device is
     * missing; *short_why (if not NULL) gets a malloc'd few words for
     * "auto"'s line ("libamdhip64.so not found"). */
    int (*open)(RtDevice *dev, int index, char **short_why, char **err);
    void (*close)(RtDevice *dev);
    int (*alloc)(RtDevice *dev, size_t bytes, void **devptr, char **err);
    void (*free)(RtDevice *dev, void *devptr);
    int (*upload)(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err);
    int (*download)(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err);
    int (*d2d)(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err);
    /* Fill m->priv from the image. */
    int (*module_load)(RtModule *m, const void *image, size_t size, char **err);
    void (*module_unload)(RtModule *m);
    /* The device address and size of the global variable `name` of m (a device global the kernels
     * reach through get_global_pointer); -1 with *err when m has none of that name. */
    int (*global_get)(RtModule *m, const char *name, void **devptr, size_t *bytes, char **err);
    /* Fill f->info (and f->priv) for the kernel `name` of m. */
    int (*function_get)(RtFunction *f, const char *name, char **err);
    void (*function_free)(RtFunction *f);
    /* stream: the backend's native stream, NULL for the device's own;
     * timeout_s > 0: the run-time limit of a synchronous launch; flags: RT_LAUNCH_SYNC, RT_LAUNCH_COOPERATIVE */
    int (*launch)(RtFunction *f, void *stream, const RtArg *args, int nargs, const uint32_t grid[3],
                  const uint32_t group[3], uint32_t shmem_bytes, unsigned flags, double timeout_s,
                  JukeExceptionRecord *exc, char **err);
    int (*synchronize)(RtDevice *dev, void *stream, JukeExceptionRecord *exc, char **err);
    int (*stream_create)(RtDevice *dev, void **stream, char **err);
    void (*stream_destroy)(RtDevice *dev, void *stream);
    /* Events: a mark recorded on a stream (NULL: the device's own) after the
     * work queued there; wait for it; milliseconds between two recorded
     * marks. runtime.c checks that both were recorded. */
    int (*event_create)(RtDevice *dev, void **ev, char **err);
    void (*event_destroy)(RtDevice *dev, void *ev);
    int (*event_record)(RtDevice *dev, void *ev, void *stream, char **err);
    int (*event_synchronize)(RtDevice *dev, void *ev, char **err);
    int (*event_elapsed)(RtDevice *dev, void *start, void *end, float *ms, char **err);
} RtBackend;

struct RtDevice {
    const RtBackend *be;
    char name[192];
    char arch[64];
    uint32_t max_group_size;
    uint32_t max_local_bytes;
    int cpu_threads;       /* cpu backend only */
    pthread_mutex_t lock;  /* serialises launches (and exception-record reads) */
    void *priv;            /* the backend's state */
    RtTrace trace;         /* device-side timing (rt_device_set_trace) */
    struct RtSpans *spans; /* GPU kernels whose device spans are not yet read (runtime.c) */
    RtPrintSink print;     /* where kernels' output goes (rt_device_set_print_sink) */
    bool print_sorted;     /* records in work-item order (the CPU: a launch's records are drained at its end) */
    char *thrown_message;  /* the formatted message of the last JUKE_EXC_THROWN taken, or NULL */
    void *exc_host;        /* the host's view of the exception buffer (set by the backend's open) */
    /* the device heap of malloc/free in kernels (runtime/abi.h), made at the first launch of a code object
       that uses it; heap_lock guards these three */
    pthread_mutex_t heap_lock;
    void *heap;
    uint64_t heap_bytes;   /* its size */
    uint64_t heap_request; /* the size the next heap gets (rt_device_set_heap_size) */
};

struct RtModule {
    RtDevice *dev;
    bool uses_heap;        /* the code object defines JUKE_HEAP_MARKER: its kernels call malloc */
    RtFunction *functions; /* those handed out, freed at unload */
    pthread_mutex_t lock;  /* guards `functions` */
    void *priv;
};

struct RtFunction {
    RtModule *mod;
    RtFunction *next;
    RtFunctionInfo info;
    void *priv;
};

/* Poll query(stream) (cuStreamQuery, hipStreamQuery) until it answers
 * something other than not_ready or timeout_s seconds pass; returns its last
 * answer (not_ready: the limit passed with the stream still busy). */
int rt_poll_stream(int (*query)(void *), void *stream, int not_ready, double timeout_s);

/* Set *err (if err) to a malloc'd formatted message; returns -1. */
int rt_fail(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int rt_vfail(char **err, const char *fmt, va_list ap);

/* The backends, each defined in its own file. */
extern const RtBackend rt_cpu_backend, rt_hip_backend, rt_cuda_backend;
/* The HIP backend over juke's AMD ISA emulator (libjuke-amdemu.so): only by
 * its spec, "amdemu" or "amdemu:gfx942" (dev->arch holds the processor named
 * when open is called), never chosen by "auto". */
extern const RtBackend rt_amdemu_backend;

/* dev_cuda.c: the CUcontext and CUstream a cuda device uses (benchmarks time
 * launches with events on that stream); -1 when dev is not a cuda device. */
int rt_cuda_native(RtDevice *dev, void **ctx, void **stream);

/* Parse the parameter list of `.entry name (...)` in PTX text into out
 * (name, nargs, nall, args with offsets/sizes/aligns, kernarg_size,
 * has_exception_arg, max_group_size from .maxntid). */
int ptx_entry_info(const char *ptx, size_t size, const char *name, RtFunctionInfo *out, char **err);

/* Check a launch's explicit arguments against the kernel: their number
 * (the kernel's parameters less the exception pointer) and argument i's
 * size. -1 with *err when they differ. Inline: the CUDA launch path calls
 * them per launch and per argument. */
static inline int rt_check_nargs(const RtFunctionInfo *info, int nargs, char **err)
{
    uint32_t nexp = info->nargs - (info->has_exception_arg && info->nargs > 0 ? 1u : 0u);
    if (nargs < 0 || (uint32_t)nargs != nexp)
        return rt_fail(err, "%s: %d argument%s given, the kernel expects %u", info->name, nargs, nargs == 1 ? "" : "s",
                       nexp);
    return 0;
}

static inline int rt_check_arg_size(const RtFunctionInfo *info, const RtArg *args, int i, char **err)
{
    if (args[i].size != info->args[i].size)
        return rt_fail(err, "argument %d of %s: %u bytes given, the kernel expects %u", i + 1, info->name, args[i].size,
                       info->args[i].size);
    return 0;
}

/* Take a kernel's exception from the host-visible exception buffer rec
 * (JUKE_EXC_BUFFER_BYTES, runtime/abi.h): 1 with *exc (if exc) filled when a
 * kernel completed one (flag 2), else 0; either way the record is cleared for
 * the next launch. The records of the print area go to dev->print first
 * (print.c), a thrown exception's message to dev->thrown_message. The caller
 * holds dev->lock. */
int rt_exception_take(RtDevice *dev, JukeExceptionRecord *rec, JukeExceptionRecord *exc);
/* Prepare a new exception buffer of JUKE_EXC_BUFFER_BYTES: the record and the
 * print header cleared, the print area's capacity set. */
void rt_exception_buffer_init(void *buf);
/* Deliver the print area's records of buf to dev->print and clear it; the
 * message record of a thrown exception (index[0] of rec, a JUKE_EXC_THROWN)
 * becomes dev->thrown_message instead (print.c). */
void rt_print_drain(RtDevice *dev, void *buf, const JukeExceptionRecord *rec);

/* ---- GPU drivers loaded with dlopen (dev_hip.c, dev_cuda.c) ---- */

/* What a GPU backend's messages call its driver, and where to find it. */
typedef struct RtDriver {
    const char *no_gpu;       /* "no AMD GPU": starts each "no device" error */
    const char *what;         /* "HIP runtime" */
    const char *env;          /* "JUKE_HIP_LIBRARY": a path that replaces `names` */
    const char *const *names; /* sonames tried in order; names[0] is the one messages name */
    size_t nnames;
    const char *spec;  /* "hip", as in the device spec "hip:N" */
    const char *init;  /* "hipInit" */
    const char *count; /* "hipGetDeviceCount" */
} RtDriver;

/* An entry point to resolve: its symbol and where its address goes. */
typedef struct RtDriverSym {
    const char *name;
    void **slot;
} RtDriverSym;

/* dlopen the driver ($env if set, else each of names in turn) and resolve
 * every sym into its slot. Returns the handle, or NULL with *err
 * ("<no_gpu>: the <what> (<path>) could not be loaded: <dlerror>" or
 * "<no_gpu>: <path> is not a usable <what>: missing symbol <sym>") and
 * *short_why if not NULL ("<env> not loadable", "<names[0]> not found",
 * "<path> lacks <sym>"). */
void *rt_driver_load(const RtDriver *d, const RtDriverSym *syms, size_t nsyms, char **short_why, char **err);

/* After the driver's init call returned e_init (0: success) and, if it
 * succeeded, its device-count call returned e_count and count: 0 when
 * device `index` exists, else -1 with *err and (except for a bad index)
 * *short_why. init_why / count_why: the driver's words for a failure. */
int rt_driver_check_devices(const RtDriver *d, int index, int e_init, const char *init_why, int e_count,
                            const char *count_why, int count, char **short_why, char **err);

#endif
