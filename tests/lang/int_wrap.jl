# Integer arithmetic wraps around, as in Julia.
function int_wrap!(o32, o64, o8, big::Int32)
    o32[1] = big + Int32(1)                 # typemax(Int32) + 1 wraps to typemin
    o32[2] = typemin(Int32) - Int32(1)
    o32[3] = big * Int32(2)
    o32[4] = -typemin(Int32)
    o32[5] = abs(typemin(Int32))            # abs overflows: stays typemin
    o64[1] = typemax(Int64) + 1
    o64[2] = typemin(Int64) * -1
    o64[3] = 3037000500 * 3037000500        # past 2^63
    o8[1] = 0xff + 0x01
    o8[2] = 0x00 - 0x01
    o8[3] = 0x10 * 0x10
    o8[4] = Int8(100) * Int8(2) % UInt8     # Int8(-56) reinterpreted: 0xc8
    return nothing
end
# run: int_wrap!(o32 = zeros(Int32, 5), o64 = zeros(Int64, 3), o8 = zeros(UInt8, 4), big = Int32(2147483647))
# expect o32: [-2147483648, 2147483647, -2, -2147483648, -2147483648]
# expect o64: [-9223372036854775808, -9223372036854775808, -9223372036709301616]
# expect o8: [0, 255, 0, 200]
