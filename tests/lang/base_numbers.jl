# The Base prelude's numbers: promote, mod1/fld1 of mixed types, Base.Checked, missing,
# SpecialFunctions' erf/erfc/gamma, eachindex(A, B), maximum/minimum of ranges.
import SpecialFunctions
function base_numbers!(o, f, x, y)
    a, b = promote(Int32(3), 2.5f0)
    f[1] = a + b                                  # 5.5f0
    o[1] = mod1(7, UInt32(4))                     # 3 (Int64 and UInt32 promote to Int64)
    o[2] = fld1(Int32(9), 4)                      # 3
    o[3] = Base.Checked.checked_add(40, 2)        # 42
    o[4] = Base.Checked.checked_sub(UInt8(9), UInt8(4))
    o[5] = (x[1] === missing) + 2 * ismissing(missing)
    o[6] = maximum(1:5) + 10 * minimum(3:-1:1) + 100 * maximum(10:-3:1)
    s = 0f0
    for i in eachindex(x, y)
        s += x[i] * y[i]
    end
    f[2] = s                                      # 1*2 + 2*3 + 3*4 = 20
    f[3] = SpecialFunctions.erf(x[1])             # erf(1f0)
    f[4] = SpecialFunctions.erfc(x[2])            # erfc(2f0)
    f[5] = SpecialFunctions.gamma(x[3])           # gamma(3f0) = 2
    return nothing
end
# run: base_numbers!(o = zeros(Int64, 6), f = zeros(Float32, 5), x = Float32[1, 2, 3], y = Float32[2, 3, 4])
# expect o: [3, 3, 42, 5, 2, 1015]
# expect f ≈ [5.5, 20, 0.8427008, 0.004677735, 2] rtol 1e-5

function overflow!(o, n)
    o[1] = Base.Checked.checked_add(n, typemax(Int64))
    return nothing
end
# run: overflow!(o = zeros(Int64, 1), n = 1)
# expect exception: OverflowError: 1 + 9223372036854775807 overflowed for type Int64

function mismatch!(x, y)
    for i in eachindex(x, y)
        x[i] = y[i]
    end
    return nothing
end
# run: mismatch!(x = zeros(Float32, 4), y = Float32[1, 2, 3])
# expect exception: DimensionMismatch: all inputs to eachindex must have the same indices, got Base.OneTo(4) and Base.OneTo(3)

function empty_max!(o, n)
    o[1] = maximum(1:n)
    return nothing
end
# run: empty_max!(o = zeros(Int64, 1), n = 0)
# expect exception: ArgumentError: range must be non-empty
