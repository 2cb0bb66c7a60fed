# Float16 math is Float32 math rounded to Float16, as Julia computes it:
# x^n is Float16(Float32(x)^n), exp(x) is Float16(exp(Float32(x))).
function float16_math!(h, x::Float16, n::Int64)
    h[1] = x^n
    h[2] = exp(x)
    h[3] = sin(x)
    return nothing
end
# run: float16_math!(h = zeros(Float16, 3), x = Float16(1.0996), n = 3)
# expect h: [1.3291015625, 3.00390625, 0.89111328125]
