# KernelAbstractions' backend types as kernel arguments (NNlib's `_upsample_linear_kernel!(::CPU, ...)` and
# `(::B, ...) where {B <: GPU}`): CPU() and ROCBackend() are values without bits that pick a method.
using KernelAbstractions

@kernel function fill_by!(::CPU, A, v)
    c = @index(Global)
    for i in 1:size(A, 1)
        A[i, c] = v + i
    end
end
@kernel function fill_by!(::B, A, v) where {B <: GPU}
    i, c = @index(Global, NTuple)
    A[i, c] = -v * i
end
# run: fill_by!(b = CPU(), A = zeros(Int64, 3, 2), v = 10) ndrange 2
# expect A: [11, 12, 13, 11, 12, 13]
# run: fill_by!(b = ROCBackend(), A = zeros(Int64, 3, 2), v = 10) groupsize 2,2 ndrange 3,2
# expect A: [-10, -20, -30, -10, -20, -30]
