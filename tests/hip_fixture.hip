// hip_fixture.hip: small AMDGPU kernels whose code object metadata
// test_runtime.c reads (argument offsets, sizes, names, hidden arguments).
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
