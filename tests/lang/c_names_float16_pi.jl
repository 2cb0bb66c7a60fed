# Julia's C type aliases in annotations and conversions, and π meeting a Float16 (a Float16, as in Julia).
function cnames!(A::AbstractVector{Cint}, B::AbstractVector{Cdouble}, n::Csize_t, c::Cchar)
    A[1] = Cint(n) + Cint(1)
    A[2] = Cuint(3) + Culong(4) + Clong(c)
    B[1] = Cdouble(Cfloat(1.5)) * 2
    return
end
# run: cnames!(A = zeros(Int32, 2), B = zeros(Float64, 1), n = UInt64(7), c = Int8(2))
# expect A: [8, 9]
# expect B: [3]
# expect typed: n::UInt64

function f16pi!(A)
    x = Float16(2)
    A[1] = x * π
    A[2] = π * Float16(3)
    A[3] = Float16(π)
    A[4] = 2π * x
    return
end
# run: f16pi!(A = zeros(Float16, 4))
# expect A: [6.28125, 9.421875, 3.140625, 12.5625]
# expect typed: *(x, Float16(π))::Float16
