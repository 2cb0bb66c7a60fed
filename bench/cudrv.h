/* cudrv.h: the few CUDA driver entry points the H200 benchmarks call
 * themselves (events, raw launches, cubin modules, async copies; h200_probe
 * also its own context and the JIT's options and linker), loaded with
 * dlopen like runtime/dev_cuda.c does, so the benchmark binaries build on a
 * machine without CUDA and use the primary context juke's runtime retained.
 * Header-only: each program has one CuDrv on its stack (no globals). */
#ifndef JUKE_BENCH_CUDRV_H
#define JUKE_BENCH_CUDRV_H

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef unsigned long long CuDptr;

typedef struct CuDrv {
    void *lib;
    int (*Init)(unsigned);
    int (*DeviceGet)(int *, int);
    int (*PrimaryCtxRetain)(void **, int);
    int (*CtxSetCurrent)(void *);
    int (*StreamCreate)(void **, unsigned);
    int (*ModuleLoadData)(void **, const void *);
    int (*ModuleLoadDataEx)(void **, const void *, unsigned, int *, void **);
    int (*LinkCreate)(unsigned, int *, void **, void **);
    int (*LinkAddData)(void *, int, void *, size_t, const char *, unsigned, int *, void **);
    int (*LinkComplete)(void *, void **, size_t *);
    int (*LinkDestroy)(void *);
    int (*ModuleGetFunction)(void **, void *, const char *);
    int (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **,
                        void **);
    int (*EventCreate)(void **, unsigned);
    int (*EventRecord)(void *, void *);
    int (*EventSynchronize)(void *);
    int (*EventElapsedTime)(float *, void *, void *);
    int (*EventDestroy)(void *);
    int (*StreamSynchronize)(void *);
    int (*MemcpyDtoDAsync)(CuDptr, CuDptr, size_t, void *);
    int (*MemsetD32Async)(CuDptr, unsigned, size_t, void *);
    int (*MemAlloc)(CuDptr *, size_t);
    int (*MemFree)(CuDptr);
    int (*MemcpyDtoH)(void *, CuDptr, size_t);
    int (*FuncGetAttribute)(int *, int, void *);
    int (*GetErrorString)(int, const char **);
    int (*CtxGetCurrent)(void **);
    int (*DriverGetVersion)(int *);
    int (*DeviceGetAttribute)(int *, int, int);
} CuDrv;

static inline int cudrv_load(CuDrv *d)
{
    memset(d, 0, sizeof *d);
    d->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!d->lib) {
        fprintf(stderr, "libcuda.so.1: %s\n", dlerror());
        return -1;
    }
    struct {
        const char *name;
        void **slot;
    } s[] = {
        { "cuInit", (void **)&d->Init },
        { "cuDeviceGet", (void **)&d->DeviceGet },
        { "cuDevicePrimaryCtxRetain", (void **)&d->PrimaryCtxRetain },
        { "cuCtxSetCurrent", (void **)&d->CtxSetCurrent },
        { "cuStreamCreate", (void **)&d->StreamCreate },
        { "cuModuleLoadData", (void **)&d->ModuleLoadData },
        { "cuModuleLoadDataEx", (void **)&d->ModuleLoadDataEx },
        { "cuLinkCreate_v2", (void **)&d->LinkCreate },
        { "cuLinkAddData_v2", (void **)&d->LinkAddData },
        { "cuLinkComplete", (void **)&d->LinkComplete },
        { "cuLinkDestroy", (void **)&d->LinkDestroy },
        { "cuModuleGetFunction", (void **)&d->ModuleGetFunction },
        { "cuLaunchKernel", (void **)&d->LaunchKernel },
        { "cuEventCreate", (void **)&d->EventCreate },
        { "cuEventRecord", (void **)&d->EventRecord },
        { "cuEventSynchronize", (void **)&d->EventSynchronize },
        { "cuEventElapsedTime", (void **)&d->EventElapsedTime },
        { "cuEventDestroy_v2", (void **)&d->EventDestroy },
        { "cuStreamSynchronize", (void **)&d->StreamSynchronize },
        { "cuMemcpyDtoDAsync_v2", (void **)&d->MemcpyDtoDAsync },
        { "cuMemsetD32Async", (void **)&d->MemsetD32Async },
        { "cuMemAlloc_v2", (void **)&d->MemAlloc },
        { "cuMemFree_v2", (void **)&d->MemFree },
        { "cuMemcpyDtoH_v2", (void **)&d->MemcpyDtoH },
        { "cuFuncGetAttribute", (void **)&d->FuncGetAttribute },
        { "cuGetErrorString", (void **)&d->GetErrorString },
        { "cuCtxGetCurrent", (void **)&d->CtxGetCurrent },
        { "cuDriverGetVersion", (void **)&d->DriverGetVersion },
        { "cuDeviceGetAttribute", (void **)&d->DeviceGetAttribute },
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        if (!(*s[i].slot = dlsym(d->lib, s[i].name))) {
            fprintf(stderr, "libcuda.so.1 lacks %s\n", s[i].name);
            return -1;
        }
    return 0;
}

static inline const char *cudrv_err(const CuDrv *d, int e)
{
    const char *s = NULL;
    if (d->GetErrorString(e, &s) != 0 || !s)
        s = "unknown error";
    return s;
}

#endif
