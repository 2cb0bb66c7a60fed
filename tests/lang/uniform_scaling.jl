# LinearAlgebra's UniformScaling (λI) as a kernel argument and a value: a number plus or minus J is the number
# plus or minus J.λ, a number times J scales J; diagind(B) walks the diagonal (GPUArrays adds J to it so).
function diag_scaling!(out, B, J, s)
    i = workitemIdx().x
    d = diagind(B)[i]
    x = B[d]
    out[1, i] = x + J
    out[2, i] = J - x
    out[3, i] = (s * J) + x
    out[4, i] = x - (J * 2)
    out[5, i] = x + UniformScaling(3)
    return
end
# run: diag_scaling!(out = zeros(Float64, 5, 3), B = reshape(Float64[1.795, -1.045, -1.557, 1.935, -2.31, -0.143, 0.347, 0.668, -2.127, 0.784, 0.004, 2.107], 4, 3), J = UniformScaling{Float64}(1.75), s = -0.5) groupsize 3
# expect out: [3.545, -0.04499999999999993, 0.9199999999999999, -1.705, 4.795, 1.607, 1.893, -1.018, -3.643, 2.857, 1.754, 1.746, -0.871, -3.496, 3.004]
