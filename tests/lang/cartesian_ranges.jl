# CartesianIndices over ranges, as stencils write their neighbourhoods (CartesianIndices((-1:1, -1:1))): C[i],
# iteration, first / last / length, I + J, and I in CartesianIndices(A) as the bounds test.
using KernelAbstractions

@kernel function box3!(out, @Const(A))
    I = @index(Global, Cartesian)
    s = zero(eltype(out))
    for J in CartesianIndices((-1:1, -1:1))
        K = I + J
        if K in CartesianIndices(A)
            s += A[K]
        end
    end
    out[I] = s
end
# run: box3!(out = zeros(Float64, 3, 3), A = reshape(Float64[1, 2, 3, 4, 5, 6, 7, 8, 9], 3, 3)) ndrange 3,3
# expect out: [12.0, 21.0, 16.0, 27.0, 45.0, 33.0, 24.0, 39.0, 28.0]

function ranges!(out)
    i = workitemIdx().x
    C = CartesianIndices((2:4, 0:1))
    I = C[i]
    out[1, i] = I[1]
    out[2, i] = I[2]
    out[3, i] = first(C)[1] + 10 * last(C)[2] + 100 * length(C)
    f = first(CartesianIndices((3, 4)))
    l = last(CartesianIndices((3, 4)))
    out[4, i] = f[1] + f[2] + l[1] * l[2] + 100 * ((i, 1) in CartesianIndices((4, 4)))
    n = 0
    for J in CartesianIndices((i:i+1, 1:2, -1:-1))
        n += J[1] * J[2] * J[3]
    end
    out[5, i] = n
    return
end
# run: ranges!(out = zeros(Int64, 5, 6)) groupsize 6
# expect out: [2, 0, 612, 114, -9, 3, 0, 612, 114, -15, 4, 0, 612, 114, -21, 2, 1, 612, 114, -27, 3, 1, 612, 14, -33, 4, 1, 612, 14, -39]
