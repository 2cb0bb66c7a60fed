// hip_fixture.hip: small AMDGPU kernels whose code object metadata
// test_runtime.c reads (argument offsets, sizes, names, hidden arguments) and
// test_amdemu.c runs in the AMD ISA emulator.
// Built with clang -nogpuinc, so the HIP keywords are spelled out here.
#define __global__ __attribute__((global))

struct Arr1 {
    float *ptr;
    long dim, len;
};

extern "C" __global__ void k(float *x, int n, double a, float *__juke_exception)
{
    unsigned i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x();
    if (i < (unsigned)n)
        x[i] = (float)(a * (double)__builtin_amdgcn_grid_size_x());
    if (i == 0)
        __juke_exception[0] = 1.0f;
}

extern "C" __global__ void k2(Arr1 arr, char c, short s, float *__juke_exception)
{
    unsigned i = __builtin_amdgcn_workitem_id_x();
    if (i < arr.len)
        arr.ptr[i] = c + s;
}

// Every lane loads *flag (one address for the wave) iters times while the host writes it; seen[i * n + l] is
// what lane l read the i-th time. On the GPU one request serves the wave, so the lanes of a load agree, and an
// aligned 8-byte load is never torn.
extern "C" __global__ void uniform_load(volatile unsigned long long *flag, unsigned long long *seen, int iters)
{
    unsigned l = __builtin_amdgcn_workitem_id_x(), n = __builtin_amdgcn_workgroup_size_x();
    for (int i = 0; i < iters; i++)
        seen[(unsigned)i * n + l] = *flag;
}
