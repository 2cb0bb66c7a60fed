# The example of docs/language.md ("Structs"): a struct argument, a parametric struct with an outer
# constructor, dispatch on it, and a local mutable struct changed in place; Base.@kwdef structs keep
# their positional constructor; a struct inside a struct; structs as tuple elements.
struct Params
    scale::Float32
    n::Int32
end
struct Point{T}
    x::T
    y::T
end
Point(x::Float32) = Point(x, x)
norm2(p::Point) = p.x^2 + p.y^2
mutable struct Acc
    total::Float64
end
Base.@kwdef struct Config
    alpha::Float64 = 0.5
    steps::Int = 3
end
struct Segment
    a::Point{Float64}
    b::Point{Float64}
end
len2(s::Segment) = norm2(Point(s.b.x - s.a.x, s.b.y - s.a.y))
function k!(o, prm::Params)
    a = Acc(0.0)
    for i in 1:prm.n
        a.total += prm.scale * i
    end
    o[1] = a.total + norm2(Point(3f0, 4f0))
    c = Config(0.25, 4)
    o[2] = c.alpha * c.steps
    s = Segment(Point(1.0, 1.0), Point(4.0, 5.0))
    o[3] = len2(s)
    pts = (Point(1f0), Point(2f0, 0.5f0))
    o[4] = pts[1].y + pts[2].y
    o[5] = norm2(Point(1.5f0))
    return
end
# run: k!(o = zeros(Float64, 5), prm = Params(0.5f0, 4))
# expect o: [30.0, 1.0, 25.0, 1.5, 4.5]
