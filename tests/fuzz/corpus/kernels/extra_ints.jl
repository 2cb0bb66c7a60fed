#sig conv! Vector{UInt8}; Vector{Float64}
#sig conv! Vector{Int16}; Vector{Float32}
function conv!(dst::AbstractVector{T}, src) where {T}
    i = workitemIdx().x
    if i <= length(dst)
        v = src[i]
        o = one(eltype(dst))
        dst[i] = unsafe_trunc(eltype(dst), v) + o << 2 >>> 1
        x = ifelse(v > 0, typemax(eltype(dst)), typemin(eltype(dst)))
        dst[i] = max(min(dst[i], x), zero(o)) & ~o | (dst[i] ⊻ (o + o))
    end
    return
end
