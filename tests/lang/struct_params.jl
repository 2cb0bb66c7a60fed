# Type parameters that are values (NTuple{N,T} fields, Val{N}), `const a, b = ...`, symbols and
# functions passed down, and getindex on named tuples with a run-time index of one element type.
const SCALE, OFFSET = 2.0, 0.5
const LO, HI = (1, 3)
struct Vec{N, T}
    data::NTuple{N, T}
end
Base.length(::Vec{N, T}) where {N, T} = N
total(v::Vec{N, T}) where {N, T} = sumv(v.data, Val(N))
sumv(t, ::Val{1}) = t[1]
sumv(t, ::Val{2}) = t[1] + t[2]
sumv(t, ::Val{3}) = t[1] + t[2] + t[3]
apply(op, x, y) = op(x, y)
choose(mode::Symbol, x) = mode === :neg ? -x : mode === :twice ? 2x : x
function params!(o, i)
    v = Vec((1f0, 2f0, 3f0))
    o[1] = total(v) * SCALE + OFFSET
    o[2] = length(v)
    o[3] = LO + HI
    o[4] = apply(max, 3.0, 4.0) + apply(-, 10, 4)
    o[5] = choose(:neg, 2.0) + choose(:twice, 3.0) + choose(:same, 1.0)
    nt = (a = 1.5, b = 2.5, c = 3.5)
    o[6] = nt[i]
    return nothing
end
# run: params!(o = zeros(Float64, 6), i = 2)
# expect o: [12.5, 3.0, 4.0, 10.0, 5.0, 2.5]
