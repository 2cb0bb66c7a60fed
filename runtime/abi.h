/* abi.h: the contract between juke's code objects and the runtime, for
 * every target. docs/abi.md describes the same in prose; keep them in step.
 * No LLVM, no HIP, no CUDA here: the compiler and the runtime both include it. */
#ifndef JUKE_ABI_H
#define JUKE_ABI_H

#include <stdint.h>

/* ---- kernel arguments ---------------------------------------------------
 * The kernel-argument buffer (AMDGPU's kernarg segment; CUDA's parameter
 * space; the CPU entry's first argument) holds the explicit arguments in
 * order, each at the next offset aligned to its alignment:
 *   Bool, Int8, UInt8            1 byte
 *   Int16, UInt16, Float16       2 bytes
 *   Int32, UInt32, Float32       4 bytes
 *   Int64, UInt64, Float64       8 bytes
 *   an N-dimensional array       JukeArrayArg: 8-byte pointer, N Int64 dims,
 *                                Int64 length; 16 + 8N bytes, aligned to 8
 * followed by the exception-buffer pointer (8 bytes, aligned to 8), whose
 * argument is named "__juke_exception" in the AMDGPU metadata. On AMDGPU,
 * LLVM's hidden arguments (code object v5: hidden_block_count_x...) follow;
 * the runtime fills them from the metadata. */
#define JUKE_ARRAY_ARG_SIZE(ndims) (16 + 8 * (ndims))

typedef struct JukeArrayArg {
    void *ptr;
    int64_t dims[]; /* ndims dims, then the length */
} JukeArrayArg;

/* ---- the exception buffer -----------------------------------------------
 * One per device (or stream), in memory the host can read while kernels run
 * (hipHostMalloc mapped / cuMemHostAlloc mapped / plain memory on the CPU).
 * The first work-item to raise an exception claims it by an atomic
 * compare-and-swap of `flag` from 0 to 1, fills in the rest, then sets
 * `flag` to 2 (complete) with release ordering, and ends its wave (AMDGPU
 * s_endpgm, PTX exit, CPU: the work-item's fiber ends). Later raisers only
 * end their waves. The host reads the record after the launch completes and
 * clears flag to 0 before the next launch. */
enum {
    JUKE_EXC_NONE = 0,
    JUKE_EXC_BOUNDS = 1,    /* BoundsError: index[0..ndims-1] outside dims */
    JUKE_EXC_INEXACT = 2,   /* InexactError: converting value to the type `aux` (a JukeTypeCode) */
    JUKE_EXC_DIVIDE = 3,    /* DivideError: integer division by zero or typemin ÷ -1 */
    JUKE_EXC_TIMEOUT = 4,   /* CPU: the launch's run-time limit passed; a loop back-edge saw the cancel flag
                             (the runtime then sets index[0] to the limit in microseconds) */
    JUKE_EXC_FAULT = 5,     /* CPU runtime only: a work-item faulted (a signal); see "fault records" below */
    JUKE_EXC_BARRIER = 6,   /* CPU runtime only: barrier divergence; see "barrier divergence records" below */
    JUKE_EXC_THROWN = 7,    /* error("msg"), throw(E("msg")), @assert: aux = the exception's JukeThrownKind; index[0]
                             = the byte offset of its message record in the print area (JUKE_PRINT_MESSAGE), -1
                             when the print area had no room for it */
    JUKE_EXC_TRAP = 8,      /* trap() */
    JUKE_EXC_DIMENSION = 9, /* DimensionMismatch of reshape(A, dims...): index[0..ndims-1] the new dims, dims[0] =
                               length(A) */
};
#define JUKE_EXC_MAXDIMS 4
#define JUKE_BOUNDS_LOCAL 0x1000 /* aux of a BoundsError: the array is in local memory */
#define JUKE_BOUNDS_TUPLE 0x2000 /* aux of a BoundsError: a tuple, not an array */
#define JUKE_BOUNDS_ALLOC                                                                                              \
    0x4000 /* aux of a BoundsError: a dynamic local array indexed past the memory the
                                    launch allocated; index[0] is the linear index, dims[0] the elements
                                    allocated, dims[1] the elements the array declares */

#define JUKE_EXC_LINE_BASE 0x80000000u /* line: the location is in base/prelude.jl, not the kernel's file */

typedef struct JukeExceptionRecord {
    uint32_t flag;                   /* 0 none, 1 being written, 2 complete */
    uint32_t kind;                   /* JUKE_EXC_* */
    uint32_t line, col;              /* source location of the failing check, in the kernel's file; a line with
                                        JUKE_EXC_LINE_BASE set is in Juke's Base prelude (base/prelude.jl) */
    uint32_t ndims;                  /* BoundsError: number of indices recorded */
    uint32_t aux;                    /* InexactError: JukeTypeCode of the target type; BoundsError: the array's element
                             JukeTypeCode (bits 0-7), its number of dims (bits 8-11), JUKE_BOUNDS_LOCAL,
                             JUKE_BOUNDS_TUPLE (a tuple indexed at run time: dims[0] is its length) */
    int64_t index[JUKE_EXC_MAXDIMS]; /* BoundsError: the 1-based indices (ndims of them: one for a linear index);
                                        InexactError: index[0] = value bits */
    int64_t dims[JUKE_EXC_MAXDIMS];  /* BoundsError: the array's dims (aux says how many); InexactError: dims[0] =
                                        JukeTypeCode of the source */
    uint32_t group[3];               /* 1-based workgroup index (x, y, z) */
    uint32_t item[3];                /* 1-based work-item index within the group */
} JukeExceptionRecord;               /* 112 bytes */

/* The exception type of a JUKE_EXC_THROWN record (aux). */
typedef enum JukeThrownKind {
    JUKE_THROWN_ERROR = 1, /* ErrorException: error("msg") */
    JUKE_THROWN_ASSERTION,
    JUKE_THROWN_ARGUMENT,
    JUKE_THROWN_BOUNDS,
    JUKE_THROWN_DOMAIN,
    JUKE_THROWN_DIVIDE,
    JUKE_THROWN_OVERFLOW,
    JUKE_THROWN_INEXACT,
    JUKE_THROWN_KEY,
    JUKE_THROWN_DIMENSION_MISMATCH,
    JUKE_THROWN_UNDEFVAR,
    JUKE_THROWN_METHOD, /* MethodError: a call split on a Union{Nothing, T} that no method takes for nothing */
} JukeThrownKind;
/* Fault records (JUKE_EXC_FAULT), written by the CPU runtime, never by
 * compiled code: line = col = 0 (the faulting instruction has no source
 * location); aux = the signal number; index[0] = the faulting address;
 * index[1] = the signal's si_code; index[2] = what the address is
 * (JUKE_FAULT_*); index[3] = how far it lies past the end / before the start
 * of that memory, in bytes; dims[0] = that memory's size in bytes. */
enum {
    JUKE_FAULT_UNKNOWN = 0,
    JUKE_FAULT_ARRAY_AFTER = 1,  /* in the guard page after a device array */
    JUKE_FAULT_ARRAY_BEFORE = 2, /* in the guard page before a device array */
    JUKE_FAULT_LOCAL_AFTER = 3,  /* after the group's local memory */
    JUKE_FAULT_LOCAL_BEFORE = 4, /* before the group's local memory */
    JUKE_FAULT_STACK = 5,        /* a work-item's stack overflowed */
};

/* Barrier divergence records (JUKE_EXC_BARRIER), written by the CPU runtime
 * when the live work-items of a group are not all at one barrier: line/col =
 * the barrier where the lowest-numbered waiting work-item is ("A"); item =
 * that work-item; index[0] = how many wait at A, index[1] = up to four of
 * them; index[2] = how many have returned, index[3] = up to four of them;
 * dims[0] = how many wait at other barriers, dims[1] = up to four of them,
 * dims[2] = the first such barrier's line << 32 | col; dims[3] = the group's
 * size x | y << 16 | z << 32. "Up to four" packs 1-based linear work-item
 * indices (x fastest) 16 bits each, lowest first, 0 for none. */
#define JUKE_PACKED_ITEMS 4

/* ---- the print area ---------------------------------------------------------
 * The exception buffer goes on past the record: at JUKE_PRINT_HEADER_OFFSET a
 * JukePrintHeader, at JUKE_PRINT_DATA_OFFSET the records that @rocprintf,
 * @rocprint and @rocprintln write (and the messages of thrown exceptions). A
 * work-item reserves a whole record with one atomic add on `used`; when the
 * record would pass `capacity` it writes nothing and adds one to `lost` (and
 * its size to `lost_bytes`). A kernel that prints therefore needs the whole
 * JUKE_EXC_BUFFER_BYTES (or JUKE_PRINT_DATA_OFFSET + capacity) bytes, header
 * zeroed and capacity set; one that does not print touches only the record. The
 * host reads the records after the launch, clears `used`, `lost` and
 * `lost_bytes`, and keeps `capacity`. */
#define JUKE_PRINT_HEADER_OFFSET 128
#define JUKE_PRINT_DATA_OFFSET 192
#define JUKE_PRINT_CAPACITY (1u << 20)
#define JUKE_EXC_BUFFER_BYTES (JUKE_PRINT_DATA_OFFSET + JUKE_PRINT_CAPACITY)
typedef struct JukePrintHeader {
    uint64_t capacity; /* bytes of the data area (set by the host) */
    uint64_t used;     /* bytes reserved (atomic add; may pass capacity) */
    uint32_t lost;     /* records that did not fit */
    uint32_t reserved;
    uint64_t lost_bytes; /* their bytes */
} JukePrintHeader;
/* ---- the device heap ---------------------------------------------------------
 * malloc(n) and free(p) in kernels (compiler/builtins_heap_emit.c) allocate from one heap per device, in
 * device memory the runtime allocates at the first launch of a code object that uses it (a code object
 * that does defines the global symbol JUKE_HEAP_MARKER). The exception buffer holds where it is: at
 * JUKE_HEAP_DESC_OFFSET the heap's device address (u64, 0: none) and its size in bytes (u64, at most
 * JUKE_HEAP_MAX_BYTES: offsets fit 32 bits). The heap starts with its state (JUKE_HEAP_STATE_BYTES, set up
 * by the host): the allocation top (u64, an offset, JUKE_HEAP_STATE_BYTES at first), then one free-list
 * head per size class (u64: a tag in the high 32 bits against ABA, the first free block's offset in the low
 * 32, 0 for none). Class c holds blocks of 16 << c bytes of data after a 16-byte block header (the class,
 * u64; the next free block's offset, u64); a block is never split or merged. malloc takes a block from its
 * class's list (a compare-and-swap on the head) or cuts a new one at the top (a compare-and-swap on the
 * top), and returns NULL when neither has room; free pushes the block onto its list. */
#define JUKE_HEAP_DESC_OFFSET 160
#define JUKE_HEAP_STATE_BYTES 512
#define JUKE_HEAP_CLASSES 28
#define JUKE_HEAP_DEFAULT_BYTES (8u << 20)
#define JUKE_HEAP_MAX_BYTES (1ull << 32)
#define JUKE_HEAP_MARKER "__juke_uses_heap"

/* One record, 8-byte aligned, written by one work-item:
 *   JukePrintRecord (40 bytes); types[nargs] (JukeTypeCode bytes), padded to
 *   8; args[nargs] (8 bytes each: an integer sign- or zero-extended, a Bool 0
 *   or 1, a float's bits in the low bits); the format's fmt_len bytes, padded
 *   to 8.
 * The format is C printf's, each conversion taking the next argument (its
 * length modifiers are ignored: the argument's type decides), plus %J: the
 * argument as Julia's print shows it. `done` is JUKE_PRINT_DONE once the rest
 * of the record is written. */
#define JUKE_PRINT_DONE 0x4a554b45u
enum {
    JUKE_PRINT_MESSAGE = 1, /* flags: an exception's message (JUKE_EXC_THROWN), not output */
};
typedef struct JukePrintRecord {
    uint32_t size;     /* the whole record, bytes, a multiple of 8 */
    uint32_t fmt_len;  /* bytes of the format */
    uint32_t group[3]; /* 1-based workgroup index */
    uint32_t item[3];  /* 1-based work-item index in the group */
    uint16_t nargs;
    uint16_t flags;
    uint32_t done;
} JukePrintRecord; /* 40 bytes */
/* Element and scalar type codes used across the ABI (exception records,
 * .npy files, the runtime's arrays). */
typedef enum JukeTypeCode {
    JUKE_T_BOOL = 1,
    JUKE_T_INT8,
    JUKE_T_INT16,
    JUKE_T_INT32,
    JUKE_T_INT64,
    JUKE_T_UINT8,
    JUKE_T_UINT16,
    JUKE_T_UINT32,
    JUKE_T_UINT64,
    JUKE_T_FLOAT16,
    JUKE_T_FLOAT32,
    JUKE_T_FLOAT64,
    JUKE_T_COMPLEXF32, /* two Float32: real, imaginary (array elements only) */
    JUKE_T_COMPLEXF64,
} JukeTypeCode;

/* ---- the CPU target -------------------------------------------------------
 * A CPU code object is an ELF shared object. Each kernel has an entry
 *   void ENTRY(const void *kernarg, JukeCpuState *st)
 * that runs one work-item, and the object exports a table describing them. */
typedef struct JukeCpuState JukeCpuState;
struct JukeCpuState {
    uint32_t item[3];        /* 0-based work-item index in the group */
    uint32_t group[3];       /* 0-based workgroup index */
    uint32_t group_dim[3];   /* workgroup size */
    uint32_t grid_groups[3]; /* number of workgroups */
    uint8_t *lds;            /* this workgroup's local memory: static arrays at the offsets the
                                compiler chose, the dynamic segment at align16(static_lds_bytes);
                                zeroed by the runtime before the group starts */
    void (*barrier)(JukeCpuState *st, uint32_t line, uint32_t col);
    /* sync_workgroup() at line:col of the kernel's file: returns when
                                every work-item of the group has reached that barrier (the
                                runtime reports barrier divergence otherwise). Code objects
                                whose uses_barrier is 1 (older juke) pass st alone. */
    void (*exit_item)(JukeCpuState *st); /* never returns: ends this work-item (after an exception) */
    void *runtime;                       /* the runtime's own */
    uint64_t dynamic_lds_bytes;          /* bytes of the dynamic segment the launch allocated (shmem) */
    const uint32_t *cancel;              /* nonzero once the launch's run-time limit passed: every loop back-edge
                                reads it (relaxed atomic) and raises JUKE_EXC_TIMEOUT */
    /* A wavefront primitive (JUKE_WAVE_*) at line:col, a rendezvous of the wave's active lanes: the lanes of
       the wave (JukeCpuKernelInfo.wavefront_size consecutive work-items in linear order) that wait at the same
       primitive and place once every lane of the wave waits somewhere or has returned. Returns this lane's
       result: MASK the active lanes (bit k: lane k); BALLOT those whose x is nonzero; READ and READ_UNIFORM x
       of lane y (0 when lane y is not active); READ_FIRST x of the lowest active lane; SYNC 0. */
    uint64_t (*wave)(JukeCpuState *st, uint32_t prim, uint64_t x, uint64_t y, uint32_t line, uint32_t col);
    /* sync_grid() at line:col: returns when every work-item of the grid has reached it (a cooperative
       launch: the runtime keeps every workgroup resident). */
    void (*grid_sync)(JukeCpuState *st, uint32_t line, uint32_t col);
    /* A kernel run as regions (JUKE_CPU_GROUP_REGIONS): the group's scratch, JukeCpuGroupEntry.spill_bytes
       per work-item, 64-byte aligned: first a u32 per work-item (its status: 0 before it starts, k when it
       waits at barrier k, JUKE_CPU_REGION_RETURNED or JUKE_CPU_REGION_EXITED), zeroed by the runtime, then
       the compiler's per-item slots. */
    uint8_t *spill;
    /* Called by a region kernel's workgroup function after each round of its work-items: nonzero when every
       work-item that has not ended waits at the same barrier (locs[k] is barrier k's line << 32 | col) and
       the group goes on, 2 + k when they all wait at barrier k (the next round may resume every item there
       without reading its status), 1 when they wait at barriers of one place but of different numbers; zero
       when all have ended, or after an exception or a barrier divergence (which it reports). */
    uint32_t (*region_round)(JukeCpuState *st, const uint64_t *locs);
};

/* The wavefront primitives of JukeCpuState.wave (compiler/target.h's WavePrim, in the same order). */
enum {
    JUKE_WAVE_MASK = 0,
    JUKE_WAVE_BALLOT = 1,
    JUKE_WAVE_LANE = 2, /* computed by the kernel itself, never passed */
    JUKE_WAVE_READ = 3,
    JUKE_WAVE_READ_UNIFORM = 4,
    JUKE_WAVE_READ_FIRST = 5,
    JUKE_WAVE_SYNC = 6,
};

typedef void (*JukeCpuEntry)(const void *kernarg, JukeCpuState *st);

typedef struct JukeCpuKernelInfo {
    const char *name; /* the kernel's symbol name, as on the GPU targets */
    JukeCpuEntry entry;
    uint32_t kernarg_size; /* bytes, exception pointer included */
    uint32_t static_lds_bytes;
    uint32_t uses_barrier;   /* 0: work-items may run to completion one after another;
                                   JUKE_CPU_BARRIER_LOC: barrier() takes the location */
    uint32_t max_group_size; /* 0 = no limit beyond the runtime's */
    uint32_t wavefront_size; /* the lanes of a wave the kernel was compiled for (32 or 64) */
    uint32_t flags;          /* JUKE_CPU_USES_WAVE, JUKE_CPU_USES_GRID_SYNC */
} JukeCpuKernelInfo;

enum {
    JUKE_CPU_USES_WAVE = 1,      /* calls JukeCpuState.wave: work-items run as fibers, in waves */
    JUKE_CPU_USES_GRID_SYNC = 2, /* calls JukeCpuState.grid_sync: only cooperative launches may run it */
};

#define JUKE_CPU_BARRIER_LOC 2

/* The exported table: `juke_cpu_kernels` (array) and `juke_cpu_nkernels` (uint32_t). */
#define JUKE_CPU_TABLE_SYMBOL "juke_cpu_kernels"
#define JUKE_CPU_COUNT_SYMBOL "juke_cpu_nkernels"
/* Optional (older code objects lack it): `juke_cpu_group_entries`, an array of JukeCpuGroupEntry parallel to
 * the table. A kernel's workgroup function (entry, or NULL for none) is called once per group with st->item
 * unset and runs every work-item of the group, x fastest, writing each one's index into st->item before
 * running it (exit_item finds there the item that ends). A kernel without barriers (uses_barrier 0) runs its
 * items to their ends one after another; a kernel with JUKE_CPU_GROUP_REGIONS runs them in rounds, each item
 * to its next barrier, with st->spill and st->region_round set. */
typedef struct JukeCpuGroupEntry {
    JukeCpuEntry entry;
    uint32_t spill_bytes; /* per work-item, for JUKE_CPU_GROUP_REGIONS */
    uint32_t flags;
} JukeCpuGroupEntry;

/* JUKE_CPU_GROUP_OWNS_STATUS: the region kernel's workgroup function leaves the status array (JukeCpuState.spill)
 * zero when its group ends, so that the runtime zeroes it only before a run of groups and after a group that
 * an exit_item ended; without it, the runtime zeroes it before each group. */
enum { JUKE_CPU_GROUP_REGIONS = 1, JUKE_CPU_GROUP_OWNS_STATUS = 2 };
#define JUKE_CPU_REGION_RETURNED 0xfffffffeu
#define JUKE_CPU_REGION_EXITED 0xffffffffu

#define JUKE_CPU_GROUP_SYMBOL "juke_cpu_group_entries"

#endif
