/* acceptance_cases.h: every kernel of tests/kernels/acceptance with every
 * signature its README names, shared by the tests that compile them for
 * each target and the ones that run them. */
#ifndef JUKE_ACCEPTANCE_CASES_H
#define JUKE_ACCEPTANCE_CASES_H

typedef struct AcceptanceSig {
    const char *file;
    const char *function;
    int nargs;
    const char *types[8];
} AcceptanceSig;

static const AcceptanceSig acceptance_sigs[] = {
    { "vadd.jl", "vadd!", 3, { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" } },
    { "memcopy.jl", "memcopy!", 2, { "Vector{Float64}", "Vector{Float64}" } },
    { "memcopy.jl", "memcopy!", 2, { "Vector{Float32}", "Vector{Float32}" } },
    { "diffusion2d.jl", "diffusion2d!", 3, { "Matrix{Float64}", "Matrix{Float64}", "Float64" } },
    { "diffusion2d.jl", "diffusion2d!", 3, { "Matrix{Float32}", "Matrix{Float32}", "Float32" } },
    { "saxpy.jl", "saxpy!", 3, { "Vector{Float32}", "Float32", "Vector{Float32}" } },
    { "block_sum.jl", "block_sum!", 2, { "Vector{Float32}", "Vector{Float32}" } },
    { "matmul.jl", "matmul!", 3, { "Matrix{Float32}", "Matrix{Float32}", "Matrix{Float32}" } },
    { "histogram.jl", "histogram!", 2, { "Vector{Int32}", "Vector{Int32}" } },
    { "oob.jl", "oob!", 1, { "Vector{Float32}" } },
    { "mathfuns.jl", "mathfuns!", 2, { "Vector{Float32}", "Vector{Float32}" } },
    { "mathfuns.jl", "mathfuns!", 2, { "Vector{Float64}", "Vector{Float64}" } },
    { "transpose.jl", "transpose!", 2, { "Matrix{Float32}", "Matrix{Float32}" } },
    { "intops.jl", "intops!", 3, { "Vector{Int32}", "Vector{Int32}", "Vector{Int32}" } },
    { "intops.jl", "intops!", 3, { "Vector{Int64}", "Vector{Int64}", "Vector{Int64}" } },
    { "dispatch.jl", "apply_scale!", 2, { "Vector{Float32}", "Vector{Float32}" } },
    { "dispatch.jl", "apply_scale!", 2, { "Vector{Float64}", "Vector{Float64}" } },
    { "dispatch.jl", "apply_scale!", 2, { "Vector{Int32}", "Vector{Int32}" } },
    { "indices3d.jl", "indices3d!", 1, { "Array{Int64,3}" } },
    { "mandelbrot.jl", "mandelbrot!", 6, { "Matrix{Int32}", "Float32", "Float32", "Float32", "Float32", "Int32" } },
    { "dynamic_shmem.jl", "reverse_groups!", 2, { "Vector{Float32}", "Vector{Float32}" } },
};

#define N_ACCEPTANCE_SIGS ((int)(sizeof acceptance_sigs / sizeof acceptance_sigs[0]))

#endif
