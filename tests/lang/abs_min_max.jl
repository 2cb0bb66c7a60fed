# abs, sign, min, max, clamp, iseven, isodd, with Julia's promotion and NaN/-0.0 rules.
function abs_min_max!(i, f, b)
    i[1] = abs(-3)
    i[2] = sign(-3)
    i[3] = sign(0)
    i[4] = max(Int32(3), 5)
    i[5] = min(4, 2, 9)
    i[6] = clamp(15, 1, 10)
    i[7] = clamp(-3, 1, 10)
    i[8] = abs(Int8(-128))       # wraps: -128
    f[1] = abs(-2.5)
    f[2] = sign(-2.5)
    f[3] = sign(-0.0)            # -0.0
    f[4] = min(3, 2.5)           # promoted: 2.5
    f[5] = max(-0.0, 0.0)        # 0.0
    f[6] = min(-0.0, 0.0)        # -0.0
    f[7] = min(NaN, 1.0)         # NaN wins
    f[8] = max(1.0, NaN)
    f[9] = clamp(-2.5, 0.0, 1.0)
    f[10] = abs(-0.0)
    f[11] = max(2.5f0, 3)        # Float32 3.0
    f[12] = sign(0.0)
    b[1] = iseven(-4)
    b[2] = isodd(-3)
    b[3] = iseven(7)
    b[4] = isodd(0x02)
    return nothing
end
# run: abs_min_max!(i = zeros(Int64, 8), f = zeros(Float64, 12), b = zeros(Bool, 4))
# expect i: [3, -1, 0, 5, 2, 10, 1, -128]
# expect f: [2.5, -1.0, -0.0, 2.5, 0.0, -0.0, NaN, NaN, 0.0, 0.0, 3.0, 0.0]
# expect b: [true, true, false, false]
