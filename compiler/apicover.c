/* apicover.c: the names of AMDGPU.jl's, KernelAbstractions' and Base's device API that juke does not compile,
 * each with why and what to write instead (docs/api-coverage.md lists every name of those APIs and its status;
 * docs/errors.md E2150-E2152). Inference asks here before it reports a name as undefined. */
#include <string.h>

#include "builtins.h"

static const struct {
    const char *name, *why;
} unsupported[] = {
    /* E2150: AMDGPU.jl's hostcalls (src/device/gcn/hostcall.jl) */
    { "hostcall!", "AMDGPU.jl's hostcalls run a host function while the kernel waits, a service juke's devices do "
                   "not provide; return results through an array argument and print with @rocprintln" },
    { "HostCall", NULL },
    { "HostCallHolder", NULL },
    { "device_signal_load", NULL },
    { "device_signal_store!", NULL },
    { "device_signal_cas!", NULL },
    { "device_signal_wait", NULL }, /* AMDGPU.jl 0.2-0.4's names of the next two */
    { "device_signal_wait_cas!", NULL },
    { "hostcall_device_signal_wait", NULL },
    { "hostcall_device_signal_wait_cas!", NULL },
    /* E2151: static private memory (memory_static.jl's alloc_scratch) */
    { "alloc_scratch", "AMDGPU.jl's static private (scratch) memory is not supported: use KernelAbstractions' "
                       "@private T dims, a tuple, or an MVector" },
    /* E2055: a matrix literal [a b; c d], [a b], [a; b] is hvcat, hcat, vcat, as Julia lowers it */
    { "hvcat", "a matrix literal [a b; c d] (Base's hvcat, hcat, vcat) allocates an array, which a kernel cannot do; "
               "use a tuple, or an array argument" },
    { "hcat", NULL },
    { "vcat", NULL },
    /* E2152: functions whose device implementation juke lacks */
    { "mod2pi", "juke has no implementation of Base's algorithm for it yet (its 2π reduction is exact)" },
    { "rem2pi", NULL },
};

const char *api_unsupported(const char *name)
{
    const char *why = NULL;
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
        if (unsupported[i].why)
            why = unsupported[i].why; /* a row without a reason shares the one above it */
        if (strcmp(unsupported[i].name, name) == 0)
            return why;
    }
    return NULL;
}
