/* acceptance_refs.h: the host references of the acceptance kernels whose
 * answer takes more than a line, as Julia computes them; shared by the CPU
 * test (tests/test_acceptance.c) and the H200 run (bench/h200_acceptance.c). */
#ifndef JUKE_ACCEPTANCE_REFS_H
#define JUKE_ACCEPTANCE_REFS_H

#include <math.h>
#include <stdint.h>

/* mathfuns.jl's expression, exactly (in Float64): the Float32 kernel is
 * within rounding of it. */
static inline double mathfuns_ref(double v)
{
    return sqrt(fabs(v)) + exp(-v * v) + sin(v) * cos(v) + log(1 + fabs(v)) + v * v * v + tanh(v) + fmax(v, 0) -
           fmin(v, 0) + fma(v, v, v) + floor(v) + ceil(v);
}

/* intops.jl: Julia's div, rem, mod, fld, cld, bit operations and shifts; the
 * sum wraps (computed in the unsigned twin U). */
#define JL_INTOPS(T, U)                                                                                                \
    static inline T jl_div_##T(T x, T y)                                                                               \
    {                                                                                                                  \
        return x / y;                                                                                                  \
    }                                                                                                                  \
    static inline T jl_rem_##T(T x, T y)                                                                               \
    {                                                                                                                  \
        return x % y;                                                                                                  \
    }                                                                                                                  \
    static inline T jl_mod_##T(T x, T y)                                                                               \
    {                                                                                                                  \
        T r = x % y;                                                                                                   \
        return (r != 0 && ((r ^ y) < 0)) ? r + y : r;                                                                  \
    }                                                                                                                  \
    static inline T jl_fld_##T(T x, T y)                                                                               \
    {                                                                                                                  \
        T q = x / y;                                                                                                   \
        return (x % y != 0 && ((x ^ y) < 0)) ? q - 1 : q;                                                              \
    }                                                                                                                  \
    static inline T jl_cld_##T(T x, T y)                                                                               \
    {                                                                                                                  \
        T q = x / y;                                                                                                   \
        return (x % y != 0 && ((x ^ y) >= 0)) ? q + 1 : q;                                                             \
    }                                                                                                                  \
    static inline T intops_ref_##T(T x, T y)                                                                           \
    {                                                                                                                  \
        U r = (U)jl_div_##T(x, y) + (U)jl_rem_##T(x, y) + (U)jl_mod_##T(x, y) + (U)jl_fld_##T(x, y) +                  \
              (U)jl_cld_##T(x, y);                                                                                     \
        r += (U)((x & y) | (x ^ y));                                                                                   \
        r += ((U)x << 2) + (U)(T)(x >> 1) + ((U)x >> 3);                                                               \
        r += (U)(x > y ? x : y) + (U)(x == y ? 1 : 0);                                                                 \
        return (T)r;                                                                                                   \
    }
JL_INTOPS(int32_t, uint32_t)
JL_INTOPS(int64_t, uint64_t)
#undef JL_INTOPS

/* mandelbrot.jl's escape count, with Float32 arithmetic as Julia does it:
 * every operation rounded to Float32 (volatile stops contraction into fma). */
static inline int32_t mandel_ref(int64_t i, int64_t j, int64_t w, int64_t h, float xmin, float xmax, float ymin,
                                 float ymax, int32_t maxiter)
{
    volatile float cr = (xmax - xmin) * (float)(i - 1);
    cr = cr / (float)(w - 1);
    cr = xmin + cr;
    volatile float ci = (ymax - ymin) * (float)(j - 1);
    ci = ci / (float)(h - 1);
    ci = ymin + ci;
    volatile float zr = 0, zi = 0;
    int64_t n = 0;
    while (n < maxiter) {
        volatile float zr2 = zr * zr, zi2 = zi * zi;
        volatile float s = zr2 + zi2;
        if (s > 4.0f)
            break;
        volatile float t = 2.0f * zr;
        t = t * zi;
        zi = t + ci;
        volatile float u = zr2 - zi2;
        zr = u + cr;
        n++;
    }
    return (int32_t)n;
}

#endif
