/* runtime.h: juke's runtime: devices, memory, code objects and launches, for
 * every backend (cpu, hip, cuda), with no LLVM dependency. The public API
 * (compiler/api.c) and the benchmarks drive it; each backend lives in one
 * file (dev_cpu.c, dev_hip.c, dev_cuda.c) behind RtBackend.
 *
 * Errors: functions return 0 on success; on failure they return -1 and, when
 * err is not NULL, set *err to a malloc'd message (the caller frees it). */
#ifndef JUKE_RUNTIME_H
#define JUKE_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi.h"

typedef enum RtKind { RT_CPU = 1, RT_HIP, RT_CUDA } RtKind;

typedef struct RtDevice RtDevice;
typedef struct RtModule RtModule;
typedef struct RtFunction RtFunction;

/* Open "cpu", "hip", "hip:N", "cuda", "cuda:N" or "auto" (HIP if an AMD GPU
 * is present, else CUDA if an NVIDIA GPU is, else the CPU). For "auto",
 * *chosen_why (if not NULL) gets a malloc'd line saying what was chosen and why.
 * cpu_threads: a CPU device's worker threads (0: every core the process may
 * run on). */
int rt_device_open(const char *spec, int cpu_threads, RtDevice **out, char **chosen_why, char **err);
/* The device backends' spec names ("hip", "cuda", "cpu"), in the order
 * "auto" tries them: i from 0 while it returns non-NULL. */
const char *rt_backend_spec(int i);
void rt_device_close(RtDevice *dev);
RtKind rt_device_kind(const RtDevice *dev);
const char *rt_device_name(const RtDevice *dev); /* "cpu (2 threads)", "cuda:0 sm_90 (NVIDIA H200)" */
const char *rt_device_arch(const RtDevice *dev); /* "gfx90a", "sm_90", "x86-64" */
uint32_t rt_device_max_group_size(const RtDevice *dev);
uint32_t rt_device_max_local_bytes(const RtDevice *dev); /* local memory per workgroup */

/* Device memory. On the CPU, device pointers are host pointers. */
int rt_alloc(RtDevice *dev, size_t bytes, void **devptr, char **err);
void rt_free(RtDevice *dev, void *devptr);
int rt_upload(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err);
/* The device address and size in bytes of the global variable `name` of a loaded code object (a device
 * global, AMDGPU.get_global_pointer); -1 with *err when it has none of that name. */
int rt_module_global(RtModule *m, const char *name, void **devptr, size_t *bytes, char **err);
/* The loaded code object a function belongs to. */
RtModule *rt_function_module(RtFunction *f);
int rt_download(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err);
int rt_memcpy_d2d(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err);

/* Load a code object: an AMDGPU ELF (hip), PTX text (cuda) or a CPU shared
 * object (cpu; loaded from memory with memfd where possible, otherwise from a
 * private file unlinked at once). */
int rt_module_load(RtDevice *dev, const void *image, size_t size, RtModule **out, char **err);
void rt_module_unload(RtModule *m);

/* What the runtime knows of a kernel, from the code object's own metadata
 * (AMDGPU msgpack notes; the CPU table; for PTX the .entry parameter list). */
typedef struct RtArgInfo {
    uint32_t offset, size, align;
    bool hidden;         /* AMDGPU hidden argument (filled by the runtime / HIP) */
    char name[48];       /* ".name" when present */
    char value_kind[32]; /* "by_value", "global_buffer", "hidden_block_count_x", ... */
} RtArgInfo;

typedef struct RtFunctionInfo {
    char name[128];
    uint32_t kernarg_size;     /* whole segment, hidden arguments included */
    uint32_t nargs;            /* explicit arguments, the exception pointer included */
    RtArgInfo args[64];        /* explicit first, then hidden */
    uint32_t nall;             /* explicit + hidden */
    uint32_t static_lds_bytes; /* group_segment_fixed_size */
    uint32_t max_group_size;   /* max_flat_workgroup_size, 0 = unknown */
    bool has_exception_arg;    /* the last explicit argument is __juke_exception */
    uint32_t vgprs, sgprs, agprs, scratch_bytes, wavefront_size, vgpr_spills, sgpr_spills;
} RtFunctionInfo;

int rt_function_get(RtModule *m, const char *name, RtFunction **out, char **err);
const RtFunctionInfo *rt_function_info(const RtFunction *f);

/* One explicit argument's bytes (a scalar, or a JukeArrayArg). */
typedef struct RtArg {
    const void *data;
    uint32_t size, align;
} RtArg;

/* The one check of a launch's shape, before anything runs: the group (no
 * zero dimension, the device's and the kernel's limits), local memory
 * (align16(static) + shmem against the device), and the grid (the device's
 * per-dimension limits, at most 2^63-1 work-items in all: no count wraps).
 * -1 with *err, a message without the kernel's name, when it fails. */
int rt_check_launch(const RtFunction *f, const uint32_t grid[3], const uint32_t group[3], uint32_t shmem_bytes,
                    char **err);

/* Launch f with its explicit arguments (the exception pointer excluded: the
 * runtime appends its own when the kernel has one). grid counts workgroups.
 * When sync, waits for the kernel and reports a kernel exception as an error
 * (return 1, with *exc filled when exc is not NULL); otherwise exceptions
 * surface at rt_synchronize. Returns 0 on success, -1 on a launch failure. */
int rt_launch(RtFunction *f, const RtArg *args, int nargs, const uint32_t grid[3], const uint32_t group[3],
              uint32_t shmem_bytes, bool sync, JukeExceptionRecord *exc, char **err);
/* Wait for every launch; 1 with *exc filled if a kernel raised an exception. */
int rt_synchronize(RtDevice *dev, JukeExceptionRecord *exc, char **err);

/* Streams: launches on one stream run in order, on different streams may
 * overlap (HIP, CUDA; the CPU runs every launch to completion). The device's
 * exception record is shared: an exception surfaces at the next
 * synchronisation of any stream of the device. */
typedef struct RtStream RtStream;
int rt_stream_create(RtDevice *dev, RtStream **out, char **err);
void rt_stream_destroy(RtStream *s);
int rt_stream_synchronize(RtStream *s, JukeExceptionRecord *exc, char **err);
/* rt_launch on a stream (NULL: the device's own), with a run-time limit
 * when timeout_s > 0 (sync launches): the CPU cancels the kernel at a loop
 * back-edge (return 1, exc->kind JUKE_EXC_TIMEOUT, exc->index[0] the limit
 * in microseconds); a GPU backend stops waiting (-1: the kernel may still
 * be running). */
int rt_launch_on(RtFunction *f, RtStream *s, const RtArg *args, int nargs, const uint32_t grid[3],
                 const uint32_t group[3], uint32_t shmem_bytes, unsigned flags, double timeout_s,
                 JukeExceptionRecord *exc, char **err);
/* rt_launch_on's flags: RT_LAUNCH_SYNC is `sync` above (true passes it); RT_LAUNCH_COOPERATIVE keeps every
 * workgroup resident at once (HIP/CUDA cooperative launches; the CPU runs each group on a thread of its own)
 * so that sync_grid() can pass. */
enum { RT_LAUNCH_SYNC = 1, RT_LAUNCH_COOPERATIVE = 2 };

/* Events: a point in a stream's work, for timing it. Recording marks the
 * point after everything queued on the stream (NULL: the device's own) so
 * far; the CPU, whose launches run to completion, reads the wall clock. */
typedef struct RtEvent RtEvent;
int rt_event_create(RtDevice *dev, RtEvent **out, char **err);
void rt_event_destroy(RtEvent *e);
int rt_event_record(RtEvent *e, RtStream *s, char **err);
/* Wait until the work before the recorded point is done. */
int rt_event_synchronize(RtEvent *e, char **err);
/* Milliseconds from start to end, both recorded on one device (waits for end). */
int rt_event_elapsed_ms(RtEvent *start, RtEvent *end, float *ms, char **err);
/* Device-side timing for a trace (compiler/trace.c): when kernel is set,
 * the runtime reports each kernel's execution on the device, in
 * CLOCK_MONOTONIC microseconds (rt_now_us): the CPU its launch's wall time,
 * as the launch returns. stream is the launch's RtStream (NULL: the
 * device's own). Set before launching; NULL kernel turns it off. */
typedef struct RtTrace {
    void (*kernel)(void *user, const RtStream *stream, const char *name, double start_us, double end_us);
    void *user;
} RtTrace;
void rt_device_set_trace(RtDevice *dev, const RtTrace *trace);
/* Where kernels' output goes: write(user, stream, text, len) with stream 1
 * for what kernels printed (one call per record, a record being one
 * @rocprintf/@rocprint of one work-item) and 2 for the runtime's note that
 * records were lost (the print area was full). The runtime calls it from the
 * launch or synchronisation that drains the records, under the device's
 * lock. NULL write: stdout and stderr. */
typedef struct RtPrintSink {
    void (*write)(void *user, int stream, const char *text, size_t len);
    void *user;
} RtPrintSink;
void rt_device_set_print_sink(RtDevice *dev, const RtPrintSink *sink);
/* The size in bytes of the heap that malloc in kernels allocates from (runtime/abi.h; default
 * JUKE_HEAP_DEFAULT_BYTES). Setting another size frees the current heap, and with it every block kernels
 * allocated and did not free; the next launch that needs a heap makes one of the new size. -1 with *err for
 * a size outside JUKE_HEAP_STATE_BYTES + 32 .. JUKE_HEAP_MAX_BYTES. */
int rt_device_set_heap_size(RtDevice *dev, uint64_t bytes, char **err);
uint64_t rt_device_heap_size(RtDevice *dev);
/* The message of the last thrown exception (error("..."), throw(E("...")),
 * @assert) a synchronisation or launch reported, malloc'd, or NULL;
 * cleared by the call. */
char *rt_thrown_message_take(RtDevice *dev);
double rt_now_us(void);

/* Pack explicit arguments into a kernarg buffer following the metadata's
 * offsets (used by the hip backend; exposed for tests). Hidden arguments are
 * zeroed except those the runtime can fill (block counts, group sizes,
 * grid dims) from grid/group. Returns the bytes written or -1. */
int rt_pack_kernargs(const RtFunctionInfo *info, const RtArg *args, int nargs, void *exc_ptr, const uint32_t grid[3],
                     const uint32_t group[3], uint32_t shmem_bytes, uint8_t *buf, size_t bufsize, char **err);

/* Parse the AMDGPU code object's metadata (the NT_AMDGPU_METADATA msgpack
 * note) for one kernel (by name, or its ".kd" symbol name). */
int amdgpu_meta_read(const void *elf, size_t size, const char *kernel, RtFunctionInfo *out, char **err);
/* Every kernel name in the metadata, malloc'd array of malloc'd strings. */
int amdgpu_meta_kernels(const void *elf, size_t size, char ***names, int *count, char **err);

/* Number of threads the CPU backend uses (for tests and benchmarks). */
int rt_cpu_threads(const RtDevice *dev);

#endif
