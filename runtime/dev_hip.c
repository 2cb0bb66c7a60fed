/* dev_hip.c: the HIP backend. The HIP runtime is loaded with dlopen, so juke
 * builds and runs without ROCm; code objects are launched through
 * hipModuleLaunchKernel with a kernel-argument buffer packed from the code
 * object's own metadata (amdgpu_meta_read + rt_pack_kernargs). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

#if defined(JUKE_HAVE_HIP_H)
#include <hip/hip_runtime_api.h>
#define HIP_ATTR_MAX_THREADS ((int)hipDeviceAttributeMaxThreadsPerBlock)
#define HIP_ATTR_MAX_SHARED ((int)hipDeviceAttributeMaxSharedMemoryPerBlock)
#define HIP_ATTR_WARP_SIZE ((int)hipDeviceAttributeWarpSize)
#define HIP_PROPS_ARCH_OFFSET offsetof(hipDeviceProp_t, gcnArchName)
#else
/* hip_runtime_api.h of ROCm 5/6: the attribute enum is the same in both. */
#define HIP_ATTR_MAX_THREADS 56
#define HIP_ATTR_MAX_SHARED 74
#define HIP_ATTR_WARP_SIZE 87
#define HIP_PROPS_ARCH_OFFSET 396
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define HIP_LAUNCH_PARAM_END ((void *)0x03)
#define hipHostMallocMapped 0x2
#endif

enum { HIP_H2D = 1, HIP_D2H = 2, HIP_D2D = 3 };

/* Function types in plain C terms (hipError_t is an int enum, handles are
 * pointers), so this file compiles with or without the HIP headers. */
typedef struct HipApi {
    void *lib;
    int (*Init)(unsigned);
    int (*GetDeviceCount)(int *);
    int (*SetDevice)(int);
    int (*GetDeviceProperties)(void *, int);
    int (*DeviceGetAttribute)(int *, int, int);
    int (*DeviceGetName)(char *, int, int);
    int (*Malloc)(void **, size_t);
    int (*Free)(void *);
    int (*Memcpy)(void *, const void *, size_t, int);
    int (*HostMalloc)(void **, size_t, unsigned);
    int (*HostFree)(void *);
    int (*HostGetDevicePointer)(void **, void *, unsigned);
    int (*ModuleLoadData)(void **, const void *);
    int (*ModuleUnload)(void *);
    int (*ModuleGetFunction)(void **, void *, const char *);
    int (*ModuleLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
                              void **, void **);
    /* optional: cooperative launches (sync_grid); HIP packs the arguments from kernelParams itself */
    int (*ModuleLaunchCooperativeKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                         void *, void **);
    /* optional: a code object's globals (juke_kernel_global_set / _get) */
    int (*ModuleGetGlobal)(void **, size_t *, void *, const char *);
    int (*StreamCreate)(void **);
    int (*StreamDestroy)(void *);
    int (*StreamSynchronize)(void *);
    int (*StreamQuery)(void *);
    int (*EventCreate)(void **);
    int (*EventDestroy)(void *);
    int (*EventRecord)(void *, void *);
    int (*EventSynchronize)(void *);
    int (*EventElapsedTime)(float *, void *, void *);
    const char *(*GetErrorString)(int);
} HipApi;

typedef struct HipDev {
    HipApi api;
    int index;
    void *stream;
    JukeExceptionRecord *exc_host; /* mapped pinned memory */
    void *exc_dev;                 /* its device address */
} HipDev;

typedef struct HipModule {
    void *mod;
    uint8_t *image; /* a copy: function_get reads its metadata */
    size_t size;
} HipModule;

typedef struct HipFunction {
    void *fn;
    uint8_t *kernarg; /* packed under the device lock, copied by the launch */
    size_t kernarg_cap;
} HipFunction;

static const char *hip_errstr(const HipApi *a, int e)
{
    const char *s = a->GetErrorString ? a->GetErrorString(e) : NULL;
    return s ? s : "unknown error";
}

static const char *const hip_sonames[] = { "libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5" };

static const RtDriver hip_driver = {
    .no_gpu = "no AMD GPU",
    .what = "HIP runtime",
    .env = "JUKE_HIP_LIBRARY",
    .names = hip_sonames,
    .nnames = sizeof hip_sonames / sizeof hip_sonames[0],
    .spec = "hip",
    .init = "hipInit",
    .count = "hipGetDeviceCount",
};

/* Load the library and resolve every entry point we use. */
static int hip_load_api(HipApi *a, const RtDriver *driver, char **short_why, char **err)
{
    memset(a, 0, sizeof *a);
    const RtDriverSym syms[] = {
        { "hipInit", (void **)&a->Init },
        { "hipGetDeviceCount", (void **)&a->GetDeviceCount },
        { "hipSetDevice", (void **)&a->SetDevice },
        { "hipDeviceGetAttribute", (void **)&a->DeviceGetAttribute },
        { "hipDeviceGetName", (void **)&a->DeviceGetName },
        { "hipMalloc", (void **)&a->Malloc },
        { "hipFree", (void **)&a->Free },
        { "hipMemcpy", (void **)&a->Memcpy },
        { "hipHostMalloc", (void **)&a->HostMalloc },
        { "hipHostFree", (void **)&a->HostFree },
        { "hipHostGetDevicePointer", (void **)&a->HostGetDevicePointer },
        { "hipModuleLoadData", (void **)&a->ModuleLoadData },
        { "hipModuleUnload", (void **)&a->ModuleUnload },
        { "hipModuleGetFunction", (void **)&a->ModuleGetFunction },
        { "hipModuleLaunchKernel", (void **)&a->ModuleLaunchKernel },
        { "hipStreamCreate", (void **)&a->StreamCreate },
        { "hipStreamDestroy", (void **)&a->StreamDestroy },
        { "hipStreamSynchronize", (void **)&a->StreamSynchronize },
        { "hipStreamQuery", (void **)&a->StreamQuery },
        { "hipEventCreate", (void **)&a->EventCreate },
        { "hipEventDestroy", (void **)&a->EventDestroy },
        { "hipEventRecord", (void **)&a->EventRecord },
        { "hipEventSynchronize", (void **)&a->EventSynchronize },
        { "hipEventElapsedTime", (void **)&a->EventElapsedTime },
        { "hipGetErrorString", (void **)&a->GetErrorString },
    };
    a->lib = rt_driver_load(driver, syms, sizeof syms / sizeof syms[0], short_why, err);
    if (!a->lib)
        return -1;
    /* ROCm 6 renamed the call when hipDeviceProp_t changed layout; either
     * version fills a buffer larger than both layouts. */
    a->GetDeviceProperties = dlsym(a->lib, "hipGetDevicePropertiesR0600");
    if (!a->GetDeviceProperties)
        a->GetDeviceProperties = dlsym(a->lib, "hipGetDeviceProperties");
    a->ModuleLaunchCooperativeKernel = dlsym(a->lib, "hipModuleLaunchCooperativeKernel");
    a->ModuleGetGlobal = dlsym(a->lib, "hipModuleGetGlobal");
    return 0;
}

/* The gfx name ("gfx90a") from gcnArchName ("gfx90a:sramecc+:xnack-"): read
 * at the header's offset, else found by scanning, since the struct's layout
 * differs between ROCm versions. */
static void hip_arch_name(HipApi *a, int index, char *arch, size_t cap)
{
    snprintf(arch, cap, "gfx?");
    if (!a->GetDeviceProperties)
        return;
    size_t len = 16384;
    char *props = calloc(1, len);
    if (!props)
        return;
    if (a->GetDeviceProperties(props, index) == 0) {
        const char *p = NULL;
        if (strncmp(props + HIP_PROPS_ARCH_OFFSET, "gfx", 3) == 0)
            p = props + HIP_PROPS_ARCH_OFFSET;
        for (size_t i = 0; !p && i + 4 < len; i++)
            if (memcmp(props + i, "gfx", 3) == 0 && props[i + 3] >= '0' && props[i + 3] <= '9')
                p = props + i;
        if (p) {
            size_t n = 0;
            while (n + 1 < cap && p + n < props + len && p[n] && p[n] != ':' &&
                   ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9')))
                n++;
            memcpy(arch, p, n);
            arch[n] = '\0';
        }
    }
    free(props);
}

static void hip_close(RtDevice *dev)
{
    HipDev *hd = dev->priv;
    if (!hd)
        return;
    HipApi *a = &hd->api;
    a->SetDevice(hd->index);
    if (hd->stream) {
        a->StreamSynchronize(hd->stream);
        a->StreamDestroy(hd->stream);
    }
    if (hd->exc_host)
        a->HostFree(hd->exc_host);
    dlclose(a->lib);
    free(hd);
    dev->priv = NULL;
}

static int hip_alloc(RtDevice *dev, size_t bytes, void **devptr, char **err)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    int e = hd->api.Malloc(devptr, bytes);
    if (e != 0) {
        *devptr = NULL;
        return rt_fail(err, "hip: hipMalloc of %zu bytes failed: %s", bytes, hip_errstr(&hd->api, e));
    }
    return 0;
}

static void hip_free(RtDevice *dev, void *p)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    hd->api.Free(p);
}

static int hip_copy(RtDevice *dev, void *dst, const void *src, size_t bytes, int kind, char **err)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    int e = hd->api.Memcpy(dst, src, bytes, kind);
    if (e != 0)
        return rt_fail(err, "hip: hipMemcpy of %zu bytes failed: %s", bytes, hip_errstr(&hd->api, e));
    return 0;
}

static int hip_upload(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    return hip_copy(dev, dst, src, bytes, HIP_H2D, err);
}

static int hip_download(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    return hip_copy(dev, dst, src, bytes, HIP_D2H, err);
}

static int hip_d2d(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    return hip_copy(dev, dst, src, bytes, HIP_D2D, err);
}

static int hip_module_load(RtModule *m, const void *image, size_t size, char **err)
{
    HipDev *hd = m->dev->priv;
    HipModule *hm = calloc(1, sizeof *hm);
    uint8_t *copy = malloc(size);
    if (!hm || !copy) {
        free(hm);
        free(copy);
        return rt_fail(err, "hip: out of memory");
    }
    memcpy(copy, image, size);
    char **names = NULL;
    int count = 0;
    /* Reject what is not a readable AMDGPU code object before HIP sees it. */
    if (amdgpu_meta_kernels(copy, size, &names, &count, err) != 0) {
        free(copy);
        free(hm);
        return -1;
    }
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
    hd->api.SetDevice(hd->index);
    int e = hd->api.ModuleLoadData(&hm->mod, copy);
    if (e != 0) {
        free(copy);
        free(hm);
        return rt_fail(err, "hip: hipModuleLoadData failed: %s (is the code object built for %s?)",
                       hip_errstr(&hd->api, e), m->dev->arch);
    }
    hm->image = copy;
    hm->size = size;
    m->priv = hm;
    return 0;
}

static void hip_module_unload(RtModule *m)
{
    HipDev *hd = m->dev->priv;
    HipModule *hm = m->priv;
    if (!hm)
        return;
    hd->api.SetDevice(hd->index);
    hd->api.ModuleUnload(hm->mod);
    free(hm->image);
    free(hm);
}

static int hip_global_get(RtModule *m, const char *name, void **devptr, size_t *bytes, char **err)
{
    HipDev *hd = m->dev->priv;
    HipModule *hm = m->priv;
    if (!hd->api.ModuleGetGlobal)
        return rt_fail(err, "hip: the runtime has no hipModuleGetGlobal");
    if (hd->api.ModuleGetGlobal(devptr, bytes, hm->mod, name) != 0)
        return rt_fail(err, "the code object has no global `%s`", name);
    return 0;
}

static int hip_function_get(RtFunction *f, const char *name, char **err)
{
    HipDev *hd = f->mod->dev->priv;
    HipModule *hm = f->mod->priv;
    if (amdgpu_meta_read(hm->image, hm->size, name, &f->info, err) != 0)
        return -1;
    HipFunction *hf = calloc(1, sizeof *hf);
    size_t cap = f->info.kernarg_size ? f->info.kernarg_size : 8;
    if (!hf || !(hf->kernarg = calloc(1, cap))) {
        free(hf);
        return rt_fail(err, "hip: out of memory");
    }
    hf->kernarg_cap = cap;
    hd->api.SetDevice(hd->index);
    int e = hd->api.ModuleGetFunction(&hf->fn, hm->mod, f->info.name);
    if (e != 0) {
        free(hf->kernarg);
        free(hf);
        return rt_fail(err, "hip: hipModuleGetFunction(%s) failed: %s", f->info.name, hip_errstr(&hd->api, e));
    }
    f->priv = hf;
    return 0;
}

static void hip_function_free(RtFunction *f)
{
    HipFunction *hf = f->priv;
    if (hf) {
        free(hf->kernarg);
        free(hf);
    }
}

/* Wait for the stream (at most timeout_s seconds when > 0); 1 with *exc
 * filled if a kernel raised an exception (the record is cleared for the
 * next launch). Called with dev->lock held. */
static int hip_sync_locked(RtDevice *dev, void *stream, double timeout_s, JukeExceptionRecord *exc, char **err)
{
    HipDev *hd = dev->priv;
    void *s = stream ? stream : hd->stream;
    enum { HIP_ERROR_NOT_READY = 600 };
    int e = timeout_s > 0 ? rt_poll_stream(hd->api.StreamQuery, s, HIP_ERROR_NOT_READY, timeout_s)
                          : hd->api.StreamSynchronize(s);
    if (timeout_s > 0 && e == HIP_ERROR_NOT_READY)
        return rt_fail(err,
                       "hip: run-time limit of %g s exceeded: juke stopped waiting, but the kernel may still be "
                       "running; the device is busy until it ends or is reset (HIP cannot cancel a kernel)",
                       timeout_s);
    if (e != 0)
        return rt_fail(err, "hip: a kernel failed: %s", hip_errstr(&hd->api, e));
    return rt_exception_take(dev, hd->exc_host, exc);
}

static int hip_launch(RtFunction *f, void *stream, const RtArg *args, int nargs, const uint32_t grid[3],
                      const uint32_t group[3], uint32_t shmem_bytes, unsigned flags, double timeout_s,
                      JukeExceptionRecord *exc, char **err)
{
    bool sync = flags & RT_LAUNCH_SYNC;
    RtDevice *dev = f->mod->dev;
    HipDev *hd = dev->priv;
    HipFunction *hf = f->priv;
    pthread_mutex_lock(&dev->lock);
    int n = rt_pack_kernargs(&f->info, args, nargs, hd->exc_dev, grid, group, shmem_bytes, hf->kernarg, hf->kernarg_cap,
                             err);
    if (n < 0) {
        pthread_mutex_unlock(&dev->lock);
        return -1;
    }
    size_t size = (size_t)n;
    void *extra[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, hf->kernarg, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                      HIP_LAUNCH_PARAM_END };
    hd->api.SetDevice(hd->index);
    int e;
    if (flags & RT_LAUNCH_COOPERATIVE) {
        if (!hd->api.ModuleLaunchCooperativeKernel) {
            pthread_mutex_unlock(&dev->lock);
            return rt_fail(err, "hip: launch of %s: the runtime has no hipModuleLaunchCooperativeKernel", f->info.name);
        }
        void *params[66];
        int np = 0;
        for (int i = 0; i < nargs && i < 64; i++)
            params[np++] = (void *)args[i].data;
        if (f->info.has_exception_arg)
            params[np++] = &hd->exc_dev;
        e = hd->api.ModuleLaunchCooperativeKernel(hf->fn, grid[0], grid[1], grid[2], group[0], group[1], group[2],
                                                  shmem_bytes, stream ? stream : hd->stream, params);
    } else {
        e = hd->api.ModuleLaunchKernel(hf->fn, grid[0], grid[1], grid[2], group[0], group[1], group[2], shmem_bytes,
                                       stream ? stream : hd->stream, NULL, extra);
    }
    int rc = 0;
    if (e != 0)
        rc = rt_fail(err, "hip: launch of %s failed: %s", f->info.name, hip_errstr(&hd->api, e));
    else if (sync)
        rc = hip_sync_locked(dev, stream, timeout_s, exc, err);
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

static int hip_synchronize(RtDevice *dev, void *stream, JukeExceptionRecord *exc, char **err)
{
    HipDev *hd = dev->priv;
    pthread_mutex_lock(&dev->lock);
    hd->api.SetDevice(hd->index);
    int rc = hip_sync_locked(dev, stream, 0, exc, err);
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

static int hip_stream_create(RtDevice *dev, void **stream, char **err)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    int e = hd->api.StreamCreate(stream);
    if (e != 0)
        return rt_fail(err, "hip: hipStreamCreate failed: %s", hip_errstr(&hd->api, e));
    return 0;
}

static void hip_stream_destroy(RtDevice *dev, void *stream)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    hd->api.StreamSynchronize(stream);
    hd->api.StreamDestroy(stream);
}

static int hip_event_create(RtDevice *dev, void **ev, char **err)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    int e = hd->api.EventCreate(ev);
    return e ? rt_fail(err, "hip: hipEventCreate failed: %s", hip_errstr(&hd->api, e)) : 0;
}

static void hip_event_destroy(RtDevice *dev, void *ev)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    hd->api.EventDestroy(ev);
}

static int hip_event_record(RtDevice *dev, void *ev, void *stream, char **err)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    int e = hd->api.EventRecord(ev, stream ? stream : hd->stream);
    return e ? rt_fail(err, "hip: hipEventRecord failed: %s", hip_errstr(&hd->api, e)) : 0;
}

static int hip_event_synchronize(RtDevice *dev, void *ev, char **err)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    int e = hd->api.EventSynchronize(ev);
    return e ? rt_fail(err, "hip: hipEventSynchronize failed: %s", hip_errstr(&hd->api, e)) : 0;
}

static int hip_event_elapsed(RtDevice *dev, void *start, void *end, float *ms, char **err)
{
    HipDev *hd = dev->priv;
    hd->api.SetDevice(hd->index);
    int e = hd->api.EventElapsedTime(ms, start, end);
    return e ? rt_fail(err, "hip: hipEventElapsedTime failed: %s", hip_errstr(&hd->api, e)) : 0;
}

static int rt_hip_open(RtDevice *dev, int index, char **short_why, char **err);
static int rt_amdemu_open(RtDevice *dev, int index, char **short_why, char **err);

#define HIP_BACKEND_OPS                                                                                                \
    .kind = RT_HIP, .close = hip_close, .alloc = hip_alloc, .free = hip_free, .upload = hip_upload,                    \
    .download = hip_download, .d2d = hip_d2d, .module_load = hip_module_load, .module_unload = hip_module_unload,      \
    .function_get = hip_function_get, .function_free = hip_function_free, .launch = hip_launch,                        \
    .global_get = hip_global_get, .synchronize = hip_synchronize, .stream_create = hip_stream_create,                  \
    .stream_destroy = hip_stream_destroy, .event_create = hip_event_create, .event_destroy = hip_event_destroy,        \
    .event_record = hip_event_record, .event_synchronize = hip_event_synchronize, .event_elapsed = hip_event_elapsed

const RtBackend rt_hip_backend = {
    .spec = "hip",
    .indexed = true,
    .absent = "no AMD GPU",
    .open = rt_hip_open,
    HIP_BACKEND_OPS,
};

/* The same backend over juke's AMD ISA emulator (docs/amdemu.md). */
const RtBackend rt_amdemu_backend = {
    .spec = "amdemu",
    .absent = "no AMD emulator",
    .open = rt_amdemu_open,
    HIP_BACKEND_OPS,
};


/* Open device `index` of the HIP runtime `driver` names; amdemu_arch: the
 * emulator's processor (NULL: its default), set before hipInit. */
static int hip_open(RtDevice *dev, int index, const RtDriver *driver, const char *amdemu_arch, char **short_why,
                    char **err)
{
    if (short_why)
        *short_why = NULL;
    HipDev *hd = calloc(1, sizeof *hd);
    if (!hd)
        return rt_fail(err, "hip: out of memory");
    HipApi *a = &hd->api;
    if (hip_load_api(a, driver, short_why, err) != 0) {
        free(hd);
        return -1;
    }
    if (amdemu_arch) {
        int (*set_arch)(const char *) = (int (*)(const char *))dlsym(a->lib, "juke_amdemu_set_arch");
        if (!set_arch || set_arch(amdemu_arch) != 0) {
            dlclose(a->lib);
            free(hd);
            return rt_fail(err, "amdemu: unknown processor '%s': expected gfx90a, gfx942, gfx1100 or gfx1201",
                           amdemu_arch);
        }
    }
    int e = a->Init(0), ec = 0, count = 0, rc = -1;
    if (e == 0)
        ec = a->GetDeviceCount(&count);
    if (rt_driver_check_devices(driver, index, e, e ? hip_errstr(a, e) : "", ec, ec ? hip_errstr(a, ec) : "", count,
                                short_why, err) != 0)
        goto fail;
    hd->index = index;
    if ((e = a->SetDevice(index)) != 0) {
        rt_fail(err, "hip: hipSetDevice(%d) failed: %s", index, hip_errstr(a, e));
        goto fail;
    }
    if ((e = a->StreamCreate(&hd->stream)) != 0) {
        hd->stream = NULL;
        rt_fail(err, "hip: hipStreamCreate failed: %s", hip_errstr(a, e));
        goto fail;
    }
    if ((e = a->HostMalloc((void **)&hd->exc_host, JUKE_EXC_BUFFER_BYTES, hipHostMallocMapped)) != 0) {
        hd->exc_host = NULL;
        rt_fail(err, "hip: hipHostMalloc of the exception record failed: %s", hip_errstr(a, e));
        goto fail;
    }
    rt_exception_buffer_init(hd->exc_host);
    dev->exc_host = hd->exc_host;
    if ((e = a->HostGetDevicePointer(&hd->exc_dev, hd->exc_host, 0)) != 0) {
        rt_fail(err, "hip: hipHostGetDevicePointer failed: %s", hip_errstr(a, e));
        goto fail;
    }
    char name[96] = "";
    if (a->DeviceGetName(name, (int)sizeof name, index) != 0)
        snprintf(name, sizeof name, "AMD GPU");
    name[sizeof name - 1] = '\0';
    hip_arch_name(a, index, dev->arch, sizeof dev->arch);
    int v = 0;
    dev->max_group_size = a->DeviceGetAttribute(&v, HIP_ATTR_MAX_THREADS, index) == 0 && v > 0 ? (uint32_t)v : 1024;
    dev->max_local_bytes = a->DeviceGetAttribute(&v, HIP_ATTR_MAX_SHARED, index) == 0 && v > 0 ? (uint32_t)v : 65536;
    snprintf(dev->name, sizeof dev->name, "%s:%d %s (%s)", driver->spec, index, dev->arch, name);
    dev->priv = hd;
    dev->be = driver == &hip_driver ? &rt_hip_backend : &rt_amdemu_backend;
    return 0;
fail:
    if (hd->stream)
        a->StreamDestroy(hd->stream);
    if (hd->exc_host)
        a->HostFree(hd->exc_host);
    dlclose(a->lib);
    free(hd);
    return rc;
}

static int rt_hip_open(RtDevice *dev, int index, char **short_why, char **err)
{
    return hip_open(dev, index, &hip_driver, NULL, short_why, err);
}

/* libjuke-amdemu.so: $JUKE_AMDEMU_LIBRARY, else next to the program or
 * library that holds this code (the build tree keeps it at its top, tests
 * one level down), else the loader's search path. */
static int rt_amdemu_open(RtDevice *dev, int index, char **short_why, char **err)
{
    static char paths[3][4096];
    const char *names[4];
    int n = 0;
    Dl_info info;
    if (dladdr((void *)rt_amdemu_open, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        int dir = slash ? (int)(slash - info.dli_fname) : 1;
        const char *base = slash ? info.dli_fname : ".";
        snprintf(paths[0], sizeof paths[0], "%.*s/libjuke-amdemu.so", dir, base);
        snprintf(paths[1], sizeof paths[1], "%.*s/../libjuke-amdemu.so", dir, base);
        names[n++] = paths[0];
        names[n++] = paths[1];
    }
    names[n++] = "libjuke-amdemu.so";
    const RtDriver driver = {
        .no_gpu = "no AMD emulator",
        .what = "AMD ISA emulator",
        .env = "JUKE_AMDEMU_LIBRARY",
        .names = names,
        .nnames = (size_t)n,
        .spec = "amdemu",
        .init = "hipInit",
        .count = "hipGetDeviceCount",
    };
    char arch[sizeof dev->arch];
    snprintf(arch, sizeof arch, "%s", dev->arch);
    dev->arch[0] = '\0';
    return hip_open(dev, index, &driver, arch[0] ? arch : NULL, short_why, err);
}
