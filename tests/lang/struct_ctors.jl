# Structs: abstract types and dispatch on them, inner constructors (with `new` and `new{T}`),
# parametric dispatch with `where`, Val and Type arguments, symbols as constants.
abstract type Shape end
struct Circle <: Shape
    r::Float64
end
struct Rect <: Shape
    w::Float64
    h::Float64
end
area(c::Circle) = 3.0 * c.r * c.r
area(r::Rect) = r.w * r.h
describe(s::Shape) = 2area(s)

struct Ordered
    lo::Int32
    hi::Int32
    Ordered(a, b) = a < b ? new(a, b) : new(b, a)
end

struct Wrapped{T}
    v::T
    function Wrapped{T}(x) where {T}
        return new{T}(x + one(T))
    end
end

struct Pair2{A, B}
    a::A
    b::B
end
first2(p::Pair2{A, B}) where {A, B} = sizeof_ish(A)
sizeof_ish(::Type{Float32}) = 4
sizeof_ish(::Type{Int64}) = 8

scaled(::Val{N}, x) where {N} = N * x
pick(mode, x) = mode === :double ? 2x : x

function ctors!(o)
    o[1] = describe(Circle(1.0))
    o[2] = describe(Rect(2.0, 3.5))
    r = Ordered(9, 4)
    o[3] = r.lo
    o[4] = r.hi
    w = Wrapped{Float64}(1.5)
    o[5] = w.v
    o[6] = first2(Pair2(1f0, 2)) + first2(Pair2(3, 4f0))
    o[7] = scaled(Val(3), 2.5)
    o[8] = pick(:double, 4.0) + pick(:single, 1.0)
    return nothing
end
# run: ctors!(o = zeros(Float64, 8))
# expect o: [6.0, 14.0, 4.0, 9.0, 2.5, 12.0, 7.5, 9.0]
