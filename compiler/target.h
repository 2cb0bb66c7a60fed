/* target.h: the small interface between the code generator and each
 * target (AMDGPU, CPU, NVPTX). Only codegen.c, llvm_pipeline.c and the
 * target_*.c files include this (and with it llvm-c/). */
#ifndef JUKE_TARGET_H
#define JUKE_TARGET_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "codegen.h"
#include "targets.h"

typedef struct TargetOps TargetOps;

/* The wavefront primitives a target provides (TargetOps.wave); builtins_wave_emit.c builds every wavefront
 * operation from them. Lanes are numbered from 0 in the order of the work-items' linear index in the group. */
typedef enum WavePrim {
    WAVE_MASK,         /* i64: the active lanes of this wave, bit k for lane k */
    WAVE_BALLOT,       /* i64: the active lanes whose x (i1) is true */
    WAVE_LANE,         /* i32: this work-item's lane in its wave */
    WAVE_READ,         /* i32: x (i32) as lane y (i32, below the wave size) holds it */
    WAVE_READ_UNIFORM, /* the same, y the same in every active lane */
    WAVE_READ_FIRST,   /* i32: x (i32) as the lowest active lane holds it */
    WAVE_SYNC,         /* sync_wavefront(): the wave's lanes meet, memory ordered between them; NULL */
} WavePrim;

/* What sync_workgroup_count/and/or compute (TargetOps.barrier_reduce). */
enum { SYNC_REDUCE_COUNT, SYNC_REDUCE_AND, SYNC_REDUCE_OR };

/* The state of one compilation's LLVM side, shared by codegen.c and the target. */
typedef struct TargetCtx {
    LLVMContextRef llctx;
    LLVMModuleRef mod;
    LLVMTargetMachineRef tm;
    LLVMRelocMode tm_reloc; /* what tm was created with */
    struct TmSlot *tm_slot; /* tm's slot in the process's pool, or NULL (llvm_pipeline.c) */
    const TargetOptions *opts;
    const TargetOps *ops;
    Diags *diags;
    const char *proc;   /* resolved processor */
    int wavefront_size; /* resolved */
    double ms_link;     /* time in ld.lld, part of the emit stage (a trace shows it) */
    /* set by codegen.c while it emits a function: the hidden parameters every
     * generated function carries (see docs/abi.md) */
    LLVMValueRef cur_exc;   /* exception-buffer pointer (global address space) */
    LLVMValueRef cur_state; /* CPU: the JukeCpuState pointer; NULL on GPUs */
    /* filled while emitting, read when finishing */
    uint32_t static_lds_bytes;
    bool uses_barrier, uses_dynamic_lds;
    bool uses_grid_sync; /* sync_grid(): launches must be cooperative */
    void *priv;          /* the target's own */
    /* the source files the module's line information names, by DIFile
     * order (codegen.c fills it; llvm_pipeline.c prints their lines) */
    const SrcFile *debug_files[JUKE_MAX_DEBUG_FILES];
    int ndebug_files;
} TargetCtx;

/* A target's code generation. What else juke knows of the target (names,
 * processors, file extension, atomic scope) is its row in targets.c. */
struct TargetOps {
    unsigned as_global;             /* address space of device arrays */
    unsigned as_local;              /* address space of local (LDS / shared) memory */
    unsigned as_private;            /* address space of a work-item's stack (allocas) */
    bool needs_state_param;         /* every function gets a trailing JukeCpuState* parameter */
    const char *group_id_intrinsic; /* the name (up to the dimension) of the intrinsic of a workgroup id, for
                                       narrow.c's small-grid fact; NULL: the id is no call (the CPU's) */
    bool narrow_guards;             /* the 32-bit class narrows every compare it can, and tells LLVM the arrays' sizes
                           (measured: fewer instructions on gfx90a/gfx942/gfx1100); false: only bounds
                           checks, and the sizes to narrow.c alone (on the H200 a 32-bit or unsigned guard
                           cost diffusion2d 1 %: bench/RESULTS.md §15) */
    bool reuse_codegen;             /* object files come from a code generation pipeline kept with the pooled
                                       target machine (llvm_emit.cpp): byte for byte what a new one makes */
    bool addr32;                    /* the 32-bit class's array accesses get their addresses from one 32-bit index
                                       widened once (addr32.c; NVPTX, whose code generation splits the index
                                       into 64-bit adds otherwise) */

    /* Register the target with LLVM (called once per process, for every
     * target in the registry). */
    void (*llvm_init)(void);
    /* What decides this target's code besides juke, LLVM and the request,
     * for the disk cache's key: appended to ident (the CPU: the host CPU's
     * name and features), and the library files a compile for o may link,
     * one path a line, appended to files. */
    void (*build_identity)(const TargetOptions *o, StrBuf *ident, StrBuf *files);

    /* Create the target machine and set the module's triple and data layout.
     * Resolves tc->proc and tc->wavefront_size; an unknown processor is a user
     * error listing the known ones. */
    bool (*init)(TargetCtx *tc);
    void (*fini)(TargetCtx *tc);

    /* Device intrinsics, as i32 values: 0-based ids, sizes in items/groups. */
    LLVMValueRef (*workitem_id)(TargetCtx *tc, LLVMBuilderRef b, int dim);
    LLVMValueRef (*workgroup_id)(TargetCtx *tc, LLVMBuilderRef b, int dim);
    LLVMValueRef (*workgroup_dim)(TargetCtx *tc, LLVMBuilderRef b, int dim);
    LLVMValueRef (*grid_groups)(TargetCtx *tc, LLVMBuilderRef b, int dim);
    /* Workgroup fence + barrier; loc: the sync_workgroup() (the CPU runtime names it in barrier-divergence reports). */
    void (*barrier)(TargetCtx *tc, LLVMBuilderRef b, SrcLoc loc);
    /* A wavefront primitive (WavePrim above) at loc. */
    LLVMValueRef (*wave)(TargetCtx *tc, LLVMBuilderRef b, WavePrim p, LLVMValueRef x, LLVMValueRef y, SrcLoc loc);
    /* A workgroup barrier that also reduces pred (i32, 0 or 1) over the group (SYNC_REDUCE_*): the count, or
     * 1/0 for and/or, as an i32. NULL where the target has none (local memory and barriers then). */
    LLVMValueRef (*barrier_reduce)(TargetCtx *tc, LLVMBuilderRef b, int kind, LLVMValueRef pred, SrcLoc loc);
    /* sync_grid(): every work-item of the grid meets. NULL: a barrier in global memory (GPUs). */
    void (*grid_sync)(TargetCtx *tc, LLVMBuilderRef b, SrcLoc loc);
    /* A static local array of `bytes` bytes: returns a pointer in as_local.
     * (AMDGPU/NVPTX: an internal global; CPU: st->lds + offset.) */
    LLVMValueRef (*static_local)(TargetCtx *tc, LLVMBuilderRef b, const char *name, uint64_t bytes, unsigned align);
    /* The base of the dynamic local segment (pointer in as_local). */
    LLVMValueRef (*dynamic_local)(TargetCtx *tc, LLVMBuilderRef b);
    /* The bytes of that segment the launch really allocated, as an i64. */
    LLVMValueRef (*dynamic_local_bytes)(TargetCtx *tc, LLVMBuilderRef b);
    /* An i1: has the runtime asked the launch to stop (its run-time limit
     * passed)? Read at loop back-edges; NULL where the runtime cannot ask
     * (GPUs: the host abandons the wait instead). */
    LLVMValueRef (*cancel_requested)(TargetCtx *tc, LLVMBuilderRef b);
    /* End this work-item after an exception record was written; the caller
     * emits `unreachable` after it. */
    void (*exit_item)(TargetCtx *tc, LLVMBuilderRef b);
    /* Execution control and clocks (builtins.def's BI_DEBUGTRAP, BI_ENDPGM, BI_SENDMSG, BI_SENDMSGHALT,
     * BI_DEVICE_SLEEP: args are their i32 operands; BI_MEMTIME, BI_MEMREALTIME: an i64 counter): emit it
     * and return its value (any non-NULL value for those that return nothing), or NULL where the target has
     * no such thing (a compile error naming the target). NULL hook: none has any. */
    LLVMValueRef (*exec_control)(TargetCtx *tc, LLVMBuilderRef b, int builtin, LLVMValueRef *args);
    /* A math function by Julia name ("sin", "atan2", "hypot", "pow", "powi",
     * "cbrt", "exp10", "expm1", "log1p", ...) for float type ty (float or
     * double: code generation does Float16 math in Float32): returns the callee value and sets *fty to its function type
     * (ocml/libdevice/libm or an LLVM intrinsic). */
    LLVMValueRef (*math_fn)(TargetCtx *tc, const char *name, LLVMTypeRef ty, LLVMTypeRef *fty);
    /* The matrix cores (builtins.def's BI_WMMA_MMA): D = A * B + C of 16x16 tiles over a wave of 32 lanes, in
     * RDNA 3's fragment layout (compiler/base/wmma.jl): a, bm <16 x half>, c and D <8 x float>. Returns D, or
     * NULL where the target has no such instruction (a compile error naming the target). NULL hook: none. */
    LLVMValueRef (*wmma)(TargetCtx *tc, LLVMBuilderRef b, LLVMValueRef a, LLVMValueRef bm, LLVMValueRef c, SrcLoc loc);

    /* Turn fn (with params: explicit args..., exception pointer) into the
     * kernel entry: calling convention and attributes on GPUs; on the CPU the
     * entry wrapper and the exported table (abi.h). */
    void (*finish_kernel)(TargetCtx *tc, LLVMValueRef fn, const char *symbol);
    /* Link the device libraries the module uses (only if it uses them). */
    bool (*link_libraries)(TargetCtx *tc);
    /* Emit assembly and the final code object (linked with ld.lld on AMDGPU
     * and the CPU), and fill the resource fields and report of out. */
    bool (*emit)(TargetCtx *tc, CodeObject *out);
};

extern const TargetOps target_amdgpu_ops, target_cpu_ops, target_nvptx_ops;

/* ---- shared LLVM helpers (llvm_pipeline.c) ---- */
/* Run LLVM's new pass manager at the given level ("default<O3>"); huge
 * kernels get -O1, and one with a huge block a new tc->tm at level None. */
bool llvm_optimize(TargetCtx *tc, int opt_level);
/* Runs the new pass manager's pipeline `passes` ("instcombine,dce") on tc->mod. On failure false, with an
 * internal diagnostic naming the pipeline and `what` ("after checkopt"; "" for nothing more), or, when `what`
 * is NULL, with the error dropped (for a caller that falls back to the module as it is). */
bool llvm_run_passes(TargetCtx *tc, const char *passes, const char *what);
/* Verify the module; failures are DIAG_INVALID_IR with LLVM's message. */
bool llvm_verify(TargetCtx *tc);
char *llvm_module_text(LLVMModuleRef m); /* malloc'd */
/* fn's definition (with the comments above it) cut from module_text, the
 * llvm_module_text of its module: printing and annotating it again cost as
 * much as the module's first print; malloc'd. */
char *llvm_function_text(LLVMValueRef fn, const char *module_text);
/* Emit an object file or assembly into memory. */
bool llvm_emit_to_memory(TargetCtx *tc, LLVMCodeGenFileType kind, uint8_t **data, size_t *size);
/* Link an object into a shared object with ld.lld (found at build time):
 * in memory as far as ld.lld allows, no file left behind. */
bool lld_link_shared(TargetCtx *tc, const uint8_t *obj, size_t objsize, const char *const *extra_args, uint8_t **out,
                     size_t *outsize);
/* Load a bitcode file and link it into tc->mod (only what is used is kept
 * after internalisation). */
bool llvm_link_bitcode_file(TargetCtx *tc, const char *path, bool only_needed);

/* Emit assembly into out->asm_text from a clone of tc->mod (code generation
 * mutates the module it runs on). */
bool llvm_emit_asm_from_copy(TargetCtx *tc, CodeObject *out);
/* Drop the module's line information before the code object is emitted:
 * the code object is the same with and without TargetOptions.debug_lines. */
void llvm_strip_debug_info(TargetCtx *tc);
/* Emit tc->mod as an object and link it with ld.lld and lld_args
 * (NULL-terminated) into a shared object (*so malloc'd). */
bool llvm_emit_shared_object(TargetCtx *tc, const char *const *lld_args, uint8_t **so, size_t *sosize);
/* Give out the finished code (data, size: out owns them now) and what every
 * target fills alike: kind, processor (tc->proc) and kernel symbol (unless
 * set), barrier and dynamic-local use. */
void target_take_code(TargetCtx *tc, CodeObject *out, TargetKind kind, uint8_t *data, size_t size, const char *symbol);
/* Work-items per group from o->group_size (unset y/z count 1); dflt when the
 * size is not given. */
long target_group_items(const TargetOptions *o, long dflt);

/* Is path a regular file? */
bool target_file_exists(const char *path);
/* Find a device library. The candidates: opts->devlib_dir if given (from
 * juke_options or the environment, as the API resolved it), else dflt then
 * fallback. A candidate matches when it
 * is a directory holding `file` or, if file_ok, that file itself. true with
 * the file's path in path[0..n) and the candidate in *found (if found);
 * false with the candidates tried appended to *looked, ", "-separated. */
bool target_find_devlib(const TargetCtx *tc, const char *dflt, const char *fallback, const char *file, bool file_ok,
                        char *path, size_t n, const char **found, StrBuf *looked);

/* Register the target of ops with LLVM (once per process and target;
 * thread-safe): a process that compiles only for gfx90a never sets up x86
 * or NVPTX. */
void llvm_init_target(const TargetOps *ops);
/* Take tc->tm from the process's pool of idle target machines (or create
 * it) and set tc->mod's triple and data layout; llvm_dispose_target_machine
 * gives it back. */
bool llvm_create_target_machine(TargetCtx *tc, const char *triple, const char *cpu, const char *features,
                                LLVMRelocMode reloc);
/* Dispose of tc->tm (if any) and clear it. */
void llvm_dispose_target_machine(TargetCtx *tc);
/* The declaration of an LLVM intrinsic by name ("llvm.amdgcn.workitem.id.x"),
 * with its overload types; *fty (if not NULL) gets its function type. NULL if
 * LLVM does not know the name. */
LLVMValueRef llvm_intrinsic(TargetCtx *tc, const char *name, LLVMTypeRef *overloads, unsigned n, LLVMTypeRef *fty);
/* The function `name` of type fty, declared if the module lacks it. */
LLVMValueRef llvm_declare(TargetCtx *tc, const char *name, LLVMTypeRef fty);
/* A call of the argument-less, non-overloaded intrinsic `name` (e.g.
 * "llvm.amdgcn.workitem.id.x"). */
LLVMValueRef llvm_call_intrinsic(TargetCtx *tc, LLVMBuilderRef b, const char *name);
/* A call of the non-overloaded intrinsic `name` with n arguments; NULL if
 * this LLVM does not know the name. */
LLVMValueRef llvm_call_intrinsic_n(TargetCtx *tc, LLVMBuilderRef b, const char *name, LLVMValueRef *args, unsigned n);
/* A static local array on a GPU: an internal global of `bytes` bytes in
 * tc->ops->as_local ("__juke_local" if name is empty), aligned to align (16
 * if 0), its initializer poison or undef; adds its bytes, aligned, to
 * tc->static_lds_bytes. */
LLVMValueRef llvm_local_array(TargetCtx *tc, const char *name, uint64_t bytes, unsigned align, bool poison);
/* The dynamic local segment on a GPU: the external zero-sized global `name`
 * in tc->ops->as_local, aligned 16, created on first use; sets
 * tc->uses_dynamic_lds. */
LLVMValueRef llvm_dynamic_local_array(TargetCtx *tc, const char *name);
/* The library math function sym implementing `name` for float type ty
 * (float or double: code generation does Float16 math in Float32),
 * declared with llvm_math_type. *fty gets the callee's type. */
LLVMValueRef llvm_math_libfn(TargetCtx *tc, const char *name, LLVMTypeRef ty, const char *sym, LLVMTypeRef *fty);
/* An internal alwaysinline half-precision wrapper "__juke_<name>_f16" around
 * a float function (its float params become half); *fty = its type. */
/* Parse LLVM IR text (helpers LLVM-C cannot build, e.g. syncscope fences)
 * and link it into tc->mod. The linker drops local definitions nothing
 * references yet: define helpers external and make them internal after. */
bool llvm_link_ir_text(TargetCtx *tc, const char *name, const char *ir);
/* Library math functions by Julia name: float-argument count (1 or 2), 0 if unknown. */
int llvm_math_arity(const char *name);
/* Their function type for float type ty (powi: (ty, i32) -> ty). */
LLVMTypeRef llvm_math_type(TargetCtx *tc, const char *name, LLVMTypeRef ty);
/* Does the module call a declared (undefined) function whose name starts with prefix? */
bool llvm_module_calls_prefix(LLVMModuleRef m, const char *prefix);

#endif
