#sig memcopy! Vector{Float64}; Vector{Float64}
#sig memcopy! Vector{Float32}; Vector{Float32}
# The memcopy kernel of the bandwidth benchmarks.
function memcopy!(dst, src)
    ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if ix <= length(dst)
        @inbounds dst[ix] = src[ix]
    end
    return
end
