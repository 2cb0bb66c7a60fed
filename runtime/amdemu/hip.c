/* hip.c: the part of the HIP runtime API that runtime/dev_hip.c loads, over
 * the emulator. One device; memory is the host's (a device pointer is a host
 * pointer); streams run their work when it is queued, so a launch has ended
 * when hipModuleLaunchKernel returns, and its error is that call's.
 *
 * The device's processor: juke_amdemu_set_arch() (dev_hip.c calls it for
 * `--device amdemu:gfx942`), else $JUKE_AMDEMU_ARCH, else gfx942.
 * $JUKE_AMDEMU_TRACE=1 prints every instruction executed (docs/amdemu.md). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "amdemu.h"

#define API __attribute__((visibility("default")))

enum {
    hipSuccess = 0,
    hipErrorInvalidValue = 1,
    hipErrorOutOfMemory = 2,
    hipErrorInvalidDevice = 101,
    hipErrorInvalidImage = 200,
    hipErrorNoBinaryForGpu = 209,
    hipErrorNotFound = 500,
    hipErrorLaunchFailure = 719,
    hipErrorCooperativeLaunchTooLarge = 720,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char arch[16] = "";
static __thread char *last_error; /* the words of the last failure, for hipGetErrorString */

static int set_error(int code, char *msg)
{
    free(last_error);
    last_error = msg;
    return code;
}

/* The processors and their ELF e_flags machine numbers (EF_AMDGPU_MACH), with
 * the instruction set decoded. */
static const struct {
    const char *name;
    unsigned mach;
    int isa;
} archs[] = {
    { "gfx90a", 0x3f, AMD_GFX9 },   { "gfx942", 0x4c, AMD_GFX9 },   { "gfx1100", 0x41, AMD_GFX11 },
    { "gfx1101", 0x46, AMD_GFX11 }, { "gfx1102", 0x47, AMD_GFX11 }, { "gfx1103", 0x44, AMD_GFX11 },
    { "gfx1201", 0x4e, AMD_GFX12 },
};

static void init_once(void)
{
    amdemu_ops_init();
    if (!arch[0]) {
        const char *e = getenv("JUKE_AMDEMU_ARCH");
        snprintf(arch, sizeof arch, "%s", e && *e ? e : "gfx942");
    }
}

/* Choose the emulated processor before hipInit; 0, or -1 for one not known. */
API int juke_amdemu_set_arch(const char *name)
{
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
        if (strcmp(name, archs[i].name) == 0) {
            snprintf(arch, sizeof arch, "%s", name);
            return 0;
        }
    return -1;
}

API int hipInit(unsigned flags)
{
    pthread_once(&once, init_once);
    return hipSuccess;
}

API int hipGetDeviceCount(int *n)
{
    *n = 1;
    return hipSuccess;
}

API int hipSetDevice(int i)
{
    return i == 0 ? hipSuccess : hipErrorInvalidDevice;
}

/* hipDeviceProp_t of ROCm 6: gcnArchName at byte 396 (dev_hip.c reads it
 * there); the caller's buffer is larger than the struct. */
API int hipGetDevicePropertiesR0600(void *props, int i)
{
    pthread_once(&once, init_once);
    memset(props, 0, 1024);
    snprintf((char *)props, 256, "AMD ISA emulator (juke amdemu %s)", arch);
    snprintf((char *)props + 396, 256, "%s", arch);
    return hipSuccess;
}

API int hipGetDeviceProperties(void *props, int i)
{
    return hipGetDevicePropertiesR0600(props, i);
}

API int hipDeviceGetAttribute(int *v, int attr, int i)
{
    pthread_once(&once, init_once);
    switch (attr) {
    case 56: *v = 1024; return hipSuccess;  /* max threads per block */
    case 74: *v = 65536; return hipSuccess; /* max shared memory per block */
    case 87: *v = strncmp(arch, "gfx1", 4) == 0 ? 32 : 64; return hipSuccess;
    }
    *v = 0;
    return hipErrorInvalidValue;
}

API int hipDeviceGetName(char *name, int len, int i)
{
    pthread_once(&once, init_once);
    snprintf(name, (size_t)len, "AMD ISA emulator");
    return hipSuccess;
}

API int hipMalloc(void **p, size_t bytes)
{
    *p = aligned_alloc(256, (bytes + 255) & ~(size_t)255);
    return *p || !bytes ? hipSuccess : hipErrorOutOfMemory;
}

API int hipFree(void *p)
{
    free(p);
    return hipSuccess;
}

API int hipMemcpy(void *dst, const void *src, size_t bytes, int kind)
{
    memmove(dst, src, bytes);
    return hipSuccess;
}

API int hipMemset(void *dst, int v, size_t bytes)
{
    memset(dst, v, bytes);
    return hipSuccess;
}

API int hipHostMalloc(void **p, size_t bytes, unsigned flags)
{
    return hipMalloc(p, bytes);
}

API int hipHostFree(void *p)
{
    free(p);
    return hipSuccess;
}

API int hipHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
    *dev = host;
    return hipSuccess;
}

typedef struct Module {
    AmdImage *img;
    uint8_t *elf; /* a copy of the code object: its metadata lays out kernelParams */
    size_t elf_size;
    AmdKernel **fns; /* the functions handed out: HIP has no call that frees one, they go with the module */
    int nfns;
} Module;

/* A function handed out: the kernel first (launches take it as AmdKernel). */
typedef struct Function {
    AmdKernel k;
    const Module *m;
} Function;

API int hipModuleLoadData(void **mod, const void *image)
{
    pthread_once(&once, init_once);
    const uint8_t *f = image;
    if (!f || f[0] != 0x7f || f[1] != 'E')
        return set_error(hipErrorInvalidImage, strdup("amdemu: not an ELF code object"));
    uint32_t flags;
    memcpy(&flags, f + 48, 4); /* e_flags */
    const char *obj_arch = NULL;
    int isa = -1;
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
        if (archs[i].mach == (flags & 0xff))
            obj_arch = archs[i].name, isa = archs[i].isa;
    char *msg = NULL;
    if (!obj_arch || strcmp(obj_arch, arch) != 0) {
        if (asprintf(&msg, "amdemu: the code object is for %s, the emulated device is %s",
                     obj_arch ? obj_arch : "an unknown processor", arch) < 0)
            msg = NULL;
        return set_error(hipErrorNoBinaryForGpu, msg);
    }
    Module *m = calloc(1, sizeof *m);
    if (!m)
        return hipErrorOutOfMemory;
    if (amdemu_image_load(image, (AmdIsa)isa, &m->img, &msg) != 0) {
        free(m);
        return set_error(hipErrorInvalidImage, msg);
    }
    m->elf_size = amdemu_elf_size(image);
    if (!(m->elf = malloc(m->elf_size))) {
        amdemu_image_free(m->img);
        free(m);
        return hipErrorOutOfMemory;
    }
    memcpy(m->elf, image, m->elf_size);
    *mod = m;
    return hipSuccess;
}

API int hipModuleUnload(void *mod)
{
    Module *m = mod;
    if (m) {
        amdemu_image_free(m->img);
        free(m->elf);
        for (int i = 0; i < m->nfns; i++)
            free(m->fns[i]);
        free(m->fns);
    }
    free(m);
    return hipSuccess;
}

API int hipModuleGetGlobal(void **dptr, size_t *bytes, void *mod, const char *name)
{
    Module *m = mod;
    void *p = NULL;
    size_t n = 0;
    if (!m || !name || amdemu_global_find(m->img, name, &p, &n) != 0)
        return set_error(hipErrorNotFound, NULL);
    if (dptr)
        *dptr = p;
    if (bytes)
        *bytes = n;
    return hipSuccess;
}

API int hipModuleGetFunction(void **fn, void *mod, const char *name)
{
    Module *m = mod;
    Function *f = calloc(1, sizeof *f);
    AmdKernel *k = &f->k;
    char *msg = NULL;
    if (!f)
        return hipErrorOutOfMemory;
    f->m = m;
    if (amdemu_kernel_find(m->img, name, k, &msg) != 0) {
        free(k);
        return set_error(hipErrorNotFound, msg);
    }
    AmdKernel **fns = realloc(m->fns, (size_t)(m->nfns + 1) * sizeof *fns);
    if (!fns) {
        free(k);
        return hipErrorOutOfMemory;
    }
    m->fns = fns;
    m->fns[m->nfns++] = k; /* freed at hipModuleUnload */
    *fn = k;
    return hipSuccess;
}

/* The AQL dispatch packet (hsa_kernel_dispatch_packet_t) some kernels read
 * through the dispatch pointer: sizes at 4..22, segment sizes at 24, 28. */
typedef struct Packet {
    uint16_t header, setup;
    uint16_t wg[3];
    uint16_t reserved0;
    uint32_t grid[3];
    uint32_t private_size, group_size;
    uint64_t kernel_object;
    uint64_t kernarg;
    uint64_t reserved2, completion_signal;
} Packet;

/* Run a launch whose kernel arguments are packed in kernarg (kernarg_size
 * bytes of room or more); the error is the launch's. */
static int launch(const AmdKernel *k, const uint32_t grid[3], const uint32_t block[3], unsigned shmem,
                  const uint8_t *kernarg, bool cooperative)
{
    unsigned gx = grid[0], gy = grid[1], gz = grid[2], bx = block[0], by = block[1], bz = block[2];
    Packet pk = { .wg = { (uint16_t)bx, (uint16_t)by, (uint16_t)bz },
                  .grid = { gx * bx, gy * by, gz * bz },
                  .private_size = k->private_fixed,
                  .group_size = k->group_fixed + shmem,
                  .kernel_object = (uint64_t)(uintptr_t)k->kd,
                  .kernarg = (uint64_t)(uintptr_t)kernarg };
    pk.setup = bz > 1 || gz > 1 ? 3 : by > 1 || gy > 1 ? 2 : 1;
    const char *tr = getenv("JUKE_AMDEMU_TRACE");
    AmdLaunch l = { .k = k,
                    .grid = { gx, gy, gz },
                    .block = { bx, by, bz },
                    .shmem = shmem,
                    .kernarg = kernarg,
                    .dispatch = &pk,
                    .wave_size = (k->props >> 10 & 1) ? 32 : 64,
                    .trace = tr && *tr && strcmp(tr, "0") != 0,
                    .cooperative = cooperative };
    char *msg = NULL;
    int rc = amdemu_run(&l, &msg);
    return rc == 0 ? hipSuccess : set_error(hipErrorLaunchFailure, msg);
}

static bool dims_valid(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz)
{
    return bx && by && bz && (uint64_t)bx * by * bz <= 1024 && gx && gy && gz;
}

API int hipModuleLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                              unsigned shmem, void *stream, void **params, void **extra)
{
    const AmdKernel *k = fn;
    const void *args = NULL;
    size_t args_size = 0;
    for (int i = 0; extra && extra[i] != (void *)0x03; i += 2) {
        if (extra[i] == (void *)0x01)
            args = extra[i + 1];
        else if (extra[i] == (void *)0x02)
            args_size = *(const size_t *)extra[i + 1];
    }
    if (params && !args)
        return set_error(hipErrorInvalidValue,
                         strdup("amdemu: kernelParams launches are not modelled (pass the packed buffer in extra)"));
    if (!dims_valid(gx, gy, gz, bx, by, bz))
        return set_error(hipErrorInvalidValue, strdup("amdemu: invalid launch dimensions"));
    size_t cap = (k->kernarg_size > args_size ? k->kernarg_size : args_size) + 64;
    uint8_t *kernarg = aligned_alloc(64, (cap + 63) & ~(size_t)63);
    if (!kernarg)
        return hipErrorOutOfMemory;
    memset(kernarg, 0, cap);
    if (args)
        memcpy(kernarg, args, args_size);
    int rc = launch(k, (uint32_t[]){ gx, gy, gz }, (uint32_t[]){ bx, by, bz }, shmem, kernarg, false);
    free(kernarg);
    return rc;
}

/* The emulated device's compute units (a GFX11 WGP counts as two) and what
 * each holds at once: 32 waves (GFX9: 4 SIMDs of 8; GFX11: 2 SIMDs of 16) and
 * 64 KiB of LDS. A cooperative launch needs every workgroup resident. */
static unsigned compute_units(void)
{
    static const struct {
        const char *arch;
        unsigned cus;
    } cus[] = { { "gfx90a", 110 }, { "gfx942", 304 }, { "gfx1100", 96 }, { "gfx1101", 60 },
                { "gfx1102", 32 }, { "gfx1103", 12 }, { "gfx1201", 64 } };
    for (size_t i = 0; i < sizeof cus / sizeof cus[0]; i++)
        if (strcmp(cus[i].arch, arch) == 0)
            return cus[i].cus;
    return 1;
}

/* hipModuleLaunchCooperativeKernel: every workgroup resident at once (the
 * emulator runs them together, switching between them), which sync_grid()'s
 * grid barrier needs; HIP's error when the grid is larger than the device
 * holds. The arguments come as kernelParams, laid out from the metadata. */
API int hipModuleLaunchCooperativeKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                         unsigned bz, unsigned shmem, void *stream, void **params)
{
    const Function *f = fn;
    const AmdKernel *k = &f->k;
    if (!dims_valid(gx, gy, gz, bx, by, bz))
        return set_error(hipErrorInvalidValue, strdup("amdemu: invalid launch dimensions"));
    unsigned wave = (k->props >> 10 & 1) ? 32 : 64;
    unsigned waves = (bx * by * bz + wave - 1) / wave, lds = k->group_fixed + shmem;
    unsigned per_cu = 32 / waves;
    if (lds && 65536 / lds < per_cu)
        per_cu = 65536 / lds;
    uint64_t groups = (uint64_t)gx * gy * gz, most = (uint64_t)per_cu * compute_units();
    if (groups > most) {
        char *msg = NULL;
        if (asprintf(&msg,
                     "amdemu: cooperative launch too large: %llu workgroups of %u wave%s and %u bytes of LDS, but at "
                     "most %llu can be resident at once on %s (%u compute units, each 32 waves and 64 KiB of LDS)",
                     (unsigned long long)groups, waves, waves == 1 ? "" : "s", lds, (unsigned long long)most, arch,
                     compute_units()) < 0)
            msg = NULL;
        return set_error(hipErrorCooperativeLaunchTooLarge, msg);
    }
    size_t cap = k->kernarg_size + 64;
    uint8_t *kernarg = aligned_alloc(64, (cap + 63) & ~(size_t)63);
    if (!kernarg)
        return hipErrorOutOfMemory;
    memset(kernarg, 0, cap);
    uint32_t grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };
    char *msg = NULL;
    int rc = amdemu_pack_params(f->m->elf, f->m->elf_size, k->name, params, grid, block, shmem, kernarg, cap, &msg);
    rc = rc == 0 ? launch(k, grid, block, shmem, kernarg, true) : set_error(hipErrorInvalidValue, msg);
    free(kernarg);
    return rc;
}

API int hipStreamCreate(void **s)
{
    *s = malloc(1);
    return *s ? hipSuccess : hipErrorOutOfMemory;
}

API int hipStreamDestroy(void *s)
{
    free(s);
    return hipSuccess;
}

API int hipStreamSynchronize(void *s)
{
    return hipSuccess;
}

API int hipStreamQuery(void *s)
{
    return hipSuccess;
}

API int hipDeviceSynchronize(void)
{
    return hipSuccess;
}

API int hipEventCreate(void **e)
{
    *e = calloc(1, sizeof(double));
    return *e ? hipSuccess : hipErrorOutOfMemory;
}

API int hipEventDestroy(void *e)
{
    free(e);
    return hipSuccess;
}

API int hipEventRecord(void *e, void *s)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    *(double *)e = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
    return hipSuccess;
}

API int hipEventSynchronize(void *e)
{
    return hipSuccess;
}

API int hipEventElapsedTime(float *ms, void *a, void *b)
{
    *ms = (float)(*(double *)b - *(double *)a);
    return hipSuccess;
}

API const char *hipGetErrorString(int e)
{
    if (e != hipSuccess && last_error)
        return last_error;
    switch (e) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorInvalidImage: return "device kernel image is invalid";
    case hipErrorNoBinaryForGpu: return "no kernel image is available for execution on the device";
    case hipErrorNotFound: return "named symbol not found";
    case hipErrorLaunchFailure: return "unspecified launch failure";
    case hipErrorCooperativeLaunchTooLarge: return "cooperative launch too large";
    }
    return "unknown error";
}
