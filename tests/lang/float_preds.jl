# isnan/isinf/isfinite, copysign, fma/muladd/hypot, and math on integer
# arguments (promoted to Float64) or mixed with Float32.
code(::Float64) = 1
code(::Float32) = 2
function float_preds!(b, f, c, x::Float32)
    b[1] = isnan(NaN)
    b[2] = isnan(x)
    b[3] = isinf(-Inf32)
    b[4] = isinf(NaN)
    b[5] = isfinite(1.0)
    b[6] = isfinite(Inf)
    b[7] = isfinite(NaN32)
    b[8] = isnan(0.0 / 0.0)
    b[9] = isinf(1 / 0)
    b[10] = isfinite(3)          # integers are finite
    f[1] = copysign(2.0, -0.0)   # -2.0
    f[2] = copysign(-3.0, 1)
    f[3] = sqrt(16)              # 4.0 (Float64)
    f[4] = hypot(3, 4)
    f[5] = fma(2.0, 3.0, 1.0)
    f[6] = muladd(2, 3, 1)       # integers: 7
    f[7] = 1 / 0                 # Inf
    f[8] = -1 / 0
    f[9] = exp(0)
    c[1] = code(sqrt(2))
    c[2] = code(sin(x))
    c[3] = code(atan(1, x))
    c[4] = code(hypot(x, 2))
    c[5] = code(x / 2)
    c[6] = code(exp(x) * 1.0)
    return nothing
end
# run: float_preds!(b = zeros(Bool, 10), f = zeros(Float64, 9), c = zeros(Int64, 6), x = 0.5f0)
# expect b: [true, false, true, false, true, false, false, true, true, true]
# expect f: [-2.0, 3.0, 4.0, 5.0, 7.0, 7.0, Inf, -Inf, 1.0]
# expect c: [1, 2, 2, 2, 2, 1]
