# SpecialFunctions' erfinv, erfcinv and erfcx (AMDGPU.jl's math wraps ocml's, and its math test calls every wrapper
# SpecialFunctions also names): one implementation for every device (Giles' approximation refined by Halley steps on
# erf / erfc); references from 120-digit arithmetic.
using SpecialFunctions
using AMDGPU

function inverse_erf!(out, x, y, c)
    i = workitemIdx().x
    out[1, i] = erfinv(x[i])
    out[2, i] = SpecialFunctions.erfcinv(y[i])
    out[3, i] = AMDGPU.Device.erfcx(c[i])
    return nothing
end
# run: inverse_erf!(out = zeros(Float64, 3, 5), x = Float64[0.3, -0.75, 0.999, -1e-5, 0.5], y = Float64[0.3, 1.75, 1e-10, 1.0, 0.02], c = Float64[0.5, -1.2, 3.0, 30.0, 8.5]) groupsize 5
# expect out ≈ [0.2724627147267543, 0.7328690779592169, 0.6156903441929259, -0.8134198475976185, -0.8134198475976185, 8.062854217063865, 2.3267537655135246, 4.572824967389486, 0.17900115118138996, -8.862269254759594e-06, 0.0, 0.01879588886141675, 0.4769362762044699, 1.644976357133187, 0.06592512249998035] rtol 1e-14
# run: inverse_erf!(out = zeros(Float32, 3, 5), x = Float32[0.3, -0.75, 0.999, -1e-5, 0.5], y = Float32[0.3, 1.75, 1e-10, 1.0, 0.02], c = Float32[0.5, -1.2, 3.0, 30.0, 8.5]) groupsize 5
# expect out ≈ [0.27246273, 0.73286908, 0.61569035, -0.81341985, -0.81341985, 8.0628542, 2.3267538, 4.5728250, 0.17900115, -8.8622693e-06, 0.0, 0.018795889, 0.47693628, 1.6449764, 0.065925122] rtol 2e-6

# the ends: erfinv(±1) = ±Inf, erfcinv(0) = Inf, erfcinv(2) = -Inf; |x| > 1 is a DomainError
function erf_ends!(out, x)
    i = workitemIdx().x
    out[1, i] = erfinv(x[i])
    out[2, i] = erfcinv(x[i] + 1.0)
    return nothing
end
# run: erf_ends!(out = zeros(Float64, 2, 2), x = Float64[1.0, -1.0]) groupsize 2
# expect out: [Inf, -Inf, -Inf, Inf]
# run: erf_ends!(out = zeros(Float64, 2, 1), x = Float64[1.5])
# expect exception: DomainError with 1.5
