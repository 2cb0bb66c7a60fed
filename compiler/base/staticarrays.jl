# base/staticarrays.jl: StaticArrays.jl's fixed-size arrays, as juke compiles them: loaded with the Base
# prelude (compiler/prelude.h) when the kernel file says `using StaticArrays` (or imports from it).
# SVector{N,T} and MVector{N,T} hold their elements in a tuple, `.data`; SMatrix{N,M,T} and MMatrix{N,M,T}
# in a tuple of M columns of N. The S ones are immutable values, the M ones mutable structs whose
# setindex! replaces the tuple: both live in registers or on the stack, as StaticArrays' do on a GPU.

struct UndefInitializer end
const undef = UndefInitializer()

struct SVector{N, T}
    data::NTuple{N, T}
end
mutable struct MVector{N, T}
    data::NTuple{N, T}
end
struct SMatrix{N, M, T}
    data::NTuple{M, NTuple{N, T}}
end
mutable struct MMatrix{N, M, T}
    data::NTuple{M, NTuple{N, T}}
end

# tuples of n copies of x; t with element i replaced by v (i checked by t[i]); t's elements converted to T
__sa_fill(x, ::Val{0}) = ()
__sa_fill(x, ::Val{N}) where {N} = (__sa_fill(x, Val(N - 1))..., x)
__sa_set(::Tuple{}, v, i::Integer) = ()
__sa_set(t::Tuple, v, i::Integer) = (i == 1 ? v : t[1], __sa_set(tail(t), v, i - 1)...)
__sa_promote(x) = typeof(x)
__sa_promote(x, y, zs...) = promote_type(typeof(x), __sa_promote(y, zs...))
__sa_convert(::Type{T}, ::Tuple{}) where {T} = ()
__sa_convert(::Type{T}, t::Tuple) where {T} = (convert(T, t[1]), __sa_convert(T, tail(t))...)

# constructors: from two or more values (converted to T), from a tuple, and (undef) (zeros here)
SVector{N, T}(x1, x2, xs...) where {N, T} = SVector{N, T}(__sa_convert(T, (x1, x2, xs...)))
SVector(x1, x2, xs...) = SVector((x1, x2, xs...))
SVector(t::NTuple{N, T}) where {N, T} = SVector{N, T}(t)
# SVector{3}(x, y, z): the element type is the values' promoted type, as StaticArrays has it
SVector{N}(x1, x2, xs...) where {N} = SVector{N, __sa_promote(x1, x2, xs...)}(x1, x2, xs...)
SVector{N}(t::NTuple{N, T}) where {N, T} = SVector{N, T}(t)
SVector{N, T}(::UndefInitializer) where {N, T} = SVector{N, T}(__sa_fill(zero(T), Val(N)))
MVector{N, T}(x1, x2, xs...) where {N, T} = MVector{N, T}(__sa_convert(T, (x1, x2, xs...)))
MVector(x1, x2, xs...) = MVector((x1, x2, xs...))
MVector(t::NTuple{N, T}) where {N, T} = MVector{N, T}(t)
MVector{N}(x1, x2, xs...) where {N} = MVector{N, __sa_promote(x1, x2, xs...)}(x1, x2, xs...)
MVector{N}(t::NTuple{N, T}) where {N, T} = MVector{N, T}(t)
MVector{N, T}(::UndefInitializer) where {N, T} = MVector{N, T}(__sa_fill(zero(T), Val(N)))
SMatrix{N, M, T}(::UndefInitializer) where {N, M, T} = SMatrix{N, M, T}(__sa_fill(__sa_fill(zero(T), Val(N)), Val(M)))
MMatrix{N, M, T}(::UndefInitializer) where {N, M, T} = MMatrix{N, M, T}(__sa_fill(__sa_fill(zero(T), Val(N)), Val(M)))

# @SVector zeros(T, n), @MMatrix ones(T, n, m), @MVector fill(x, n): x repeated, as StaticArrays' macros make
# them of these calls (compiler/lower.c passes the sizes as Val)
__sa_make(::Type{SVector}, x::T, ::Val{N}) where {T, N} = SVector{N, T}(__sa_fill(x, Val(N)))
__sa_make(::Type{MVector}, x::T, ::Val{N}) where {T, N} = MVector{N, T}(__sa_fill(x, Val(N)))
__sa_make(::Type{SMatrix}, x::T, ::Val{N}, ::Val{M}) where {T, N, M} = SMatrix{N, M, T}(__sa_fill(__sa_fill(x, Val(N)), Val(M)))
__sa_make(::Type{MMatrix}, x::T, ::Val{N}, ::Val{M}) where {T, N, M} = MMatrix{N, M, T}(__sa_fill(__sa_fill(x, Val(N)), Val(M)))

# indexing (checked, as the tuple's), length, size, iteration, conversion to a tuple
getindex(v::SVector, i::Integer) = v.data[i]
getindex(v::MVector, i::Integer) = v.data[i]
# x[i] = v on a variable holding an MVector or MMatrix is x = __sa_setindex(x, v, i) (compiler/lower.c):
# juke keeps mutable structs as values, so the update is a new array in the variable
__sa_setindex(v::MVector{N, T}, x, i::Integer) where {N, T} = MVector{N, T}(__sa_set(v.data, convert(T, x), i))
getindex(A::SMatrix, i::Integer, j::Integer) = A.data[j][i]
getindex(A::MMatrix, i::Integer, j::Integer) = A.data[j][i]
getindex(A::SMatrix{N, M, T}, k::Integer) where {N, M, T} = A.data[(k - 1) ÷ N + 1][(k - 1) % N + 1]
getindex(A::MMatrix{N, M, T}, k::Integer) where {N, M, T} = A.data[(k - 1) ÷ N + 1][(k - 1) % N + 1]
__sa_setindex(A::MMatrix{N, M, T}, x, i::Integer, j::Integer) where {N, M, T} =
    MMatrix{N, M, T}(__sa_set(A.data, __sa_set(A.data[j], convert(T, x), i), j))
__sa_setindex(A::MMatrix{N, M, T}, x, k::Integer) where {N, M, T} = __sa_setindex(A, x, (k - 1) % N + 1, (k - 1) ÷ N + 1)
length(v::SVector{N, T}) where {N, T} = N
length(v::MVector{N, T}) where {N, T} = N
length(A::SMatrix{N, M, T}) where {N, M, T} = N * M
length(A::MMatrix{N, M, T}) where {N, M, T} = N * M
size(v::SVector{N, T}) where {N, T} = (N,)
size(v::MVector{N, T}) where {N, T} = (N,)
size(A::SMatrix{N, M, T}) where {N, M, T} = (N, M)
size(A::MMatrix{N, M, T}) where {N, M, T} = (N, M)
size(A::Union{SMatrix, MMatrix}, d::Integer) = d <= 2 ? size(A)[d] : 1
# 1-based, as every StaticArray is
firstindex(v::Union{SVector, MVector, SMatrix, MMatrix}) = 1
lastindex(v::Union{SVector, MVector, SMatrix, MMatrix}) = length(v)
eltype(v::SVector{N, T}) where {N, T} = T
eltype(v::MVector{N, T}) where {N, T} = T
eltype(A::SMatrix{N, M, T}) where {N, M, T} = T
eltype(A::MMatrix{N, M, T}) where {N, M, T} = T
Tuple(v::SVector) = v.data
Tuple(v::MVector) = v.data
iterate(v::SVector) = iterate(v.data)
iterate(v::SVector, i) = iterate(v.data, i)
iterate(v::MVector) = iterate(v.data)
iterate(v::MVector, i) = iterate(v.data, i)
sum(v::SVector) = sum(v.data)
sum(v::MVector) = sum(v.data)
sum(A::SMatrix) = sum(map(sum, A.data))
sum(A::MMatrix) = sum(map(sum, A.data))

# vector arithmetic: elementwise + and -, scaling by a number; the result an SVector (as StaticArrays')
+(a::SVector, b::SVector) = SVector(a.data .+ b.data)
-(a::SVector, b::SVector) = SVector(a.data .- b.data)
+(a::MVector, b::MVector) = SVector(a.data .+ b.data)
-(a::MVector, b::MVector) = SVector(a.data .- b.data)
-(a::SVector) = SVector(broadcast(-, a.data))
*(s::Number, v::SVector) = SVector(s .* v.data)
*(v::SVector, s::Number) = SVector(v.data .* s)
*(s::Number, v::MVector) = SVector(s .* v.data)
*(v::MVector, s::Number) = SVector(v.data .* s)
/(v::SVector, s::Number) = SVector(v.data ./ s)
/(v::MVector, s::Number) = SVector(v.data ./ s)
function dot(a::SVector, b::SVector)
    return sum(a.data .* b.data)
end

# sort of a static vector, a new one (StaticArrays' sort; stable, as base/prelude.jl's sort of a tuple is);
# sort!(v) of a variable holding an MVector is v = sort(v) (compiler/lower.c), as the array is a value here
sort(v::SVector{N, T}; lt = isless, by = identity, rev = nothing, order = Forward) where {N, T} =
    SVector{N, T}(sort(v.data; lt = lt, by = by, rev = rev, order = order))
sort(v::MVector{N, T}; lt = isless, by = identity, rev = nothing, order = Forward) where {N, T} =
    MVector{N, T}(sort(v.data; lt = lt, by = by, rev = rev, order = order))
# the k-th element in that order (Base's partialsort of an AbstractVector, which copies)
partialsort(v::Union{SVector, MVector}, k::Integer; lt = isless, by = identity, rev = nothing, order = Forward) =
    sort(v.data; lt = lt, by = by, rev = rev, order = order)[k]
