# The rest of Base's math that kernels call (base/math.jl: sec(x) = inv(cos(x)) and its kin, degrees,
# fourthroot, log(b, x), hypot of three, isapprox / ≈, ℯ) and AMDGPU.Device's math functions that Base does not
# name (src/device/gcn/math.jl wraps ocml's rsqrt, rcbrt, recip, asinpi, ..., pown, logb, ilogb, nearbyint,
# nextafter, tgamma), called as AMDGPU.jl users call them.
using AMDGPU

function devmath!(out, x)
    i = workitemIdx().x
    v = x[i]
    out[1, i] = sec(v) + csc(v) + cot(v)
    out[2, i] = sech(v) + csch(v) + coth(v)
    out[3, i] = asec(abs(v) + 1.5) + acsc(abs(v) + 1.5) + acot(v)
    out[4, i] = fourthroot(abs(v)) + log(2, abs(v)) + log(10.0, abs(v))
    out[5, i] = hypot(v, 2v, 3.0)
    out[6, i] = AMDGPU.Device.rsqrt(abs(v)) + AMDGPU.Device.rcbrt(v) + AMDGPU.Device.recip(v)
    out[7, i] = AMDGPU.Device.asinpi(v / 4) + AMDGPU.Device.acospi(v / 4) + AMDGPU.Device.atanpi(v) +
                AMDGPU.Device.atan2pi(v, 2.0)
    out[8, i] = deg2rad(v * 30) + rad2deg(v)
    out[9, i] = AMDGPU.Device.tgamma(abs(v)) + AMDGPU.Device.pown(v, Int32(3)) + AMDGPU.Device.pow(abs(v), 0.5)
    out[10, i] = AMDGPU.Device.nearbyint(v * 2) + AMDGPU.Device.logb(v) + AMDGPU.Device.ilogb(v)
    out[11, i] = AMDGPU.Device.nextafter(v, 0.0) - v
    out[12, i] = (v ≈ v + 1e-12) + 2 * isapprox(v, v * 1.01) + 4 * isapprox(v, v * 1.01; rtol = 0.1) +
                 8 * (ℯ * v ≈ 2.718281828459045 * v)
    return nothing
end
# run: devmath!(out = zeros(Float64, 12, 4), x = Float64[0.7, -1.3, 2.5, 3.9]) groupsize 4
# expect out ≈ [4.046971418817376, 3.769573187261802, 2.5308666892005847, 0.24521608641319292, 3.383784863137726, 3.750047918349429, 0.8015670356541521, 40.47356480207643, 2.4777153591816337, -1.0, -1.1102230246251565e-16, 13.0, 2.422898434859516, -1.241882290290033, 0.9151007005533603, 1.5602449479330074, 4.177319714841085, -0.8084330769979189, 0.025248469294615744, -75.16519177528481, -0.15935387859458472, -3.0, 2.220446049250313e-16, 13.0, -0.9159422342142896, 1.3419222115976819, 1.9513027039072615, 2.9773015332423354, 6.344288770224759, 1.7692618317617534, 1.164104345886434, 144.54844572170154, 18.535479218263326, 7.0, -4.440892098500626e-16, 13.0, -1.7760285664317044, 1.081787465237388, 1.8217990134379312, 3.959829364932014, 9.222255689363639, 1.3980793679691719, 1.2692717983951458, 225.49557532585442, 66.59317149962285, 10.0, -4.440892098500626e-16, 13.0] rtol 1e-12

# Float32: the same functions stay in Float32 (ilogb is an Int32, the pi constants round to Float32)
function devmath32!(out, x)
    i = workitemIdx().x
    v = x[i]
    out[1, i] = AMDGPU.Device.rsqrt(v) + AMDGPU.Device.recip(v)
    out[2, i] = deg2rad(v)
    out[3, i] = AMDGPU.Device.ilogb(v) + AMDGPU.Device.logb(v * 1f10)
    out[4, i] = isapprox(v, v + 1f-7) + 2 * (v ≈ v + 1f-3)
    return nothing
end
# run: devmath32!(out = zeros(Float32, 4, 2), x = Float32[0.25, 6.5]) groupsize 2
# expect out ≈ [6.0, 0.004363323096185923, 29.0, 1.0, 0.5460784435272217, 0.11344639956951141, 37.0, 3.0] rtol 1e-6
