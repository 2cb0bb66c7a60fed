# Conversions: T(x), convert(T, x), x % T (wraps), unsafe_trunc, Bool.
function conversions!(i, f, x::Float64, n::Int64)
    i[1] = Int32(3.0)
    i[2] = convert(Int16, 300)
    i[3] = 300 % UInt8                  # 44
    i[4] = -1 % UInt8                   # 255
    i[5] = 129 % Int8                   # -127
    i[6] = unsafe_trunc(Int32, 3.7)     # 3
    i[7] = unsafe_trunc(Int64, -2.9)    # -2
    i[8] = Int64(true)
    i[9] = Bool(1)
    i[10] = UInt64(n)
    i[11] = Int8(-128)
    i[12] = Int(x * 2)                  # x = 1.5: 3
    i[13] = UInt8(255)
    i[14] = trunc(Int, x)
    f[1] = Float32(x / 3)               # rounds to Float32: 0.5
    f[2] = Float32(0.1)
    f[3] = Float64(Float32(0.1))
    f[4] = convert(Float32, n)
    f[5] = Float16(x)
    f[6] = Float32(typemax(Int64))      # 2^63
    f[7] = Float64(0x10)
    return nothing
end
# run: conversions!(i = zeros(Int64, 14), f = zeros(Float64, 7), x = 1.5, n = 7)
# expect i: [3, 300, 44, 255, -127, 3, -2, 1, 1, 7, -128, 3, 255, 1]
# expect f: [0.5, 0.10000000149011612, 0.10000000149011612, 7.0, 1.5, 9.223372036854775808e18, 16.0]
