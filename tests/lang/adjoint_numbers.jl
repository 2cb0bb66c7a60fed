# adjoint and transpose of numbers, as LinearAlgebra defines them (GPUArrays' adjoint_kernel! writes
# B[idx] = adjoint(A[1, idx])): a real number is its own adjoint, a complex one's is its conjugate, and a
# number is its own transpose.
function adj!(out, z, x)
    i = workitemIdx().x
    out[i] = adjoint(z[i]) + transpose(z[i]) * adjoint(x[i])
    return
end
# run: adj!(out = zeros(ComplexF64, 2), z = ComplexF64[1.5, -2, 0.25, 3], x = Float64[2, -0.5]) groupsize 2
# expect out: [4.5, -2.0, 0.125, -4.5]
