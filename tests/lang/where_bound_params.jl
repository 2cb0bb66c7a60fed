# A where-parameter bound to another's parametric type binds that one too, as Julia's dispatch
# does: `::Type{D}) where {N, D <: AbstractShape{N}}` gives N for D = Plane <: AbstractShape{2}, as
# do `::Type{<:AbstractShape{N}}` and `x::AbstractShape{N}` (the argument's supertypes are walked).
# A struct's supertype may name its own parameters (`Scale{S, K} <: AbstractOp{S}`).
abstract type AbstractShape{N} end
struct Line <: AbstractShape{1} end
struct Plane <: AbstractShape{2} end
abstract type AbstractOp{S <: AbstractShape} end
struct Scale{S <: AbstractShape, K} <: AbstractOp{S} end

ndims_of(::Type{<:AbstractShape{N}}) where {N} = N
ndims_of2(x::AbstractShape{N}) where {N} = N
opdims(::Type{<:AbstractOp{S}}) where {S} = ndims_of(S)
factor(::Type{Scale{S, K}}) where {S, K} = K
weight(::Val{1}) = 7
weight(::Val{2}) = 5

function dims!(out, x, ::Type{S}) where {N, S <: AbstractShape{N}}
    i = workitemIdx().x
    out[i] = (N * 100 + ndims_of(S) * 10 + ndims_of2(S()) + opdims(Scale{S, 3})) * x[i] +
             factor(Scale{S, 4}) + weight(Val(N))
    return nothing
end
# run: dims!(out = zeros(Int64, 2), x = Int64[3, -2], s = Type{Plane}) groupsize 2
# expect out: [681, -439]
# run: dims!(out = zeros(Int64, 2), x = Int64[2, 5], s = Type{Line}) groupsize 2
# expect out: [235, 571]
