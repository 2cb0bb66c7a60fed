# abs2, inv, flipsign, sincos, bit counts, bswap, reinterpret, signed/unsigned,
# float, nextfloat/prevfloat, ldexp, tuple reductions, firstindex/lastindex.
function numeric_more!(i, f, d, m, x::Float64, n::Int64)
    i[1] = abs2(-7)
    i[2] = flipsign(5, -2)
    i[3] = flipsign(-5, -2.0)
    i[4] = flipsign(5, 0x01)              # an unsigned y is never negative
    i[5] = leading_zeros(Int32(1))
    i[6] = trailing_zeros(UInt8(8))
    i[7] = count_ones(0xff)
    i[8] = count_zeros(Int16(-1))
    i[9] = leading_zeros(0)
    i[10] = trailing_zeros(Int64(0))
    i[11] = bswap(Int32(0x01020304))      # 0x04030201
    i[12] = reinterpret(Int64, 1.0)       # 0x3ff0000000000000
    i[13] = signed(0xff)                  # Int8(-1)
    i[14] = unsigned(Int8(-1))            # 0xff
    i[15] = unsigned(-n) >> 60            # wraps: 2^64 - 7
    i[16] = count_ones(typemax(UInt64))
    i[17] = sum((1, 2, 3))
    i[18] = prod((2, Int32(3), 4))
    i[19] = maximum((3, -1, 7))
    i[20] = minimum((3, -1, 7))
    i[21] = sum((true, true, false))      # +(true, true, false) is an Int64
    i[22] = prod(())
    i[23] = firstindex(i)
    i[24] = lastindex(i)
    i[25] = lastindex(m, 2)
    i[26] = flipsign(true, -1)            # -true == -1
    i[27] = max(4, 9, 2, 7)
    i[28] = lastindex((1, 2.0, 3f0))
    f[1] = inv(4)
    f[2] = inv(x)
    f[3] = flipsign(2.5, -0.0)
    s, c = sincos(0.0)
    f[4] = s
    f[5] = c
    f[6] = float(3)
    f[7] = nextfloat(1.0)
    f[8] = prevfloat(1.0)
    f[9] = nextfloat(-0.0)
    f[10] = prevfloat(0.0)
    f[11] = nextfloat(Inf)
    f[12] = prevfloat(Inf)
    f[13] = nextfloat(-Inf)
    f[14] = ldexp(1.5, 3)
    f[15] = ldexp(1.0, -1074)
    f[16] = ldexp(3.0, -1075)             # 1.5 subnormal ulps round to even: 2 ulps
    f[17] = ldexp(1.0, 2000)
    f[18] = ldexp(1.0, n)
    f[19] = reinterpret(Float64, 0x4000000000000000)
    f[20] = abs2(1.5)
    f[21] = sum((1, 2.5))
    f[22] = maximum((1.0, NaN, 3.0))
    f[23] = ldexp(ldexp(1.0, -1000), -60)  # a subnormal: 2^-1060
    d[1] = inv(2f0)
    d[2] = nextfloat(1f0)
    d[3] = Float32(π)
    d[4] = ldexp(1f0, -149)
    d[5] = reinterpret(Float32, 0x3f800000)
    d[6] = flipsign(3f0, -1)
    d[7], d[8] = sincos(0f0)
    d[9] = prevfloat(Float32(Inf))
    d[10] = float(Int32(7)) / 2
    return nothing
end
# run: numeric_more!(i = zeros(Int64, 28), f = zeros(Float64, 23), d = zeros(Float32, 10), m = zeros(Int32, 2, 5), x = 0.5, n = 7)
# expect i: [49, -5, 5, 5, 31, 3, 8, 0, 64, 64, 67305985, 4607182418800017408, -1, 255, 15, 64, 6, 24, 7, -1, 2, 1, 1, 28, 5, -1, 9, 3]
# expect f: [0.25, 2.0, -2.5, 0.0, 1.0, 3.0, 1.0000000000000002, 0.9999999999999999, 5.0e-324, -5.0e-324, Inf, 1.7976931348623157e308, -1.7976931348623157e308, 12.0, 5.0e-324, 1.0e-323, Inf, 128.0, 2.0, 2.25, 3.5, NaN, 8.095e-320]
# expect d: [0.5, 1.0000001, 3.1415927, 1.0e-45, 1.0, -3.0, 0.0, 1.0, 3.4028235e38, 3.5]
