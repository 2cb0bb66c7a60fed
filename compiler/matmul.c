/* matmul.c: C = A * B for column-major matrices. The vendor's BLAS where it
 * is there, opened by dlopen so that juke neither links nor needs it:
 *   cpu   cblas_sgemm / cblas_dgemm of OpenBLAS or the system BLAS
 *   cuda  cublasSgemm_v2 / cublasDgemm_v2 (libcublas), on the legacy default
 *         stream, which the device's own (blocking) stream is ordered with
 *   hip   rocblas_sgemm / rocblas_dgemm (librocblas), on its default stream
 * else, and for other element types, a tiled juke kernel (16×16 tiles through
 * local memory) generated in Julia. The caller learns which one ran. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrayops.h"

/* CBLAS's and the vendors' ABI, as their headers declare it (not included: juke builds without them) */
enum { CBLAS_COL_MAJOR = 102, CBLAS_NO_TRANS = 111, CUBLAS_OP_N = 0, ROCBLAS_OP_NONE = 111 };
typedef void (*cblas_sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float,
                               float *, int);
typedef void (*cblas_dgemm_fn)(int, int, int, int, int, int, double, const double *, int, const double *, int, double,
                               double *, int);
/* cuBLAS and rocBLAS share the shape: (handle, opA, opB, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc) */
typedef int (*gpu_sgemm_fn)(void *, int, int, int, int, int, const float *, const float *, int, const float *, int,
                            const float *, float *, int);
typedef int (*gpu_dgemm_fn)(void *, int, int, int, int, int, const double *, const double *, int, const double *, int,
                            const double *, double *, int);
typedef int (*gpu_create_fn)(void **);
typedef int (*gpu_destroy_fn)(void *);

struct Blas {
    bool cpu_tried, cuda_tried, hip_tried;
    void *cpu_lib, *cuda_lib, *hip_lib;
    char cpu_name[64], cuda_name[64], hip_name[64];
    cblas_sgemm_fn cpu_s;
    cblas_dgemm_fn cpu_d;
    gpu_sgemm_fn cuda_s, hip_s;
    gpu_dgemm_fn cuda_d, hip_d;
    void *cuda_handle, *hip_handle;
    gpu_destroy_fn cuda_destroy, hip_destroy;
};

void blas_free(Blas *b)
{
    if (!b)
        return;
    if (b->cuda_handle && b->cuda_destroy)
        b->cuda_destroy(b->cuda_handle);
    if (b->hip_handle && b->hip_destroy)
        b->hip_destroy(b->hip_handle);
    if (b->cpu_lib)
        dlclose(b->cpu_lib);
    if (b->cuda_lib)
        dlclose(b->cuda_lib);
    if (b->hip_lib)
        dlclose(b->hip_lib);
    free(b);
}

/* The first of names that dlopen finds, its name in *chosen. */
static void *open_first(const char *const *names, char *chosen, size_t n)
{
    for (; *names; names++) {
        void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(chosen, n, "%s", *names);
            return h;
        }
    }
    return NULL;
}

static void blas_open_cpu(Blas *b)
{
    static const char *const libs[] = { "libopenblas.so.0", "libopenblas.so", "libcblas.so.3",
                                        "libblas.so.3",     "libblas.so",     NULL };
    b->cpu_tried = true;
    for (const char *const *l = libs; *l; l++) {
        const char *one[] = { *l, NULL };
        void *h = open_first(one, b->cpu_name, sizeof b->cpu_name);
        if (!h)
            continue;
        b->cpu_s = (cblas_sgemm_fn)dlsym(h, "cblas_sgemm");
        b->cpu_d = (cblas_dgemm_fn)dlsym(h, "cblas_dgemm");
        if (b->cpu_s && b->cpu_d) {
            b->cpu_lib = h;
            return;
        }
        b->cpu_s = NULL, b->cpu_d = NULL;
        dlclose(h);
    }
}

static void blas_open_gpu(void **lib, char *name, size_t n, const char *const *libs, const char *create,
                          const char *destroy, const char *s, const char *d, void **handle, gpu_destroy_fn *destroy_fn,
                          gpu_sgemm_fn *sf, gpu_dgemm_fn *df)
{
    void *h = open_first(libs, name, n);
    if (!h)
        return;
    gpu_create_fn cr = (gpu_create_fn)dlsym(h, create);
    *destroy_fn = (gpu_destroy_fn)dlsym(h, destroy);
    *sf = (gpu_sgemm_fn)dlsym(h, s);
    *df = (gpu_dgemm_fn)dlsym(h, d);
    if (!cr || !*sf || !*df || cr(handle) != 0) {
        *sf = NULL, *df = NULL, *handle = NULL;
        dlclose(h);
        return;
    }
    *lib = h;
}

/* The vendor gemm for dev's kind and elem, or false; *which names it. */
static bool blas_gemm(juke_context *ctx, juke_device *dev, juke_type elem, int m, int n, int k, void *a, void *bm,
                      void *c, const char **which, char *buf, size_t bufn)
{
    ArrayOps *ops = aops_of(ctx);
    if (!ops)
        return false;
    pthread_mutex_lock(&ops->lock);
    if (!ops->blas)
        ops->blas = calloc(1, sizeof *ops->blas);
    Blas *b = ops->blas;
    RtKind kind = rt_device_kind(dev->rt);
    bool ran = false;
    if (b && kind == RT_CPU) {
        if (!b->cpu_tried)
            blas_open_cpu(b);
        if (b->cpu_s && elem == JUKE_FLOAT32) {
            b->cpu_s(CBLAS_COL_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, m, n, k, 1.0f, a, m, bm, k, 0.0f, c, m);
            snprintf(buf, bufn, "cblas_sgemm (%s)", b->cpu_name);
            ran = true;
        } else if (b->cpu_d && elem == JUKE_FLOAT64) {
            b->cpu_d(CBLAS_COL_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, m, n, k, 1.0, a, m, bm, k, 0.0, c, m);
            snprintf(buf, bufn, "cblas_dgemm (%s)", b->cpu_name);
            ran = true;
        }
    } else if (b && (kind == RT_CUDA || kind == RT_HIP)) {
        bool cuda = kind == RT_CUDA;
        if (cuda && !b->cuda_tried) {
            static const char *const libs[] = { "libcublas.so.13",
                                                "libcublas.so.12",
                                                "libcublas.so",
                                                "libcublas.so.11",
                                                "/usr/local/cuda/lib64/libcublas.so.13",
                                                "/usr/local/cuda/lib64/libcublas.so.12",
                                                "/usr/local/cuda/lib64/libcublas.so",
                                                NULL };
            b->cuda_tried = true;
            blas_open_gpu(&b->cuda_lib, b->cuda_name, sizeof b->cuda_name, libs, "cublasCreate_v2", "cublasDestroy_v2",
                          "cublasSgemm_v2", "cublasDgemm_v2", &b->cuda_handle, &b->cuda_destroy, &b->cuda_s,
                          &b->cuda_d);
        } else if (!cuda && !b->hip_tried) {
            static const char *const libs[] = { "librocblas.so.4", "librocblas.so", "librocblas.so.3",
                                                "/opt/rocm/lib/librocblas.so", NULL };
            b->hip_tried = true;
            blas_open_gpu(&b->hip_lib, b->hip_name, sizeof b->hip_name, libs, "rocblas_create_handle",
                          "rocblas_destroy_handle", "rocblas_sgemm", "rocblas_dgemm", &b->hip_handle, &b->hip_destroy,
                          &b->hip_s, &b->hip_d);
        }
        gpu_sgemm_fn sf = cuda ? b->cuda_s : b->hip_s;
        gpu_dgemm_fn df = cuda ? b->cuda_d : b->hip_d;
        void *h = cuda ? b->cuda_handle : b->hip_handle;
        int op = cuda ? CUBLAS_OP_N : ROCBLAS_OP_NONE;
        const char *lib = cuda ? b->cuda_name : b->hip_name;
        if (sf && elem == JUKE_FLOAT32) {
            const float one = 1.0f, zero = 0.0f;
            ran = sf(h, op, op, m, n, k, &one, a, m, bm, k, &zero, c, m) == 0;
            snprintf(buf, bufn, "%s (%s)", cuda ? "cublasSgemm_v2" : "rocblas_sgemm", lib);
        } else if (df && elem == JUKE_FLOAT64) {
            const double one = 1.0, zero = 0.0;
            ran = df(h, op, op, m, n, k, &one, a, m, bm, k, &zero, c, m) == 0;
            snprintf(buf, bufn, "%s (%s)", cuda ? "cublasDgemm_v2" : "rocblas_dgemm", lib);
        }
    }
    pthread_mutex_unlock(&ops->lock);
    if (ran)
        *which = buf;
    return ran;
}

static const char tiled_source[] =
    "# C = A * B in 16×16 tiles: each workgroup computes one tile of C, reading the tiles of A and B it needs\n"
    "# through local memory\n"
    "function juke_matmul!(C::AbstractArray{T}, A::AbstractArray{T}, B::AbstractArray{T}, M, N, K) where {T}\n"
    "    tx = workitemIdx().x\n"
    "    ty = workitemIdx().y\n"
    "    i = (workgroupIdx().x - 1) * 16 + tx\n"
    "    j = (workgroupIdx().y - 1) * 16 + ty\n"
    "    As = @ROCStaticLocalArray(T, (16, 16), false)\n"
    "    Bs = @ROCStaticLocalArray(T, (16, 16), false)\n"
    "    acc = zero(T)\n"
    "    for t in 0:cld(K, 16) - 1\n"
    "        ka = t * 16 + ty\n"
    "        kb = t * 16 + tx\n"
    "        @inbounds As[tx, ty] = i <= M && ka <= K ? A[i + (ka - 1) * M] : zero(T)\n"
    "        @inbounds Bs[tx, ty] = kb <= K && j <= N ? B[kb + (j - 1) * K] : zero(T)\n"
    "        sync_workgroup()\n"
    "        for kk in 1:16\n"
    "            @inbounds acc += As[tx, kk] * Bs[kk, ty]\n"
    "        end\n"
    "        sync_workgroup()\n"
    "    end\n"
    "    if i <= M && j <= N\n"
    "        @inbounds C[i + (j - 1) * M] = acc\n"
    "    end\n"
    "    return\n"
    "end\n";

juke_status juke_matmul_source(juke_context *ctx, char **out)
{
    if (out)
        *out = NULL;
    if (!ctx)
        return JUKE_ERR_ARGUMENT;
    if (!out)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_matmul_source: NULL argument");
    *out = strdup(tiled_source);
    return *out ? JUKE_OK : api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
}

/* rows and columns of a vector (n×1) or matrix */
static void mat_dims(const juke_array *a, int64_t *rows, int64_t *cols)
{
    *rows = a->dims[0];
    *cols = a->ndims >= 2 ? a->dims[1] : 1;
}

juke_status juke_matmul(juke_device *dev, juke_array *c, juke_array *a, juke_array *b, int flags, const char **which)
{
    juke_context *ctx = dev ? dev->ctx : NULL;
    if (which)
        *which = NULL;
    if (!dev || !c || !a || !b)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_matmul: NULL argument");
    if (a->dev != dev || b->dev != dev || c->dev != dev)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_matmul: the arrays are on another device");
    if (a->elem != b->elem || a->elem != c->elem || !aops_type_name(a->elem) || a->elem == JUKE_BOOL)
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "juke_matmul: A, B and C are arrays of one number type (A %s, B %s, C %s)",
                        a->elem == JUKE_VALUE ? a->eltype : api_type_name(a->elem),
                        b->elem == JUKE_VALUE ? b->eltype : api_type_name(b->elem),
                        c->elem == JUKE_VALUE ? c->eltype : api_type_name(c->elem));
    if (a->ndims > 2 || b->ndims > 2 || c->ndims > 2)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_matmul: A, B and C are matrices or vectors");
    int64_t m, k, k2, n, cm, cn;
    mat_dims(a, &m, &k);
    mat_dims(b, &k2, &n);
    mat_dims(c, &cm, &cn);
    if (k != k2)
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "juke_matmul: DimensionMismatch: matrix A has dimensions (%lld,%lld), matrix B has "
                        "dimensions (%lld,%lld)",
                        (long long)m, (long long)k, (long long)k2, (long long)n);
    if (cm != m || cn != n)
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "juke_matmul: DimensionMismatch: C has dimensions (%lld,%lld), A * B has (%lld,%lld)",
                        (long long)cm, (long long)cn, (long long)m, (long long)n);
    if (m == 0 || n == 0)
        return which ? (*which = "nothing (an empty product)", JUKE_OK) : JUKE_OK;
    static _Thread_local char buf[128];
    const char *ran = NULL;
    bool fits = m <= INT_MAX && n <= INT_MAX && k <= INT_MAX && k > 0;
    if (!(flags & JUKE_MATMUL_KERNEL) && fits &&
        blas_gemm(ctx, dev, a->elem, (int)m, (int)n, (int)k, a->ptr, b->ptr, c->ptr, &ran, buf, sizeof buf)) {
        if (which)
            *which = ran;
        return JUKE_OK;
    }
    juke_module *mod;
    juke_status st = aops_module(ctx, "juke_matmul.jl", tiled_source, &mod);
    if (st != JUKE_OK)
        return st;
    if ((m + 15) / 16 > UINT32_MAX || (n + 15) / 16 > 65535)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_matmul: %lld×%lld is too large for the tiled kernel",
                        (long long)m, (long long)n);
    juke_arg args[6] = { juke_arg_array(c), juke_arg_array(a), juke_arg_array(b),
                         juke_arg_i64(m),   juke_arg_i64(n),   juke_arg_i64(k) };
    juke_launch_config cfg = { .groupsize = { 16, 16, 1 },
                               .gridsize = { (uint32_t)((m + 15) / 16), (uint32_t)((n + 15) / 16), 1 } };
    st = juke_launch(dev, mod, "juke_matmul!", args, 6, &cfg);
    if (st == JUKE_OK && which)
        *which = "juke tiled kernel (juke_matmul!)";
    return st;
}
