# Complex scalars as kernel arguments (ComplexF64 and ComplexF32 values, Julia's layout: re then im), as an
# AMDGPU.jl caller passes `z = 1.5 - 2im` to a kernel over a complex array: a complex axpy and the parts.
function caxpy!(y, a, x)
    i = workitemIdx().x
    y[i] = a * x[i] + y[i]
    return
end

function parts!(out, z, w)
    out[1] = real(z)
    out[2] = imag(z)
    out[3] = abs2(w)
    out[4] = real(z * conj(w))
    return
end
# a = 1.5 - 2im; y[i] += a * x[i]: (1.5 - 2i)(1 + 2i) = 5.5 + 1i, (1.5 - 2i)(-0.5 + 0.25i) = -0.25 + 1.375i,
# (1.5 - 2i)(2 - 1i) = 1 - 5.5i
# run: caxpy!(y = ComplexF64[0.5, -1, 2, 0.25, -3, 1], a = ComplexF64(1.5, -2.0), x = ComplexF64[1, 2, -0.5, 0.25, 2, -1]) groupsize 3
# expect y: [6.0, 0.0, 1.75, 1.625, -2.0, -4.5]
# run: caxpy!(y = ComplexF32[0.5, -1, 2, 0.25, -3, 1], a = ComplexF32(1.5, -2), x = ComplexF32[1, 2, -0.5, 0.25, 2, -1]) groupsize 3
# expect y: [6.0, 0.0, 1.75, 1.625, -2.0, -4.5]
# z = 0.75 + 3i, w = -2 + 0.5i: abs2(w) = 4.25, z * conj(w) = (0.75 + 3i)(-2 - 0.5i) = 0 - 6.375i
# run: parts!(out = zeros(Float64, 4), z = ComplexF64(0.75, 3), w = Complex{Float64}(-2, 0.5))
# expect out: [0.75, 3.0, 4.25, 0.0]
# run: parts!(out = zeros(Float32, 4), z = ComplexF32(0.75f0, 3f0), w = ComplexF32(-2, 0.5))
# expect out: [0.75, 3.0, 4.25, 0.0]
