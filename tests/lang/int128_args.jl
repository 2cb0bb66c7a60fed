# Int128 and UInt128 kernel arguments from the host: Int128(x) and UInt128(x) literals, and the literals
# Julia itself types as 128-bit (a decimal past typemax(Int64), a hex literal of more than 16 digits).
function halves!(o, x, y)
    o[1] = Int64(x >> 64)
    o[2] = Int64(x & 0xffff)
    o[3] = Int64(y >> 100)
    o[4] = x < 0 ? 1 : 0
    o[5] = Int64((y - 1) % UInt64 & 0xff)
    return nothing
end
# run: halves!(o = zeros(Int64, 5), x = Int128(-3), y = UInt128(1267650600228229401496703205376))
# expect o: [-1, 65533, 1, 1, 255]
# run: halves!(o = zeros(Int64, 5), x = 170141183460469231731687303715884105727, y = 0x00000000000000000000000000000002)
# expect o: [9223372036854775807, 65535, 0, 0, 1]
