# Every compound assignment, on variables and on array elements.
function compound_assign!(o, f, A)
    x = 100
    x += 5;  o[1] = x        # 105
    x -= 10; o[2] = x        # 95
    x *= 2;  o[3] = x        # 190
    x ÷= 7;  o[4] = x        # 27
    x %= 5;  o[5] = x        # 2
    x <<= 4; o[6] = x        # 32
    x >>= 1; o[7] = x        # 16
    x |= 3;  o[8] = x        # 19
    x &= 6;  o[9] = x        # 2
    x ⊻= 7;  o[10] = x       # 5
    x ^= 3;  o[11] = x       # 125
    x >>>= 2; o[12] = x      # 31
    y = 1.0
    y /= 4;  f[1] = y        # 0.25
    y += 1;  f[2] = y
    y *= y;  f[3] = y        # 1.5625
    y -= 0.5; f[4] = y
    A[2] += 10
    A[3] *= 3
    A[1] -= A[2]
    A[4] ÷= 2
    return nothing
end
# run: compound_assign!(o = zeros(Int64, 12), f = zeros(Float64, 4), A = Int64[1, 2, 3, 9])
# expect o: [105, 95, 190, 27, 2, 32, 16, 19, 2, 5, 125, 31]
# expect f: [0.25, 1.25, 1.5625, 1.0625]
# expect A: [-11, 12, 9, 4]
