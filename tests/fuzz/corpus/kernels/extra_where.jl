#sig scale_all! Vector{Float32}; Float32
#sig scale_all! Vector{Int64}; Int64
@inline twice(x::T) where {T<:Real} = x + x
function scale_all!(y::AbstractVector{T}, a::T) where {T}
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(y)
        @inbounds y[i] = twice(a) * y[i]
    end
    return nothing
end
