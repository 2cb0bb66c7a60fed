# Base's trigonometry in degrees: sind, cosd, tand, sincosd (Base's exact reduction by 360 and by quadrant, so
# the multiples of 90 and 180 are exact), secd, and the inverses asind, acosd, atand (rad2deg of the radians').
# References from 60-digit arithmetic; within two ulps.
function degrees!(out, x)
    i = workitemIdx().x
    out[1, i] = sind(x[i])
    out[2, i] = cosd(x[i])
    out[3, i] = tand(x[i])
    return nothing
end
# run: degrees!(out = zeros(Float64, 3, 7), x = Float64[30.0, -135.5, 400.25, 1e-3, 44.9, -1000.0, 123.0]) groupsize 7
# expect out ≈ [0.5, 0.8660254037844386, 0.5773502691896257, -0.7009092642998509, -0.7132504491541816, 0.9826972631156901, 0.6461239796429639, 0.7632324697825289, 0.8465624894431795, 1.74532925190572e-05, 0.9999999998476913, 1.745329252171549e-05, 0.705871570678681, 0.7083398377245289, 0.9965154196977302, 0.984807753012208, 0.17364817766693036, 5.671281819617709, 0.838670567945424, -0.5446390350150271, -1.539864963814583] rtol 5e-16
# run: degrees!(out = zeros(Float32, 3, 3), x = Float32[30.0, -135.5, 400.25]) groupsize 3
# expect out ≈ [0.5, 0.8660254037844386, 0.5773502691896257, -0.7009092642998509, -0.7132504491541816, 0.9826972631156901, 0.6461239796429639, 0.7632324697825289, 0.8465624894431795] rtol 1e-7

# exact answers at the multiples of 90, signed zeros as Base gives them, and the inverses
function degrees_exact!(out, x)
    i = workitemIdx().x
    s, c = sincosd(x[i])
    out[1, i] = s
    out[2, i] = c
    out[3, i] = secd(x[i] + 45.0) * cosd(x[i] + 45.0)
    out[4, i] = asind(0.5) + acosd(0.5) + atand(1.0) + atand(-1.0, -1.0)
    return nothing
end
# run: degrees_exact!(out = zeros(Float64, 4, 5), x = Float64[90.0, 180.0, -180.0, 270.0, 720.0]) groupsize 5
# expect out: [1.0, 0.0, 1.0, 0.0, 0.0, -1.0, 1.0, 0.0, -0.0, -1.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0]
