/* cpu_twins.c: the C twins of bench/cpu/kernels.jl, as a C programmer writes them with OpenMP; built by
 * bench/cpu_device.sh with gcc -O3 -fopenmp -march=native (and -ffp-contract=off: Julia does not fuse a*b+c
 * unless asked, so the twins compute the kernels' exact values, checked bit for bit). Arrays are
 * column-major, as Julia's. */
#include <stddef.h>
#include <stdint.h>

void twin_memcopy(double *restrict dst, const double *restrict src, int64_t n)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        dst[i] = src[i];
}

/* A_new (nx, ny), A (nx+2, ny+2), in Julia's order of evaluation */
void twin_diffusion2d(double *restrict anew, const double *restrict a, double h, int64_t nx, int64_t ny)
{
    int64_t ax = nx + 2;
#pragma omp parallel for schedule(static)
    for (int64_t iy = 0; iy < ny; iy++)
        for (int64_t ix = 0; ix < nx; ix++) {
            const double *c = a + (iy + 1) * ax + ix + 1;
            anew[iy * nx + ix] = c[0] + h * (c[-1] + c[1] + c[-ax] + c[ax] - 4.0 * c[0]);
        }
}

/* out[g] = the sum of x's g-th slice of `group` elements (zero-padded), in the kernel's tree order */
void twin_block_sum(float *restrict out, const float *restrict x, int64_t n, int group)
{
    int64_t ngroups = (n + group - 1) / group;
#pragma omp parallel for schedule(static)
    for (int64_t g = 0; g < ngroups; g++) {
        float s[1024];
        for (int i = 0; i < group; i++)
            s[i] = g * group + i < n ? x[g * group + i] : 0.0f;
        for (int d = group / 2; d > 0; d /= 2)
            for (int i = 0; i < d; i++)
                s[i] += s[i + d];
        out[g] = s[0];
    }
}

/* C (m, n) = A (m, k) * B (k, n), each element summed in the order k = 1, 2, ... as the kernel does */
void twin_matmul(float *restrict c, const float *restrict a, const float *restrict b, int64_t m, int64_t n, int64_t k)
{
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < n; j++)
        for (int64_t i0 = 0; i0 < m; i0 += 64) {
            float acc[64] = { 0 };
            int64_t w = m - i0 < 64 ? m - i0 : 64;
            for (int64_t kk = 0; kk < k; kk++) {
                float bv = b[j * k + kk];
                const float *ac = a + kk * m + i0;
                for (int64_t ii = 0; ii < w; ii++)
                    acc[ii] += ac[ii] * bv;
            }
            for (int64_t ii = 0; ii < w; ii++)
                c[j * m + i0 + ii] = acc[ii];
        }
}
