# StaticArrays' constructor macros in kernels: @SVector/@MVector of a literal, zeros, ones or fill, and the
# matrices of zeros/ones/fill; a static array is a tuple here, so a dimension past 1024 is a compile error.
using StaticArrays

function sa_macros!(out, x)
    i = workitemIdx().x
    v = @SVector [x[i], 2 * x[i], 3 * x[i]]
    m = @MVector zeros(Float64, 4)
    m[2] = v[3]
    c = @MMatrix zeros(Float64, 3, 4)
    c[2, 3] = v[1] + m[2]
    o = @MVector ones(Int32, 5)
    f = @SMatrix fill(2.5, 2, 3)
    out[i] = sum(v) + sum(m) + sum(c) + sum(o) + f[2, 3] + length(f) + size(c, 2)
    return nothing
end
# v = (x, 2x, 3x): sum 6x; m sums 3x; c sums 4x; o sums 5; f[2, 3] 2.5; length(f) 6; size(c, 2) 4: 13x + 17.5.
# run: sa_macros!(out = zeros(Float64, 3), x = Float64[1.0, -0.5, 2.0]) groupsize 3
# expect out: [30.5, 11.0, 43.5]
