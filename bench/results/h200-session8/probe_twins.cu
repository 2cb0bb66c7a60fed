// probe_twins.cu (RESULTS.md §19): diffusion2d twins for the H200 probes, int indices as bench/twins.cu.
//  *_jl:   Julia's evaluation order, every operation rounded (__dadd_rn/__dmul_rn: no contraction), as juke computes.
//  *_fma1: the same with only `s - 4.0*c` fused (fma(-4, c, s)): exact in Float32 (4c of a widened float is exact).
//  *_jsig: Julia's order with juke's parameters: two 32-byte array structs by value (data, dims, length), h, and
//          the exception pointer; the dims read from the structs as juke's kernel does.
#include <stdint.h>

struct Arr2 {
    void *data;
    long d0, d1, len;
};

extern "C" {

__global__ void diffusion2d_f32_jl(float *A_new, const float *A, float h, int nx, int ny)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    int ax = nx + 2;
    if (ix < nx && iy < ny) {
        float c = A[(ix + 1) + ax * (iy + 1)];
        float s = A[ix + ax * (iy + 1)] + A[(ix + 2) + ax * (iy + 1)] + A[(ix + 1) + ax * iy] + A[(ix + 1) + ax * (iy + 2)];
        double t = __dadd_rn((double)s, __dmul_rn(-4.0, (double)c));
        A_new[ix + nx * iy] = (float)__dadd_rn((double)c, __dmul_rn((double)h, t));
    }
}

__global__ void diffusion2d_f32_fma1(float *A_new, const float *A, float h, int nx, int ny)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    int ax = nx + 2;
    if (ix < nx && iy < ny) {
        float c = A[(ix + 1) + ax * (iy + 1)];
        float s = A[ix + ax * (iy + 1)] + A[(ix + 2) + ax * (iy + 1)] + A[(ix + 1) + ax * iy] + A[(ix + 1) + ax * (iy + 2)];
        double t = __fma_rn(-4.0, (double)c, (double)s);
        A_new[ix + nx * iy] = (float)__dadd_rn((double)c, __dmul_rn((double)h, t));
    }
}

__global__ void diffusion2d_f64_jl(double *A_new, const double *A, double h, int nx, int ny)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    int ax = nx + 2;
    if (ix < nx && iy < ny) {
        double c = A[(ix + 1) + ax * (iy + 1)];
        double s = __dadd_rn(__dadd_rn(__dadd_rn(A[ix + ax * (iy + 1)], A[(ix + 2) + ax * (iy + 1)]), A[(ix + 1) + ax * iy]),
                             A[(ix + 1) + ax * (iy + 2)]);
        A_new[ix + nx * iy] = __dadd_rn(c, __dmul_rn(h, __dadd_rn(s, __dmul_rn(-4.0, c))));
    }
}

__global__ void diffusion2d_f64_fma1(double *A_new, const double *A, double h, int nx, int ny)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    int ax = nx + 2;
    if (ix < nx && iy < ny) {
        double c = A[(ix + 1) + ax * (iy + 1)];
        double s = __dadd_rn(__dadd_rn(__dadd_rn(A[ix + ax * (iy + 1)], A[(ix + 2) + ax * (iy + 1)]), A[(ix + 1) + ax * iy]),
                             A[(ix + 1) + ax * (iy + 2)]);
        A_new[ix + nx * iy] = __dadd_rn(c, __dmul_rn(h, __fma_rn(-4.0, c, s)));
    }
}

__global__ void diffusion2d_f32_jsig(Arr2 An, Arr2 Aa, float h, uint64_t *exc)
{
    const float *A = (const float *)Aa.data;
    float *A_new = (float *)An.data;
    int nx = (int)An.d0, ny = (int)An.d1, ax = (int)Aa.d0;
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ix < nx && iy < ny) {
        float c = A[(ix + 1) + ax * (iy + 1)];
        float s = A[ix + ax * (iy + 1)] + A[(ix + 2) + ax * (iy + 1)] + A[(ix + 1) + ax * iy] + A[(ix + 1) + ax * (iy + 2)];
        double t = __dadd_rn((double)s, __dmul_rn(-4.0, (double)c));
        A_new[ix + nx * iy] = (float)__dadd_rn((double)c, __dmul_rn((double)h, t));
    }
}

__global__ void diffusion2d_f64_jsig(Arr2 An, Arr2 Aa, double h, uint64_t *exc)
{
    const double *A = (const double *)Aa.data;
    double *A_new = (double *)An.data;
    int nx = (int)An.d0, ny = (int)An.d1, ax = (int)Aa.d0;
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ix < nx && iy < ny) {
        double c = A[(ix + 1) + ax * (iy + 1)];
        double s = __dadd_rn(__dadd_rn(__dadd_rn(A[ix + ax * (iy + 1)], A[(ix + 2) + ax * (iy + 1)]), A[(ix + 1) + ax * iy]),
                             A[(ix + 1) + ax * (iy + 2)]);
        A_new[ix + nx * iy] = __dadd_rn(c, __dmul_rn(h, __dadd_rn(s, __dmul_rn(-4.0, c))));
    }
}

} // extern "C"
