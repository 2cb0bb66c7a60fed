/* test_targets.c: the three targets behind target.h, driven by hand-built
 * LLVM modules (no front end): emission, device libraries, code-object
 * metadata, error messages, and running CPU kernels through the exported
 * table with a hand-built JukeCpuState. */
#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "juke.h"
#include "abi.h"
#include "juke_config.h"
#include "libslice.h"
#include "llvm_emit.h"
#include "runtime.h"
#include "target.h"

/* ---- fixtures ---------------------------------------------------------- */
typedef struct T {
    TargetCtx tc;
    TargetOptions o;
    Diags d;
    LLVMBuilderRef b;
    CodeObject co;
} T;

static void t_options(T *t, TargetKind kind, const char *proc)
{
    memset(t, 0, sizeof *t);
    t->o.kind = kind;
    t->o.proc = proc;
    t->o.opt_level = 2;
}

static bool t_init(T *t)
{
    const TargetOps *ops = target_by_kind(t->o.kind)->ops;
    t->tc.llctx = LLVMContextCreate();
    t->tc.mod = LLVMModuleCreateWithNameInContext("test", t->tc.llctx);
    t->tc.opts = &t->o;
    t->tc.ops = ops;
    t->tc.diags = &t->d;
    t->b = LLVMCreateBuilderInContext(t->tc.llctx);
    return ops->init(&t->tc);
}

static void t_setup(T *t, TargetKind kind, const char *proc)
{
    t_options(t, kind, proc);
    bool ok = t_init(t);
    if (!ok)
        fprintf(stderr, "%s", t->d.text.data ? t->d.text.data : "");
    assert_true(ok);
}

static void t_free(T *t)
{
    if (t->tc.ops->fini)
        t->tc.ops->fini(&t->tc);
    LLVMDisposeBuilder(t->b);
    LLVMDisposeModule(t->tc.mod);
    LLVMContextDispose(t->tc.llctx);
    free(t->co.data);
    free(t->co.asm_text);
    free(t->co.resources);
    free(t->co.proc);
    free(t->co.kernel_symbol);
    sb_free(&t->d.text);
}

static LLVMTypeRef i32t(T *t)
{
    return LLVMInt32TypeInContext(t->tc.llctx);
}
static LLVMTypeRef gptr(T *t)
{
    return LLVMPointerTypeInContext(t->tc.llctx, t->tc.ops->as_global);
}

/* A kernel function with the explicit params plus the hidden ones codegen
 * adds (exception pointer; the CPU state). The builder sits in its entry. */
static LLVMValueRef t_kernel(T *t, const char *name, LLVMTypeRef *params, unsigned n)
{
    LLVMTypeRef all[16];
    memcpy(all, params, n * sizeof *params);
    all[n++] = gptr(t);
    if (t->tc.ops->needs_state_param)
        all[n++] = LLVMPointerTypeInContext(t->tc.llctx, 0);
    LLVMValueRef fn = LLVMAddFunction(t->tc.mod, name, LLVMFunctionType(LLVMVoidTypeInContext(t->tc.llctx), all, n, 0));
    LLVMPositionBuilderAtEnd(t->b, LLVMAppendBasicBlockInContext(t->tc.llctx, fn, "entry"));
    t->tc.cur_exc = LLVMGetParam(fn, t->tc.ops->needs_state_param ? n - 2 : n - 1);
    t->tc.cur_state = t->tc.ops->needs_state_param ? LLVMGetParam(fn, n - 1) : NULL;
    return fn;
}

static LLVMValueRef global_id(T *t)
{
    const TargetOps *ops = t->tc.ops;
    LLVMValueRef g = LLVMBuildMul(t->b, ops->workgroup_id(&t->tc, t->b, 0), ops->workgroup_dim(&t->tc, t->b, 0), "");
    return LLVMBuildAdd(t->b, g, ops->workitem_id(&t->tc, t->b, 0), "gid");
}

static void store_at(T *t, LLVMTypeRef elt, LLVMValueRef base, LLVMValueRef idx, LLVMValueRef v)
{
    LLVMValueRef p = LLVMBuildGEP2(t->b, elt, base, &idx, 1, "");
    LLVMBuildStore(t->b, v, p);
}

/* kernel vstore(out, add): out[gid] = gid + add */
static LLVMValueRef build_store_kernel(T *t, const char *name)
{
    LLVMTypeRef ps[2] = { gptr(t), i32t(t) };
    LLVMValueRef fn = t_kernel(t, name, ps, 2);
    LLVMValueRef gid = global_id(t);
    store_at(t, i32t(t), LLVMGetParam(fn, 0), gid, LLVMBuildAdd(t->b, gid, LLVMGetParam(fn, 1), ""));
    LLVMBuildRetVoid(t->b);
    return fn;
}

/* kernel vmath(out, in): out[gid] = NAME(in[gid]) for float type ty */
static LLVMValueRef build_math_kernel(T *t, const char *kname, const char *fname, LLVMTypeRef ty)
{
    LLVMTypeRef ps[2] = { gptr(t), gptr(t) };
    LLVMValueRef fn = t_kernel(t, kname, ps, 2);
    LLVMValueRef gid = global_id(t);
    LLVMValueRef p = LLVMBuildGEP2(t->b, ty, LLVMGetParam(fn, 1), &gid, 1, "");
    LLVMValueRef x = LLVMBuildLoad2(t->b, ty, p, "x");
    /* Float16 math is Float32 math rounded, as code generation emits it:
     * math_fn sees float and double only */
    bool half = LLVMGetTypeKind(ty) == LLVMHalfTypeKind;
    LLVMTypeRef mty = half ? LLVMFloatTypeInContext(t->tc.llctx) : ty;
    if (half)
        x = LLVMBuildFPExt(t->b, x, mty, "");
    LLVMTypeRef fty = NULL;
    LLVMValueRef f = t->tc.ops->math_fn(&t->tc, fname, mty, &fty);
    assert_non_null(f);
    LLVMValueRef args[2] = { x, x };
    if (strcmp(fname, "powi") == 0)
        args[1] = LLVMConstInt(i32t(t), 3, 0);
    unsigned nargs = LLVMCountParamTypes(fty);
    LLVMValueRef r = LLVMBuildCall2(t->b, fty, f, args, nargs, "");
    if (half)
        r = LLVMBuildFPTrunc(t->b, r, ty, "");
    store_at(t, ty, LLVMGetParam(fn, 0), gid, r);
    LLVMBuildRetVoid(t->b);
    return fn;
}

/* What codegen does after emitting: finish, libraries, verify, optimise, emit. */
static bool t_compile(T *t, LLVMValueRef fn, const char *symbol)
{
    const TargetOps *ops = t->tc.ops;
    ops->finish_kernel(&t->tc, fn, symbol);
    if (!ops->link_libraries(&t->tc))
        return false;
    if (!llvm_verify(&t->tc))
        return false;
    if (!llvm_optimize(&t->tc, t->o.opt_level))
        return false;
    if (!llvm_verify(&t->tc))
        return false;
    return ops->emit(&t->tc, &t->co);
}

/* JUKE_TEST_VERBOSE=1 prints each resource report (=2: and the assembly). */
static void t_compile_ok(T *t, LLVMValueRef fn, const char *symbol)
{
    bool ok = t_compile(t, fn, symbol);
    if (!ok)
        fprintf(stderr, "%s", t->d.text.data ? t->d.text.data : "");
    assert_true(ok);
    const char *v = getenv("JUKE_TEST_VERBOSE");
    if (v && *v >= '1')
        fprintf(stderr, "%s", t->co.resources);
    if (v && *v >= '2')
        fprintf(stderr, "%s", t->co.asm_text);
    const char *save = getenv("JUKE_TEST_SAVE"); /* a directory for the code objects */
    if (save && *save) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.%s", save, symbol, target_by_kind(t->o.kind)->name);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(t->co.data, 1, t->co.size, f);
            fclose(f);
        }
    }
}

static bool has_undefined_call(LLVMModuleRef m, const char *prefix)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t n;
        const char *s = LLVMGetValueName2(f, &n);
        if (strncmp(s, prefix, strlen(prefix)) == 0 && LLVMIsDeclaration(f))
            return true;
    }
    return false;
}

static unsigned rand_u(unsigned lo, unsigned hi)
{
    return lo + (unsigned)rand() % (hi - lo + 1);
}

/* ---- AMDGPU ------------------------------------------------------------ */
static void amdgpu_store_on(const char *proc, int expect_wave)
{
    T t;
    t_setup(&t, TARGET_AMDGPU, proc);
    LLVMValueRef fn = build_store_kernel(&t, "vstore");
    t_compile_ok(&t, fn, "vstore");
    /* GCN/CDNA and RDNA spell it differently */
    assert_true(strstr(t.co.asm_text, "global_store_dword") || strstr(t.co.asm_text, "global_store_b32"));
    assert_non_null(strstr(t.co.asm_text, "s_endpgm"));
    assert_non_null(strstr(t.co.asm_text, "__juke_exception"));
    assert_true(t.co.size > 64 && memcmp(t.co.data, "\177ELF", 4) == 0);
    RtFunctionInfo info;
    char *err = NULL;
    assert_int_equal(amdgpu_meta_read(t.co.data, t.co.size, "vstore", &info, &err), 0);
    assert_int_equal(info.nargs, 3);
    assert_true(info.has_exception_arg);
    assert_int_equal(info.args[1].offset, 8);  /* i32 add after the 8-byte pointer */
    assert_int_equal(info.args[2].offset, 16); /* exception pointer, aligned to 8 */
    assert_int_equal((int)info.wavefront_size, expect_wave);
    assert_int_equal(t.co.wavefront_size, expect_wave);
    assert_true(t.co.vgprs > 0 && t.co.sgprs > 0);
    assert_true(t.co.occupancy > 0);
    assert_string_equal(t.co.proc, proc);
    assert_non_null(strstr(t.co.resources, "occupancy:"));
    assert_non_null(strstr(t.co.resources, proc));
    t_free(&t);
}

static void test_amdgpu_store_gfx90a(void **s)
{
    amdgpu_store_on("gfx90a", 64);
}
static void test_amdgpu_store_gfx942(void **s)
{
    amdgpu_store_on("gfx942", 64);
}
static void test_amdgpu_store_gfx1100(void **s)
{
    amdgpu_store_on("gfx1100", 32);
}
static void test_amdgpu_store_gfx906(void **s)
{
    amdgpu_store_on("gfx906", 64);
}
static void test_amdgpu_store_gfx1201(void **s)
{
    amdgpu_store_on("gfx1201", 32);
}

/* The register-alias cache that llvm_emit.cpp fills before a target machine's first code object holds, for every
 * register it fills, the entry LLVM itself makes. */
static void test_amdgpu_alias_cache(void **s)
{
#ifdef JUKE_HAVE_LLVM_EMIT
    llvm_init_target(&target_amdgpu_ops);
    const char *procs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201", "gfx906" };
    for (int i = 0; i < 5; i++)
        assert_int_equal(jk_codegen_alias_cache_mismatches("amdgcn-amd-amdhsa", procs[i], ""), 0);
#else
    skip();
#endif
}

static void test_amdgpu_every_known_proc_inits(void **s)
{
    const TargetInfo *info = target_by_kind(TARGET_AMDGPU);
    int n = 0;
    for (const char *const *pp = info->procs; *pp; pp++, n++) {
        const char *p = *pp;
        T t;
        t_options(&t, TARGET_AMDGPU, p);
        bool ok = t_init(&t);
        if (!ok)
            fprintf(stderr, "%s: %s", p, t.d.text.data);
        assert_true(ok);
        assert_true(target_proc_listed(info, p));
        t_free(&t);
    }
    assert_true(n >= 12);
}

static void test_amdgpu_wave64_on_rdna(void **s)
{
    T t;
    t_options(&t, TARGET_AMDGPU, "gfx1030");
    t.o.wavefront_size = 64;
    assert_true(t_init(&t));
    LLVMValueRef fn = build_store_kernel(&t, "w64");
    t_compile_ok(&t, fn, "w64");
    assert_int_equal(t.co.wavefront_size, 64);
    t_free(&t);
}

static void test_amdgpu_errors(void **s)
{
    T t;
    t_options(&t, TARGET_AMDGPU, "gfx123");
    assert_false(t_init(&t));
    assert_int_equal(t.d.first_kind, DIAG_USER);
    assert_non_null(strstr(t.d.text.data, "unknown AMDGPU target \"gfx123\"; known targets: gfx906, gfx908, gfx90a"));
    t_free(&t);

    t_options(&t, TARGET_AMDGPU, "gfx90a");
    t.o.wavefront_size = 32;
    assert_false(t_init(&t));
    assert_non_null(strstr(t.d.text.data, "wavefront size 32 is not available on gfx90a"));
    t_free(&t);

    t_options(&t, TARGET_AMDGPU, NULL);
    t.o.code_object_version = 3;
    assert_false(t_init(&t));
    assert_non_null(strstr(t.d.text.data, "code object version 3"));
    t_free(&t);
}

static void test_amdgpu_default_proc(void **s)
{
    T t;
    t_setup(&t, TARGET_AMDGPU, NULL);
    assert_string_equal(t.tc.proc, "gfx90a");
    assert_int_equal(t.tc.wavefront_size, 64);
    t_free(&t);
}

static void amdgpu_math_on(const char *proc, const char *fname, bool dbl)
{
    T t;
    t_setup(&t, TARGET_AMDGPU, proc);
    LLVMTypeRef ty = dbl ? LLVMDoubleTypeInContext(t.tc.llctx) : LLVMFloatTypeInContext(t.tc.llctx);
    LLVMValueRef fn = build_math_kernel(&t, "vmath", fname, ty);
    t_compile_ok(&t, fn, "vmath");
    assert_false(has_undefined_call(t.tc.mod, "__ocml"));
    assert_false(has_undefined_call(t.tc.mod, "__ockl"));
    /* the optimiser dropped the library functions nothing uses */
    assert_null(LLVMGetNamedFunction(t.tc.mod, "__ocml_cos_f64"));
    assert_null(LLVMGetNamedFunction(t.tc.mod, "__ocml_lgamma_f32"));
    assert_non_null(strstr(t.co.resources, "device libraries:"));
    RtFunctionInfo info;
    char *err = NULL;
    assert_int_equal(amdgpu_meta_read(t.co.data, t.co.size, "vmath", &info, &err), 0);
    t_free(&t);
}

static void test_amdgpu_math_sin_f32(void **s)
{
    amdgpu_math_on("gfx90a", "sin", false);
}
static void test_amdgpu_math_pow_f64_gfx942(void **s)
{
    amdgpu_math_on("gfx942", "pow", true);
}
static void test_amdgpu_math_powi_gfx1100(void **s)
{
    amdgpu_math_on("gfx1100", "powi", false);
}
static void test_amdgpu_math_atan2_f64_gfx908(void **s)
{
    amdgpu_math_on("gfx908", "atan2", true);
}

static void test_amdgpu_math_half(void **s)
{
    T t;
    t_setup(&t, TARGET_AMDGPU, "gfx90a");
    LLVMValueRef fn = build_math_kernel(&t, "vhalf", "exp", LLVMHalfTypeInContext(t.tc.llctx));
    t_compile_ok(&t, fn, "vhalf");
    assert_false(has_undefined_call(t.tc.mod, "__ocml"));
    t_free(&t);
}

static void test_amdgpu_math_at_O0(void **s)
{
    T t;
    t_options(&t, TARGET_AMDGPU, "gfx90a");
    t.o.opt_level = 0;
    assert_true(t_init(&t));
    LLVMValueRef fn = build_math_kernel(&t, "vmath0", "sin", LLVMFloatTypeInContext(t.tc.llctx));
    t_compile_ok(&t, fn, "vmath0");
    assert_false(has_undefined_call(t.tc.mod, "__ocml"));
    assert_null(LLVMGetNamedFunction(t.tc.mod, "__ocml_lgamma_f32"));
    t_free(&t);
}

/* The slice of ocml a module needs (libslice.c): cut on first use, the same
 * bytes for the same needs afterwards, another for other needs, nothing for
 * a module that needs nothing of it; and two compiles through the kept
 * slice make the same code object. */
static void test_amdgpu_libslice(void **s)
{
    char path[1200];
    const char *dir = getenv("JUKE_DEVICE_LIBS");
    snprintf(path, sizeof path, "%s/ocml.bc", dir && *dir ? dir : JUKE_DEVICE_LIBS_DEFAULT);
    if (access(path, R_OK) != 0)
        skip();
    T t;
    t_setup(&t, TARGET_AMDGPU, "gfx90a");
    const uint8_t *bc = NULL, *bc2 = NULL;
    size_t n = 0, n2 = 0;
    build_store_kernel(&t, "noneed");
    assert_int_equal(libslice_get(t.tc.mod, path, &bc, &n), LIBSLICE_NONE);
    LLVMTypeRef f1[1] = { LLVMFloatTypeInContext(t.tc.llctx) };
    LLVMAddFunction(t.tc.mod, "__ocml_sin_f32", LLVMFunctionType(f1[0], f1, 1, 0));
    assert_int_equal(libslice_get(t.tc.mod, path, &bc, &n), LIBSLICE_SLICE);
    assert_true(n > 0 && n < 190000); /* ocml.bc itself is 190 kB */
    assert_int_equal(libslice_get(t.tc.mod, path, &bc2, &n2), LIBSLICE_SLICE);
    assert_ptr_equal(bc, bc2);
    LLVMAddFunction(t.tc.mod, "__ocml_cos_f32", LLVMFunctionType(f1[0], f1, 1, 0));
    assert_int_equal(libslice_get(t.tc.mod, path, &bc2, &n2), LIBSLICE_SLICE);
    assert_ptr_not_equal(bc, bc2);
    t_free(&t);

    struct {
        uint8_t *data;
        size_t size;
    } first = { 0 };
    for (int i = 0; i < 2; i++) {
        t_setup(&t, TARGET_AMDGPU, "gfx90a");
        LLVMValueRef fn = build_math_kernel(&t, "vslice", "tanh", LLVMDoubleTypeInContext(t.tc.llctx));
        t_compile_ok(&t, fn, "vslice");
        assert_false(has_undefined_call(t.tc.mod, "__ocml"));
        if (i == 0) {
            first.data = malloc(t.co.size);
            assert_non_null(first.data);
            memcpy(first.data, t.co.data, t.co.size);
            first.size = t.co.size;
        } else {
            assert_int_equal(t.co.size, first.size);
            assert_memory_equal(t.co.data, first.data, first.size);
        }
        t_free(&t);
    }
    free(first.data);
}

static void test_amdgpu_missing_devlibs(void **s)
{
    T t;
    t_options(&t, TARGET_AMDGPU, "gfx90a");
    t.o.devlib_dir = "/nonexistent/juke-devlibs";
    assert_true(t_init(&t));
    LLVMValueRef fn = build_math_kernel(&t, "vmath", "sin", LLVMFloatTypeInContext(t.tc.llctx));
    assert_false(t_compile(&t, fn, "vmath"));
    assert_int_equal(t.d.first_kind, DIAG_USER);
    assert_non_null(strstr(t.d.text.data, "ROCm device libraries not found: looked in /nonexistent/juke-devlibs"));
    assert_non_null(strstr(t.d.text.data, "set JUKE_DEVICE_LIBS"));
    t_free(&t);
}

/* barrier, static + dynamic LDS, exit_item, workgroup size and grid hooks */
static void amdgpu_features_cov(int cov)
{
    T t;
    t_options(&t, TARGET_AMDGPU, "gfx90a");
    t.o.code_object_version = cov;
    t.o.group_size[0] = 128;
    assert_true(t_init(&t));
    LLVMTypeRef ps[1] = { gptr(&t) };
    LLVMValueRef fn = t_kernel(&t, "vfeat", ps, 1);
    const TargetOps *ops = t.tc.ops;
    LLVMValueRef loc = ops->static_local(&t.tc, t.b, "tile", 512, 16);
    LLVMValueRef dyn = ops->dynamic_local(&t.tc, t.b);
    LLVMValueRef tid = ops->workitem_id(&t.tc, t.b, 0);
    LLVMTypeRef i32 = i32t(&t);
    store_at(&t, i32, loc, tid, tid);
    ops->barrier(&t.tc, t.b, (SrcLoc){ NULL, 7, 5 });
    LLVMValueRef nb = LLVMBuildSub(t.b, ops->workgroup_dim(&t.tc, t.b, 0), LLVMConstInt(i32, 1, 0), "");
    nb = LLVMBuildSub(t.b, nb, tid, "");
    LLVMValueRef v = LLVMBuildLoad2(t.b, i32, LLVMBuildGEP2(t.b, i32, loc, &nb, 1, ""), "");
    store_at(&t, i32, dyn, tid, v);
    LLVMValueRef g = LLVMBuildMul(t.b, ops->grid_groups(&t.tc, t.b, 0), ops->grid_groups(&t.tc, t.b, 1), "");
    LLVMValueRef bad = LLVMBuildICmp(t.b, LLVMIntEQ, v, g, "");
    LLVMBasicBlockRef exitb = LLVMAppendBasicBlockInContext(t.tc.llctx, fn, "exc");
    LLVMBasicBlockRef okb = LLVMAppendBasicBlockInContext(t.tc.llctx, fn, "ok");
    LLVMBuildCondBr(t.b, bad, exitb, okb);
    LLVMPositionBuilderAtEnd(t.b, exitb);
    LLVMBuildStore(t.b, LLVMConstInt(i32, 2, 0), t.tc.cur_exc);
    ops->exit_item(&t.tc, t.b);
    LLVMBuildUnreachable(t.b);
    LLVMPositionBuilderAtEnd(t.b, okb);
    store_at(&t, i32, LLVMGetParam(fn, 0), tid, v);
    LLVMBuildRetVoid(t.b);
    t_compile_ok(&t, fn, "vfeat");
    assert_non_null(strstr(t.co.asm_text, "s_barrier"));
    assert_non_null(strstr(t.co.asm_text, "ds_write"));
    assert_true(t.co.uses_barrier && t.co.uses_dynamic_lds);
    assert_true(t.co.lds_bytes >= 512);
    assert_int_equal(t.co.max_flat_workgroup_size, 128);
    RtFunctionInfo info;
    char *err = NULL;
    assert_int_equal(amdgpu_meta_read(t.co.data, t.co.size, "vfeat", &info, &err), 0);
    assert_true(info.static_lds_bytes >= 512);
    bool has_block_count = false, has_dispatch = false;
    for (uint32_t i = info.nargs; i < info.nall; i++) {
        if (strcmp(info.args[i].value_kind, "hidden_block_count_x") == 0)
            has_block_count = true;
    }
    has_dispatch = strstr(t.co.asm_text, "enable_sgpr_dispatch_ptr = 1") != NULL ||
                   strstr(t.co.asm_text, ".amdhsa_user_sgpr_dispatch_ptr 1") != NULL;
    if (cov == 5)
        assert_true(has_block_count);
    else
        assert_true(has_dispatch);
    t_free(&t);
}

static void test_amdgpu_features_v5(void **s)
{
    amdgpu_features_cov(5);
}
static void test_amdgpu_features_v4(void **s)
{
    amdgpu_features_cov(4);
}

static void test_lld_error_is_reported(void **s)
{
    T t;
    t_setup(&t, TARGET_AMDGPU, "gfx90a");
    static const uint8_t junk[] = "this is not an object file";
    uint8_t *out = NULL;
    size_t n = 0;
    assert_false(lld_link_shared(&t.tc, junk, sizeof junk, NULL, &out, &n));
    assert_null(out);
    assert_non_null(strstr(t.d.text.data, "ld.lld failed"));
    assert_non_null(strstr(t.d.text.data, "/dev/fd/3")); /* lld's own message names the input */
    t_free(&t);
}

/* Without memfd: a private directory under $TMPDIR, gone afterwards, on
 * success and on failure alike. */
static void test_lld_tmpdir_fallback_leaves_nothing(void **s)
{
    char dir[] = "/tmp/juke-test-tmpdir-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *old = getenv("TMPDIR");
    char *saved = old ? strdup(old) : NULL;
    setenv("TMPDIR", dir, 1);
    T t;
    t_setup(&t, TARGET_AMDGPU, "gfx90a");
    t.o.linker = JUKE_LINK_SPAWN_TMPDIR;
    LLVMValueRef fn = build_store_kernel(&t, "vtmp");
    t_compile_ok(&t, fn, "vtmp");
    assert_true(memcmp(t.co.data, "\177ELF", 4) == 0);
    static const uint8_t junk[] = "not an object";
    uint8_t *out = NULL;
    size_t n = 0;
    assert_false(lld_link_shared(&t.tc, junk, sizeof junk, NULL, &out, &n));
    assert_non_null(strstr(t.d.text.data, "ld.lld failed"));
    t_free(&t);
    if (saved)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    free(saved);
    assert_int_equal(rmdir(dir), 0); /* fails unless empty */
}

/* Debian's device libraries lack oclc_isa_version_942.bc: the constant is
 * defined in its place with the value the file would hold. */
static void test_amdgpu_isa_version_constant(void **s)
{
    static const struct {
        const char *proc;
        long v;
    } cases[] = { { "gfx942", 9402 }, { "gfx1100", 11000 }, { "gfx1201", 12001 }, { "gfx90a", 9010 } };
    for (int i = 0; i < 4; i++) {
        T t;
        t_setup(&t, TARGET_AMDGPU, cases[i].proc);
        build_math_kernel(&t, "visa", "sin", LLVMFloatTypeInContext(t.tc.llctx));
        t.tc.ops->finish_kernel(&t.tc, LLVMGetNamedFunction(t.tc.mod, "visa"), "visa");
        assert_true(t.tc.ops->link_libraries(&t.tc));
        LLVMValueRef g = LLVMGetNamedGlobal(t.tc.mod, "__oclc_ISA_version");
        assert_non_null(g);
        assert_false(LLVMIsDeclaration(g));
        assert_int_equal(LLVMConstIntGetSExtValue(LLVMGetInitializer(g)), cases[i].v);
        assert_int_equal(LLVMGetPointerAddressSpace(LLVMTypeOf(g)), 4);
        LLVMValueRef w = LLVMGetNamedGlobal(t.tc.mod, "__oclc_finite_only_opt"); /* ocml's sin reads it */
        assert_non_null(w);
        assert_false(LLVMIsDeclaration(w));
        assert_int_equal(LLVMConstIntGetZExtValue(LLVMGetInitializer(w)), 0);
        assert_true(llvm_verify(&t.tc));
        t_free(&t);
    }
}

static void test_verify_reports_invalid_ir(void **s)
{
    T t;
    t_setup(&t, TARGET_AMDGPU, "gfx90a");
    LLVMTypeRef ps[1] = { gptr(&t) };
    t_kernel(&t, "broken", ps, 1); /* a block without a terminator */
    assert_false(llvm_verify(&t.tc));
    assert_int_equal(t.d.first_kind, DIAG_INVALID_IR);
    assert_non_null(strstr(t.d.text.data, "LLVM IR verification failed"));
    /* terminate it so disposing is clean */
    LLVMBuildRetVoid(t.b);
    t_free(&t);
}

/* ---- CPU -------------------------------------------------------------- */
typedef struct Loaded {
    void *h;
    const JukeCpuKernelInfo *table;
    uint32_t n;
} Loaded;

static Loaded load_so(const CodeObject *co)
{
    Loaded l = { 0 };
    int fd = memfd_create("test-so", MFD_CLOEXEC);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, co->data, co->size), (ssize_t)co->size);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    l.h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!l.h)
        fprintf(stderr, "dlopen: %s\n", dlerror());
    close(fd);
    assert_non_null(l.h);
    l.table = dlsym(l.h, JUKE_CPU_TABLE_SYMBOL);
    const uint32_t *n = dlsym(l.h, JUKE_CPU_COUNT_SYMBOL);
    assert_non_null(l.table);
    assert_non_null(n);
    l.n = *n;
    return l;
}

static int barrier_calls;
static jmp_buf exit_jmp;
static uint32_t barrier_line, barrier_col;
static void count_barrier(JukeCpuState *st, uint32_t line, uint32_t col)
{
    barrier_calls++;
    barrier_line = line;
    barrier_col = col;
}
static void exit_by_jump(JukeCpuState *st)
{
    longjmp(exit_jmp, 1);
}

/* kernel kargs(a::Vector{Float64}, flag::Bool, add::Int32, scale::Float64):
 *   a[gid] = flag ? (gid + add) * scale : -1.0
 * checks the kernarg layout: a at 0 (24 bytes), flag 24, add 28, scale 32,
 * exception pointer 40; 48 bytes in all. */
static void test_cpu_kernargs_and_table(void **s)
{
    T t;
    t_setup(&t, TARGET_CPU, NULL);
    assert_non_null(t.tc.proc);
    LLVMContextRef c = t.tc.llctx;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c), dbl = LLVMDoubleTypeInContext(c);
    LLVMTypeRef af[3] = { gptr(&t), LLVMArrayType2(i64, 1), i64 };
    LLVMTypeRef arr = LLVMStructTypeInContext(c, af, 3, 0);
    LLVMTypeRef ps[4] = { arr, LLVMInt1TypeInContext(c), i32t(&t), dbl };
    LLVMValueRef fn = t_kernel(&t, "kargs", ps, 4);
    LLVMValueRef gid = global_id(&t);
    LLVMValueRef base = LLVMBuildExtractValue(t.b, LLVMGetParam(fn, 0), 0, "");
    LLVMValueRef v = LLVMBuildSIToFP(t.b, LLVMBuildAdd(t.b, gid, LLVMGetParam(fn, 2), ""), dbl, "");
    v = LLVMBuildFMul(t.b, v, LLVMGetParam(fn, 3), "");
    v = LLVMBuildSelect(t.b, LLVMGetParam(fn, 1), v, LLVMConstReal(dbl, -1.0), "");
    store_at(&t, dbl, base, LLVMBuildZExt(t.b, gid, i64, ""), v);
    LLVMBuildRetVoid(t.b);
    t_compile_ok(&t, fn, "kargs");
    assert_string_equal(t.co.kernel_symbol, "kargs");
    /* the optimised module shows the kernel under its symbol: the entry with the body inlined */
    LLVMValueRef entry = LLVMGetNamedFunction(t.tc.mod, "kargs");
    assert_non_null(entry);
    assert_int_equal(LLVMCountParams(entry), 2);
    assert_null(LLVMGetNamedFunction(t.tc.mod, "kargs.body"));
    assert_int_equal(t.co.kernarg_size, 48);
    Loaded l = load_so(&t.co);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.table[0].name, "kargs");
    assert_int_equal(l.table[0].kernarg_size, 48);
    assert_int_equal(l.table[0].uses_barrier, 0);
    assert_int_equal(l.table[0].static_lds_bytes, 0);

    uint32_t groups = rand_u(1, 4), gdim = rand_u(1, 16);
    int32_t add = (int32_t)rand_u(1, 1000);
    double scale = 0.5 + rand_u(1, 100) / 7.0;
    double *out = calloc(groups * gdim, sizeof *out);
    for (int flag = 0; flag < 2; flag++) {
        uint8_t kernarg[48] = { 0 };
        void *p = out;
        int64_t dims[2] = { groups * gdim, groups * gdim };
        memcpy(kernarg, &p, 8);
        memcpy(kernarg + 8, dims, 16);
        kernarg[24] = (uint8_t)flag;
        memcpy(kernarg + 28, &add, 4);
        memcpy(kernarg + 32, &scale, 8);
        for (uint32_t g = 0; g < groups; g++)
            for (uint32_t i = 0; i < gdim; i++) {
                JukeCpuState st = { .item = { i, 0, 0 },
                                    .group = { g, 0, 0 },
                                    .group_dim = { gdim, 1, 1 },
                                    .grid_groups = { groups, 1, 1 },
                                    .barrier = count_barrier,
                                    .exit_item = exit_by_jump };
                l.table[0].entry(kernarg, &st);
            }
        for (uint32_t k = 0; k < groups * gdim; k++)
            assert_true(out[k] == (flag ? (double)((int32_t)k + add) * scale : -1.0));
    }
    free(out);
    dlclose(l.h);
    t_free(&t);
}

/* kernel klocal(out): static tile (12 bytes, align 4) and the dynamic
 * segment; barrier; a work-item whose item id equals EXIT leaves through
 * exit_item after writing the exception pointer's target. */
static void test_cpu_local_barrier_exit(void **s)
{
    T t;
    t_setup(&t, TARGET_CPU, "x86-64");
    assert_string_equal(t.tc.proc, "x86-64");
    LLVMTypeRef i32 = i32t(&t);
    LLVMTypeRef ps[1] = { gptr(&t) };
    LLVMValueRef fn = t_kernel(&t, "klocal", ps, 1);
    const TargetOps *ops = t.tc.ops;
    LLVMValueRef tile = ops->static_local(&t.tc, t.b, "tile", 12, 4);
    LLVMValueRef tile2 = ops->static_local(&t.tc, t.b, "tile2", 4, 8);
    LLVMValueRef dyn = ops->dynamic_local(&t.tc, t.b);
    LLVMValueRef tid = ops->workitem_id(&t.tc, t.b, 0);
    LLVMValueRef gdim = ops->workgroup_dim(&t.tc, t.b, 0);
    store_at(&t, i32, tile, LLVMConstInt(i32, 1, 0), LLVMBuildAdd(t.b, tid, LLVMConstInt(i32, 7, 0), ""));
    store_at(&t, i32, tile2, LLVMConstInt(i32, 0, 0), gdim);
    ops->barrier(&t.tc, t.b, (SrcLoc){ NULL, 7, 5 });
    LLVMValueRef v =
        LLVMBuildLoad2(t.b, i32, LLVMBuildGEP2(t.b, i32, tile, (LLVMValueRef[]){ LLVMConstInt(i32, 1, 0) }, 1, ""), "");
    store_at(&t, i32, dyn, tid, v);
    LLVMValueRef is_exit = LLVMBuildICmp(t.b, LLVMIntEQ, tid, LLVMConstInt(i32, 3, 0), "");
    LLVMBasicBlockRef exitb = LLVMAppendBasicBlockInContext(t.tc.llctx, fn, "exc");
    LLVMBasicBlockRef okb = LLVMAppendBasicBlockInContext(t.tc.llctx, fn, "ok");
    LLVMBuildCondBr(t.b, is_exit, exitb, okb);
    LLVMPositionBuilderAtEnd(t.b, exitb);
    LLVMBuildStore(t.b, LLVMConstInt(i32, 2, 0), t.tc.cur_exc);
    ops->exit_item(&t.tc, t.b);
    LLVMBuildUnreachable(t.b);
    LLVMPositionBuilderAtEnd(t.b, okb);
    store_at(&t, i32, LLVMGetParam(fn, 0), tid, LLVMBuildAdd(t.b, v, ops->grid_groups(&t.tc, t.b, 0), ""));
    LLVMBuildRetVoid(t.b);
    t_compile_ok(&t, fn, "klocal");
    assert_true(t.co.uses_barrier);
    assert_int_equal(t.co.static_lds_bytes, 20); /* 12, then 4 at offset 16 */
    Loaded l = load_so(&t.co);
    assert_int_equal(l.table[0].static_lds_bytes, 20);
    assert_int_equal(l.table[0].uses_barrier, JUKE_CPU_BARRIER_LOC);
    assert_int_equal(l.table[0].kernarg_size, 16);

    uint32_t grid = rand_u(2, 9);
    for (uint32_t i = 0; i < 5; i++) {
        uint8_t lds[64] = { 0 };
        int32_t out[8] = { 0 };
        uint32_t exc = 0;
        void *po = out, *pe = &exc;
        uint8_t kernarg[16];
        memcpy(kernarg, &po, 8);
        memcpy(kernarg + 8, &pe, 8);
        JukeCpuState st = { .item = { i, 0, 0 },
                            .group = { 0, 0, 0 },
                            .group_dim = { 5, 1, 1 },
                            .grid_groups = { grid, 1, 1 },
                            .lds = lds,
                            .barrier = count_barrier,
                            .exit_item = exit_by_jump };
        barrier_calls = 0;
        volatile bool exited = false;
        if (setjmp(exit_jmp) == 0)
            l.table[0].entry(kernarg, &st);
        else
            exited = true;
        assert_int_equal(barrier_calls, 1);
        assert_int_equal(barrier_line, 7); /* the barrier names its source location */
        assert_int_equal(barrier_col, 5);
        int32_t t1, t2, d;
        memcpy(&t1, lds + 4, 4);
        memcpy(&t2, lds + 16, 4);
        memcpy(&d, lds + 32 + 4 * i, 4); /* dynamic segment at align16(20) = 32 */
        assert_int_equal(t1, (int32_t)i + 7);
        assert_int_equal(t2, 5);
        assert_int_equal(d, (int32_t)i + 7);
        if (i == 3) {
            assert_true(exited);
            assert_int_equal(exc, 2);
            assert_int_equal(out[i], 0);
        } else {
            assert_false(exited);
            assert_int_equal(out[i], (int32_t)(i + 7 + grid));
        }
    }
    dlclose(l.h);
    t_free(&t);
}

static void cpu_math(const char *fname, bool dbl, double (*ref)(double, double))
{
    T t;
    t_setup(&t, TARGET_CPU, NULL);
    LLVMTypeRef ty = dbl ? LLVMDoubleTypeInContext(t.tc.llctx) : LLVMFloatTypeInContext(t.tc.llctx);
    LLVMValueRef fn = build_math_kernel(&t, "kmath", fname, ty);
    t_compile_ok(&t, fn, "kmath");
    Loaded l = load_so(&t.co);
    enum { N = 16 };
    double in[N], out[N];
    float inf[N], outf[N];
    for (int i = 0; i < N; i++) {
        in[i] = (double)rand_u(1, 4000) / 1000.0;
        inf[i] = (float)in[i];
    }
    void *po = dbl ? (void *)out : (void *)outf, *pi = dbl ? (void *)in : (void *)inf;
    uint8_t kernarg[24] = { 0 };
    memcpy(kernarg, &po, 8);
    memcpy(kernarg + 8, &pi, 8);
    for (uint32_t i = 0; i < N; i++) {
        JukeCpuState st = { .item = { i, 0, 0 }, .group_dim = { N, 1, 1 }, .grid_groups = { 1, 1, 1 } };
        l.table[0].entry(kernarg, &st);
    }
    for (int i = 0; i < N; i++) {
        if (dbl)
            assert_true(fabs(out[i] - ref(in[i], in[i])) <= 1e-12 * fmax(1.0, fabs(out[i])));
        else
            assert_true(fabs(outf[i] - ref(inf[i], inf[i])) <= 1e-5 * fmax(1.0, fabs(outf[i])));
    }
    dlclose(l.h);
    t_free(&t);
}

static double ref_sin(double x, double y)
{
    return sin(x);
}
static double ref_atan2(double x, double y)
{
    return atan2(x, y);
}
static double ref_powi3(double x, double y)
{
    return x * x * x;
}
static double ref_exp10(double x, double y)
{
    return exp10(x);
}
static double ref_cbrt(double x, double y)
{
    return cbrt(x);
}

static void test_cpu_math_sin(void **s)
{
    cpu_math("sin", false, ref_sin);
    cpu_math("sin", true, ref_sin);
}
static void test_cpu_math_atan2(void **s)
{
    cpu_math("atan2", true, ref_atan2);
}
static void test_cpu_math_powi(void **s)
{
    cpu_math("powi", true, ref_powi3);
    cpu_math("powi", false, ref_powi3);
}
static void test_cpu_math_exp10_cbrt(void **s)
{
    cpu_math("exp10", true, ref_exp10);
    cpu_math("cbrt", false, ref_cbrt);
}

/* Float16 on a CPU without F16C: LLVM converts through compiler-rt /
 * libgcc helpers (__extendhfsf2, __truncsfhf2), which must resolve. */
static void test_cpu_math_half(void **s)
{
    T t;
    t_setup(&t, TARGET_CPU, "x86-64");
    LLVMValueRef fn = build_math_kernel(&t, "khalf", "exp", LLVMHalfTypeInContext(t.tc.llctx));
    t_compile_ok(&t, fn, "khalf");
    Loaded l = load_so(&t.co);
    enum { N = 8 };
    _Float16 in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (_Float16)((float)rand_u(1, 300) / 100.0f);
    void *po = out, *pi = in;
    uint8_t kernarg[24] = { 0 };
    memcpy(kernarg, &po, 8);
    memcpy(kernarg + 8, &pi, 8);
    for (uint32_t i = 0; i < N; i++) {
        JukeCpuState st = { .item = { i, 0, 0 }, .group_dim = { N, 1, 1 }, .grid_groups = { 1, 1, 1 } };
        l.table[0].entry(kernarg, &st);
    }
    for (int i = 0; i < N; i++)
        assert_true(out[i] == (_Float16)expf((float)in[i]));
    dlclose(l.h);
    t_free(&t);
}

static void test_cpu_unknown_cpu(void **s)
{
    T t;
    t_options(&t, TARGET_CPU, "pentium9000");
    assert_false(t_init(&t));
    assert_non_null(strstr(t.d.text.data, "unknown CPU \"pentium9000\"; known CPUs: native, x86-64"));
    t_free(&t);
}

/* ---- NVPTX ------------------------------------------------------------ */
static void test_nvptx_store(void **s)
{
    T t;
    t_setup(&t, TARGET_NVPTX, NULL);
    assert_string_equal(t.tc.proc, "sm_90");
    LLVMValueRef fn = build_store_kernel(&t, "vstore");
    t_compile_ok(&t, fn, "vstore");
    const char *ptx = (const char *)t.co.data;
    assert_int_equal(strlen(ptx), t.co.size);
    assert_non_null(strstr(ptx, ".entry vstore"));
    assert_non_null(strstr(ptx, "st.global"));
    assert_non_null(strstr(ptx, ".target sm_90"));
    assert_non_null(strstr(ptx, ".param .u64 vstore_param_2")); /* the exception pointer */
    assert_non_null(strstr(t.co.resources, "driver's JIT"));
    assert_true(t.co.kernarg_size == 24 || t.co.kernarg_size == 20);
    t_free(&t);
}

/* The launch's shape is read before the ids (target_nvptx.c hoist_launch_shape: the order ptxas keys its uniform
 * registers on, bench/RESULTS.md §19), one read per register: ntid.x, read in two blocks, once and before ctaid.x
 * (nctaid.y, used in one block only, is sunk there again by LLVM's code generation). */
static void test_nvptx_launch_shape_first(void **s)
{
    T t;
    t_setup(&t, TARGET_NVPTX, NULL);
    LLVMTypeRef i32 = i32t(&t);
    LLVMTypeRef ps[2] = { gptr(&t), i32 };
    LLVMValueRef fn = t_kernel(&t, "shape", ps, 2);
    const TargetOps *ops = t.tc.ops;
    LLVMValueRef gid = global_id(&t); /* ctaid.x * ntid.x + tid.x: the id read first */
    LLVMBasicBlockRef more = LLVMAppendBasicBlockInContext(t.tc.llctx, fn, "more");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(t.tc.llctx, fn, "done");
    LLVMBuildCondBr(t.b, LLVMBuildICmp(t.b, LLVMIntSLT, gid, LLVMGetParam(fn, 1), ""), more, done);
    LLVMPositionBuilderAtEnd(t.b, more);
    LLVMValueRef v = LLVMBuildMul(t.b, ops->workgroup_dim(&t.tc, t.b, 0), ops->grid_groups(&t.tc, t.b, 1), "");
    store_at(&t, i32, LLVMGetParam(fn, 0), gid, v);
    LLVMBuildBr(t.b, done);
    LLVMPositionBuilderAtEnd(t.b, done);
    LLVMBuildRetVoid(t.b);
    t_compile_ok(&t, fn, "shape");
    const char *ptx = (const char *)t.co.data;
    const char *ntid = strstr(ptx, "%ntid.x"), *nctaid = strstr(ptx, "%nctaid.y"), *ctaid = strstr(ptx, "%ctaid.x");
    assert_non_null(ntid);
    assert_non_null(nctaid);
    assert_non_null(ctaid);
    assert_true(ntid < ctaid);
    assert_null(strstr(ntid + 1, "%ntid.x"));
    t_free(&t);
}

static void test_nvptx_features(void **s)
{
    T t;
    t_setup(&t, TARGET_NVPTX, "sm_80");
    LLVMTypeRef i32 = i32t(&t);
    LLVMTypeRef ps[1] = { gptr(&t) };
    LLVMValueRef fn = t_kernel(&t, "nfeat", ps, 1);
    const TargetOps *ops = t.tc.ops;
    LLVMValueRef tile = ops->static_local(&t.tc, t.b, "tile", 256, 16);
    LLVMValueRef dyn = ops->dynamic_local(&t.tc, t.b);
    LLVMValueRef tid = ops->workitem_id(&t.tc, t.b, 0);
    store_at(&t, i32, tile, tid, tid);
    ops->barrier(&t.tc, t.b, (SrcLoc){ NULL, 7, 5 });
    LLVMValueRef v =
        LLVMBuildLoad2(t.b, i32, LLVMBuildGEP2(t.b, i32, tile, (LLVMValueRef[]){ LLVMConstInt(i32, 0, 0) }, 1, ""), "");
    store_at(&t, i32, dyn, tid, v);
    LLVMValueRef bad = LLVMBuildICmp(t.b, LLVMIntEQ, v, ops->grid_groups(&t.tc, t.b, 2), "");
    LLVMBasicBlockRef exitb = LLVMAppendBasicBlockInContext(t.tc.llctx, fn, "exc");
    LLVMBasicBlockRef okb = LLVMAppendBasicBlockInContext(t.tc.llctx, fn, "ok");
    LLVMBuildCondBr(t.b, bad, exitb, okb);
    LLVMPositionBuilderAtEnd(t.b, exitb);
    LLVMBuildStore(t.b, LLVMConstInt(i32, 2, 0), t.tc.cur_exc);
    ops->exit_item(&t.tc, t.b);
    LLVMBuildUnreachable(t.b);
    LLVMPositionBuilderAtEnd(t.b, okb);
    store_at(&t, i32, LLVMGetParam(fn, 0), tid, v);
    LLVMBuildRetVoid(t.b);
    t_compile_ok(&t, fn, "nfeat");
    const char *ptx = t.co.asm_text;
    /* the unaligned barrier: bar.sync (barrier.sync.aligned) hangs a warp that reaches it from two branches */
    assert_non_null(strstr(ptx, "barrier.sync \t0;"));
    assert_null(strstr(ptx, "bar.sync"));
    assert_non_null(strstr(ptx, "exit;"));
    assert_non_null(strstr(ptx, ".extern .shared .align 16 .b8 __juke_dynamic_shmem[]"));
    assert_non_null(strstr(ptx, "%nctaid.z"));
    assert_int_equal(t.co.lds_bytes, 256);
    t_free(&t);
}

static void test_nvptx_math(void **s)
{
    T t;
    t_setup(&t, TARGET_NVPTX, "sm_70");
    if (access(JUKE_LIBDEVICE_DEFAULT, R_OK) != 0) {
        t_free(&t);
        skip();
    }
    LLVMValueRef fn = build_math_kernel(&t, "nmath", "sin", LLVMFloatTypeInContext(t.tc.llctx));
    t_compile_ok(&t, fn, "nmath");
    assert_false(has_undefined_call(t.tc.mod, "__nv_"));
    assert_null(strstr(t.co.asm_text, "__nv_sinf"));
    assert_non_null(strstr(t.co.resources, "libdevice:"));
    t_free(&t);
}

static void test_nvptx_math_without_libdevice(void **s)
{
    T t;
    t_options(&t, TARGET_NVPTX, NULL);
    t.o.devlib_dir = "/nonexistent/libdevice.10.bc";
    assert_true(t_init(&t));
    LLVMTypeRef fty;
    /* library functions are a clear error (sqrt, fma, floor... are LLVM
     * intrinsics that code generation emits itself, never asking math_fn) */
    assert_null(t.tc.ops->math_fn(&t.tc, "sin", LLVMDoubleTypeInContext(t.tc.llctx), &fty));
    assert_int_equal(t.d.first_kind, DIAG_USER);
    assert_non_null(strstr(t.d.text.data, "libdevice not found at /nonexistent/libdevice.10.bc"));
    t_free(&t);
}

static void test_nvptx_unknown(void **s)
{
    T t;
    t_options(&t, TARGET_NVPTX, "sm_12");
    assert_false(t_init(&t));
    assert_non_null(strstr(t.d.text.data, "unknown NVPTX target \"sm_12\"; known targets: sm_50"));
    t_free(&t);
}

static void test_known_procs(void **s)
{
    const TargetInfo *amd = target_by_kind(TARGET_AMDGPU), *nv = target_by_kind(TARGET_NVPTX),
                     *cpu = target_by_kind(TARGET_CPU);
    assert_true(target_proc_listed(amd, "gfx90a"));
    assert_true(target_proc_listed(amd, "gfx1201"));
    assert_false(target_proc_listed(amd, "gfx90"));
    assert_false(target_proc_listed(amd, "gfx"));
    assert_true(target_proc_listed(nv, "sm_90a"));
    assert_false(target_proc_listed(nv, "sm_9"));
    assert_true(target_proc_listed(cpu, "x86-64-v3"));
    assert_false(target_proc_listed(cpu, NULL));
}

/* The registry: every row parses by its name (default processor) and by each
 * processor it lists, back to itself; each has its code generation, an
 * extension, a default processor the list knows, and initialises in LLVM. */
static void test_registry_rows(void **s)
{
    assert_true(target_count() >= 3);
    StrBuf err = { 0 };
    const TargetInfo *t;
    const char *proc;
    assert_true(target_parse(NULL, &t, &proc, &err));
    assert_true(target_proc_listed(t, target_default_spec));
    for (int i = 0; i < target_count(); i++) {
        const TargetInfo *row = target_at(i);
        assert_non_null(row->ops);
        assert_non_null(row->ext);
        assert_true(row == target_by_kind(row->kind));
        assert_true(target_parse(row->name, &t, &proc, &err));
        assert_ptr_equal(t, row);
        assert_null(proc);
        if (row->default_proc)
            assert_true(target_proc_listed(row, row->default_proc));
        for (const char *const *p = row->procs; *p; p++) {
            char spec[128];
            snprintf(spec, sizeof spec, "%s%s", row->proc_separator ? row->proc_separator : "", *p);
            assert_true(target_parse(spec, &t, &proc, &err));
            assert_ptr_equal(t, row);
            assert_string_equal(proc, *p);
        }
        T tt;
        t_options(&tt, row->kind, NULL);
        bool ok = t_init(&tt);
        if (!ok)
            fprintf(stderr, "%s: %s", row->name, tt.d.text.data);
        assert_true(ok);
        t_free(&tt);
    }
    assert_false(target_parse("amdgcn", &t, &proc, &err));
    assert_non_null(strstr(err.data, "unknown target \"amdgcn\""));
    sb_free(&err);
}

int main(void)
{
    srand((unsigned)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_procs),
        cmocka_unit_test(test_registry_rows),
        cmocka_unit_test(test_amdgpu_store_gfx90a),
        cmocka_unit_test(test_amdgpu_store_gfx942),
        cmocka_unit_test(test_amdgpu_store_gfx1100),
        cmocka_unit_test(test_amdgpu_store_gfx906),
        cmocka_unit_test(test_amdgpu_store_gfx1201),
        cmocka_unit_test(test_amdgpu_alias_cache),
        cmocka_unit_test(test_amdgpu_every_known_proc_inits),
        cmocka_unit_test(test_amdgpu_wave64_on_rdna),
        cmocka_unit_test(test_amdgpu_errors),
        cmocka_unit_test(test_amdgpu_default_proc),
        cmocka_unit_test(test_amdgpu_math_sin_f32),
        cmocka_unit_test(test_amdgpu_math_pow_f64_gfx942),
        cmocka_unit_test(test_amdgpu_math_powi_gfx1100),
        cmocka_unit_test(test_amdgpu_math_atan2_f64_gfx908),
        cmocka_unit_test(test_amdgpu_math_half),
        cmocka_unit_test(test_amdgpu_math_at_O0),
        cmocka_unit_test(test_amdgpu_libslice),
        cmocka_unit_test(test_amdgpu_missing_devlibs),
        cmocka_unit_test(test_amdgpu_features_v5),
        cmocka_unit_test(test_amdgpu_features_v4),
        cmocka_unit_test(test_lld_error_is_reported),
        cmocka_unit_test(test_lld_tmpdir_fallback_leaves_nothing),
        cmocka_unit_test(test_amdgpu_isa_version_constant),
        cmocka_unit_test(test_verify_reports_invalid_ir),
        cmocka_unit_test(test_cpu_kernargs_and_table),
        cmocka_unit_test(test_cpu_local_barrier_exit),
        cmocka_unit_test(test_cpu_math_sin),
        cmocka_unit_test(test_cpu_math_atan2),
        cmocka_unit_test(test_cpu_math_powi),
        cmocka_unit_test(test_cpu_math_exp10_cbrt),
        cmocka_unit_test(test_cpu_math_half),
        cmocka_unit_test(test_cpu_unknown_cpu),
        cmocka_unit_test(test_nvptx_store),
        cmocka_unit_test(test_nvptx_launch_shape_first),
        cmocka_unit_test(test_nvptx_features),
        cmocka_unit_test(test_nvptx_math),
        cmocka_unit_test(test_nvptx_math_without_libdevice),
        cmocka_unit_test(test_nvptx_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
