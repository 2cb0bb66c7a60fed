# sinpi / cospi / sincospi give Julia's answers bit for bit (Base's reduction and minimax kernels): Float64,
# Float32 (kernels in Float64) and Float16 (kernels in Float32), halves, integers, -0.0, arguments past
# maxintfloat, NaN; an infinite argument throws Base's DomainError. The expected values are Base's algorithm
# evaluated exactly (muladd fused, as Julia does on a CPU with FMA).

# each element's (sinpi, cospi) pair; odd elements through sincospi, to check it agrees
function pi_pairs!(out, x)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if i <= length(x)
        if isodd(i)
            s, c = sincospi(x[i])
            out[2i-1] = s
            out[2i] = c
        else
            out[2i-1] = sinpi(x[i])
            out[2i] = cospi(x[i])
        end
    end
    return
end
# run: pi_pairs!(out = zeros(Float64, 26), x = Float64[0.3, -7.123, 1.0, 0.5, -0.0, 2.5, 1e17, 123456.789, -3.75, 0.1, -0.45, 4503599627370497.0, NaN]) groupsize 16
# expect out: [0.8090169943749473, 0.5877852522924731, 0.3768710104121633, -0.9262657510190664, 0.0, -1.0, 1.0, 0.0, -0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.6153863701685053, -0.7882256119987674, 0.7071067811865475, 0.7071067811865476, 0.30901699437494745, 0.9510565162951535, -0.9876883405951378, 0.15643446504023084, 0.0, -1.0, NaN, NaN]

# Float32 and Float16 answers, widened exactly into a Float64 array
function pi_pairs_narrow!(out, x, h)
    for i in 1:length(x)
        s, c = sincospi(x[i])
        out[2i-1] = Float64(s)
        out[2i] = Float64(cospi(x[i]))
        out[2i-1+20] = Float64(sinpi(h[i]))
        out[2i+20] = Float64(sincospi(h[i])[2])
    end
    return
end
# run: pi_pairs_narrow!(out = zeros(Float64, 40), x = Float32[0.3, -7.123, 1.0, -0.0, 2.5, 3.0e7, 1234.567, -0.45, 0.7, -1.2], h = Float16[0.3, -7.123, 1.0, -0.0, 2.5, 3000.0, 12.34, -0.45, 0.7, -1.2])
# expect out: [0.80901700258255, 0.5877852439880371, 0.3768714368343353, -0.9262655973434448, 0.0, -1.0, -0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.9779184460639954, -0.20898689329624176, -0.9876883625984192, 0.15643450617790222, 0.80901700258255, -0.5877852439880371, 0.5877853631973267, -0.8090168833732605, 0.80908203125, 0.587890625, 0.371337890625, -0.9287109375, 0.0, -1.0, -0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.8818359375, 0.471435546875, -0.98779296875, 0.1566162109375, 0.80859375, -0.58837890625, 0.58837890625, -0.80859375]

# integers are exact: sinpi(n) is ±0.0 by the sign of n, cospi(n) ±1.0 by its parity (Float64 for Int32 too)
function pi_ints!(out, n, m)
    out[1] = sinpi(n[1])
    out[2] = sinpi(n[2])
    out[3] = cospi(n[1])
    out[4] = cospi(n[2])
    s, c = sincospi(m)
    out[5] = s
    out[6] = c
    return
end
# run: pi_ints!(out = zeros(Float64, 6), n = Int64[-3, 4], m = Int32(-7))
# expect out: [-0.0, 0.0, -1.0, 1.0, -0.0, -1.0]

function pi_inf!(out, x)
    out[1] = cospi(x[1])
    return
end
# run: pi_inf!(out = zeros(Float32, 1), x = Float32[-Inf])
# expect exception: DomainError with Inf:
# expect exception: `cospi(x)` is only defined for finite `x`.
