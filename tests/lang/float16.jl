# Float16 arithmetic: each operation rounds to Float16, as Julia does.
code(::Float16) = 1
code(::Float32) = 2
function float16!(h, c, x::Float16)
    y = x + Float16(1)
    h[1] = y                     # 1.099609375 + 1 = 2.099609375 rounded: 2.099609375
    h[2] = x * x                 # 1.2091064453125 → Float16: 1.208984375
    h[3] = Float16(1) / Float16(3)
    h[4] = sqrt(x)
    h[5] = x - x
    h[6] = -x
    h[7] = Float16(65504) * 2    # overflows to Inf
    h[8] = Float16(0.1) + Float16(0.2)
    c[1] = code(x + 1)
    c[2] = code(x * 1.0f0)
    c[3] = code(sqrt(x))
    c[4] = code(x / 2)
    c[5] = x < Float16(2)
    return nothing
end
# run: float16!(h = zeros(Float16, 8), c = zeros(Int64, 5), x = Float16(1.0996))
# expect h: [2.099609375, 1.208984375, 0.333251953125, 1.048828125, 0.0, -1.099609375, Inf, 0.2998046875]
# expect c: [1, 2, 1, 1, 1]
