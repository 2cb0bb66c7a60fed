# Shifts: counts at or past the bit width, negative counts, >>> logical.
function shifts!(o32, o64, o8, n::Int64)
    x = Int32(-8)
    o32[1] = Int32(1) << 32          # 0
    o32[2] = x >> 40                 # -1: arithmetic past the width
    o32[3] = x >>> 1                 # 2147483644
    o32[4] = x >>> 32                # 0
    o32[5] = Int32(1) << 31          # typemin(Int32)
    o32[6] = x << -1                 # x >> 1 = -4
    o32[7] = x >> -2                 # x << 2 = -32
    o32[8] = Int32(5) << n           # n = 3: 40 (stays Int32)
    o64[1] = 1 << 63
    o64[2] = 1 << 64
    o64[3] = -1 >>> 60
    o64[4] = 8 >>> -1                # 16
    o64[5] = -1 >> 100
    o64[6] = 1 << UInt8(70)
    o64[7] = 12345 >> n
    o8[1] = 0x80 >> 1
    o8[2] = 0x80 >> 8
    o8[3] = 0x81 << 1
    o8[4] = Int8(-128) >> 7 % UInt8  # Int8(-1) as UInt8: 0xff
    return nothing
end
# run: shifts!(o32 = zeros(Int32, 8), o64 = zeros(Int64, 7), o8 = zeros(UInt8, 4), n = 3)
# expect o32: [0, -1, 2147483644, 0, -2147483648, -4, -32, 40]
# expect o64: [-9223372036854775808, 0, 15, 16, -1, 0, 1543]
# expect o8: [64, 0, 2, 255]
