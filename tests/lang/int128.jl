# Int128 and UInt128: literals past typemax(Int64), arithmetic, widemul, comparisons, shifts, and
# conversions to and from the other integer and float types (InexactError when a value does not fit).
function int128!(o, f, x, overflow)
    a = Int128(x)                        # 4_000_000_000
    p = widemul(x, x)                    # 1.6e19: past typemax(Int64)
    o[1] = p > typemax(Int64) ? 1 : 0
    o[2] = Int64(p - Int128(x) * Int128(x) + a)
    o[3] = Int64(p & 0x3ff)
    o[4] = Int64((p >> 40) & 0xffff)
    b = 9223372036854775808              # an Int128 literal (typemax(Int64) + 1)
    o[5] = Int64(b - 1 - typemax(Int64))
    u = UInt128(1) << 100
    o[6] = Int64(u >> 90)
    o[7] = Int64(-p >> 100)
    o[8] = Int64(-(p >> 64))
    f[1] = Float64(Int64(p >> 64) + 1)
    f[2] = Float64(typemax(Int128))
    o[9] = Int64(floor(Int128, 2.5e20) >> 40)
    o[10] = -a < a ? 1 : 0
    if overflow
        o[11] = Int64(p)                 # InexactError: p does not fit in Int64
    end
    return nothing
end
# run: int128!(o = zeros(Int64, 11), f = zeros(Float64, 2), x = 4000000000, overflow = false)
# expect o: [1, 4000000000, 0, 2923, 0, 1024, -1, 0, 227373675, 1, 0]
# expect f: [1.0, 1.7014118346046923e38]
# run: int128!(o = zeros(Int64, 11), f = zeros(Float64, 2), x = 4000000000, overflow = true)
# expect exception: InexactError
