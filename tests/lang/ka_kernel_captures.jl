# A @kernel inside a function that uses the function's variables: KernelAbstractions makes it a closure over
# them (GPUArrays 11's tril_kernel! uses the method's T, transpose_kernel! its f). juke's kernel takes their
# values as its first arguments, where a call passes a closure's fields, in the order its body first uses them
# (left to right): here the parameter `op`, the static parameter T, `scale`, a local the function computes, and
# the parameter `bias`.
using KernelAbstractions

function affine!(A::AbstractMatrix{T}, bias, op) where T
    scale = size(A, 1) + 0.5
    @kernel function affine_kernel!(out, @Const(x))
        i, j = @index(Global, NTuple)
        out[i, j] = op(T(x[i, j] * scale) + bias, j)
    end
    affine_kernel!(get_backend(A))(A, A; ndrange = size(A))
    return A
end
# run: affine_kernel!(op = -, T = Float32, scale = 2.5, bias = Int32(3), out = zeros(Float32, 2, 3), x = reshape(Float64[0.5, -1.25, 2.0, 0.75, -3.5, 1.5], 2, 3)) ndrange 2,3
# expect out: [3.25, -1.125, 6.0, 2.875, -8.75, 3.75]
# run: affine_kernel!(op = *, T = Int64, scale = 4.0, bias = -1, out = zeros(Int64, 2, 2), x = reshape(Float64[0.5, -1.25, 2.0, 0.75], 2, 2)) ndrange 2,2
# expect out: [1, -6, 14, 4]
