struct Point{T}
    x::T
    y::T
end
struct Params
    scale::Float32
    n::Int32
    flag::Bool
end
mutable struct Acc
    total::Float64
    count::Int
end
norm2(p::Point) = p.x * p.x + p.y * p.y
Point(x::Float32) = Point(x, x)
function k!(o, f)
    p = Point(3f0, 4f0)
    q = Point{Float64}(1, 2)
    prm = Params(2f0, 7, true)
    a = Acc(0.0, 0)
    for i in 1:4
        a.total += i
        a.count += 1
    end
    nt = (a = 1, b = 2.5f0)
    o[1] = norm2(p)
    o[2] = q.y
    o[3] = prm.scale * prm.n
    o[4] = a.total
    o[5] = a.count
    o[6] = nt.b + nt[1]
    o[7] = Point(2f0).y
    return nothing
end
# run: k!(o = zeros(Float64, 7), f = zeros(Float32, 1))
# expect o: [25.0, 2.0, 14.0, 10.0, 4.0, 3.5, 2.0]
