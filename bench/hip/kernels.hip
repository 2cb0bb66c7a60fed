// kernels.hip: HIP C++ twins of juke's acceptance kernels vadd, memcopy,
// diffusion2d, block_sum and mathfuns, written as a HIP programmer writes them
// (int indices; the math in the kernel's element type), for the compile-latency
// and GCN code-quality comparisons (bench/compile_latency.sh, bench/gcn_quality.sh).
// KERNEL selects one kernel per compile (-DKERNEL=1..5) so each is timed alone.
#ifndef __CUDACC__ /* nvcc -x cu compiles the same file for the sm_90 comparison */
#include <hip/hip_runtime.h>
#endif

#if KERNEL == 1
extern "C" __global__ void vadd(float *c, const float *a, const float *b, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
#elif KERNEL == 2
extern "C" __global__ void memcopy(double *dst, const double *src, int n)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    if (ix < n)
        dst[ix] = src[ix];
}
#elif KERNEL == 3
extern "C" __global__ void diffusion2d(double *A_new, const double *A, double h, int nx, int ny)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    int ax = nx + 2;
    if (ix < nx && iy < ny)
        A_new[ix + nx * iy] = A[(ix + 1) + ax * (iy + 1)] +
                              h * (A[ix + ax * (iy + 1)] + A[(ix + 2) + ax * (iy + 1)] + A[(ix + 1) + ax * iy] +
                                   A[(ix + 1) + ax * (iy + 2)] - 4.0 * A[(ix + 1) + ax * (iy + 1)]);
}
#elif KERNEL == 4
__device__ inline void tree_reduce(float *shared, int item, int n)
{
    for (int d = n / 2; d > 0; d /= 2) {
        __syncthreads();
        if (item < d)
            shared[item] += shared[item + d];
    }
    __syncthreads();
}

extern "C" __global__ void block_sum(float *out, const float *x, int n)
{
    __shared__ float shared[256];
    int item = threadIdx.x, group = blockIdx.x, gs = blockDim.x;
    int i = group * gs + item;
    shared[item] = i < n ? x[i] : 0.0f;
    tree_reduce(shared, item, gs);
    if (item == 0)
        out[group] = shared[0];
}
#elif KERNEL == 5
extern "C" __global__ void mathfuns(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = sqrtf(fabsf(v)) + expf(-v * v) + sinf(v) * cosf(v) + logf(1.0f + fabsf(v)) + v * v * v + tanhf(v) +
               fmaxf(v, 0.0f) - fminf(v, 0.0f) + fmaf(v, v, v) + floorf(v) + ceilf(v);
    }
}
#endif
