# `where F <: Union{A, B}` and `x::Union{A, B}` in signatures (GPUArrays' Box-Muller methods), and
# strides(A) / stride(A, k) of a dense array (AcceleratedKernels' reduction index arithmetic).
halve(::Type{F}, x) where F <: Union{Float16, Float32} = F(x) / 2
halve(::Type{Float64}, x) = x / 4
widen_small(x::Union{Int8, Int16}) = Int64(x) * 1000
widen_small(x) = x

function union_strides!(out, A, small)
    out[1] = halve(Float32, 9)            # the Union bound: 4.5
    out[2] = halve(Float64, 9)            # the Float64 method: 2.25
    out[3] = widen_small(small[1]) + widen_small(7.0)
    s = strides(A)
    out[4] = s[1] + 10 * s[2] + 100 * s[3]
    out[5] = stride(A, 3) + stride(A, 4)
    return nothing
end
# run: union_strides!(out = zeros(Float64, 5), A = zeros(Float32, 3, 4, 2), small = Int16[-3])
# expect out: [4.5, 2.25, -2993, 1231, 36]
