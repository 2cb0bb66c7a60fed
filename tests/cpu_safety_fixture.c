/* cpu_safety_fixture.c: hand-written CPU kernels (runtime/abi.h) that do
 * what compiled kernels cannot be made to do on purpose: overflow a
 * work-item's stack, trap on an integer division, send themselves a signal.
 * test_cpu_safety.c loads it through rt_module_load. */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "abi.h"

#define EXPORT __attribute__((visibility("default")))

/* Each level touches both ends of a 512-byte frame, so the stack grows a
 * frame at a time and meets the guard page below it. */
static __attribute__((noinline)) int64_t dive(int64_t d)
{
    volatile char pad[512];
    pad[0] = (char)d;
    pad[511] = 1;
    if (d <= 0)
        return pad[0];
    return dive(d - 1) + pad[511];
}

/* deep(depth, out): out[item] = the sum of `depth` levels of recursion.
 * kernarg: depth@0 out@8 exc@16 */
typedef struct DeepArgs {
    int64_t depth;
    int64_t *out;
    JukeExceptionRecord *exc;
} DeepArgs;

static void deep(const void *kernarg, JukeCpuState *st)
{
    const DeepArgs *k = kernarg;
    k->out[st->item[0]] = dive(k->depth);
}

/* deep with a barrier first, so that its work-items run as fibers */
static void deep_fibers(const void *kernarg, JukeCpuState *st)
{
    st->barrier(st, 3, 5);
    deep(kernarg, st);
}

/* divide(num, den, out): out[item] = num ÷ den, with no DivideError check.
 * kernarg: num@0 den@8 out@16 exc@24 */
typedef struct DivArgs {
    int64_t num, den;
    int64_t *out;
    JukeExceptionRecord *exc;
} DivArgs;

/* The division by zero is the point: UBSan must not stop it before the CPU does. */
__attribute__((no_sanitize("undefined"))) static void divide(const void *kernarg, JukeCpuState *st)
{
    const DivArgs *k = kernarg;
    volatile int64_t den = k->den;
    k->out[st->item[0]] = k->num / den;
}

/* sendsig(sig): raise(sig) in the work-item, a signal that is no fault of
 * the kernel's. kernarg: sig@0 exc@8 */
static void sendsig(const void *kernarg, JukeCpuState *st)
{
    (void)st;
    raise((int)*(const int64_t *)kernarg);
}

EXPORT const JukeCpuKernelInfo juke_cpu_kernels[] = {
    { "deep", deep, sizeof(DeepArgs), 0, 0, 0 },
    { "deep_fibers", deep_fibers, sizeof(DeepArgs), 0, JUKE_CPU_BARRIER_LOC, 0 },
    { "divide", divide, sizeof(DivArgs), 0, 0, 0 },
    { "sendsig", sendsig, 16, 0, 0, 0 },
};
EXPORT const uint32_t juke_cpu_nkernels = sizeof juke_cpu_kernels / sizeof juke_cpu_kernels[0];
