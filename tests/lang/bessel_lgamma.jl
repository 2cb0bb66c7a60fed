# The Bessel functions of order 0 and 1 and log-gamma: SpecialFunctions' besselj0, besselj1, bessely0,
# bessely1, loggamma and AMDGPU.Device's ocml j0, j1, y0, y1, lgamma (references: their series, to 60 digits).
using SpecialFunctions
using AMDGPU

function bessel!(out, x)
    i = workitemIdx().x
    v = x[i]
    out[1, i] = besselj0(v)
    out[2, i] = SpecialFunctions.besselj1(v)
    out[3, i] = AMDGPU.Device.y0(v)
    out[4, i] = bessely1(v)
    out[5, i] = loggamma(v)
    return nothing
end
# run: bessel!(out = zeros(Float64, 5, 4), x = Float64[0.5, 1.7, 3.1, 4.6]) groupsize 4
# expect out ≈ [0.9384698072408129, 0.2422684576748739, -0.44451873350670656, -1.471472392670243, 0.5723649429247004, 0.3979848594461095, 0.5777652315290233, 0.4520270001816346, -0.2847262450640684, -0.0958076974070654, -0.29206434765069755, 0.3009211331010576, 0.34310288935449806, 0.3496294822676962, 0.7873750832738624, -0.29613781657414123, -0.2565528360974445, -0.2234599525536469, 0.27374524147094315, 2.59385715403848] rtol 1e-10
# run: bessel!(out = zeros(Float32, 5, 4), x = Float32[0.5, 1.7, 3.1, 4.6]) groupsize 4
# expect out ≈ [0.9384698072408129, 0.2422684576748739, -0.44451873350670656, -1.471472392670243, 0.5723649429247004, 0.3979848594461095, 0.5777652315290233, 0.4520270001816346, -0.2847262450640684, -0.0958076974070654, -0.29206434765069755, 0.3009211331010576, 0.34310288935449806, 0.3496294822676962, 0.7873750832738624, -0.29613781657414123, -0.2565528360974445, -0.2234599525536469, 0.27374524147094315, 2.59385715403848] rtol 2e-6

# the ocml names, an integer argument (promoted to Float64), lgamma's log|gamma(x)| of a negative x
function bessel_names!(out, x)
    out[1] = AMDGPU.Device.j0(x[1]) + AMDGPU.Device.j1(x[1]) + AMDGPU.Device.y1(1)
    out[2] = lgamma(-x[1])
    out[3] = loggamma(x[1])
    return nothing
end
# run: bessel_names!(out = zeros(Float64, 3), x = Float64[2.5])
# expect out ≈ [-0.33250249530421266, -0.05624371649767457, 0.2846828704729196] rtol 1e-10

# loggamma(x) is a DomainError where gamma(x) < 0 (here gamma(-0.5) = -2√π)
function loggamma_neg!(out, x)
    i = workitemIdx().x
    out[i] = loggamma(x[i])
    return nothing
end
# run: loggamma_neg!(out = zeros(Float64, 2), x = Float64[-1.5, -0.5]) groupsize 2
# expect exception: DomainError
