# Multiple dispatch on abstract types: the most specific method wins.
kind(x::Any) = 1
kind(x::Number) = 2
kind(x::Real) = 3
kind(x::Integer) = 4
kind(x::Signed) = 5
kind(x::Unsigned) = 6
kind(x::AbstractFloat) = 7
kind(x::Float64) = 8
kind(x::Bool) = 9
pair(x::Integer, y::Integer) = 1
pair(x::Integer, y::Real) = 2
pair(x::Real, y::Integer) = 3
pair(x::Int64, y::Int64) = 4
pair(x, y) = 5
function dispatch_abstract!(o, a::Int32, b::UInt16, c::Float32)
    o[1] = kind(a)
    o[2] = kind(b)
    o[3] = kind(c)
    o[4] = kind(1.0)
    o[5] = kind(true)
    o[6] = kind(nothing)
    o[7] = pair(1, 2)
    o[8] = pair(a, 2)
    o[9] = pair(a, c)
    o[10] = pair(c, b)
    o[11] = pair(c, c)
    o[12] = pair(nothing, 1)
    return nothing
end
# run: dispatch_abstract!(o = zeros(Int64, 12), a = Int32(1), b = UInt16(2), c = 1.5f0)
# expect o: [5, 6, 7, 8, 9, 1, 4, 1, 2, 3, 5, 5]
