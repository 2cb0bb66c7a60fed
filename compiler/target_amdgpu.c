/* target_amdgpu.c: the AMDGPU target (amdgcn-amd-amdhsa): device
 * intrinsics, LDS, ROCm device libraries (ocml/ockl), and the code object
 * (an ELF shared object linked by ld.lld) with its resource report. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "juke_config.h"
#include "runtime.h"
#include "builtins.h"
#include "target.h"

/* Per-processor facts for wavefront size, the device libraries and the
 * occupancy estimate (from the ISA manuals and LLVM's AMDGPU subtarget
 * tables). vgpr_budget is the per-lane register budget of one SIMD for
 * wave64 (gfx9) or wave32 (gfx10+; half of it for wave64). */
typedef struct AmdProc {
    const char *name;
    const char *isa_file; /* suffix of oclc_isa_version_<suffix>.bc */
    int isa_version;      /* the value that file defines */
    bool rdna;            /* gfx10+: wave32 by default, wave64 optional */
    int vgpr_budget;      /* VGPRs per lane per SIMD (wave64 on gfx9, wave32 on RDNA) */
    int vgpr_granule;     /* allocation granule (wave64 on gfx9, wave32 on RDNA) */
    bool unified_agprs;   /* gfx90a/gfx94x: AGPRs come from the same 512 */
    bool separate_agprs;  /* gfx908: 256 AGPRs beside 256 VGPRs */
    int max_waves;        /* waves per SIMD */
    bool sgpr_limited;    /* gfx9: 800 SGPRs per SIMD limit occupancy */
    int lds_per_unit;     /* bytes of LDS per CU (CDNA) or WGP (RDNA) */
} AmdProc;

static const AmdProc amd_procs[] = {
    { "gfx906", "906", 9006, false, 256, 4, false, false, 10, true, 65536 },
    { "gfx908", "908", 9008, false, 256, 4, false, true, 10, true, 65536 },
    { "gfx90a", "90a", 9010, false, 512, 8, true, false, 8, true, 65536 },
    { "gfx940", "940", 9400, false, 512, 8, true, false, 8, true, 65536 },
    { "gfx941", "941", 9401, false, 512, 8, true, false, 8, true, 65536 },
    { "gfx942", "942", 9402, false, 512, 8, true, false, 8, true, 65536 },
    { "gfx1030", "1030", 10300, true, 1024, 16, false, false, 16, false, 131072 },
    { "gfx1100", "1100", 11000, true, 1536, 24, false, false, 16, false, 131072 },
    { "gfx1101", "1101", 11001, true, 1536, 24, false, false, 16, false, 131072 },
    { "gfx1102", "1102", 11002, true, 1024, 16, false, false, 16, false, 131072 },
    { "gfx1200", "1200", 12000, true, 1536, 24, false, false, 16, false, 131072 },
    { "gfx1201", "1201", 12001, true, 1536, 24, false, false, 16, false, 131072 },
};

typedef struct AmdPriv {
    const AmdProc *proc;
    int cov;          /* code object version: 4 or 5 */
    char *symbol;     /* the (first) kernel's symbol */
    char *devlib_dir; /* where the device libraries were found, for the report */
    bool linked_ocml;
} AmdPriv;

static AmdPriv *amd(TargetCtx *tc)
{
    return tc->priv;
}

static const AmdProc *find_proc(const char *name)
{
    for (int i = 0; i < JK_ARRAY_LEN(amd_procs); i++)
        if (strcmp(amd_procs[i].name, name) == 0)
            return &amd_procs[i];
    return NULL;
}

static bool amdgpu_init(TargetCtx *tc)
{
    const TargetOptions *o = tc->opts;
    const TargetInfo *info = target_by_kind(TARGET_AMDGPU);
    const char *name = o->proc && *o->proc ? o->proc : info->default_proc;
    const AmdProc *p = target_proc_listed(info, name) ? find_proc(name) : NULL;
    if (!p) {
        StrBuf known = { 0 };
        target_list_procs(info, &known);
        diag_plain(tc->diags, DIAG_USER, "unknown AMDGPU target \"%s\"; known targets: %s", name,
                   known.data ? known.data : "");
        sb_free(&known);
        return false;
    }
    int cov = o->code_object_version ? o->code_object_version : 5;
    if (cov != 4 && cov != 5) {
        diag_plain(tc->diags, DIAG_USER, "AMDGPU code object version %d is not supported (4 or 5)", cov);
        return false;
    }
    int wave = o->wavefront_size ? o->wavefront_size : (p->rdna ? 32 : 64);
    if (wave != 32 && wave != 64) {
        diag_plain(tc->diags, DIAG_USER, "wavefront size %d is not possible on AMDGPU (32 or 64)", wave);
        return false;
    }
    if (wave == 32 && !p->rdna) {
        diag_plain(tc->diags, DIAG_USER,
                   "wavefront size 32 is not available on %s: GCN/CDNA processors run 64-wide wavefronts", p->name);
        return false;
    }
    AmdPriv *ap = calloc(1, sizeof *ap);
    if (!ap) {
        diag_plain(tc->diags, DIAG_INTERNAL, "out of memory");
        return false;
    }
    ap->proc = p;
    ap->cov = cov;
    tc->priv = ap;
    tc->proc = p->name;
    tc->wavefront_size = wave;
    const char *features = !p->rdna ? "" : wave == 64 ? "+wavefrontsize64" : "+wavefrontsize32";
    if (!llvm_create_target_machine(tc, "amdgcn-amd-amdhsa", p->name, features, LLVMRelocPIC))
        return false;
    /* LLVM 19 takes the code object version from this module flag. */
    LLVMValueRef v = LLVMConstInt(LLVMInt32TypeInContext(tc->llctx), (unsigned long long)cov * 100, 0);
    LLVMAddModuleFlag(tc->mod, LLVMModuleFlagBehaviorError, "amdhsa_code_object_version", 26, LLVMValueAsMetadata(v));
    return true;
}

static void amdgpu_fini(TargetCtx *tc)
{
    AmdPriv *ap = amd(tc);
    if (ap) {
        free(ap->symbol);
        free(ap->devlib_dir);
        free(ap);
    }
    tc->priv = NULL;
    llvm_dispose_target_machine(tc);
}

/* ---- device intrinsics ---------------------------------------------------- */
static const char xyz[3] = { 'x', 'y', 'z' };

static LLVMValueRef amdgpu_workitem_id(TargetCtx *tc, LLVMBuilderRef b, int dim)
{
    char name[40];
    snprintf(name, sizeof name, "llvm.amdgcn.workitem.id.%c", xyz[dim]);
    return llvm_call_intrinsic(tc, b, name);
}

static LLVMValueRef amdgpu_workgroup_id(TargetCtx *tc, LLVMBuilderRef b, int dim)
{
    char name[40];
    snprintf(name, sizeof name, "llvm.amdgcn.workgroup.id.%c", xyz[dim]);
    return llvm_call_intrinsic(tc, b, name);
}

/* Attach !invariant.load, !noundef and (if lo < hi) !range [lo, hi) to a load. */
static void mark_load(TargetCtx *tc, LLVMValueRef ld, unsigned bits, uint64_t lo, uint64_t hi)
{
    LLVMContextRef c = tc->llctx;
    LLVMValueRef empty = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0));
    LLVMSetMetadata(ld, LLVMGetMDKindIDInContext(c, "invariant.load", 14), empty);
    LLVMSetMetadata(ld, LLVMGetMDKindIDInContext(c, "noundef", 7), empty);
    if (lo < hi) {
        LLVMTypeRef t = LLVMIntTypeInContext(c, bits);
        LLVMMetadataRef r[2] = { LLVMValueAsMetadata(LLVMConstInt(t, lo, 0)),
                                 LLVMValueAsMetadata(LLVMConstInt(t, hi, 0)) };
        LLVMSetMetadata(ld, LLVMGetMDKindIDInContext(c, "range", 5),
                        LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, r, 2)));
    }
}

/* Load an integer of `bits` at byte offset off from the pointer an intrinsic returns. */
static LLVMValueRef load_from(TargetCtx *tc, LLVMBuilderRef b, const char *intr, unsigned off, unsigned bits,
                              uint64_t lo, uint64_t hi)
{
    LLVMValueRef base = llvm_call_intrinsic(tc, b, intr);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(tc->llctx), it = LLVMIntTypeInContext(tc->llctx, bits);
    LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(tc->llctx), off, 0);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, base, &idx, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(b, it, p, "");
    LLVMSetAlignment(v, bits / 8);
    mark_load(tc, v, bits, lo, hi);
    return v;
}

/* Code object v5 implicit arguments (llvm.amdgcn.implicitarg.ptr):
 *   0  hidden_block_count_x/y/z   u32 x3
 *   12 hidden_group_size_x/y/z    u16 x3
 * Code object v4 dispatch packet (llvm.amdgcn.dispatch.ptr,
 * hsa_kernel_dispatch_packet_t):
 *   4  workgroup_size_x/y/z       u16 x3
 *   12 grid_size_x/y/z            u32 x3 (in work-items) */
static LLVMValueRef amdgpu_workgroup_dim(TargetCtx *tc, LLVMBuilderRef b, int dim)
{
    LLVMValueRef v = amd(tc)->cov >= 5
                         ? load_from(tc, b, "llvm.amdgcn.implicitarg.ptr", 12 + 2 * (unsigned)dim, 16, 1, 1025)
                         : load_from(tc, b, "llvm.amdgcn.dispatch.ptr", 4 + 2 * (unsigned)dim, 16, 1, 1025);
    return LLVMBuildZExt(b, v, LLVMInt32TypeInContext(tc->llctx), "");
}

static LLVMValueRef amdgpu_grid_groups(TargetCtx *tc, LLVMBuilderRef b, int dim)
{
    if (amd(tc)->cov >= 5)
        return load_from(tc, b, "llvm.amdgcn.implicitarg.ptr", 4 * (unsigned)dim, 32, 1, 0);
    LLVMValueRef items = load_from(tc, b, "llvm.amdgcn.dispatch.ptr", 12 + 4 * (unsigned)dim, 32, 1, 0);
    return LLVMBuildUDiv(b, items, amdgpu_workgroup_dim(tc, b, dim), "");
}

/* LLVM-C 19 cannot build a fence with a sync scope, so the barrier is a
 * small helper written in IR and inlined. */
static const char amdgpu_barrier_ir[] = "define void @__juke_workgroup_barrier() #0 {\n"
                                        "  fence syncscope(\"workgroup\") release\n"
                                        "  call void @llvm.amdgcn.s.barrier()\n"
                                        "  fence syncscope(\"workgroup\") acquire\n"
                                        "  ret void\n"
                                        "}\n"
                                        "declare void @llvm.amdgcn.s.barrier() #1\n"
                                        "attributes #0 = { alwaysinline convergent nounwind }\n"
                                        "attributes #1 = { convergent nounwind willreturn }\n";

static void amdgpu_barrier(TargetCtx *tc, LLVMBuilderRef b, SrcLoc loc)
{
    (void)loc;
    LLVMValueRef f = LLVMGetNamedFunction(tc->mod, "__juke_workgroup_barrier");
    if (!f) {
        /* external while linking (the linker skips unreferenced local
         * definitions), internal afterwards */
        if (!llvm_link_ir_text(tc, "amdgpu-barrier", amdgpu_barrier_ir))
            return;
        f = LLVMGetNamedFunction(tc->mod, "__juke_workgroup_barrier");
        if (!f) {
            diag_plain(tc->diags, DIAG_INTERNAL, "the AMDGPU barrier helper did not link");
            return;
        }
        LLVMSetLinkage(f, LLVMInternalLinkage);
    }
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(tc->llctx), NULL, 0, 0);
    LLVMBuildCall2(b, fty, f, NULL, 0, "");
    tc->uses_barrier = true;
}

/* A call of amdgcn intrinsic `name` with args; ov (if not NULL) its overload type where LLVM overloads it. */
static LLVMValueRef amdgpu_intr(TargetCtx *tc, LLVMBuilderRef b, const char *name, LLVMTypeRef ov, LLVMValueRef *args,
                                unsigned n)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    bool over = ov && LLVMIntrinsicIsOverloaded(id);
    LLVMTypeRef fty;
    LLVMValueRef f = llvm_intrinsic(tc, name, over ? &ov : NULL, over ? 1 : 0, &fty);
    return LLVMBuildCall2(b, fty, f, args, n, "");
}

static const char amdgpu_wave_barrier_ir[] = "define void @__juke_wave_barrier() #0 {\n"
                                             "  fence syncscope(\"wavefront\") release\n"
                                             "  call void @llvm.amdgcn.wave.barrier()\n"
                                             "  fence syncscope(\"wavefront\") acquire\n"
                                             "  ret void\n"
                                             "}\n"
                                             "declare void @llvm.amdgcn.wave.barrier() #1\n"
                                             "attributes #0 = { alwaysinline convergent nounwind }\n"
                                             "attributes #1 = { convergent nounwind willreturn }\n";

/* The wavefront primitives: ballot for the masks, mbcnt for the lane, ds_bpermute to read any lane's value,
 * v_readlane / v_readfirstlane when the lane is uniform. */
static LLVMValueRef amdgpu_wave(TargetCtx *tc, LLVMBuilderRef b, WavePrim p, LLVMValueRef x, LLVMValueRef y, SrcLoc loc)
{
    (void)loc;
    LLVMContextRef c = tc->llctx;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(c), i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    bool w64 = tc->wavefront_size == 64;
    switch (p) {
    case WAVE_MASK:
    case WAVE_BALLOT: {
        LLVMValueRef pred = p == WAVE_MASK ? LLVMConstInt(i1, 1, 0) : x;
        LLVMValueRef r = amdgpu_intr(tc, b, "llvm.amdgcn.ballot", w64 ? i64 : i32, &pred, 1);
        return w64 ? r : LLVMBuildZExt(b, r, i64, "");
    }
    case WAVE_LANE: {
        LLVMValueRef a[2] = { LLVMConstInt(i32, ~0ull, 1), LLVMConstInt(i32, 0, 0) };
        LLVMValueRef lo = amdgpu_intr(tc, b, "llvm.amdgcn.mbcnt.lo", NULL, a, 2);
        if (!w64)
            return lo;
        a[1] = lo;
        return amdgpu_intr(tc, b, "llvm.amdgcn.mbcnt.hi", NULL, a, 2);
    }
    case WAVE_READ: {
        LLVMValueRef a[2] = { LLVMBuildShl(b, y, LLVMConstInt(i32, 2, 0), ""), x };
        return amdgpu_intr(tc, b, "llvm.amdgcn.ds.bpermute", NULL, a, 2);
    }
    case WAVE_READ_UNIFORM: {
        LLVMValueRef a[2] = { x, y };
        return amdgpu_intr(tc, b, "llvm.amdgcn.readlane", i32, a, 2);
    }
    case WAVE_READ_FIRST: return amdgpu_intr(tc, b, "llvm.amdgcn.readfirstlane", i32, &x, 1);
    case WAVE_SYNC: {
        LLVMValueRef f = LLVMGetNamedFunction(tc->mod, "__juke_wave_barrier");
        if (!f) {
            if (!llvm_link_ir_text(tc, "amdgpu-wave-barrier", amdgpu_wave_barrier_ir))
                return NULL;
            f = LLVMGetNamedFunction(tc->mod, "__juke_wave_barrier");
            if (!f) {
                diag_plain(tc->diags, DIAG_INTERNAL, "the AMDGPU wave barrier helper did not link");
                return NULL;
            }
            LLVMSetLinkage(f, LLVMInternalLinkage);
        }
        LLVMBuildCall2(b, LLVMFunctionType(LLVMVoidTypeInContext(c), NULL, 0, 0), f, NULL, 0, "");
        return NULL;
    }
    }
    return NULL;
}

/* LDS cannot be initialised, so the global's initializer is poison; the
 * code generator zeroes it when the kernel asks. */
static LLVMValueRef amdgpu_static_local(TargetCtx *tc, LLVMBuilderRef b, const char *name, uint64_t bytes,
                                        unsigned align)
{
    return llvm_local_array(tc, name, bytes, align, true);
}

/* HIP's `extern __shared__`: an external zero-sized LDS variable, which
 * LLVM places after the static LDS of each kernel that uses it. */
static LLVMValueRef amdgpu_dynamic_local(TargetCtx *tc, LLVMBuilderRef b)
{
    return llvm_dynamic_local_array(tc, "__juke_dynamic_lds");
}

/* Code object v5: hidden_dynamic_lds_size (u32 at implicit-argument offset
 * 120), which the runtime fills. v4 has no such argument; there the dispatch
 * packet's group_segment_size (u32 at offset 28: static + dynamic bytes, as
 * HIP sets it) less the dynamic segment's own LDS address (where LLVM placed
 * it, after the static LDS) gives the same. */
static LLVMValueRef amdgpu_dynamic_local_bytes(TargetCtx *tc, LLVMBuilderRef b)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(tc->llctx), i64 = LLVMInt64TypeInContext(tc->llctx);
    LLVMValueRef v;
    if (amd(tc)->cov >= 5) {
        v = load_from(tc, b, "llvm.amdgcn.implicitarg.ptr", 120, 32, 1, 0);
    } else {
        LLVMValueRef total = load_from(tc, b, "llvm.amdgcn.dispatch.ptr", 28, 32, 1, 0);
        LLVMValueRef start = LLVMBuildPtrToInt(b, amdgpu_dynamic_local(tc, b), i32, "");
        v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, total, start, ""), LLVMBuildSub(b, total, start, ""),
                            LLVMConstInt(i32, 0, 0), "");
    }
    return LLVMBuildZExt(b, v, i64, "");
}

static void amdgpu_exit_item(TargetCtx *tc, LLVMBuilderRef b)
{
    llvm_call_intrinsic(tc, b, "llvm.amdgcn.endpgm");
}

/* ROCm's ocml: __ocml_<name>_f32/_f64 (powi is ocml's pown). */
static LLVMValueRef amdgpu_math_fn(TargetCtx *tc, const char *name, LLVMTypeRef ty, LLVMTypeRef *fty)
{
    if (!llvm_math_arity(name)) {
        diag_plain(tc->diags, DIAG_INTERNAL, "no AMDGPU math function \"%s\"", name);
        return NULL;
    }
    char sym[64];
    snprintf(sym, sizeof sym, "__ocml_%s_%s", strcmp(name, "powi") == 0 ? "pown" : name,
             LLVMGetTypeKind(ty) == LLVMDoubleTypeKind ? "f64" : "f32");
    return llvm_math_libfn(tc, name, ty, sym, fty);
}

static void amdgpu_finish_kernel(TargetCtx *tc, LLVMValueRef fn, const char *symbol)
{
    LLVMSetFunctionCallConv(fn, LLVMAMDGPUKERNELCallConv);
    LLVMSetLinkage(fn, LLVMExternalLinkage);
    LLVMSetVisibility(fn, LLVMProtectedVisibility);
    char fw[32] = "1,1024";
    long n = target_group_items(tc->opts, 0);
    if (n >= 1 && n <= 1024)
        snprintf(fw, sizeof fw, "%ld,%ld", n, n);
    LLVMAddTargetDependentFunctionAttr(fn, "amdgpu-flat-work-group-size", fw);
    unsigned np = LLVMCountParams(fn);
    if (np > 0)
        LLVMSetValueName2(LLVMGetParam(fn, np - 1), "__juke_exception", 16);
    AmdPriv *ap = amd(tc);
    if (!ap->symbol && symbol)
        ap->symbol = strdup(symbol);
}

/* ---- device libraries --------------------------------------------------- */
/* The directory holding ocml.bc: the option if given, else
 * $JUKE_DEVICE_LIBS if set, else the build's default, then /opt/rocm. */
static bool find_devlibs(TargetCtx *tc, char *dir, size_t n)
{
    char path[1024];
    const char *found = NULL;
    StrBuf looked = { 0 };
    if (target_find_devlib(tc, JUKE_DEVICE_LIBS_DEFAULT, "/opt/rocm/amdgcn/bitcode", "ocml.bc", false, path,
                           sizeof path, &found, &looked)) {
        snprintf(dir, n, "%s", found);
        sb_free(&looked);
        return true;
    }
    diag_plain(tc->diags, DIAG_USER,
               "ROCm device libraries not found: looked in %s; install rocm-device-libs or set JUKE_DEVICE_LIBS "
               "(or juke_options.device_libs / --device-libs)",
               looked.data ? looked.data : "(nowhere)");
    sb_free(&looked);
    return false;
}

static bool link_lib(TargetCtx *tc, const char *dir, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (!target_file_exists(path)) {
        diag_plain(tc->diags, DIAG_USER, "the ROCm device library %s is missing", path);
        return false;
    }
    return llvm_link_bitcode_file(tc, path, true);
}

/* An oclc control constant, shaped as the oclc_*.bc files define them:
 *   @NAME = linkonce_odr protected local_unnamed_addr addrspace(4) constant iN V
 * (internal here: it is used only inside this module). */
static void define_oclc_constant(TargetCtx *tc, const char *name, unsigned bits, unsigned long long v)
{
    LLVMTypeRef t = LLVMIntTypeInContext(tc->llctx, bits);
    LLVMValueRef g = LLVMGetNamedGlobal(tc->mod, name);
    if (g && !LLVMIsDeclaration(g))
        return;
    if (!g)
        g = LLVMAddGlobalInAddressSpace(tc->mod, t, name, 4);
    LLVMSetInitializer(g, LLVMConstInt(t, v, 0));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetVisibility(g, LLVMDefaultVisibility);
    LLVMSetAlignment(g, bits / 8 ? bits / 8 : 1);
}

static bool amdgpu_link_libraries(TargetCtx *tc)
{
    if (!llvm_module_calls_prefix(tc->mod, "__ocml_") && !llvm_module_calls_prefix(tc->mod, "__ockl_"))
        return true;
    AmdPriv *ap = amd(tc);
    char dir[1024];
    if (!find_devlibs(tc, dir, sizeof dir))
        return false;
    free(ap->devlib_dir);
    ap->devlib_dir = strdup(dir);
    if (llvm_module_calls_prefix(tc->mod, "__ocml_") && !link_lib(tc, dir, "ocml.bc"))
        return false;
    if (llvm_module_calls_prefix(tc->mod, "__ockl_") && !link_lib(tc, dir, "ockl.bc"))
        return false;
    ap->linked_ocml = true;
    /* The control constants the libraries read (ROCm's clang links the
     * same set for every compile). */
    char file[128];
    snprintf(file, sizeof file, "oclc_isa_version_%s.bc", ap->proc->isa_file);
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (target_file_exists(path)) {
        if (!llvm_link_bitcode_file(tc, path, true))
            return false;
    } else {
        /* older device libraries (Debian's 5.2) lack gfx941+ files */
        define_oclc_constant(tc, "__oclc_ISA_version", 32, (unsigned long long)ap->proc->isa_version);
    }
    const char *ctl[] = { tc->wavefront_size == 64 ? "oclc_wavefrontsize64_on.bc" : "oclc_wavefrontsize64_off.bc",
                          ap->cov >= 5 ? "oclc_abi_version_500.bc" : "oclc_abi_version_400.bc",
                          "oclc_finite_only_off.bc",
                          "oclc_daz_opt_off.bc",
                          "oclc_correctly_rounded_sqrt_on.bc",
                          "oclc_unsafe_math_off.bc" };
    for (int i = 0; i < JK_ARRAY_LEN(ctl); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, ctl[i]);
        if (target_file_exists(path)) {
            if (!llvm_link_bitcode_file(tc, path, true))
                return false;
        } else if (i == 1) {
            define_oclc_constant(tc, "__oclc_ABI_version", 32, (unsigned long long)ap->cov * 100);
        } else {
            diag_plain(tc->diags, DIAG_USER, "the ROCm device library %s is missing", path);
            return false;
        }
    }
    return true;
}

/* ---- occupancy -----------------------------------------------------------
 * Waves per SIMD = the smallest of
 *   max_waves                         (8 on gfx90a/gfx94x, 10 on gfx906/908, 16 on RDNA)
 *   VGPRs: budget / roundup(v, granule), where v = VGPRs, or on gfx90a/gfx94x
 *          roundup(VGPRs, 4) + AGPRs (AGPRs start at a 4-aligned offset in the
 *          same 512-register file); gfx908 also budget / roundup(AGPRs, 4);
 *          budget and granule halve for wave64 on RDNA
 *   SGPRs (gfx9 only): 800 / roundup(SGPRs, 16)
 *   LDS: (lds_per_unit / LDS per group) groups per CU (or WGP) x waves per group
 *          / 4 SIMDs per CU (or WGP)
 * The workgroup size is opts->group_size when known, else 256 (for the LDS
 * term only). The limiting term is reported. */
typedef struct Occupancy {
    int waves;
    const char *limit;
} Occupancy;

static int roundup(int v, int g)
{
    return g > 0 ? (v + g - 1) / g * g : v;
}

static Occupancy amdgpu_occupancy(const AmdProc *p, int wave, int vgprs, int agprs, int sgprs, int lds, int group_items)
{
    Occupancy o = { p->max_waves, "the hardware's wave slots" };
    int budget = p->vgpr_budget, granule = p->vgpr_granule;
    if (p->rdna && wave == 64) {
        budget /= 2;
        granule /= 2;
    }
    int v = p->unified_agprs ? roundup(vgprs, 4) + agprs : vgprs;
    v = roundup(v < 1 ? 1 : v, granule);
    int w = budget / v;
    if (w < o.waves)
        o = (Occupancy){ w, "VGPRs" };
    if (p->separate_agprs && agprs > 0) {
        w = 256 / roundup(agprs, 4);
        if (w < o.waves)
            o = (Occupancy){ w, "AGPRs" };
    }
    if (p->sgpr_limited && sgprs > 0) {
        w = 800 / roundup(sgprs, 16);
        if (w < o.waves)
            o = (Occupancy){ w, "SGPRs" };
    }
    if (lds > 0) {
        int groups = p->lds_per_unit / lds;
        int wpg = (group_items + wave - 1) / wave;
        w = groups * wpg / 4;
        if (w < o.waves)
            o = (Occupancy){ w, "LDS" };
    }
    if (o.waves < 0)
        o.waves = 0;
    return o;
}

/* ---- emission ------------------------------------------------------------ */
static bool amdgpu_emit(TargetCtx *tc, CodeObject *out)
{
    AmdPriv *ap = amd(tc);
    if (!tc->opts->skip_asm && !llvm_emit_asm_from_copy(tc, out))
        return false;
    static const char *const lld_args[] = { "--no-undefined", NULL };
    uint8_t *so;
    size_t sosize;
    if (!llvm_emit_shared_object(tc, lld_args, &so, &sosize))
        return false;
    target_take_code(tc, out, TARGET_AMDGPU, so, sosize, ap->symbol);
    out->static_lds_bytes = tc->static_lds_bytes;
    out->wavefront_size = tc->wavefront_size;

    /* Resources from the code object's own metadata: what the runtime sees. */
    RtFunctionInfo *info = calloc(1, sizeof *info);
    char *err = NULL;
    const char *sym = ap->symbol ? ap->symbol : out->kernel_symbol;
    bool have = info && sym && amdgpu_meta_read(so, sosize, sym, info, &err) == 0;
    StrBuf r = { 0 };
    sb_printf(&r, "kernel:            %s\n", sym ? sym : "?");
    sb_printf(&r, "target:            %s (wave%d, code object v%d)\n", ap->proc->name, tc->wavefront_size, ap->cov);
    if (have) {
        out->vgprs = (int)info->vgprs;
        out->sgprs = (int)info->sgprs;
        out->agprs = (int)info->agprs;
        out->lds_bytes = (int)info->static_lds_bytes;
        out->scratch_bytes = (int)info->scratch_bytes;
        out->vgpr_spills = (int)info->vgpr_spills;
        out->sgpr_spills = (int)info->sgpr_spills;
        if (info->wavefront_size)
            out->wavefront_size = (int)info->wavefront_size;
        out->max_flat_workgroup_size = (int)info->max_group_size;
        out->kernarg_size = (int)info->kernarg_size;
        const int *g = tc->opts->group_size;
        int items = (int)target_group_items(tc->opts, 256);
        Occupancy occ =
            amdgpu_occupancy(ap->proc, out->wavefront_size, out->vgprs, out->agprs, out->sgprs, out->lds_bytes, items);
        out->occupancy = occ.waves;
        sb_printf(&r, "VGPRs:             %d    AGPRs: %d    SGPRs: %d\n", out->vgprs, out->agprs, out->sgprs);
        sb_printf(&r, "LDS:               %d bytes (static)%s   scratch: %d bytes   spills: VGPR %d, SGPR %d\n",
                  out->lds_bytes, tc->uses_dynamic_lds ? " + dynamic" : "", out->scratch_bytes, out->vgpr_spills,
                  out->sgpr_spills);
        sb_printf(&r, "max workgroup:     %d    kernarg: %d bytes\n", out->max_flat_workgroup_size, out->kernarg_size);
        sb_printf(&r, "occupancy:         %d waves per SIMD (limited by %s%s)\n", occ.waves, occ.limit,
                  g[0] > 0 || out->lds_bytes == 0 ? "" : "; LDS term assumes 256-item workgroups");
    } else {
        out->vgprs = out->sgprs = out->agprs = out->occupancy = -1;
        sb_printf(&r, "resources:         unavailable (%s)\n", err ? err : "no kernel symbol");
    }
    sb_printf(&r, "barrier:           %s\n", tc->uses_barrier ? "yes" : "no");
    if (ap->linked_ocml)
        sb_printf(&r, "device libraries:  %s\n", ap->devlib_dir);
    free(err);
    free(info);
    free(out->resources);
    out->resources = sb_take(&r);
    return true;
}

/* Every file of a device-library directory that a compile may link (ocml,
 * ockl and the oclc control libraries), one path a line. */
static void devlib_dir_files(const char *dir, StrBuf *files)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        size_t l = strlen(n);
        if (l > 3 && strcmp(n + l - 3, ".bc") == 0 &&
            (strcmp(n, "ocml.bc") == 0 || strcmp(n, "ockl.bc") == 0 || strncmp(n, "oclc_", 5) == 0))
            sb_printf(files, "%s/%s\n", dir, n);
    }
    closedir(d);
}

/* The device-library files a compile for o may link: every ocml, ockl and
 * oclc file of the directory the compile would use (a superset of what is
 * linked: the key must exist before compiling). */
static void amdgpu_build_identity(const TargetOptions *o, StrBuf *ident, StrBuf *files)
{
    (void)ident;
    TargetCtx tc = { .opts = o };
    char path[1024];
    const char *found = NULL;
    StrBuf looked = { 0 };
    if (target_find_devlib(&tc, JUKE_DEVICE_LIBS_DEFAULT, "/opt/rocm/amdgcn/bitcode", "ocml.bc", false, path,
                           sizeof path, &found, &looked))
        devlib_dir_files(found, files);
    sb_free(&looked);
}

static void amdgpu_llvm_init(void)
{
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
}

/* debugtrap (s_trap 3), endpgm (s_endpgm), sendmsg / sendmsghalt (s_sendmsg / s_sendmsghalt), device_sleep
 * (s_sleep), memtime (the cycle counter: s_memtime on gfx9), memrealtime (the constant 100 MHz clock:
 * s_memrealtime on gfx9, s_sendmsg_rtn_b64 on gfx11). */
static LLVMValueRef amdgpu_exec_control(TargetCtx *tc, LLVMBuilderRef b, int builtin, LLVMValueRef *args)
{
    const char *name = builtin == BI_DEBUGTRAP      ? "llvm.debugtrap"
                       : builtin == BI_ENDPGM       ? "llvm.amdgcn.endpgm"
                       : builtin == BI_SENDMSG      ? "llvm.amdgcn.s.sendmsg"
                       : builtin == BI_SENDMSGHALT  ? "llvm.amdgcn.s.sendmsghalt"
                       : builtin == BI_DEVICE_SLEEP ? "llvm.amdgcn.s.sleep"
                       : builtin == BI_MEMTIME      ? "llvm.readcyclecounter"
                       : builtin == BI_MEMREALTIME  ? "llvm.readsteadycounter"
                                                    : NULL;
    unsigned n = builtin == BI_SENDMSG || builtin == BI_SENDMSGHALT ? 2 : builtin == BI_DEVICE_SLEEP ? 1 : 0;
    return name ? llvm_call_intrinsic_n(tc, b, name, args, n) : NULL;
}

/* WMMA (TargetOps.wmma): v_wmma_f32_16x16x16_f16 on gfx11 in wave32, whose fragment layout base/wmma.jl
 * loads (gfx12's instruction takes another layout; gfx9 has MFMA instead): NULL elsewhere. */
static LLVMValueRef amdgpu_wmma(TargetCtx *tc, LLVMBuilderRef b, LLVMValueRef a, LLVMValueRef bm, LLVMValueRef c,
                                SrcLoc loc)
{
    (void)loc;
    if (!tc->proc || strncmp(tc->proc, "gfx11", 5) != 0 || tc->wavefront_size != 32)
        return NULL;
    LLVMTypeRef over[2] = { LLVMTypeOf(c), LLVMTypeOf(a) };
    LLVMTypeRef fty;
    LLVMValueRef f = llvm_intrinsic(tc, "llvm.amdgcn.wmma.f32.16x16x16.f16", over, 2, &fty);
    LLVMValueRef args[3] = { a, bm, c };
    return LLVMBuildCall2(b, fty, f, args, 3, "");
}

const TargetOps target_amdgpu_ops = {
    .wmma = amdgpu_wmma,
    .exec_control = amdgpu_exec_control,
    .llvm_init = amdgpu_llvm_init,
    .build_identity = amdgpu_build_identity,
    .as_global = 1,
    .as_local = 3,
    .as_private = 5,
    .needs_state_param = false,
    .group_id_intrinsic = "llvm.amdgcn.workgroup.id.",
    .narrow_guards = true,
    .reuse_codegen = true,
    .init = amdgpu_init,
    .fini = amdgpu_fini,
    .workitem_id = amdgpu_workitem_id,
    .workgroup_id = amdgpu_workgroup_id,
    .workgroup_dim = amdgpu_workgroup_dim,
    .grid_groups = amdgpu_grid_groups,
    .barrier = amdgpu_barrier,
    .wave = amdgpu_wave,
    .static_local = amdgpu_static_local,
    .dynamic_local = amdgpu_dynamic_local,
    .dynamic_local_bytes = amdgpu_dynamic_local_bytes,
    .exit_item = amdgpu_exit_item,
    .math_fn = amdgpu_math_fn,
    .finish_kernel = amdgpu_finish_kernel,
    .link_libraries = amdgpu_link_libraries,
    .emit = amdgpu_emit,
};
