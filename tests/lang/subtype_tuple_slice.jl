# A <: B of two types, which the types decide (a generic kernel's `if T <: Integer`, NNlib's
# `if T <: Rational`), and a tuple indexed with a range of constant bounds (`size(A)[1:2]`, `t[2:3]`): the
# tuple of those fields.
function kinds!(out, x::AbstractVector{T}) where {T}
    i = workitemIdx().x
    out[i] = T <: Integer ? 1 : T <: AbstractFloat ? 2 : 3
    out[i] += (T <: Rational) * 10 + (Int64 <: Signed) * 100 + (Float32 <: Integer) * 1000
    return
end
# run: kinds!(out = zeros(Int64, 2), x = Int32[1, 2]) groupsize 2
# expect out: [101, 101]
# run: kinds!(out = zeros(Int64, 2), x = Float32[1, 2]) groupsize 2
# expect out: [102, 102]

function slices!(out, A)
    w, h = size(A)[1:2]
    t = (10, 20, 30, 40)
    a, b = t[2:3]
    e = t[3:2]
    out[1] = w * 1000 + h
    out[2] = a + b + length(e) + length(size(A)[2:3])
    out[3] = sum(size(A)[2:3])
    return
end
# run: slices!(out = zeros(Int64, 3), A = zeros(Float32, 5, 3, 7)) groupsize 1
# expect out: [5003, 52, 10]
