/* dev_cuda.c: the CUDA backend. The driver (libcuda.so.1) is loaded with
 * dlopen, so juke builds and runs without CUDA; code objects are PTX text,
 * JIT-compiled by cuModuleLoadDataEx. The launch path is kept short (a
 * benchmark holds it to raw cuLaunchKernel): no allocation, no lock and no
 * syscall per asynchronous launch, the parameter array lives on the stack. */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* cuda.h's values (stable across CUDA 11-13); declared here so this file
 * builds without the headers. */
enum {
    CU_ATTR_MAX_THREADS_PER_BLOCK = 1,
    CU_ATTR_MAX_SHARED_PER_BLOCK = 8,
    CU_ATTR_CC_MAJOR = 75,
    CU_ATTR_CC_MINOR = 76,
    CU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 97,
    CU_FUNC_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_SHARED_SIZE_BYTES = 1,
    CU_FUNC_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_NUM_REGS = 4,
    CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    CU_MEMHOSTALLOC_DEVICEMAP = 2,
    CU_STATIC_SHARED_LIMIT = 48 * 1024, /* above it, dynamic shared memory needs an opt-in */
};

typedef unsigned long long CuPtr;

typedef struct CudaApi {
    void *lib;
    int (*Init)(unsigned);
    int (*DeviceGetCount)(int *);
    int (*DeviceGet)(int *, int);
    int (*DeviceGetName)(char *, int, int);
    int (*DeviceGetAttribute)(int *, int, int);
    int (*PrimaryCtxRetain)(void **, int);
    int (*PrimaryCtxRelease)(int);
    int (*CtxSetCurrent)(void *);
    int (*MemAlloc)(CuPtr *, size_t);
    int (*MemFree)(CuPtr);
    int (*MemcpyHtoD)(CuPtr, const void *, size_t);
    int (*MemcpyDtoH)(void *, CuPtr, size_t);
    int (*MemcpyDtoD)(CuPtr, CuPtr, size_t);
    int (*MemHostAlloc)(void **, size_t, unsigned);
    int (*MemFreeHost)(void *);
    int (*MemHostGetDevicePointer)(CuPtr *, void *, unsigned);
    int (*ModuleLoadDataEx)(void **, const void *, unsigned, int *, void **);
    int (*ModuleUnload)(void *);
    int (*ModuleGetFunction)(void **, void *, const char *);
    int (*FuncGetAttribute)(int *, int, void *);
    int (*FuncSetAttribute)(void *, int, int);
    int (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **,
                        void **);
    int (*StreamCreate)(void **, unsigned);
    int (*StreamDestroy)(void *);
    int (*StreamSynchronize)(void *);
    int (*StreamQuery)(void *);
    int (*EventCreate)(void **, unsigned);
    int (*EventDestroy)(void *);
    int (*EventRecord)(void *, void *);
    int (*EventSynchronize)(void *);
    int (*EventElapsedTime)(float *, void *, void *);
    int (*GetErrorString)(int, const char **);
    /* optional: cooperative launches (sync_grid) */
    int (*LaunchCooperativeKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
                                   void **);
    /* optional: a code object's globals (juke_kernel_global_set / _get) */
    int (*ModuleGetGlobal)(CuPtr *, size_t *, void *, const char *);
} CudaApi;

typedef struct CudaDev {
    CudaApi api;
    int ordinal;
    int cudev;
    void *ctx; /* the primary context, made current at each entry */
    void *stream;
    JukeExceptionRecord *exc_host; /* mapped pinned memory */
    CuPtr exc_dev;                 /* its device address; the last kernel parameter points here */
} CudaDev;

typedef struct CudaModule {
    void *mod;
    char *ptx; /* NUL-terminated copy, for the .entry parameter lists */
    size_t size;
} CudaModule;

typedef struct CudaFunction {
    void *fn;
    int dyn_shared_set; /* the opted-in dynamic shared memory limit, 0 = default */
} CudaFunction;

static const char *cuda_errstr(const CudaApi *a, int e)
{
    const char *s = NULL;
    if (a->GetErrorString && a->GetErrorString(e, &s) != 0)
        s = NULL;
    return s ? s : "unknown error";
}

static const char *const cuda_sonames[] = { "libcuda.so.1" };

static const RtDriver cuda_driver = {
    .no_gpu = "no NVIDIA GPU",
    .what = "CUDA driver",
    .env = "JUKE_CUDA_LIBRARY",
    .names = cuda_sonames,
    .nnames = 1,
    .spec = "cuda",
    .init = "cuInit",
    .count = "cuDeviceGetCount",
};

static int cuda_load_api(CudaApi *a, char **short_why, char **err)
{
    memset(a, 0, sizeof *a);
    const RtDriverSym syms[] = {
        { "cuInit", (void **)&a->Init },
        { "cuDeviceGetCount", (void **)&a->DeviceGetCount },
        { "cuDeviceGet", (void **)&a->DeviceGet },
        { "cuDeviceGetName", (void **)&a->DeviceGetName },
        { "cuDeviceGetAttribute", (void **)&a->DeviceGetAttribute },
        { "cuDevicePrimaryCtxRetain", (void **)&a->PrimaryCtxRetain },
        { "cuDevicePrimaryCtxRelease_v2", (void **)&a->PrimaryCtxRelease },
        { "cuCtxSetCurrent", (void **)&a->CtxSetCurrent },
        { "cuMemAlloc_v2", (void **)&a->MemAlloc },
        { "cuMemFree_v2", (void **)&a->MemFree },
        { "cuMemcpyHtoD_v2", (void **)&a->MemcpyHtoD },
        { "cuMemcpyDtoH_v2", (void **)&a->MemcpyDtoH },
        { "cuMemcpyDtoD_v2", (void **)&a->MemcpyDtoD },
        { "cuMemHostAlloc", (void **)&a->MemHostAlloc },
        { "cuMemFreeHost", (void **)&a->MemFreeHost },
        { "cuMemHostGetDevicePointer_v2", (void **)&a->MemHostGetDevicePointer },
        { "cuModuleLoadDataEx", (void **)&a->ModuleLoadDataEx },
        { "cuModuleUnload", (void **)&a->ModuleUnload },
        { "cuModuleGetFunction", (void **)&a->ModuleGetFunction },
        { "cuFuncGetAttribute", (void **)&a->FuncGetAttribute },
        { "cuFuncSetAttribute", (void **)&a->FuncSetAttribute },
        { "cuLaunchKernel", (void **)&a->LaunchKernel },
        { "cuStreamCreate", (void **)&a->StreamCreate },
        { "cuStreamDestroy_v2", (void **)&a->StreamDestroy },
        { "cuStreamSynchronize", (void **)&a->StreamSynchronize },
        { "cuStreamQuery", (void **)&a->StreamQuery },
        { "cuEventCreate", (void **)&a->EventCreate },
        { "cuEventDestroy_v2", (void **)&a->EventDestroy },
        { "cuEventRecord", (void **)&a->EventRecord },
        { "cuEventSynchronize", (void **)&a->EventSynchronize },
        { "cuEventElapsedTime", (void **)&a->EventElapsedTime },
        { "cuGetErrorString", (void **)&a->GetErrorString },
    };
    a->lib = rt_driver_load(&cuda_driver, syms, sizeof syms / sizeof syms[0], short_why, err);
    if (a->lib)
        a->LaunchCooperativeKernel = dlsym(a->lib, "cuLaunchCooperativeKernel");
    if (a->lib)
        a->ModuleGetGlobal = dlsym(a->lib, "cuModuleGetGlobal_v2");
    return a->lib ? 0 : -1;
}

static void cuda_close(RtDevice *dev)
{
    CudaDev *cd = dev->priv;
    if (!cd)
        return;
    CudaApi *a = &cd->api;
    a->CtxSetCurrent(cd->ctx);
    if (cd->stream) {
        a->StreamSynchronize(cd->stream);
        a->StreamDestroy(cd->stream);
    }
    if (cd->exc_host)
        a->MemFreeHost(cd->exc_host);
    a->PrimaryCtxRelease(cd->cudev);
    dlclose(a->lib);
    free(cd);
    dev->priv = NULL;
}

static int cuda_alloc(RtDevice *dev, size_t bytes, void **devptr, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    CuPtr p = 0;
    int e = cd->api.MemAlloc(&p, bytes);
    if (e != 0) {
        *devptr = NULL;
        return rt_fail(err, "cuda: cuMemAlloc of %zu bytes failed: %s", bytes, cuda_errstr(&cd->api, e));
    }
    *devptr = (void *)(uintptr_t)p;
    return 0;
}

static void cuda_free(RtDevice *dev, void *p)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    cd->api.MemFree((CuPtr)(uintptr_t)p);
}

static int cuda_upload(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.MemcpyHtoD((CuPtr)(uintptr_t)dst, src, bytes);
    return e ? rt_fail(err, "cuda: cuMemcpyHtoD of %zu bytes failed: %s", bytes, cuda_errstr(&cd->api, e)) : 0;
}

static int cuda_download(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.MemcpyDtoH(dst, (CuPtr)(uintptr_t)src, bytes);
    return e ? rt_fail(err, "cuda: cuMemcpyDtoH of %zu bytes failed: %s", bytes, cuda_errstr(&cd->api, e)) : 0;
}

static int cuda_d2d(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.MemcpyDtoD((CuPtr)(uintptr_t)dst, (CuPtr)(uintptr_t)src, bytes);
    return e ? rt_fail(err, "cuda: cuMemcpyDtoD of %zu bytes failed: %s", bytes, cuda_errstr(&cd->api, e)) : 0;
}

/* ---- PTX parameter lists -----------------------------------------------------
 *   entry  := ".entry" NAME "(" [param {"," param}] ")" {directive} "{"
 *   param  := ".param" {".align" N | TYPE | ".ptr" | STATE} PNAME ["[" N "]"]
 * CUDA lays the parameters out like a struct: each at the next offset
 * aligned to its .align (default: its type's size). */
static const char *ptx_skip_ws(const char *p, const char *end)
{
    while (p < end) {
        if (isspace((unsigned char)*p)) {
            p++;
        } else if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (end - p >= 2 && !(p[0] == '*' && p[1] == '/'))
                p++;
            p = end - p >= 2 ? p + 2 : end;
        } else {
            break;
        }
    }
    return p;
}

static bool ptx_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.' || c == '%';
}

static uint32_t ptx_type_size(const char *t, size_t n)
{
    if (n < 3 || t[0] != '.')
        return 0;
    if (n == 5 && memcmp(t, ".pred", 5) == 0)
        return 1;
    if (t[1] != 'u' && t[1] != 's' && t[1] != 'b' && t[1] != 'f')
        return 0;
    if (n == 3 && t[2] == '8')
        return 1;
    if (n == 4 && memcmp(t + 2, "16", 2) == 0)
        return 2;
    if (n == 4 && memcmp(t + 2, "32", 2) == 0)
        return 4;
    if (n == 4 && memcmp(t + 2, "64", 2) == 0)
        return 8;
    return 0;
}

static bool ptx_read_uint(const char **pp, const char *end, uint64_t *v)
{
    const char *p = *pp;
    if (p >= end || !isdigit((unsigned char)*p))
        return false;
    uint64_t x = 0;
    while (p < end && isdigit((unsigned char)*p)) {
        x = x * 10 + (uint64_t)(*p - '0');
        if (x > (1u << 30))
            return false;
        p++;
    }
    *v = x;
    *pp = p;
    return true;
}

int ptx_entry_info(const char *ptx, size_t size, const char *name, RtFunctionInfo *out, char **err)
{
    memset(out, 0, sizeof *out);
    const char *end = ptx + size, *p = ptx;
    size_t nlen = strlen(name);
    const char *open = NULL;
    while (p < end) {
        const char *hit = memmem(p, (size_t)(end - p), ".entry", 6);
        if (!hit)
            break;
        p = hit + 6;
        if (p >= end || !isspace((unsigned char)*p))
            continue;
        const char *q = ptx_skip_ws(p, end);
        const char *id = q;
        while (q < end && ptx_ident_char(*q))
            q++;
        if ((size_t)(q - id) == nlen && memcmp(id, name, nlen) == 0) {
            q = ptx_skip_ws(q, end);
            if (q < end && *q == '(') {
                open = q + 1;
                break;
            }
        }
    }
    if (!open)
        return rt_fail(err, "no kernel '%s' in the PTX (no .entry %s)", name, name);
    snprintf(out->name, sizeof out->name, "%s", name);
    p = ptx_skip_ws(open, end);
    uint64_t offset = 0;
    bool closed = false;
    if (p < end && *p == ')') {
        closed = true;
        p++;
    }
    while (!closed) {
        p = ptx_skip_ws(p, end);
        if (end - p < 6 || memcmp(p, ".param", 6) != 0)
            return rt_fail(err, "PTX of %s: malformed parameter %u", name, out->nargs + 1);
        p += 6;
        uint32_t tsize = 0;
        uint64_t align = 0, count = 1;
        bool pointer = false; /* after .ptr, ".align N" is the pointee's alignment */
        RtArgInfo ai;
        memset(&ai, 0, sizeof ai);
        for (;;) {
            p = ptx_skip_ws(p, end);
            const char *t = p;
            while (p < end && ptx_ident_char(*p))
                p++;
            size_t tn = (size_t)(p - t);
            if (tn == 0)
                return rt_fail(err, "PTX of %s: malformed parameter %u", name, out->nargs + 1);
            if (t[0] != '.') { /* the parameter's name */
                snprintf(ai.name, sizeof ai.name, "%.*s", (int)(tn < 47 ? tn : 47), t);
                p = ptx_skip_ws(p, end);
                if (p < end && *p == '[') {
                    p = ptx_skip_ws(p + 1, end);
                    if (!ptx_read_uint(&p, end, &count))
                        return rt_fail(err, "PTX of %s: malformed array size of parameter %u", name, out->nargs + 1);
                    p = ptx_skip_ws(p, end);
                    if (p >= end || *p != ']')
                        return rt_fail(err, "PTX of %s: malformed array size of parameter %u", name, out->nargs + 1);
                    p++;
                }
                break;
            }
            if (tn == 6 && memcmp(t, ".align", 6) == 0) {
                uint64_t v = 0;
                p = ptx_skip_ws(p, end);
                if (!ptx_read_uint(&p, end, &v) || v == 0 || (v & (v - 1)))
                    return rt_fail(err, "PTX of %s: malformed .align of parameter %u", name, out->nargs + 1);
                if (!pointer)
                    align = v;
            } else if (tn == 4 && memcmp(t, ".ptr", 4) == 0) {
                pointer = true;
            } else if (ptx_type_size(t, tn)) {
                tsize = ptx_type_size(t, tn);
            } /* .ptr, .global, .shared...: qualifiers that do not change the layout */
        }
        if (tsize == 0)
            return rt_fail(err, "PTX of %s: parameter %u has no type", name, out->nargs + 1);
        if (out->nargs >= 64)
            return rt_fail(err, "PTX of %s: more than 64 parameters", name);
        if (!align)
            align = tsize;
        offset = (offset + align - 1) & ~(align - 1);
        ai.offset = (uint32_t)offset;
        ai.size = (uint32_t)(tsize * count);
        ai.align = (uint32_t)align;
        snprintf(ai.value_kind, sizeof ai.value_kind, "by_value");
        offset += ai.size;
        if (offset > (1u << 20))
            return rt_fail(err, "PTX of %s: parameters too large", name);
        out->args[out->nargs++] = ai;
        p = ptx_skip_ws(p, end);
        if (p < end && *p == ',') {
            p++;
        } else if (p < end && *p == ')') {
            p++;
            closed = true;
        } else {
            return rt_fail(err, "PTX of %s: expected ',' or ')' after parameter %u", name, out->nargs);
        }
    }
    out->nall = out->nargs;
    out->kernarg_size = (uint32_t)offset;
    out->wavefront_size = 32;
    /* LLVM names PTX parameters NAME_param_N; the juke compiler marks the
     * exception argument either by its name or by a comment line
     * "// juke-exception-arg: NAME" (module inline asm). */
    if (out->nargs > 0 && strstr(out->args[out->nargs - 1].name, "__juke_exception"))
        out->has_exception_arg = true;
    char marker[200];
    int ml = snprintf(marker, sizeof marker, "// juke-exception-arg: %s", name);
    if (ml > 0 && (size_t)ml < sizeof marker && out->nargs > 0) {
        const char *m = ptx;
        while ((m = memmem(m, (size_t)(end - m), marker, (size_t)ml)) != NULL) {
            const char *after = m + ml;
            if (after >= end || *after == '\n' || *after == '\r' || *after == ' ' || *after == '\0') {
                out->has_exception_arg = true;
                break;
            }
            m = after;
        }
    }
    /* Performance directives between ')' and '{': .maxntid X[, Y[, Z]] / .reqntid */
    for (;;) {
        p = ptx_skip_ws(p, end);
        if (p >= end || *p == '{')
            break;
        const char *t = p;
        while (p < end && ptx_ident_char(*p))
            p++;
        size_t tn = (size_t)(p - t);
        if (tn == 0) {
            p++;
            continue;
        }
        if ((tn == 8 && memcmp(t, ".maxntid", 8) == 0) || (tn == 8 && memcmp(t, ".reqntid", 8) == 0)) {
            uint64_t prod = 1, v;
            for (int d = 0; d < 3; d++) {
                p = ptx_skip_ws(p, end);
                if (!ptx_read_uint(&p, end, &v))
                    break;
                prod *= v;
                p = ptx_skip_ws(p, end);
                if (p < end && *p == ',')
                    p++;
                else
                    break;
            }
            if (prod > 0 && prod <= UINT32_MAX)
                out->max_group_size = (uint32_t)prod;
        }
    }
    return 0;
}

/* ---- modules, functions, launches ------------------------------------------ */

static int cuda_module_load(RtModule *m, const void *image, size_t size, char **err)
{
    CudaDev *cd = m->dev->priv;
    CudaModule *cm = calloc(1, sizeof *cm);
    char *ptx = malloc(size + 1);
    if (!cm || !ptx) {
        free(cm);
        free(ptx);
        return rt_fail(err, "cuda: out of memory");
    }
    memcpy(ptx, image, size);
    ptx[size] = '\0';
    char log[8192] = "";
    int opts[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[2] = { log, (void *)(uintptr_t)sizeof log };
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.ModuleLoadDataEx(&cm->mod, ptx, 2, opts, vals);
    if (e != 0) {
        free(cm);
        free(ptx);
        log[sizeof log - 1] = '\0';
        return rt_fail(err, "cuda: the PTX did not load (cuModuleLoadDataEx: %s)%s%s", cuda_errstr(&cd->api, e),
                       log[0] ? ":\n" : "", log);
    }
    cm->ptx = ptx;
    cm->size = size;
    m->priv = cm;
    return 0;
}

static void cuda_module_unload(RtModule *m)
{
    CudaDev *cd = m->dev->priv;
    CudaModule *cm = m->priv;
    if (!cm)
        return;
    cd->api.CtxSetCurrent(cd->ctx);
    cd->api.ModuleUnload(cm->mod);
    free(cm->ptx);
    free(cm);
}

static int cuda_global_get(RtModule *m, const char *name, void **devptr, size_t *bytes, char **err)
{
    CudaDev *cd = m->dev->priv;
    CudaModule *cm = m->priv;
    CuPtr p = 0;
    if (!cd->api.ModuleGetGlobal)
        return rt_fail(err, "cuda: the driver has no cuModuleGetGlobal_v2");
    cd->api.CtxSetCurrent(cd->ctx);
    if (cd->api.ModuleGetGlobal(&p, bytes, cm->mod, name) != 0)
        return rt_fail(err, "the code object has no global `%s`", name);
    *devptr = (void *)(uintptr_t)p;
    return 0;
}

static int cuda_function_get(RtFunction *f, const char *name, char **err)
{
    CudaDev *cd = f->mod->dev->priv;
    CudaModule *cm = f->mod->priv;
    if (ptx_entry_info(cm->ptx, cm->size, name, &f->info, err) != 0)
        return -1;
    CudaFunction *cf = calloc(1, sizeof *cf);
    if (!cf)
        return rt_fail(err, "cuda: out of memory");
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.ModuleGetFunction(&cf->fn, cm->mod, name);
    if (e != 0) {
        free(cf);
        return rt_fail(err, "cuda: cuModuleGetFunction(%s) failed: %s", name, cuda_errstr(&cd->api, e));
    }
    int v;
    if (cd->api.FuncGetAttribute(&v, CU_FUNC_MAX_THREADS_PER_BLOCK, cf->fn) == 0 && v > 0)
        f->info.max_group_size = (uint32_t)v;
    if (cd->api.FuncGetAttribute(&v, CU_FUNC_SHARED_SIZE_BYTES, cf->fn) == 0 && v >= 0)
        f->info.static_lds_bytes = (uint32_t)v;
    if (cd->api.FuncGetAttribute(&v, CU_FUNC_NUM_REGS, cf->fn) == 0 && v >= 0)
        f->info.vgprs = (uint32_t)v;
    if (cd->api.FuncGetAttribute(&v, CU_FUNC_LOCAL_SIZE_BYTES, cf->fn) == 0 && v >= 0)
        f->info.scratch_bytes = (uint32_t)v;
    f->priv = cf;
    return 0;
}

static void cuda_function_free(RtFunction *f)
{
    free(f->priv);
}

/* Wait for the stream (at most timeout_s seconds when > 0); 1 with *exc
 * filled if a kernel raised an exception. */
static int cuda_wait(RtDevice *dev, void *stream, double timeout_s, JukeExceptionRecord *exc, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    void *s = stream ? stream : cd->stream;
    enum { CUDA_ERROR_NOT_READY = 600 };
    int e = timeout_s > 0 ? rt_poll_stream(cd->api.StreamQuery, s, CUDA_ERROR_NOT_READY, timeout_s)
                          : cd->api.StreamSynchronize(s);
    if (timeout_s > 0 && e == CUDA_ERROR_NOT_READY)
        return rt_fail(err,
                       "cuda: run-time limit of %g s exceeded: juke stopped waiting, but the kernel may still be "
                       "running; the device is busy until it ends (a CUDA kernel cannot be cancelled)",
                       timeout_s);
    if (e != 0)
        return rt_fail(err, "cuda: a kernel failed: %s", cuda_errstr(&cd->api, e));
    pthread_mutex_lock(&dev->lock);
    int rc = rt_exception_take(dev, cd->exc_host, exc);
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

static int cuda_launch(RtFunction *f, void *stream, const RtArg *args, int nargs, const uint32_t grid[3],
                       const uint32_t group[3], uint32_t shmem_bytes, unsigned flags, double timeout_s,
                       JukeExceptionRecord *exc, char **err)
{
    bool sync = flags & RT_LAUNCH_SYNC;
    RtDevice *dev = f->mod->dev;
    CudaDev *cd = dev->priv;
    CudaFunction *cf = f->priv;
    const RtFunctionInfo *info = &f->info;
    if (rt_check_nargs(info, nargs, err) != 0)
        return -1;
    /* cuLaunchKernel reads each parameter through its pointer before it returns. */
    void *params[65];
    for (int i = 0; i < nargs; i++) {
        if (rt_check_arg_size(info, args, i, err) != 0)
            return -1;
        params[i] = (void *)args[i].data;
    }
    if (info->has_exception_arg)
        params[nargs] = &cd->exc_dev;
    cd->api.CtxSetCurrent(cd->ctx);
    int need = (int)shmem_bytes;
    if (info->static_lds_bytes + shmem_bytes > CU_STATIC_SHARED_LIMIT &&
        __atomic_load_n(&cf->dyn_shared_set, __ATOMIC_RELAXED) < need) {
        int e = cd->api.FuncSetAttribute(cf->fn, CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, need);
        if (e != 0)
            return rt_fail(err, "cuda: %s: cannot allow %u bytes of dynamic shared memory: %s", info->name, shmem_bytes,
                           cuda_errstr(&cd->api, e));
        __atomic_store_n(&cf->dyn_shared_set, need, __ATOMIC_RELAXED);
    }
    int e;
    if (flags & RT_LAUNCH_COOPERATIVE) {
        if (!cd->api.LaunchCooperativeKernel)
            return rt_fail(err, "cuda: launch of %s: the driver has no cuLaunchCooperativeKernel", info->name);
        e = cd->api.LaunchCooperativeKernel(cf->fn, grid[0], grid[1], grid[2], group[0], group[1], group[2],
                                            shmem_bytes, stream ? stream : cd->stream, params);
    } else {
        e = cd->api.LaunchKernel(cf->fn, grid[0], grid[1], grid[2], group[0], group[1], group[2], shmem_bytes,
                                 stream ? stream : cd->stream, params, NULL);
    }
    if (e != 0)
        return rt_fail(err, "cuda: launch of %s failed: %s", info->name, cuda_errstr(&cd->api, e));
    return sync ? cuda_wait(dev, stream, timeout_s, exc, err) : 0;
}

static int cuda_sync(RtDevice *dev, void *stream, JukeExceptionRecord *exc, char **err)
{
    return cuda_wait(dev, stream, 0, exc, err);
}

static int cuda_stream_create(RtDevice *dev, void **stream, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.StreamCreate(stream, 0);
    if (e != 0)
        return rt_fail(err, "cuda: cuStreamCreate failed: %s", cuda_errstr(&cd->api, e));
    return 0;
}

static void cuda_stream_destroy(RtDevice *dev, void *stream)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    cd->api.StreamSynchronize(stream);
    cd->api.StreamDestroy(stream);
}

static int cuda_event_create(RtDevice *dev, void **ev, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.EventCreate(ev, 0);
    return e ? rt_fail(err, "cuda: cuEventCreate failed: %s", cuda_errstr(&cd->api, e)) : 0;
}

static void cuda_event_destroy(RtDevice *dev, void *ev)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    cd->api.EventDestroy(ev);
}

static int cuda_event_record(RtDevice *dev, void *ev, void *stream, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.EventRecord(ev, stream ? stream : cd->stream);
    return e ? rt_fail(err, "cuda: cuEventRecord failed: %s", cuda_errstr(&cd->api, e)) : 0;
}

static int cuda_event_synchronize(RtDevice *dev, void *ev, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.EventSynchronize(ev);
    return e ? rt_fail(err, "cuda: cuEventSynchronize failed: %s", cuda_errstr(&cd->api, e)) : 0;
}

static int cuda_event_elapsed(RtDevice *dev, void *start, void *end, float *ms, char **err)
{
    CudaDev *cd = dev->priv;
    cd->api.CtxSetCurrent(cd->ctx);
    int e = cd->api.EventElapsedTime(ms, start, end);
    return e ? rt_fail(err, "cuda: cuEventElapsedTime failed: %s", cuda_errstr(&cd->api, e)) : 0;
}

static int rt_cuda_open(RtDevice *dev, int index, char **short_why, char **err);

const RtBackend rt_cuda_backend = {
    .spec = "cuda",
    .indexed = true,
    .absent = "no NVIDIA GPU",
    .open = rt_cuda_open,
    .kind = RT_CUDA,
    .close = cuda_close,
    .alloc = cuda_alloc,
    .free = cuda_free,
    .upload = cuda_upload,
    .download = cuda_download,
    .d2d = cuda_d2d,
    .module_load = cuda_module_load,
    .module_unload = cuda_module_unload,
    .function_get = cuda_function_get,
    .global_get = cuda_global_get,
    .function_free = cuda_function_free,
    .launch = cuda_launch,
    .synchronize = cuda_sync,
    .stream_create = cuda_stream_create,
    .stream_destroy = cuda_stream_destroy,
    .event_create = cuda_event_create,
    .event_destroy = cuda_event_destroy,
    .event_record = cuda_event_record,
    .event_synchronize = cuda_event_synchronize,
    .event_elapsed = cuda_event_elapsed,
};

static int rt_cuda_open(RtDevice *dev, int index, char **short_why, char **err)
{
    if (short_why)
        *short_why = NULL;
    CudaDev *cd = calloc(1, sizeof *cd);
    if (!cd)
        return rt_fail(err, "cuda: out of memory");
    CudaApi *a = &cd->api;
    if (cuda_load_api(a, short_why, err) != 0) {
        free(cd);
        return -1;
    }
    bool retained = false;
    int count = 0, ec = 0, e = a->Init(0);
    if (e == 0)
        ec = a->DeviceGetCount(&count);
    if (rt_driver_check_devices(&cuda_driver, index, e, e ? cuda_errstr(a, e) : "", ec, ec ? cuda_errstr(a, ec) : "",
                                count, short_why, err) != 0)
        goto fail;
    cd->ordinal = index;
    if ((e = a->DeviceGet(&cd->cudev, index)) != 0) {
        rt_fail(err, "cuda: cuDeviceGet(%d) failed: %s", index, cuda_errstr(a, e));
        goto fail;
    }
    if ((e = a->PrimaryCtxRetain(&cd->ctx, cd->cudev)) != 0) {
        rt_fail(err, "cuda: cuDevicePrimaryCtxRetain failed: %s", cuda_errstr(a, e));
        goto fail;
    }
    retained = true;
    if ((e = a->CtxSetCurrent(cd->ctx)) != 0) {
        rt_fail(err, "cuda: cuCtxSetCurrent failed: %s", cuda_errstr(a, e));
        goto fail;
    }
    if ((e = a->StreamCreate(&cd->stream, 0)) != 0) {
        cd->stream = NULL;
        rt_fail(err, "cuda: cuStreamCreate failed: %s", cuda_errstr(a, e));
        goto fail;
    }
    if ((e = a->MemHostAlloc((void **)&cd->exc_host, JUKE_EXC_BUFFER_BYTES, CU_MEMHOSTALLOC_DEVICEMAP)) != 0) {
        cd->exc_host = NULL;
        rt_fail(err, "cuda: cuMemHostAlloc of the exception record failed: %s", cuda_errstr(a, e));
        goto fail;
    }
    rt_exception_buffer_init(cd->exc_host);
    dev->exc_host = cd->exc_host;
    if ((e = a->MemHostGetDevicePointer(&cd->exc_dev, cd->exc_host, 0)) != 0) {
        rt_fail(err, "cuda: cuMemHostGetDevicePointer failed: %s", cuda_errstr(a, e));
        goto fail;
    }
    char name[96] = "";
    if (a->DeviceGetName(name, (int)sizeof name, cd->cudev) != 0)
        snprintf(name, sizeof name, "NVIDIA GPU");
    name[sizeof name - 1] = '\0';
    int major = 0, minor = 0, v = 0;
    a->DeviceGetAttribute(&major, CU_ATTR_CC_MAJOR, cd->cudev);
    a->DeviceGetAttribute(&minor, CU_ATTR_CC_MINOR, cd->cudev);
    snprintf(dev->arch, sizeof dev->arch, "sm_%d%d", major, minor);
    dev->max_group_size =
        a->DeviceGetAttribute(&v, CU_ATTR_MAX_THREADS_PER_BLOCK, cd->cudev) == 0 && v > 0 ? (uint32_t)v : 1024;
    if (a->DeviceGetAttribute(&v, CU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN, cd->cudev) == 0 && v > 0)
        dev->max_local_bytes = (uint32_t)v;
    else if (a->DeviceGetAttribute(&v, CU_ATTR_MAX_SHARED_PER_BLOCK, cd->cudev) == 0 && v > 0)
        dev->max_local_bytes = (uint32_t)v;
    else
        dev->max_local_bytes = CU_STATIC_SHARED_LIMIT;
    snprintf(dev->name, sizeof dev->name, "cuda:%d %s (%s)", index, dev->arch, name);
    dev->priv = cd;
    dev->be = &rt_cuda_backend;
    return 0;
fail:
    if (cd->stream)
        a->StreamDestroy(cd->stream);
    if (cd->exc_host)
        a->MemFreeHost(cd->exc_host);
    if (retained)
        a->PrimaryCtxRelease(cd->cudev);
    dlclose(a->lib);
    free(cd);
    return -1;
}

/* The primary context and the stream a cuda device launches on, so that a
 * benchmark can bracket juke's launches with CUDA events on that stream and
 * launch its reference kernels there too. -1 when dev is not a cuda device. */
int rt_cuda_native(RtDevice *dev, void **ctx, void **stream)
{
    if (!dev || dev->be != &rt_cuda_backend || !dev->priv)
        return -1;
    CudaDev *cd = dev->priv;
    if (ctx)
        *ctx = cd->ctx;
    if (stream)
        *stream = cd->stream;
    return 0;
}
