/* arrayops.h: array operations written as generated Julia kernels (arrays.c,
 * broadcast.c, reduce.c, matmul.c). Each operation writes the source of its
 * kernel, loads it once per context (aops_module) and launches it through
 * juke_launch, so it is compiled, cached (also on disk) and dumped like any
 * kernel. The module names start with "juke_" so messages and dumps say
 * which operation generated them. */
#ifndef JUKE_ARRAYOPS_H
#define JUKE_ARRAYOPS_H

#include <pthread.h>

#include "api_impl.h"

/* What array operations keep per context (juke_context.aops): the generated modules and the vendor
 * BLAS libraries matmul.c opened. Freed with the context. */
typedef struct Blas Blas;
typedef struct ArrayOps {
    pthread_mutex_t lock; /* over the table; taken before ctx->lock (module loads), never after */
    struct GenModule {
        char *source;
        juke_module *m;
    } *mods;
    int nmods, capmods;
    Blas *blas; /* matmul.c's, under lock */
} ArrayOps;
void aops_free(ArrayOps *ops);
/* ctx's table, made at the first call (NULL when out of memory). */
ArrayOps *aops_of(juke_context *ctx);
/* matmul.c: close the BLAS libraries and their handles. */
void blas_free(Blas *b);

/* The module of this generated source on ctx: loaded at the first request, the same handle after. */
juke_status aops_module(juke_context *ctx, const char *name, const char *source, juke_module **out);
/* Launch function of m over count work-items in 1-D groups of 256 (nothing when count is 0); seeded
 * launches key the kernel's random numbers by seed. Asynchronous on GPUs (a kernel exception surfaces at
 * the next synchronisation), synchronous on the CPU. */
juke_status aops_launch_1d(juke_device *dev, juke_module *m, const char *function, const juke_arg *args, int nargs,
                           int64_t count, bool seeded, uint64_t seed);
/* The Julia name of a primitive element type ("Float32"), NULL for another. */
const char *aops_type_name(juke_type t);
/* Whether t is Float16, Float32 or Float64. */
bool aops_is_float(juke_type t);

#endif
