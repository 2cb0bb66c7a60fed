# CartesianIndex arithmetic (base/multidimensional.jl), an extension of the Base prelude (prelude.h) for the
# files that name CartesianIndex, CartesianIndices, Cartesian (KernelAbstractions' @index) or oneunit, and files
# that use KernelAbstractions (whose kernels get CartesianIndex arguments they need not name): defining
# these operators in the prelude itself would make every file's `+` and `max` a prelude function, which the
# built-ins that take an operator (wfred(+, x), ...) do not read as theirs. Elementwise on the NTuple{N,Int64}
# that is a CartesianIndex{N} here. Comparisons other than == and != are the tuples' (lexicographic), not Julia's
# CartesianIndex order, so juke leaves < and isless of two indices to the tuples.
+(a::NTuple{N,Int64}, b::NTuple{N,Int64}) where {N} = map(+, a, b)
-(a::NTuple{N,Int64}, b::NTuple{N,Int64}) where {N} = map(-, a, b)
-(a::NTuple{N,Int64}) where {N} = map(-, a)
*(a::Integer, b::NTuple{N,Int64}) where {N} = _ci_scale(Int64(a), b)
*(a::NTuple{N,Int64}, b::Integer) where {N} = Int64(b) * a
min(a::NTuple{N,Int64}, b::NTuple{N,Int64}) where {N} = map(min, a, b)
max(a::NTuple{N,Int64}, b::NTuple{N,Int64}) where {N} = map(max, a, b)
zero(a::NTuple{N,Int64}) where {N} = ntuple(_ci_zero, Val(N))
_ci_scale(a::Int64, ::Tuple{}) = ()
_ci_scale(a::Int64, t::Tuple) = (a * t[1], _ci_scale(a, tail(t))...)
_ci_zero(d) = 0
# CartesianIndices over unit ranges, as a stencil writes its offsets (CartesianIndices((-1:1, -1:1)),
# base/multidimensional.jl): the first index and the lengths, column-major as CartesianIndices of dims are
struct CartesianRanges{N}
    start::NTuple{N,Int64}
    dims::NTuple{N,Int64}
end
CartesianIndices(r::Tuple{UnitRange{Int64}}) = CartesianRanges((first(r[1]),), (length(r[1]),))
CartesianIndices(r::Tuple{UnitRange{Int64}, UnitRange{Int64}}) =
    CartesianRanges((first(r[1]), first(r[2])), (length(r[1]), length(r[2])))
CartesianIndices(r::Tuple{UnitRange{Int64}, UnitRange{Int64}, UnitRange{Int64}}) =
    CartesianRanges((first(r[1]), first(r[2]), first(r[3])), (length(r[1]), length(r[2]), length(r[3])))
size(C::CartesianRanges) = C.dims
length(C::CartesianRanges) = prod(C.dims)
getindex(C::CartesianRanges, i::Integer) = map(_ci_offset, C.start, CartesianIndices(C.dims)[i])
_ci_offset(s, k) = s + k - 1
iterate(C::CartesianRanges) = length(C) < 1 ? nothing : (C[1], 2)
iterate(C::CartesianRanges, s::Int64) = s > length(C) ? nothing : (C[s], s + 1)
first(C::CartesianRanges) = C.start
firstindex(C::CartesianRanges) = 1
lastindex(C::CartesianRanges) = length(C)
last(C::CartesianRanges) = map(_ci_offset, C.start, C.dims)
first(C::CartesianIndices{N}) where {N} = ntuple(_ci_one, Val(N))
last(C::CartesianIndices) = C.dims
# I in C: every coordinate within its range
function in(I::NTuple{N,Int64}, C::CartesianIndices{N}) where {N}
    return all(map(_ci_within, I, ntuple(_ci_one, Val(N)), C.dims))
end
function in(I::NTuple{N,Int64}, C::CartesianRanges{N}) where {N}
    return all(map(_ci_within, I, C.start, last(C)))
end
_ci_within(i, lo, hi) = lo <= i <= hi
# a CartesianIndex{1} stored into an array of numbers is its one coordinate, as Base's
# convert(::Type{T}, ::CartesianIndex{1}) where {T<:Number} has it (AMDGPU.jl's findall kernel stores the
# keys CartesianIndices(bools)[i] of a vector into a Vector{Int})
setindex!(A::AbstractArray{T}, i::Tuple{Int64}, I::Integer...) where {T<:Number} = setindex!(A, i[1], I...)
