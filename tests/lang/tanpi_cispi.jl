# tanpi(x) = tan(πx) (Base since Julia 1.10, and one of the functions AMDGPU.Device wraps from ocml) by Base's
# reduction of sincospi, and cispi(x) = cospi(x) + i sinpi(x); integers give signed zeros as Base's do.
using AMDGPU

function tanpis!(out, x)
    i = workitemIdx().x
    out[i] = tanpi(x[i])
    return nothing
end
# run: tanpis!(out = zeros(Float64, 6), x = Float64[0.1, -0.3, 1.25, 2.75, 0.37, -7.6]) groupsize 6
# expect out: [0.32491969623290634, -1.3763819204711734, 0.9999999999999999, -0.9999999999999999, 2.3108636538824108, 3.077683537175265]
# run: tanpis!(out = zeros(Float32, 6), x = Float32[0.1, -0.3, 1.25, 2.75, 0.37, -7.6]) groupsize 6
# expect out: [0.3249197006225586, -1.3763819932937622, 1.0, -1.0, 2.310863733291626, 3.0776867866516113]

function tanpi_special!(out, n)
    i = workitemIdx().x
    out[1, i] = tanpi(n[i])
    out[2, i] = AMDGPU.Device.tanpi(Float64(n[i]) + 0.5)
    z = cispi(n[i] / 4)
    out[3, i] = real(z)
    out[4, i] = imag(z)
    return nothing
end
# run: tanpi_special!(out = zeros(Float64, 4, 4), n = Int64[2, 3, -3, 0]) groupsize 4
# expect out: [0.0, Inf, 0.0, 1.0, -0.0, -Inf, -0.7071067811865476, 0.7071067811865475, 0.0, -Inf, -0.7071067811865476, -0.7071067811865475, 0.0, Inf, 1.0, 0.0]
