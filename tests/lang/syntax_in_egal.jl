# `in` and `isa` are infix operators, not reserved words: a kernel may name a parameter `in`, as a user's
# NaN-cleaning kernel did (the parameter then shadows the function, as in Julia), and isa(x, T) is a call;
# ≡ and ≢ are === and !== (AMDGPU.jl's scan and mapreduce kernels write them).

function clean!(in, out)
    i = workitemIdx().x
    if isnan(in[i])
        in[i] = 0
    end
    out[i] = i + 10 * (in[i] isa Float64) + 100 * isa(out[i], Float64)
    return nothing
end
# run: clean!(in = Float64[1.5, NaN, -2.25, NaN], out = zeros(Int64, 4)) groupsize 4
# expect in: [1.5, 0.0, -2.25, 0.0]
# expect out: [11, 12, 13, 14]

function egal!(out, a, b)
    i = workitemIdx().x
    x = i == 1 ? nothing : a[i]
    out[i] = (x ≡ nothing) + 2 * (a[i] ≢ b[i]) + 4 * (a[i] ≡ b[i])
    return nothing
end
# run: egal!(out = zeros(Int64, 3), a = Int64[4, 5, 6], b = Int64[4, 0, 6]) groupsize 3
# expect out: [5, 2, 4]
