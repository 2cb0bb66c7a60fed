/* cpu_kernels_fixture.c: a hand-written CPU code object following
 * runtime/abi.h, standing in for the compiler's CPU target in
 * test_runtime.c. Built as a shared module; the test loads its bytes through
 * rt_module_load. Each entry runs one work-item. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "abi.h"

#define EXPORT __attribute__((visibility("default")))

/* A 1-D JukeArrayArg: pointer, one dim, length (24 bytes). */
typedef struct Arr1 {
    void *ptr;
    int64_t dim, len;
} Arr1;

static uint64_t global_id(const JukeCpuState *st)
{
    return (uint64_t)st->group[0] * st->group_dim[0] + st->item[0];
}

/* The raise protocol of abi.h: claim the record by CAS 0 -> 1, fill it,
 * publish with flag = 2, end the work-item. */
static void raise_bounds(JukeExceptionRecord *r, JukeCpuState *st, int64_t index, int64_t dim, uint32_t line)
{
    uint32_t expected = 0;
    if (__atomic_compare_exchange_n(&r->flag, &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        r->kind = JUKE_EXC_BOUNDS;
        r->line = line;
        r->col = 7;
        r->ndims = 1;
        r->aux = 0;
        r->index[0] = index;
        r->dims[0] = dim;
        for (int d = 0; d < 3; d++) {
            r->group[d] = st->group[d] + 1;
            r->item[d] = st->item[d] + 1;
        }
        __atomic_store_n(&r->flag, 2, __ATOMIC_RELEASE);
    }
    st->exit_item(st);
}

/* vadd(a, b, c): c[i] = a[i] + b[i]; kernarg: a@0 b@24 c@48 exc@72 */
typedef struct VaddArgs {
    Arr1 a, b, c;
    JukeExceptionRecord *exc;
} VaddArgs;

static void vadd(const void *kernarg, JukeCpuState *st)
{
    const VaddArgs *k = kernarg;
    uint64_t i = global_id(st);
    if (i < (uint64_t)k->c.len)
        ((float *)k->c.ptr)[i] = ((float *)k->a.ptr)[i] + ((float *)k->b.ptr)[i];
}

/* bsum(x, out, zeroed, raise_at): per-group sum of x through local memory
 * (a barrier tree); the work-item whose global index is raise_at (1-based,
 * 0 = none) raises a BoundsError before the first barrier. Item 0 counts
 * the non-zero bytes of local memory as it starts (static + dynamic) into
 * zeroed[group]; items run in order, so item 0 sees the group's fresh
 * memory. kernarg: x@0 out@24 zeroed@48 raise_at@72 shmem@80 exc@88 */
typedef struct BsumArgs {
    Arr1 x, out, zeroed;
    int64_t raise_at;
    int64_t lds_bytes;
    JukeExceptionRecord *exc;
} BsumArgs;

/* Code objects of older juke (uses_barrier 1, as in the table below) call barrier(st). */
static void old_barrier(JukeCpuState *st)
{
    ((void (*)(JukeCpuState *))(void (*)(void))st->barrier)(st);
}

static void bsum(const void *kernarg, JukeCpuState *st)
{
    const BsumArgs *k = kernarg;
    float *lds = (float *)st->lds;
    uint32_t t = st->item[0], n = st->group_dim[0];
    uint64_t i = global_id(st);
    if (t == 0) {
        int32_t bad = 0;
        for (int64_t b = 0; b < k->lds_bytes; b++)
            bad += st->lds[b] != 0;
        ((int32_t *)k->zeroed.ptr)[st->group[0]] = bad;
    }
    if ((int64_t)i + 1 == k->raise_at)
        raise_bounds(k->exc, st, (int64_t)i + 1, k->x.len, 42);
    lds[t] = i < (uint64_t)k->x.len ? ((float *)k->x.ptr)[i] : 0.0f;
    old_barrier(st);
    for (uint32_t s = n / 2; s > 0; s /= 2) {
        if (t < s)
            lds[t] += lds[t + s];
        old_barrier(st);
    }
    if (t == 0)
        ((float *)k->out.ptr)[st->group[0]] = lds[0];
}

/* boom(x, n): x[i] = i + 1 for i < n; the work-item at index n raises a
 * BoundsError (index n+1 of an n-element array). kernarg: x@0 n@24 exc@32 */
typedef struct BoomArgs {
    Arr1 x;
    int64_t n;
    JukeExceptionRecord *exc;
} BoomArgs;

static void boom(const void *kernarg, JukeCpuState *st)
{
    const BoomArgs *k = kernarg;
    uint64_t i = global_id(st);
    if ((int64_t)i == k->n)
        raise_bounds(k->exc, st, (int64_t)i + 1, k->n, 13);
    if ((int64_t)i < k->n)
        ((int64_t *)k->x.ptr)[i] = (int64_t)i + 1;
}

/* whoami(tids): tids[group] = the thread running the group; slow enough
 * that every pool thread gets groups. kernarg: tids@0 exc@24 */
static void whoami(const void *kernarg, JukeCpuState *st)
{
    const Arr1 *tids = kernarg;
    if (st->item[0] == 0) {
        ((uint64_t *)tids->ptr)[st->group[0]] = (uint64_t)pthread_self();
        usleep(2000);
    }
}

/* coords(out): 6 Int32 per work-item, at its linear index in the launch
 * (group linear * group size + item linear): item x y z, group x y z.
 * kernarg: out@0 exc@24 */
static void coords(const void *kernarg, JukeCpuState *st)
{
    const Arr1 *out = kernarg;
    uint64_t gl =
        st->group[0] + (uint64_t)st->grid_groups[0] * (st->group[1] + (uint64_t)st->grid_groups[1] * st->group[2]);
    uint64_t il = st->item[0] + (uint64_t)st->group_dim[0] * (st->item[1] + (uint64_t)st->group_dim[1] * st->item[2]);
    uint64_t per = (uint64_t)st->group_dim[0] * st->group_dim[1] * st->group_dim[2];
    int32_t *o = (int32_t *)out->ptr + 6 * (gl * per + il);
    for (int d = 0; d < 3; d++) {
        o[d] = (int32_t)st->item[d];
        o[3 + d] = (int32_t)st->group[d];
    }
}

EXPORT const JukeCpuKernelInfo juke_cpu_kernels[] = {
    { "vadd", vadd, sizeof(VaddArgs), 0, 0, 0 }, { "bsum", bsum, sizeof(BsumArgs), 1024 * sizeof(float), 1, 1024 },
    { "boom", boom, sizeof(BoomArgs), 0, 0, 0 }, { "whoami", whoami, 32, 0, 0, 0 },
    { "coords", coords, 32, 0, 0, 256 },
};
/* FIXTURE_NKERNELS: the hostile build claims more kernels than the table holds (the loader must refuse it
 * before it reads past the table). */
#ifndef FIXTURE_NKERNELS
#define FIXTURE_NKERNELS (sizeof juke_cpu_kernels / sizeof juke_cpu_kernels[0])
#endif
EXPORT const uint32_t juke_cpu_nkernels = FIXTURE_NKERNELS;
