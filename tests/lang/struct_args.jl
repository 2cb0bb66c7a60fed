# Tuples, structs, named tuples, types, Val, symbols and functions passed from the host as kernel
# arguments (the C API's juke_arg_value; `juke run` spells them the same way).
struct Params
    scale::Float32
    n::Int32
    flag::Bool
end
struct Box{T}
    lo::NTuple{3, T}
    hi::NTuple{3, T}
end
struct Mixed
    a::Int8
    b::Float64
    c::Bool
    d::Int16
end
volume(b::Box) = (b.hi[1] - b.lo[1]) * (b.hi[2] - b.lo[2]) * (b.hi[3] - b.lo[3])
width(::Type{UInt8}) = 1
width(::Type{Float32}) = 4
function args!(o, t, p, nt, b, m, ::Type{T}, ::Val{N}, mode, op) where {T, N}
    o[1] = t[1] + t[2]
    o[2] = p.scale * p.n + (p.flag ? 100 : 0)
    o[3] = nt.a + nt.b
    o[4] = volume(b)
    o[5] = m.a + m.b + m.c + m.d
    o[6] = width(T) + N
    o[7] = mode === :add ? 1 : 2
    o[8] = op(o[1], 2f0)
    return nothing
end
# run: args!(o = zeros(Float32, 8), t = (1.5f0, 2f0), p = Params(2, 3, true), nt = (a = 5, b = 0.25f0), b = Box{Float32}((0f0, 1f0, 2f0), (2f0, 4f0, 7f0)), m = Mixed(-3, 0.5, true, 300), T = Type{UInt8}, N = Val(4), mode = :add, op = *)
# expect o: [3.5, 106.0, 5.25, 30.0, 298.5, 5.0, 1.0, 7.0]
