# ^ with literal exponents (Julia's literal_pow), run-time integer exponents
# and float exponents.
code(::Int64) = 1
code(::Float64) = 2
code(::Float32) = 3
function pow!(o, f, c, n::Int64, x::Float32)
    o[1] = 3^2
    o[2] = 2^n                   # n = 10
    o[3] = (-2)^(n - 7)          # -8
    o[4] = 2^(n + 54)            # wraps to 0
    o[5] = 3^0
    o[6] = n^3
    o[7] = 7^(n ÷ 5)
    f[1] = 2^-1                  # literal -1: inv(2) = 0.5
    f[2] = 2^-2
    f[3] = 2.0^0.5
    f[4] = x^n                   # 1.5f0^10 is exact in Float32
    f[5] = 1.5^3
    f[6] = 4^0.5
    f[7] = 2.0^-3
    f[8] = 10.0^n
    f[9] = x^2
    f[10] = (n / 4)^2
    c[1] = code(2^n)
    c[2] = code(x^2)
    c[3] = code(2^0.5f0)
    c[4] = code(x^n)
    c[5] = code(2^-1)
    c[6] = code(x^0.5)
    return nothing
end
# run: pow!(o = zeros(Int64, 7), f = zeros(Float64, 10), c = zeros(Int64, 6), n = 10, x = 1.5f0)
# expect o: [9, 1024, -8, 0, 1, 1000, 49]
# expect f ≈ [0.5, 0.25, 1.4142135623730951, 57.6650390625, 3.375, 2.0, 0.125, 1.0e10, 2.25, 6.25]
# expect c: [1, 3, 3, 3, 2, 2]
