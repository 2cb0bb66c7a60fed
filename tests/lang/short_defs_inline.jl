# Short function definitions, @inline/@noinline helpers, a helper calling a helper.
sq(x) = x * x
cube(x) = x * sq(x)
@inline addmul(a, b, c) = (a + b) * c
@noinline function poly(x)
    return 3sq(x) + 2x + 1
end
@inline function clamp01(x)
    x < 0 ? zero(x) : x > 1 ? one(x) : x
end
function short_defs_inline!(o, f)
    o[1] = sq(7)
    o[2] = cube(3)
    o[3] = addmul(1, 2, 3)
    o[4] = poly(2)
    f[1] = clamp01(1.5)
    f[2] = clamp01(-0.5)
    f[3] = clamp01(0.25)
    f[4] = poly(0.5)
    return nothing
end
# run: short_defs_inline!(o = zeros(Int64, 4), f = zeros(Float64, 4))
# expect o: [49, 27, 9, 17]
# expect f: [1.0, 0.0, 0.25, 2.75]
