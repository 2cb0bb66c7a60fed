# Edge cases that do not raise: typemin % -1 and mod(typemin, -1) are 0,
# unsigned division, and float div/rem/mod/fld/cld.
function intdiv_edge!(o, f, m::Int64, u::UInt8)
    o[1] = rem(m, -1)
    o[2] = mod(m, -1)
    o[3] = u ÷ 0x02           # 0xfb ÷ 2 = 125
    o[4] = u % 0x07           # 251 % 7 = 6
    o[5] = mod(Int32(-7), 3)  # Int32 with Int64: Int64 2
    o[6] = cld(u, 0x02)       # 126
    f[1] = div(-7.5, 2.0)
    f[2] = rem(-7.5, 2.0)
    f[3] = mod(-7.5, 2.0)
    f[4] = fld(-7.5, 2.0)
    f[5] = cld(-7.5, 2.0)
    f[6] = -7.5 ÷ 2.0
    f[7] = mod(7.5, -2.0)
    f[8] = -7.5 % 2
    return nothing
end
# run: intdiv_edge!(o = zeros(Int64, 6), f = zeros(Float64, 8), m = typemin(Int64), u = 0xfb)
# expect o: [0, 0, 125, 6, 2, 126]
# expect f: [-3.0, -1.5, 0.5, -4.0, -3.0, -3.0, -0.5, -1.5]
