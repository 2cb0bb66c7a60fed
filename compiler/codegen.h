/* codegen.h: what the pipeline sees of code generation. No LLVM types here:
 * only codegen.c and the target_*.c files include llvm-c/ (via target.h). */
#ifndef JUKE_CODEGEN_H
#define JUKE_CODEGEN_H

#include "ir.h"
#include "targets.h"

typedef struct TargetOptions {
    TargetKind kind;
    const char *proc;        /* "gfx90a", "sm_90", NULL = the target's default (host CPU for cpu) */
    int wavefront_size;      /* 0 = the processor's default; 32 or 64 on AMDGPU where allowed */
    int code_object_version; /* AMDGPU: 4 or 5 (0 = 5) */
    int opt_level;           /* 0..3 */
    const char *devlib_dir;  /* ROCm device-library bitcode directory, NULL = search the defaults
                                (/usr/lib/x86_64-linux-gnu/amdgcn/bitcode, /opt/rocm/amdgcn/bitcode);
                                NVPTX: libdevice path or NULL. The API fills it from juke_options or
                                the environment the context was created in: nothing below reads it. */
    int group_size[3];       /* known workgroup size or zeros */
    int linker;              /* JUKE_LINK_* (juke.h): ld.lld in process, or spawned, or spawned on files */
    bool skip_asm;           /* leave CodeObject.asm_text NULL (saves a second code generation
                                when only the code object is wanted, as for a launch) */
    bool skip_llvm_text;     /* leave CodeObject's LLVM texts NULL: printing and annotating the module
                                twice is ~5 % of a small kernel's compile; juke_kernel_dump makes them
                                on demand, compiling again, as it does the assembly */
    bool debug_lines;        /* source lines in the LLVM and assembly dumps (the code object is
                                the same either way: it is emitted without them) */
    bool index32;            /* a launch-time variant: every device array argument has fewer than
                                2^31 elements, so array indices are computed in 32 bits (the
                                launch picks it, api.c keys it; docs/internals.md) */
    bool same_shape;         /* a launch-time variant: every device array argument has the first's dims
                                (juke_launch picks it): each takes the first's dims and length, so a
                                guard or check on one array's size covers them all */
    bool small_grid;         /* a launch-time variant: every grid dimension has at most 2^20 workgroups
                                (juke_launch picks it): each workgroup id carries !range [0, 2^20), so
                                with index32 a work-item's global index and its compares are 32-bit */
    int merge_checks;        /* checkopt.c's merged bounds checks: 0 on GPU targets only (the default),
                                1 on every target, -1 on none ($JUKE_MERGE_CHECKS, for tests) */
} TargetOptions;

/* The most workgroups per grid dimension of the small-grid variant (TargetOptions.small_grid). */
#define SMALL_GRID_MAX (1u << 20)

/* Source files one kernel's line information can name (its own, the prelude's, ...). */
#define JUKE_MAX_DEBUG_FILES 16

/* The result of compiling one kernel specialisation. Every pointer is
 * malloc'd and owned by the CodeObject (freed by code_object_free). */
typedef struct CodeObject {
    TargetKind kind;
    char *proc;    /* resolved processor name */
    uint8_t *data; /* AMDGPU: ELF code object (hsaco); NVPTX: PTX text (NUL-terminated,
                                 size excludes the NUL); CPU: ELF shared object */
    size_t size;
    char *kernel_symbol;   /* the kernel's symbol name in the code object */
    char *llvm_unopt;      /* the whole module before optimisation */
    char *llvm_opt;        /* the whole module after optimisation (and library linking) */
    char *llvm_opt_kernel; /* just the kernel function's definition, optimised */
    char *asm_text;        /* GCN assembly / PTX / x86 assembly */
    char *resources;       /* the resource report (text, see ir-dumps/) */
    /* resources, from the code object's metadata where the target has it */
    int vgprs, sgprs, agprs, lds_bytes, scratch_bytes, vgpr_spills, sgpr_spills;
    int wavefront_size, max_flat_workgroup_size, kernarg_size, occupancy;
    uint32_t static_lds_bytes;
    bool uses_barrier, uses_dynamic_lds;
    bool uses_grid_sync; /* sync_grid(): only a cooperative launch may run it */
    bool uses_rng;       /* the kernel draws random numbers: its last explicit argument is __juke_seed (docs/abi.md) */
    /* compile time of each stage, milliseconds */
    double ms_codegen, ms_optimize, ms_emit, ms_link;
} CodeObject;

/* Compile the kernel specialisation (specs[0]; specs holds every
 * specialisation reachable from it) to a code object for the target.
 * Returns false with errors in d (a bad target, a missing library, invalid
 * IR found by LLVM's verifier, or an internal error). */
bool cg_compile(Diags *d, TypeTable *types, Spec **specs, int nspecs, const TargetOptions *opts, CodeObject *out);
void code_object_free(CodeObject *co);

/* What besides juke and the request decides the code a compile for `to`
 * makes, for the disk cache's key: LLVM's version and, for the CPU, the host
 * CPU's name and features as LLVM sees them, appended to ident; the
 * device-library files such a compile may link, one path a line, appended to
 * files. false in a build without a compiler (codegen_stub.c). */
bool cg_build_identity(const TargetOptions *to, StrBuf *ident, StrBuf *files);

#endif
