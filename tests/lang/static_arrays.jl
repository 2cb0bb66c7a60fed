# StaticArrays' fixed-size arrays in kernels (no allocation): MVector/SVector from values, tuples and (undef),
# indexing and assignment, .data, length/size, iteration, simple arithmetic; MMatrix (undef) filled in place.
using StaticArrays

function vectors(out)
    a = MVector{3, Float64}(1, 2, 3)
    b = SVector(0.5, 0.25, 2.0)
    a[2] = 10
    a[1], a[3] = a[3], a[1]
    s = 0.0
    for x in a
        s += x
    end
    out[1] = s
    out[2] = a.data[1] + 100 * a[3]
    out[3] = length(a) + 10 * size(b)[1]
    c = 2 * (b + SVector(a.data)) - b
    out[4] = c[1] + c[2] + c[3]
    out[5] = sum(MVector{2, Float64}(undef))
    out[6] = sum(b / 2)
    return
end
# run: vectors(out = zeros(Float64, 6))
# expect out: [14.0, 103.0, 33.0, 30.75, 0.0, 1.375]

# a work-item's index swapped through an MVector, as KernelAbstractions' transpose example does
using KernelAbstractions
@kernel function swap_transpose!(b, @Const(a), d1, d2)
    I = CartesianIndices(a)[@index(Global)]
    t = MVector(I.I)
    @inbounds t[d1], t[d2] = t[d2], t[d1]
    b[CartesianIndex(t.data)] = a[I]
end
# run: swap_transpose!(b = zeros(Int64, 3, 2), a = reshape(Int64[11, 21, 12, 22, 13, 23], 2, 3), d1 = 1, d2 = 2) groupsize 4 ndrange 6
# expect b: [11, 12, 13, 21, 22, 23]

function matrices(out, x)
    m = MMatrix{2, 3, Float32}(undef)
    for j in 1:3, i in 1:2
        m[i, j] = x * i + j
    end
    m[6] = -1
    for k in 1:6
        out[k] = m[k]
    end
    out[7] = length(m) + size(m)[2]
    return
end
# run: matrices(out = zeros(Float32, 7), x = 10f0)
# expect out: [11.0, 21.0, 12.0, 22.0, 13.0, -1.0, 9.0]
