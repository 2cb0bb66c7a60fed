# Base's float anatomy (base/math.jl, base/float.jl): frexp, significand, exponent, modf and nextfloat /
# prevfloat by n steps, on normal, negative and subnormal values: Julia's answers bit for bit.

function anatomy!(out, x)
    i = workitemIdx().x
    v = x[i]
    m, e = frexp(v)
    out[1, i] = m
    out[2, i] = e
    out[3, i] = significand(v)
    out[4, i] = exponent(v)
    f, n = modf(v)
    out[5, i] = f
    out[6, i] = n
    out[7, i] = nextfloat(v, 3)
    out[8, i] = prevfloat(v, 2)
    out[9, i] = nextfloat(v, -5)
    return nothing
end
# run: anatomy!(out = zeros(Float64, 9, 4), x = Float64[3.75, -0.1, 1.0e-310, -1024.5]) groupsize 4
# expect out: [0.9375, 2, 1.875, 1, 0.75, 3.0, 3.7500000000000013, 3.749999999999999, 3.749999999999998, -0.8, -3, -1.6, -4, -0.1, -0.0, -0.09999999999999996, -0.10000000000000003, -0.10000000000000007, 0.5752618031559393, -1029, 1.1505236063118787, -1030, 1e-310, 0.0, 1.00000000000015e-310, 9.999999999999e-311, 9.9999999999975e-311, -0.500244140625, 11, -1.00048828125, 10, -0.5, -1024.0, -1024.4999999999993, -1024.5000000000005, -1024.5000000000011]
# run: anatomy!(out = zeros(Float32, 9, 4), x = Float32[3.75, -0.1, 4.077778531185218e-43, -1024.5]) groupsize 4
# expect out: [0.9375, 2, 1.875, 1, 0.75, 3.0, 3.7500007152557373, 3.749999523162842, 3.7499988079071045, -0.800000011920929, -3, -1.600000023841858, -4, -0.10000000149011612, -0.0, -0.09999997913837433, -0.10000001639127731, -0.1000000387430191, 0.568359375, -140, 1.13671875, -141, 4.077778531185218e-43, 0.0, 4.119817485114962e-43, 4.049752561898721e-43, 4.007713607968977e-43, -0.500244140625, 11, -1.00048828125, 10, -0.5, -1024.0, -1024.4996337890625, -1024.500244140625, -1024.5006103515625]

# the limits of the float types, and the predicates on them
function limits!(out, x)
    i = workitemIdx().x
    v = x[i]
    T = typeof(v)
    out[1, i] = floatmin(T)
    out[2, i] = floatmax(v)
    out[3, i] = maxintfloat(T)
    out[4, i] = issubnormal(v) + 2 * isinteger(v) + 4 * isreal(v)
    out[5, i] = widen(v) == v
    return nothing
end
# run: limits!(out = zeros(Float32, 5, 3), x = Float32[1.0e-40, -7.0, 0.25]) groupsize 3
# expect out: [1.1754944f-38, 3.4028235f38, 1.6777216f7, 5, 1, 1.1754944f-38, 3.4028235f38, 1.6777216f7, 6, 1, 1.1754944f-38, 3.4028235f38, 1.6777216f7, 4, 1]
# run: limits!(out = zeros(Float64, 5, 2), x = Float64[5.0e-320, 2.5]) groupsize 2
# expect out: [2.2250738585072014e-308, 1.7976931348623157e308, 9.007199254740992e15, 5, 1, 2.2250738585072014e-308, 1.7976931348623157e308, 9.007199254740992e15, 4, 1]
