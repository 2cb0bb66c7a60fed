/* juke.h: the whole embedding API of juke, a JIT compiler for GPU kernels
 * written in a Julia subset (as AMDGPU.jl users write them).
 *
 * Model:
 *   juke_context   everything hangs off one; two contexts never interfere.
 *   juke_module    a loaded source file (its functions and constants).
 *   juke_kernel    a function specialised on argument types and compiled for a
 *                  target: a code object plus its dumps. Owned by the context,
 *                  cached by (function, argument types, target options).
 *   juke_device    a place to run kernels: "cpu", "hip[:N]", "cuda[:N]", "auto".
 *   juke_array     device memory with an element type and dims (column-major);
 *                  juke's own (juke_array_create) or the host's (juke_array_wrap).
 *   juke_event     a point in a device's work, for timing it.
 *
 * Errors: every function that can fail returns a juke_status; the message
 * (with file:line:col, the source line and a caret for source errors) is
 * juke_errmsg(ctx), kept per thread. The library never exits or aborts on bad
 * input.
 *
 * Threads: a context may be used from several threads at once; compilation
 * and the kernel cache are internally locked. A module, device or array may
 * be shared between threads; launches on one device are serialised.
 */
#ifndef JUKE_H
#define JUKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JUKE_VERSION_MAJOR 0
#define JUKE_VERSION_MINOR 1
#define JUKE_VERSION_PATCH 0
#define JUKE_VERSION_STRING "0.1.0"

#if defined(JUKE_BUILDING_LIBRARY)
#define JUKE_API __attribute__((visibility("default")))
#else
#define JUKE_API
#endif

typedef struct juke_context juke_context;
typedef struct juke_module juke_module;
typedef struct juke_kernel juke_kernel;
typedef struct juke_device juke_device;
typedef struct juke_array juke_array;
typedef struct juke_stream juke_stream;
typedef struct juke_event juke_event;

typedef enum juke_status {
    JUKE_OK = 0,
    JUKE_ERR_COMPILE,     /* the source has an error (syntax, types, dispatch, ...) */
    JUKE_ERR_INVALID_IR,  /* a verifier rejected IR: a juke bug, reported as such */
    JUKE_ERR_INTERNAL,    /* an internal compiler error */
    JUKE_ERR_ARGUMENT,    /* bad API use: NULL handle, wrong argument count or type, bad launch size,
                             an out-of-range copy */
    JUKE_ERR_DEVICE,      /* no such device, driver or library missing, device failure */
    JUKE_ERR_KERNEL,      /* a kernel raised an exception (BoundsError, InexactError, DivideError) */
    JUKE_ERR_NOMEM,       /* out of host memory */
    JUKE_ERR_IO,          /* a file could not be read or written */
    JUKE_ERR_UNSUPPORTED, /* this build lacks the feature (e.g. a runtime-only build compiling) */
} juke_status;

/* Julia's primitive types, as element and scalar types. */
typedef enum juke_type {
    JUKE_BOOL = 1,
    JUKE_INT8,
    JUKE_INT16,
    JUKE_INT32,
    JUKE_INT64,
    JUKE_UINT8,
    JUKE_UINT16,
    JUKE_UINT32,
    JUKE_UINT64,
    JUKE_FLOAT16,
    JUKE_FLOAT32,
    JUKE_FLOAT64,
    /* Complex{Float32} and Complex{Float64}: array element types only (a complex scalar argument is a
     * JUKE_VALUE of type "ComplexF32"). Julia's layout: the real part, then the imaginary part, each a T. */
    JUKE_COMPLEXF32,
    JUKE_COMPLEXF64,
    /* A kernel argument of any other Julia type (juke_arg_value): a tuple, a struct, a NamedTuple, or a
     * value without bits (Type{UInt8}, Val{4}, :add, typeof(+)). Not an array element type. */
    JUKE_VALUE = 64,
} juke_type;

/* ---- contexts ------------------------------------------------------------ */

/* Create a context. Returns NULL only when out of memory. The environment
 * variable JUKE_DUMP_DIR, when set, makes every kernel compiled or fetched
 * from the cache write its dumps there (see juke_kernel_write_dumps);
 * JUKE_CACHE_DIR names the on-disk kernel cache (see juke_options). */
JUKE_API juke_context *juke_context_create(void);
/* An allocator in Lua's style (lua_Alloc): alloc(ud, NULL, 0, n) returns n
 * bytes (16-byte aligned) or NULL; alloc(ud, p, n, 0) frees p of n bytes. */
typedef void *(*juke_alloc_fn)(void *ud, void *ptr, size_t oldsize, size_t newsize);
/* A context whose compiler memory (loaded sources, ASTs, IR, types: every
 * arena of the front end) comes from alloc. A failed allocation is a
 * JUKE_ERR_NOMEM, never a crash. Handles, code objects and strings returned to
 * the host use malloc; LLVM's memory and device memory are not covered, nor is
 * the Base prelude's syntax tree (parsed once per process, shared by every
 * context, malloc'd). */
JUKE_API juke_context *juke_context_create_with_allocator(juke_alloc_fn alloc, void *ud);
/* Destroy a context and everything it owns (modules, kernels, devices, arrays). */
JUKE_API void juke_context_destroy(juke_context *ctx);
/* The message of the last failed call made by this thread on ctx ("" if none).
 * The context keeps the messages of the 64 threads that failed most recently;
 * a thread's message stays valid until its next call on ctx. */
JUKE_API const char *juke_errmsg(juke_context *ctx);
/* Free a string returned by juke (juke_lowered, juke_typed, ...). */
JUKE_API void juke_free(void *p);
JUKE_API const char *juke_status_name(juke_status s);
JUKE_API const char *juke_version(void);
/* The identity of the sources this library was built from: 16 hex digits of a
 * hash over the compiler's and the public header's files, made at build time.
 * The disk cache keeps it in each entry's build identity, so an entry written
 * by a build of other sources is never served (it is rebuilt). */
JUKE_API const char *juke_build_id(void);

/* Compilation options. Zero-initialise and set what you need;
 * juke_options_default fills the defaults. */
typedef struct juke_options {
    const char *target;      /* "gfx90a" (default for AMDGPU), any gfx name, "sm_90"..., "cpu" */
    int opt_level;           /* 0..3, default 3 */
    int code_object_version; /* AMDGPU: 4 or 5, default 5 */
    int wavefront_size;      /* 0 = the processor's default; 32 or 64. The CPU forms waves of this many
                                   work-items (default 64) for the wavefront operations */
    const char *device_libs; /* the target's device libraries: AMDGPU the ROCm bitcode directory, NVPTX
                                   libdevice.10.bc; NULL = $JUKE_DEVICE_LIBS (AMDGPU) or $JUKE_LIBDEVICE
                                   (NVPTX), read when the context was created, or the defaults */
    const char *dump_dir;    /* write every kernel's dumps here (NULL = $JUKE_DUMP_DIR or none) */
    const char *cache_dir;   /* the on-disk kernel cache (NULL = $JUKE_CACHE_DIR or none; "" = none,
                                   whatever the environment says): compiled
                                   kernels are saved there and reused by later processes, also by a
                                   juke built without LLVM (-Dcompiler=false), which only runs them.
                                   It must be this user's and writable by no one else (juke creates
                                   it 0700); else a warning and no disk cache (juke_set_log_callback) */
    int linker;              /* how code objects are linked: JUKE_LINK_AUTO (0: ld.lld as a library where
                                   juke has it, else spawned), JUKE_LINK_SPAWN (spawn ld.lld; was
                                   $JUKE_LLD_SPAWN=1), JUKE_LINK_SPAWN_TMPDIR (spawn it on files in a private
                                   temporary directory rather than a memfd; was $JUKE_LLD_NO_MEMFD=1) */
    int cpu_threads;         /* worker threads of CPU devices opened afterwards: 0 = $JUKE_CPU_THREADS
                                   or every core the process may run on; at most 1024 */
    size_t max_source_bytes; /* juke_module_load_file refuses a larger file (0 = 256 MiB); it reads
                                   regular files only, so /dev/zero or a FIFO is an error, not a hang */
    int debuginfo;           /* source lines in the LLVM and assembly dumps: JUKE_DEBUGINFO_SOURCE (0,
                                   the default) or JUKE_DEBUGINFO_NONE. The code object is the same either
                                   way: it never carries line information */
    const char *trace_path;  /* write a timeline of the context (compiles per stage, cache hits and misses,
                                   module loads, launches, kernels on the device per stream, copies) to this
                                   file as Chrome/Perfetto trace JSON, at juke_context_destroy and as it grows
                                   (NULL = $JUKE_TRACE, read at juke_context_create, or none). The file is
                                   written at once, so an unwritable path fails here (JUKE_ERR_IO). A later
                                   path moves the whole trace there; NULL keeps tracing where it goes */
    int index_bits;          /* juke_compile: 0 or 64 = the general kernel; 32 = the variant for launches whose
                                   device arrays all have fewer than 2^31 elements, its array indices computed in
                                   32 bits (a launch of it with a larger array fails). juke_launch and
                                   juke_kernel_for pick the variant from the arguments themselves and ignore this */
    int same_shape;          /* juke_compile: nonzero = the variant for launches whose device arrays (two or more)
                                   all have one shape: each array takes the first's dims, so a guard on one's size
                                   covers the others' bounds checks (a launch of it with arrays of other shapes
                                   fails). juke_launch picks it from the arguments by itself, a kernel handle of
                                   juke_kernel_for never has it; both ignore this */
    int small_grid;          /* juke_compile: nonzero = the variant for launches whose grid has at most 2^20
                                   workgroups in each dimension: with index_bits 32 a work-item's global index
                                   and the compares of it are 32-bit (a launch of it with a larger grid fails).
                                   juke_launch picks it from the launch's shape by itself, a kernel handle of
                                   juke_kernel_for never has it; both ignore this */
} juke_options;
enum { JUKE_DEBUGINFO_SOURCE = 0, JUKE_DEBUGINFO_NONE = 1 };
enum { JUKE_LINK_AUTO = 0, JUKE_LINK_SPAWN = 1, JUKE_LINK_SPAWN_TMPDIR = 2 };
JUKE_API void juke_options_default(juke_options *o);
/* Set the context's default options (copied). */
JUKE_API juke_status juke_set_options(juke_context *ctx, const juke_options *o);

/* Notes and warnings: things a user may want to know that are no error.
 * JUKE_LOG_WARNING: juke did something other than asked (e.g. it refused a
 * kernel cache directory that others could write, and compiled without it);
 * JUKE_LOG_NOTE: juke repaired something on its own (e.g. it removed a cache
 * entry that failed its checks and rebuilt the kernel). */
typedef enum juke_log_level { JUKE_LOG_NOTE = 1, JUKE_LOG_WARNING } juke_log_level;
typedef void (*juke_log_fn)(void *user, juke_log_level level, const char *msg);
/* Send ctx's notes and warnings to fn(user, level, msg) (NULL fn: drop them,
 * the default). fn is called from the thread making the call that reports,
 * never by two threads at once; msg has no trailing newline and lives for
 * the call only. */
JUKE_API void juke_set_log_callback(juke_context *ctx, juke_log_fn fn, void *user);

/* What kernels print (@rocprintf, @rocprint, @rocprintln) goes through a
 * buffer on the device that the runtime reads when the launch is complete: at
 * the end of the launch on the CPU device, at the next synchronisation on a
 * GPU. fn(user, stream, text, len) gets stream 1 and the text of one record
 * (what one work-item printed with one call: never split) per call, on the
 * CPU in work-item order (workgroup x, y, z, then work-item x, y, z, each
 * work-item's records in the order it printed them), on a GPU in the order
 * the records were written; and stream 2 with a note ("juke: N print records
 * (B bytes) lost: ...") when the buffer was full and records were dropped.
 * text is not NUL-terminated and lives for the call only. fn runs on the
 * thread that launches or synchronises, under the device's lock: it must not
 * call juke on the same device. NULL fn (the default): stdout, and the note
 * to stderr. Applies to the devices of ctx, also those already open. */
typedef void (*juke_print_fn)(void *user, int stream, const char *text, size_t len);
JUKE_API void juke_set_print_callback(juke_context *ctx, juke_print_fn fn, void *user);

/* ---- modules ------------------------------------------------------------- */

/* Load a source file / a string. On a compile error, *out is NULL and
 * juke_errmsg() has every error found. The name is used in messages. A file
 * must be a regular file of at most juke_options.max_source_bytes, else
 * JUKE_ERR_IO ("could not read k.jl: not a regular file"). */
JUKE_API juke_status juke_module_load_file(juke_context *ctx, const char *path, juke_module **out);
JUKE_API juke_status juke_module_load_string(juke_context *ctx, const char *name, const char *source,
                                             juke_module **out);
/* Modules are freed with their context; this frees one earlier (its kernels too). */
JUKE_API void juke_module_free(juke_module *m);
/* The module's function names (each generic function once, in source order). */
JUKE_API int juke_module_function_count(const juke_module *m);
JUKE_API const char *juke_module_function_name(const juke_module *m, int i);

/* A function is named as the file names it ("vadd!"); one defined inside a host function (`function f()
 * function kernel(x) ... end; @roc kernel(x) end`, as AMDGPU.jl's tests write kernels) by its name, or as
 * "f/kernel" where several functions define one of that name; one that captures the host function's variables
 * takes their values first (docs/language.md, "Kernels defined inside host functions").
 *
 * Argument types are written in Julia syntax for the host-side argument:
 * "Vector{Float32}", "Matrix{Float64}", "Array{Int64,3}", "Float32", "Int32", "Bool". */

/* The lowered IR of a function's methods (like @code_lowered); with types
 * given, only the method that dispatch picks. *out is malloc'd (juke_free). */
JUKE_API juke_status juke_lowered(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                                  char **out);
/* The typed IR of the specialisation (like @code_typed), callees included. */
JUKE_API juke_status juke_typed(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                                char **out);

/* ---- kernels: specialise and compile -------------------------------------- */

/* Specialise a function on argument types and compile it for opts->target
 * (NULL opts = the context's options). The kernel is cached: a second call
 * with the same function, types and options returns the same handle. */
JUKE_API juke_status juke_compile(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                                  const juke_options *opts, juke_kernel **out);

typedef enum juke_dump {
    JUKE_DUMP_LOWERED,     /* @code_lowered */
    JUKE_DUMP_TYPED,       /* @code_typed */
    JUKE_DUMP_LLVM_RAW,    /* the LLVM module before optimisation */
    JUKE_DUMP_LLVM,        /* the kernel function after optimisation */
    JUKE_DUMP_LLVM_MODULE, /* the whole module after optimisation */
    JUKE_DUMP_ASM,         /* GCN assembly, PTX or host assembly */
    JUKE_DUMP_RESOURCES,   /* VGPRs, SGPRs, LDS, scratch, occupancy, compile times */
} juke_dump;
/* A dump of a compiled kernel; valid while the kernel lives. A compile keeps
 * only what a launch needs: the first request for the lowered or typed IR
 * runs the front end again, and the first for the assembly or an LLVM text
 * compiles the kernel again, to make them (unless a dump directory was set
 * when it was compiled). */
JUKE_API const char *juke_kernel_dump(juke_kernel *k, juke_dump which);
/* The code object (hsaco ELF, PTX text, or CPU shared object); valid while the kernel lives. */
JUKE_API const void *juke_kernel_code_object(juke_kernel *k, size_t *size);
/* The kernel's symbol name in its code object. */
JUKE_API const char *juke_kernel_symbol(juke_kernel *k);
/* Write <kernel>_<hash>.lowered.jl, .typed.jl, .unopt.ll, .opt.ll, .asm, .resources.txt
 * and the code object (.hsaco / .ptx / .so) into dir (created if missing). The
 * hash is six hex digits over the argument types, target and options
 * (vadd!_3fa2c1.typed.jl), so each specialisation has its own files and gets
 * the same names in every process. Each file is written whole (a temporary
 * file renamed over it), so processes sharing dir never see half a file. */
JUKE_API juke_status juke_kernel_write_dumps(juke_kernel *k, const char *dir);

/* ---- devices and arrays --------------------------------------------------- */

/* Open a device: "cpu", "hip", "hip:N", "cuda", "cuda:N", or "auto" (an AMD
 * GPU, else an NVIDIA GPU, else the CPU). Devices close with their context. */
JUKE_API juke_status juke_device_open(juke_context *ctx, const char *spec, juke_device **out);
JUKE_API void juke_device_close(juke_device *dev);
/* "cpu (2 threads)", "hip:0 gfx90a (AMD Instinct MI250X)", "cuda:0 sm_90 (NVIDIA H200)". */
JUKE_API const char *juke_device_name(juke_device *dev);
/* Wait for every launch on the device; reports a pending kernel exception. */
JUKE_API juke_status juke_device_synchronize(juke_device *dev);
/* The device heap that malloc(n) in kernels allocates from (AMDGPU.jl's device malloc; docs/abi.md "The
 * device heap"): 8 MiB by default, made in device memory at the first launch of a kernel that calls malloc,
 * and kept, with the blocks kernels did not free, until the device closes. Blocks are never moved or merged;
 * when the heap has no room, malloc returns NULL. Setting a size other than the current one frees the heap
 * and every block in it (call it before launching, or between launches when no kernel holds a block); the
 * next kernel that calls malloc gets a fresh heap of `bytes`. JUKE_ERR_ARGUMENT outside 544 bytes .. 4 GiB. */
JUKE_API juke_status juke_device_set_heap_size(juke_device *dev, uint64_t bytes);
JUKE_API uint64_t juke_device_heap_size(juke_device *dev);

/* An array of ndims (1..8) dims on a device, uninitialised. */
JUKE_API juke_status juke_array_create(juke_device *dev, juke_type elem, int ndims, const int64_t *dims,
                                       juke_array **out);
JUKE_API void juke_array_free(juke_array *a);
/* Copy exactly the array's bytes (length * sizeof(elem)) from / to host memory (column-major). */
JUKE_API juke_status juke_array_upload(juke_array *a, const void *host, size_t bytes);
JUKE_API juke_status juke_array_download(juke_array *a, void *host, size_t bytes);
JUKE_API int64_t juke_array_length(const juke_array *a);
JUKE_API size_t juke_sizeof(juke_type t);

/* An array over memory the host already owns: devptr is a device pointer of
 * dev (from hipMalloc on a hip device, cuMemAlloc on a cuda device; host
 * memory on the CPU device) holding at least length * juke_sizeof(elem)
 * bytes, aligned to the element. juke never frees it: juke_array_free,
 * juke_device_close and juke_context_destroy release the handle only, and
 * the memory must outlive every launch that uses the array. */
JUKE_API juke_status juke_array_wrap(juke_device *dev, void *devptr, juke_type elem, int ndims, const int64_t *dims,
                                     juke_array **out);
/* Set every element to *value (juke_sizeof(elem) bytes of host memory). */
JUKE_API juke_status juke_array_fill(juke_array *a, const void *value);
/* Copy count elements between host memory and an array, or between two
 * arrays of one element type (on one device or two). Offsets count elements
 * from 0, in column-major order; a range past either array's end is
 * JUKE_ERR_ARGUMENT and copies nothing. */
JUKE_API juke_status juke_array_copy_from_host(juke_array *dst, int64_t dst_offset, const void *src, int64_t count);
JUKE_API juke_status juke_array_copy_to_host(void *dst, const juke_array *src, int64_t src_offset, int64_t count);
JUKE_API juke_status juke_array_copy(juke_array *dst, int64_t dst_offset, const juke_array *src, int64_t src_offset,
                                     int64_t count);
/* The array's shape and storage: ndims; size(a, d) as Julia's, d counting
 * from 1 (1 past ndims, 0 for a bad d or NULL); the element type (0 for
 * NULL); the device pointer (a host pointer on the CPU device); its device. */
JUKE_API int juke_array_ndims(const juke_array *a);
JUKE_API int64_t juke_array_size(const juke_array *a, int d);
JUKE_API juke_type juke_array_eltype(const juke_array *a);
JUKE_API void *juke_array_pointer(const juke_array *a);
JUKE_API juke_device *juke_array_device(const juke_array *a);

/* ---- array operations (AMDGPU.jl's arrays) ---------------------------------
 * Made by kernels juke generates in Julia and compiles like any other
 * (cached per context and on disk; JUKE_DUMP_DIR dumps them too). */

/* A new array of dims set to zero, to one, or to *value (juke_sizeof(elem) bytes), as Julia's zeros,
 * ones and fill. */
JUKE_API juke_status juke_array_zeros(juke_device *dev, juke_type elem, int ndims, const int64_t *dims,
                                      juke_array **out);
JUKE_API juke_status juke_array_ones(juke_device *dev, juke_type elem, int ndims, const int64_t *dims,
                                     juke_array **out);
JUKE_API juke_status juke_array_full(juke_device *dev, juke_type elem, int ndims, const int64_t *dims,
                                     const void *value, juke_array **out);
/* A new array holding a copy of host's length * juke_sizeof(elem) bytes (column-major); back to the host
 * with juke_array_download. */
JUKE_API juke_status juke_array_from_host(juke_device *dev, juke_type elem, int ndims, const int64_t *dims,
                                          const void *host, juke_array **out);
/* A new array of random numbers drawn on the device by the kernel language's generator (rand(T):
 * uniform in [0, 1) for floats, every value for integers and Bool; randn(T): standard normal, floats
 * only). Element i is the first draw of work-item i of a launch in groups of 256 keyed by seed, so a
 * seed gives the same array on every device (randn up to the last bits of log and cos). */
JUKE_API juke_status juke_array_rand(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, uint64_t seed,
                                     juke_array **out);
JUKE_API juke_status juke_array_randn(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, uint64_t seed,
                                      juke_array **out);

/* ---- launching ------------------------------------------------------------ */

/* A kernel argument: an array, a scalar of one of the primitive types, or a value of any type by its
 * Julia type and bytes (JUKE_VALUE). */
typedef struct juke_arg {
    bool is_array;
    juke_type type; /* the scalar's type (ignored for arrays) */
    union {
        juke_array *array;
        int64_t i;  /* Bool, Int8..Int64 */
        uint64_t u; /* UInt8..UInt64 */
        float f32;
        double f64;
        uint16_t f16; /* Float16 bits */
        struct {
            const char *type;  /* its Julia type, as juke_compile takes types: "Int128" and "UInt128" (16
                                  bytes, little-endian), "Tuple{Float32, Float32}",
                                  "NTuple{3, Float32}", "Params", "P{Float32}", "@NamedTuple{a::Int64, b::Float32}",
                                  "Type{UInt8}", "Val{4}", ":add", "typeof(+)" */
            const void *bytes; /* the value in Julia's layout (docs/abi.md, juke_value_layout); may be NULL
                                  for a type without bits (Type{T}, Val{x}, a Symbol, a function) */
            size_t size;       /* its size in bytes: checked against the type's at launch */
        } value;
    } v;
} juke_arg;

static inline juke_arg juke_arg_array(juke_array *a)
{
    juke_arg r = { true, (juke_type)0, { 0 } };
    r.v.array = a;
    return r;
}
static inline juke_arg juke_arg_f32(float x)
{
    juke_arg r = { false, JUKE_FLOAT32, { 0 } };
    r.v.f32 = x;
    return r;
}
static inline juke_arg juke_arg_f64(double x)
{
    juke_arg r = { false, JUKE_FLOAT64, { 0 } };
    r.v.f64 = x;
    return r;
}
static inline juke_arg juke_arg_i32(int32_t x)
{
    juke_arg r = { false, JUKE_INT32, { 0 } };
    r.v.i = x;
    return r;
}
static inline juke_arg juke_arg_i64(int64_t x)
{
    juke_arg r = { false, JUKE_INT64, { 0 } };
    r.v.i = x;
    return r;
}
static inline juke_arg juke_arg_bool(bool x)
{
    juke_arg r = { false, JUKE_BOOL, { 0 } };
    r.v.i = x;
    return r;
}
static inline juke_arg juke_arg_i8(int8_t x)
{
    juke_arg r = { false, JUKE_INT8, { 0 } };
    r.v.i = x;
    return r;
}
static inline juke_arg juke_arg_i16(int16_t x)
{
    juke_arg r = { false, JUKE_INT16, { 0 } };
    r.v.i = x;
    return r;
}
static inline juke_arg juke_arg_u8(uint8_t x)
{
    juke_arg r = { false, JUKE_UINT8, { 0 } };
    r.v.u = x;
    return r;
}
static inline juke_arg juke_arg_u16(uint16_t x)
{
    juke_arg r = { false, JUKE_UINT16, { 0 } };
    r.v.u = x;
    return r;
}
static inline juke_arg juke_arg_u32(uint32_t x)
{
    juke_arg r = { false, JUKE_UINT32, { 0 } };
    r.v.u = x;
    return r;
}
static inline juke_arg juke_arg_u64(uint64_t x)
{
    juke_arg r = { false, JUKE_UINT64, { 0 } };
    r.v.u = x;
    return r;
}
/* Float16 by its bits (IEEE binary16), as C has no portable half type. */
static inline juke_arg juke_arg_f16(uint16_t bits)
{
    juke_arg r = { false, JUKE_FLOAT16, { 0 } };
    r.v.f16 = bits;
    return r;
}

/* A value of Julia type `type` from its bytes in Julia's layout (docs/abi.md): a tuple, struct or
 * NamedTuple passed by value (the kernarg segment on AMDGPU, .param on NVPTX); the type and bytes must
 * outlive the launch call. */
static inline juke_arg juke_arg_value(const char *type, const void *bytes, size_t size)
{
    juke_arg r = { false, JUKE_VALUE, { 0 } };
    r.v.value.type = type;
    r.v.value.bytes = bytes;
    r.v.value.size = size;
    return r;
}
/* A value without bits, known by its type alone: "Type{UInt8}", "Val{4}", ":add", "typeof(+)". Such
 * arguments are compile-time constants of the kernel and take no room in its argument list. */
static inline juke_arg juke_arg_type(const char *type)
{
    return juke_arg_value(type, NULL, 0);
}

/* The layout of a value of Julia type `type` (types of m's source may appear: "Params", "P{Float32}"),
 * as kernels take it (docs/abi.md: C's layout with Julia's alignment): its size and alignment, and for
 * a tuple, struct or NamedTuple the offset of each field (at most max of them in offsets; *nfields
 * says how many there are). NULL outputs are skipped. An unknown or non-concrete type is
 * JUKE_ERR_ARGUMENT with the reason in juke_errmsg. */
JUKE_API juke_status juke_value_layout(juke_module *m, const char *type, size_t *size, size_t *align, int *nfields,
                                       size_t *offsets, int max);
/* An array of ndims dims whose elements are tuples or structs of numbers (or Int128, UInt128), of Julia type
 * elemtype (types of m's source may appear: "Particle", "Tuple{Float32, Int32}"), uninitialised; each element in the
 * layout of juke_value_layout, packed at its size (which includes its tail padding), so a C array of the
 * twin C struct uploads as is. Its element type is JUKE_VALUE; a kernel takes it as Vector{Particle} (and
 * juke_launch passes it); upload, download, fill, copies work on its bytes as on any array. */
JUKE_API juke_status juke_array_create_value(juke_device *dev, juke_module *m, const char *elemtype, int ndims,
                                             const int64_t *dims, juke_array **out);
/* Pack a tuple, struct or NamedTuple of type `type` from its fields, each a scalar juke_arg (or a
 * JUKE_VALUE for a field that is itself a tuple or struct, or juke_arg_array for a field that is a device
 * array, as AMDGPU.jl's Adapt turns a struct of ROCArrays into a struct of device arrays: its descriptor
 * is copied in, so the array must outlive the launches and live on their device), into out (size bytes,
 * at least the type's size; padding zeroed). Then pass juke_arg_value(type, out, size). A number of another type than its
 * field's converts as Julia's convert does (floats round; an integer field takes only an exact integer
 * that fits, else JUKE_ERR_ARGUMENT as Julia's InexactError); Float16 fields take Float16 only. */
JUKE_API juke_status juke_value_pack(juke_module *m, const char *type, const juke_arg *fields, int nfields, void *out,
                                     size_t size);

/* The type of the value that the constructor call name(fields...) makes, into out (size bytes), for
 * juke_value_layout and juke_value_pack: a struct with type parameters gets them from its fields' types as
 * Julia's default constructor finds them (Model(juke_arg_array(w), juke_arg_f32(3)) of
 * `struct Model{A}; weights::A; scale::Float32; end` is "Model{ROCDeviceArray{Float32, 1, 1}}"); any
 * other name is copied. No match is JUKE_ERR_ARGUMENT. */
JUKE_API juke_status juke_value_type(juke_module *m, const char *name, const juke_arg *fields, int nfields, char *out,
                                     size_t size);

/* The position (0-based) of the field named `field` of a struct or NamedTuple type `type` (types of m's source may
 * appear), as juke_value_pack and juke_value_layout number the fields, into *index; a decimal `field` N names
 * the Nth field (from 1) of any struct or tuple, as Julia's getfield(x, N). A type without such a field is
 * JUKE_ERR_ARGUMENT. */
JUKE_API juke_status juke_value_field(juke_module *m, const char *type, const char *field, int *index);

enum { JUKE_NDRANGE_MAX = 8 }; /* the most dimensions of a KernelAbstractions ndrange */

typedef struct juke_launch_config {
    uint32_t groupsize[3]; /* work-items per workgroup; zeros count as 1 */
    uint32_t gridsize[3];  /* workgroups (as AMDGPU.jl since 0.5); zeros count as 1 */
    uint32_t shmem;        /* dynamic local memory in bytes */
    bool async;            /* GPU devices: return before the kernel ends; exceptions
                                  then surface at juke_device_synchronize / juke_stream_synchronize */
    juke_stream *stream;   /* the stream to launch on; NULL = the device's own */
    double timeout_s;      /* run-time limit in seconds (fractions allowed); 0 = none. On the CPU a
                                  kernel past it is cancelled at its next loop iteration: JUKE_ERR_KERNEL,
                                  "run-time limit of S s exceeded", and the device stays usable. On GPUs
                                  (synchronous launches) juke stops waiting: JUKE_ERR_DEVICE, and the
                                  kernel may still occupy the device. */
    bool cooperative;      /* every workgroup resident at once, so that sync_grid() can pass: HIP's and
                                  CUDA's cooperative launch (the grid must fit the device at once); the CPU
                                  runs every group on a thread of its own (at most 1024 groups). A kernel
                                  that calls sync_grid() must be launched so (JUKE_ERR_ARGUMENT otherwise) */
    /* KernelAbstractions' ndrange: ndims (1..JUKE_NDRANGE_MAX) dimensions of ndrange work-items; ndims 0:
       none. With an ndrange, gridsize must be zeros: the grid is ndrange rounded up to whole groups,
       cld(ndrange[d], groupsize[d]) per dimension; groupsize all zeros picks one (at most 256 work-items,
       16x16 in 2-D, 8x8x4 in 3-D, each dimension at most its ndrange's), and its dimensions past ndims
       must be 1. An ndrange of more than 3 dimensions launches linearly, as KernelAbstractions does: a
       groupsize of one number G (default 256, at most the kernel's limit) is shaped over the dimensions
       as KernelAbstractions' threads_to_workgroupsize does (each dimension in turn takes min(G ÷ the
       product so far, ndrange[d])), and the 1-D grid holds cld(ndrange, that shape) groups in
       column-major order. A @kernel function needs an ndrange: it gets it as a hidden last argument and
       runs its body only on the work-items inside it (an NTuple{ndims,Int64}; juke_compile, given only
       the visible argument types, compiles for the dimensions of its first array argument, 1 without
       one). An ndrange with a 0 runs nothing. */
    uint32_t ndims;
    uint64_t ndrange[JUKE_NDRANGE_MAX];
    bool seeded; /* device random numbers (rand, randn, randexp): when true, every work-item's
                                  stream is keyed by `seed`, so a launch with the same kernel, shape and
                                  seed draws the same numbers on every device; when false, each launch
                                  gets a fresh seed. Random.seed!(s) in the kernel rekeys a work-item's
                                  stream (docs/language.md, "Random numbers"). */
    uint64_t seed;
    /* KernelAbstractions' offset ndranges (ndrange = (-3:4, 2:11)): the first index of dimension d is
       ndrange_offset[d] + 1, ndrange[d] the range's length. @index(Global, NTuple) and
       @index(Global, Cartesian) count from there; @index(Global, Linear), the group and local indices
       and @ndrange() are those of the ranges' lengths. All zeros (the default): every range starts at 1. */
    int64_t ndrange_offset[JUKE_NDRANGE_MAX];
    /* KernelAbstractions' index-map ndrange (ndrange = an array of indices: Oceananigans' active cells): an
       array of this device whose elements are CartesianIndex{N} or NTuple{N} of Int64 or Int32 values
       (juke_array_create_value). One work-item runs per element, p = 1..length(map): @index(Global, Cartesian)
       and @index(Global, NTuple) are map[p]; @index(Global, Linear) is p, and the group and local indices and
       @ndrange() are those of the 1-D ndrange (length(map),). ndims is then 0 (or 1 with ndrange[0] the map's
       length), and the groupsize must be given, 1-D, as KernelAbstractions requires a static one. NULL (the
       default): none. */
    const juke_array *ndrange_map;
} juke_launch_config;

/* A stream of a device: launches on one stream run in order; launches on
 * different streams may overlap (HIP, CUDA; on the CPU every launch runs to
 * completion). Streams close with their device. */
JUKE_API juke_status juke_stream_create(juke_device *dev, juke_stream **out);
JUKE_API void juke_stream_destroy(juke_stream *s);
/* Wait for the stream's launches; a kernel exception of the device is reported here. */
JUKE_API juke_status juke_stream_synchronize(juke_stream *s);

/* Specialise function on the arguments' types, compile for the device
 * (cached), check the launch, and run it. Wrong arity, no matching method,
 * a group above the kernel's or the device's limit, or too much local memory
 * fail before anything runs. A kernel exception returns JUKE_ERR_KERNEL with
 * a message naming the kernel, the exception, file:line, the index and dims,
 * the workgroup and work-item; the device stays usable. */
JUKE_API juke_status juke_launch(juke_device *dev, juke_module *m, const char *function, const juke_arg *args,
                                 int nargs, const juke_launch_config *cfg);
/* The compiled kernel for these arguments on this device without launching
 * (AMDGPU.jl's launch=false). */
JUKE_API juke_status juke_kernel_for(juke_device *dev, juke_module *m, const char *function, const juke_arg *args,
                                     int nargs, juke_kernel **out);

/* A kernel handle for repeated launches: function specialised on argtypes
 * (as juke_compile takes them), compiled for dev's target and loaded on dev,
 * once. Launching it skips the name lookup and the cache. */
JUKE_API juke_status juke_kernel_get(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                                     juke_device *dev, juke_kernel **out);
/* Launch k (from juke_kernel_get, juke_compile or juke_kernel_for) on dev,
 * which must run k's target (k is loaded there on first use). The arguments
 * must match the types k was compiled for: their count and each one's
 * type (arrays by element type and ndims), else JUKE_ERR_ARGUMENT. Otherwise
 * as juke_launch. */
JUKE_API juke_status juke_kernel_launch(juke_kernel *k, juke_device *dev, const juke_arg *args, int nargs,
                                        const juke_launch_config *cfg);
/* The largest workgroup (work-items) k may run with on dev: the lower of the
 * kernel's and the device's limits (loads k on dev if needed). */
JUKE_API juke_status juke_kernel_max_groupsize(juke_kernel *k, juke_device *dev, uint32_t *out);
/* A device global of k's code object on dev (AMDGPU.get_global_pointer(Val(:name), T) in the kernel; loads
 * k on dev if needed), as AMDGPU.jl's host-side get_global_pointer: set copies `bytes` bytes from host into
 * it, get copies it out to host. `bytes` must be the global's size (sizeof(T)); the value stays for the
 * later launches of k on dev. Call them between launches (after juke_device_synchronize): they do not wait
 * for running kernels. JUKE_ERR_ARGUMENT when the code object has no global `name` (the kernel never calls
 * get_global_pointer with it) or the size differs. */
JUKE_API juke_status juke_kernel_global_set(juke_kernel *k, juke_device *dev, const char *name, const void *host,
                                            size_t bytes);
JUKE_API juke_status juke_kernel_global_get(juke_kernel *k, juke_device *dev, const char *name, void *host,
                                            size_t bytes);
/* Whether k was read from the on-disk kernel cache rather than compiled by
 * this process. */
JUKE_API bool juke_kernel_from_disk_cache(const juke_kernel *k);

/* ---- fused broadcasts, reductions, matrix multiply ------------------------ */

/* An operand of a broadcast: a Julia name and its array or scalar. */
typedef struct juke_named_arg {
    const char *name;
    juke_arg value;
} juke_named_arg;

/* Run a broadcast written in Julia's syntax over the named operands, as one kernel:
 * "c .= a .* b .+ 2f0", "@. c = a * b + 2f0", "y .= sqrt.(x) .+ s" (s a scalar operand). The
 * destination is an array operand; the dots fuse into one loop over its elements. Julia's rules: each
 * dimension of an operand is 1 (expanded) or the destination's; a dimension past an array's last is 1;
 * else JUKE_ERR_ARGUMENT with Julia's DimensionMismatch. The kernel is generated in Julia (see
 * juke_broadcast_source), compiled for dev on first use and cached like any kernel. An undotted * / ^ \
 * next to an array is refused (it is linear algebra in Julia). ctx may be NULL (dev's). On a GPU the
 * launch is asynchronous (as cfg.async): copies and later launches on dev come after it. */
JUKE_API juke_status juke_broadcast(juke_context *ctx, juke_device *dev, const char *expr,
                                    const juke_named_arg *operands, int n);
/* The broadcast's kernel without running it, for its dumps (juke_kernel_dump): function
 * juke_broadcast!(operands...) of module juke_broadcast.jl. */
JUKE_API juke_status juke_broadcast_kernel(juke_context *ctx, juke_device *dev, const char *expr,
                                           const juke_named_arg *operands, int n, juke_kernel **out);
/* The Julia source juke generates for the broadcast (*out malloc'd, juke_free). */
JUKE_API juke_status juke_broadcast_source(juke_context *ctx, const char *expr, const juke_named_arg *operands, int n,
                                           char **out);

/* mapreduce(f, op, A; init) as Julia's, on the device: f a Julia function of one argument ("abs",
 * "x -> x * x"; NULL is identity), op one of two ("+", "*", "max", "min", "&", "|", or "(a, b) -> ...").
 * Two generated kernels: each workgroup folds a strided share (its wavefronts with wavefront operations,
 * then the wavefronts' values through local memory), then one workgroup folds the groups' values.
 * The result has init's type (init a scalar, NULL for op's neutral element: zero for +, one for *,
 * typemin for max, typemax for min); without init, + and * accumulate as Julia's sum widens (Bool and
 * integers narrower than 64 bits to Int64 / UInt64), others in A's element type. As in Julia, init must be
 * neutral for op; an empty A gives init, and is an ArgumentError for max and min without one. */
JUKE_API juke_status juke_mapreduce(juke_device *dev, const char *f, const char *op, juke_array *a,
                                    const juke_arg *init, juke_arg *result);
/* The Julia source of the two kernels juke_mapreduce generates for f and op: juke_mapreduce!(out, A, init)
 * and juke_reduce!(out, partials, init) (*out malloc'd, juke_free), to read or compile for any target. */
JUKE_API juke_status juke_mapreduce_source(juke_context *ctx, const char *f, const char *op, char **out);
/* sum(A), maximum(A), minimum(A): juke_mapreduce with identity and +, max, min. */
JUKE_API juke_status juke_sum(juke_device *dev, juke_array *a, juke_arg *result);
JUKE_API juke_status juke_maximum(juke_device *dev, juke_array *a, juke_arg *result);
JUKE_API juke_status juke_minimum(juke_device *dev, juke_array *a, juke_arg *result);

/* C = A * B (A m×k, B k×n, C m×n; a vector is n×1), column-major, all of one number type. Float32 and
 * Float64 go to the vendor BLAS where dlopen finds it: cblas_sgemm/dgemm (OpenBLAS, the system BLAS) on the
 * CPU, cuBLAS on cuda, rocBLAS on hip; else, and for other types or with JUKE_MATMUL_KERNEL in flags, to a
 * tiled juke kernel. *which (may be NULL) names what ran: "cblas_sgemm (libopenblas.so.0)",
 * "cublasSgemm_v2 (libcublas.so)", "juke tiled kernel (juke_matmul!)"; valid until this thread's next call. */
enum { JUKE_MATMUL_KERNEL = 1 };
/* The tiled kernel's Julia source: juke_matmul!(C, A, B, M, N, K) in groups of 16×16 (*out malloc'd). */
JUKE_API juke_status juke_matmul_source(juke_context *ctx, char **out);
JUKE_API juke_status juke_matmul(juke_device *dev, juke_array *c, juke_array *a, juke_array *b, int flags,
                                 const char **which);

/* ---- events: timing a device's work -------------------------------------- */

/* An event of dev (closed with the device). HIP and CUDA use their own
 * events; the CPU device, whose launches finish before they return, reads a
 * monotonic clock when the event is recorded. */
JUKE_API juke_status juke_event_create(juke_device *dev, juke_event **out);
JUKE_API void juke_event_destroy(juke_event *e);
/* Mark the point after everything launched so far on s (NULL: the device's own stream). */
JUKE_API juke_status juke_event_record(juke_event *e, juke_stream *s);
/* Wait until the work before the recorded point is done. */
JUKE_API juke_status juke_event_synchronize(juke_event *e);
/* *ms = milliseconds from start to end, both recorded on one device (waits for end). */
JUKE_API juke_status juke_event_elapsed_ms(juke_event *start, juke_event *end, float *ms);

#ifdef __cplusplus
}
#endif
#endif
