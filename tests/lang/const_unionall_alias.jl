# `const A = B{T} where {T}` (a UnionAll, as JuliaStream's `const ROCData = StreamData{T,ROCArray{T}} where {T}`)
# is the parametric alias `const A{T} = B{T}`: A{Float32} is B{Float32}. Braces list the parameters outermost
# first; a later `where` binds outside the earlier ones (`NTuple{N,T} where {N} where {T}` is A{T, N}); a bound
# is allowed.

struct StreamData{T,C<:AbstractArray{T}}
    a::C
    b::C
    scalar::T
end
const DevData = StreamData{T,ROCDeviceArray{T,1,1}} where {T}
const RealVec = AbstractVector{T} where T <: Real
const Pair2 = Tuple{A,B} where {A,B}
const TupNT = NTuple{N,T} where {N} where {T}

function triad!(d::DevData{T}, v::RealVec{T}, t::TupNT{Int64,2}, p::Pair2{Int32,Float64}) where {T}
    i = workitemIdx().x
    d.a[i] = d.b[i] * d.scalar + v[i] + t[2] - p[1] * T(p[2])
    return
end
# run: triad!(d = StreamData(Float32[0, 0, 0, 0], Float32[1.5, -2, 0.25, 4], 2f0), v = Float32[0.5, 1, -1, 3], t = (7, 10), p = (Int32(3), 0.5)) groupsize 4
# expect d.a: [12.0, 5.5, 8.0, 19.5]
