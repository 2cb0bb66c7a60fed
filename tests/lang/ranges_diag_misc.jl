# Smaller pieces users' kernels lean on: r[i] of a range, LinearAlgebra.diagind (GPUArrays' A + J*I
# kernels), a NamedTuple-typed argument, a typed loop variable (`for i::typeof(n) in 0:(n - 1)`) and a
# supertype on the line after `<:`.
using LinearAlgebra

abstract type AbstractStep end
struct Doubling{T} <:
       AbstractStep
    k::T
end

function diag_add!(B, J, nt::NamedTuple)
    i = workitemIdx().x
    @inbounds d = diagind(B)[i]
    @inbounds B[d] += J * nt.scale
    r = 3:4:20
    s = 2:7
    i == 1 && (B[1, 2] = r[2] + s[i + 1])
    return nothing
end
# run: diag_add!(B = reshape(Float64[1, 2, 3, 4, 5, 6], 2, 3), J = 2.5, nt = (scale = 2.0, pad = 1)) groupsize 2
# expect B: [6.0, 2.0, 10.0, 9.0, 5.0, 6.0]

function offdiag!(out, m, n, k)
    r = diagind(m, n, k)
    for j::Int32 in 1:length(r)
        out[j] = r[j] * Doubling(2).k
    end
    return nothing
end
# run: offdiag!(out = zeros(Int64, 3), m = 3, n = 4, k = 1)
# expect out: [8, 16, 24]
# run: offdiag!(out = zeros(Int64, 3), m = 4, n = 3, k = -2)
# expect out: [6, 16, 0]
