# CartesianIndex arithmetic (base/multidimensional.jl), an extension of the Base prelude (prelude.h) for the
# files that name CartesianIndex, CartesianIndices, Cartesian (KernelAbstractions' @index) or oneunit: defining
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
