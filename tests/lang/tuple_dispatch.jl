# Dispatch on tuple types as Julia's subtyping decides: NTuple{N,T}, Tuple{Vararg{T}}, Tuple{Vararg{T,N}},
# fixed fields before a Vararg, NTuple{N,T} with both bound by `where`, and the more specific method winning.
h(c::NTuple{3,Float32}) = c[1] + c[2] * c[3]
h(c::NTuple{2,Float32}) = c[1] - c[2]
count_ints(c::Tuple{Vararg{Int64}}) = length(c)
count_ints(c::Tuple{Int64, Int64}) = 100
nparams(c::Tuple{Vararg{Int64,N}}) where {N} = N * 10
head_rest(c::Tuple{Float32, Vararg{Int64}}) = length(c) - 1
head_rest(c::Tuple{Float32, Vararg{Float64}}) = -1
generic(c::NTuple{N,T}) where {N,T} = N
isanytuple(c::Tuple) = 1

function tuple_dispatch!(f, o)
    t = (f[3], f[4], f[5])
    f[1] = h(t)
    f[2] = h((t[1], t[2]))
    o[1] = count_ints((1, 2, 3))
    o[2] = count_ints((1, 2))
    o[3] = nparams((5, 6, 7, 8))
    o[4] = head_rest((1f0, 2, 3))
    o[5] = head_rest((1f0, 2.0))
    o[6] = generic((1, 2, 3, 4, 5))
    o[7] = isanytuple((1, 2.0))
    o[8] = count_ints(())
    return
end
# run: tuple_dispatch!(f = Float32[0, 0, 1.5, 2, 4], o = zeros(Int64, 8))
# expect f: [9.5, -0.5, 1.5, 2.0, 4.0]
# expect o: [3, 100, 40, 2, -1, 5, 1, 0]
