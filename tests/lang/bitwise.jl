# Bitwise operators on integers and Bool.
function bitwise!(o, b, x::Int64, y::Int64)
    o[1] = x & y
    o[2] = x | y
    o[3] = x ⊻ y
    o[4] = xor(x, y)
    o[5] = ~x
    o[6] = ~UInt8(5) % Int64         # 0xfa = 250
    o[7] = x & 0xff                  # Int64 & UInt8 promotes to Int64
    o[8] = Int32(-1) & typemax(Int32)
    b[1] = true & false
    b[2] = true | false
    b[3] = true ⊻ true
    b[4] = !true
    b[5] = ~false                    # ~ on Bool is logical not
    return nothing
end
# run: bitwise!(o = zeros(Int64, 8), b = Bool[true, true, true, true, false], x = 12, y = -10)
# expect o: [4, -2, -6, -6, -13, 250, 12, 2147483647]
# expect b: [false, true, false, false, true]
