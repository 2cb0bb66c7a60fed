/* arrays.c: arrays made on a device (zeros, ones, fill, from host memory,
 * rand and randn with a seed) and the table of generated modules every array
 * operation shares (arrayops.h).
 *
 * rand and randn are a generated kernel calling the kernel language's own
 * rand(T) / randn(T) (Philox4x32-10, builtins_random_emit.c), one draw per
 * element from the work-item's stream, in groups of 256: the same seed gives
 * the same array on the CPU, AMD and NVIDIA devices, as a launch of any kernel
 * with the same shape and seed does. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "arrayops.h"

void aops_free(ArrayOps *ops)
{
    if (!ops)
        return;
    for (int i = 0; i < ops->nmods; i++)
        free(ops->mods[i].source); /* the modules are the context's, freed with it */
    free(ops->mods);
    blas_free(ops->blas);
    pthread_mutex_destroy(&ops->lock);
    free(ops);
}

ArrayOps *aops_of(juke_context *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    if (!ctx->aops) {
        ArrayOps *ops = calloc(1, sizeof *ops);
        if (ops) {
            pthread_mutex_init(&ops->lock, NULL);
            ctx->aops = ops;
        }
    }
    ArrayOps *ops = ctx->aops;
    pthread_mutex_unlock(&ctx->lock);
    return ops;
}

juke_status aops_module(juke_context *ctx, const char *name, const char *source, juke_module **out)
{
    ArrayOps *ops = aops_of(ctx);
    if (!ops)
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    pthread_mutex_lock(&ops->lock);
    for (int i = 0; i < ops->nmods; i++)
        if (strcmp(ops->mods[i].source, source) == 0) {
            *out = ops->mods[i].m;
            pthread_mutex_unlock(&ops->lock);
            return JUKE_OK;
        }
    juke_status st = JUKE_OK;
    if (ops->nmods == ops->capmods) {
        int cap = ops->capmods ? 2 * ops->capmods : 16;
        void *p = realloc(ops->mods, (size_t)cap * sizeof *ops->mods);
        if (!p)
            st = api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
        else
            ops->mods = p, ops->capmods = cap;
    }
    char *copy = st == JUKE_OK ? strdup(source) : NULL;
    if (st == JUKE_OK && !copy)
        st = api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    juke_module *m = NULL;
    if (st == JUKE_OK)
        st = juke_module_load_string(ctx, name, source, &m);
    if (st == JUKE_OK) {
        ops->mods[ops->nmods++] = (struct GenModule){ copy, m };
        *out = m;
    } else {
        free(copy);
    }
    pthread_mutex_unlock(&ops->lock);
    return st;
}

juke_status aops_launch_1d(juke_device *dev, juke_module *m, const char *function, const juke_arg *args, int nargs,
                           int64_t count, bool seeded, uint64_t seed)
{
    if (count <= 0)
        return JUKE_OK;
    int64_t groups = (count + 255) / 256;
    if (groups > UINT32_MAX)
        return api_fail(dev->ctx, JUKE_ERR_ARGUMENT, "%s: %lld elements are too many for one launch", function,
                        (long long)count);
    juke_launch_config cfg = { .groupsize = { 256, 1, 1 }, .gridsize = { (uint32_t)groups, 1, 1 } };
    /* on a GPU the launch is queued: copies, later launches and juke_device_synchronize come after it */
    cfg.async = rt_device_kind(dev->rt) != RT_CPU;
    cfg.seeded = seeded;
    cfg.seed = seed;
    return juke_launch(dev, m, function, args, nargs, &cfg);
}

const char *aops_type_name(juke_type t)
{
    return t >= JUKE_BOOL && t <= JUKE_FLOAT64 ? api_type_name(t) : NULL;
}

bool aops_is_float(juke_type t)
{
    return t == JUKE_FLOAT16 || t == JUKE_FLOAT32 || t == JUKE_FLOAT64;
}

juke_status juke_array_full(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, const void *value,
                            juke_array **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out || !value)
        return api_fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_array_full: NULL argument");
    juke_array *a;
    juke_status st = juke_array_create(dev, elem, ndims, dims, &a);
    if (st != JUKE_OK)
        return st;
    if (juke_array_length(a) > 0 && (st = juke_array_fill(a, value)) != JUKE_OK) {
        juke_array_free(a);
        return st;
    }
    *out = a;
    return JUKE_OK;
}

juke_status juke_array_zeros(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, juke_array **out)
{
    static const uint64_t zero = 0;
    return juke_array_full(dev, elem, ndims, dims, &zero, out);
}

juke_status juke_array_ones(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, juke_array **out)
{
    union {
        uint64_t u;
        float f;
        double d;
        uint16_t h;
    } one = { 0 };
    if (elem == JUKE_FLOAT32)
        one.f = 1.0f;
    else if (elem == JUKE_FLOAT64)
        one.d = 1.0;
    else if (elem == JUKE_FLOAT16)
        one.h = 0x3c00; /* 1.0 in IEEE binary16 */
    else
        one.u = 1; /* little-endian: the low byte of any integer width, and true */
    return juke_array_full(dev, elem, ndims, dims, &one, out);
}

juke_status juke_array_from_host(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, const void *host,
                                 juke_array **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out || !host)
        return api_fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_array_from_host: NULL argument");
    juke_array *a;
    juke_status st = juke_array_create(dev, elem, ndims, dims, &a);
    if (st != JUKE_OK)
        return st;
    if (juke_array_length(a) > 0 && (st = juke_array_upload(a, host, (size_t)a->length * juke_sizeof(elem)))) {
        juke_array_free(a);
        return st;
    }
    *out = a;
    return JUKE_OK;
}

/* rand(T) / randn(T) into every element, one work-item per element */
static const char random_source[] = "function juke_rand!(a::AbstractArray{T}) where {T}\n"
                                    "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                                    "    if i <= length(a)\n"
                                    "        @inbounds a[i] = rand(T)\n"
                                    "    end\n"
                                    "    return\n"
                                    "end\n"
                                    "\n"
                                    "function juke_randn!(a::AbstractArray{T}) where {T}\n"
                                    "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                                    "    if i <= length(a)\n"
                                    "        @inbounds a[i] = randn(T)\n"
                                    "    end\n"
                                    "    return\n"
                                    "end\n";

static juke_status random_array(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, uint64_t seed,
                                bool normal, juke_array **out)
{
    const char *who = normal ? "juke_array_randn" : "juke_array_rand";
    if (out)
        *out = NULL;
    if (!dev || !out)
        return api_fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "%s: NULL argument", who);
    if (normal && !aops_is_float(elem))
        return api_fail(dev->ctx, JUKE_ERR_ARGUMENT, "%s: randn draws floats (Float16, Float32, Float64), not %s", who,
                        api_type_name(elem));
    juke_module *m;
    juke_status st = aops_module(dev->ctx, "juke_random.jl", random_source, &m);
    juke_array *a = NULL;
    if (st == JUKE_OK)
        st = juke_array_create(dev, elem, ndims, dims, &a);
    if (st != JUKE_OK)
        return st;
    juke_arg arg = juke_arg_array(a);
    st = aops_launch_1d(dev, m, normal ? "juke_randn!" : "juke_rand!", &arg, 1, a->length, true, seed);
    if (st != JUKE_OK) {
        juke_array_free(a);
        return st;
    }
    *out = a;
    return JUKE_OK;
}

juke_status juke_array_rand(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, uint64_t seed,
                            juke_array **out)
{
    return random_array(dev, elem, ndims, dims, seed, false, out);
}

juke_status juke_array_randn(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, uint64_t seed,
                             juke_array **out)
{
    return random_array(dev, elem, ndims, dims, seed, true, out);
}
