# Broadcasting over tuples in kernel expressions (no allocation): dotted operators and f.(t) give tuples,
# a number goes with every element; all/any reduce a tuple of Bools.
using KernelAbstractions

@kernel function shifted(out, lo)
    I = @index(Global, NTuple)
    J = I .- lo .+ 1
    out[J[1], J[2]] = 10 * I[1] + I[2]
end
# run: shifted(out = zeros(Int64, 2, 3), lo = 1) groupsize 2,2 ndrange 2,3
# expect out: [11, 21, 12, 22, 13, 23]

@kernel function from_groups(out)
    g = @index(Group, NTuple)
    l = @index(Local, NTuple)
    I = (g .- 1) .* @groupsize() .+ l
    if all(I .<= size(out))
        out[I[1], I[2]] = 100 * I[1] + I[2]
    end
end
# run: from_groups(out = zeros(Int64, 3, 2)) groupsize 2,2 ndrange 3,2
# expect out: [101, 201, 301, 102, 202, 302]

half(x) = x / 2
function tuple_ops(A, B)
    t = (3, 5, 8)
    u = t .* 2
    v = half.(t)
    w = max.(t, (4, 4, 4))
    c = t .== (3, 0, 8)
    s = abs.((-1.5f0, 2.5f0)) .^ 2
    for i in 1:3
        A[i] = u[i] + 10 * w[i] + 100 * c[i]
        B[i] = v[i]
    end
    B[4] = s[1] + s[2]
    B[5] = any((1, 2) .> 1) + 10 * all((1, 2) .> 1)
    B[6] = sum(2 .- t)
    return
end
# run: tuple_ops(A = zeros(Int64, 3), B = zeros(Float64, 6))
# expect A: [146, 60, 196]
# expect B: [1.5, 2.5, 4.0, 8.5, 1.0, -10.0]
