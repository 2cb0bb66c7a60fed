# sinpi / cospi / sincospi with the exact argument reduction of Base (sinpi(1) == 0, cospi(1/2) == 0), and
# Base.FastMath's functions called by name, as GPUArrays' Box-Muller does.
using Base.FastMath

function pi_trig!(out, x)
    out[1] = sinpi(x[1])              # sinpi(1.0) == 0
    out[2] = cospi(x[2])              # cospi(0.5) == 0
    s, c = sincospi(x[3])             # sincospi(-0.25)
    out[3] = s
    out[4] = c
    out[5] = sinpi(x[4]) + cospi(3)   # sinpi(2.5) + cospi(3) == 1 - 1
    out[6] = FastMath.log_fast(x[5]) + FastMath.neg_float_fast(x[5])
    out[7] = Float64(sinpi(Float32(x[6])))
    return nothing
end
# run: pi_trig!(out = zeros(Float64, 7), x = Float64[1.0, 0.5, -0.25, 2.5, 2.0, 0.75])
# expect out ≈ [0, 0, -0.7071067811865476, 0.7071067811865476, 0, -1.3068528194400546, 0.70710677] rtol 1e-6
