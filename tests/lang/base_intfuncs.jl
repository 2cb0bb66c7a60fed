# Base's integer functions that kernels call (base/intfuncs.jl, base/int.jl), each on positive and
# negative operands: Julia's answers.

function intfuns!(out, a, b)
    i = workitemIdx().x
    x = a[i]
    y = b[i]
    q, r = divrem(x, y)
    f, m = fldmod(x, y)
    out[1, i] = q
    out[2, i] = r
    out[3, i] = f
    out[4, i] = m
    out[5, i] = gcd(x, y)
    out[6, i] = lcm(x, y)
    out[7, i] = cmp(x, y)
    out[8, i] = isqrt(abs(x) * 1000)
    out[9, i] = nextpow(2, abs(x))
    out[10, i] = prevpow(3, abs(x))
    out[11, i] = ndigits(x * 12345)
    out[12, i] = trailing_ones(x) + 10 * leading_ones(x % UInt8)
    out[13, i] = ispow2(abs(y)) + 2 * isinteger(x)
    out[14, i] = bitrotate(x % UInt8, y)
    out[15, i] = bitreverse(x % UInt16)
    out[16, i] = widen(Int32(x)) * typemax(Int32)
    out[17, i] = clamp(x * 20, UInt8)
    out[18, i] = gcd(Int32(x), y) + lcm(abs(x) % UInt8, UInt8(3))
    return nothing
end
# run: intfuns!(out = zeros(Int64, 18, 4), a = Int64[-17, 23, 40, 7], b = Int64[5, -6, 12, 8]) groupsize 4
# expect out: [-3, -2, -4, 3, 1, 85, -1, 130, 32, 9, 6, 34, 2, 253, 63487, -36507221999, 0, 52, -3, 5, -4, -1, 1, 138, 1, 151, 32, 9, 6, 3, 2, 92, 59392, 49392123881, 255, 70, 3, 4, 3, 4, 4, 120, 1, 200, 64, 27, 6, 0, 2, 130, 5120, 85899345880, 255, 124, 0, 7, 0, 7, 1, 56, -1, 83, 8, 3, 5, 3, 3, 7, 57344, 15032385529, 140, 22]
