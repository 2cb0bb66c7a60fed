#sig histogram! Vector{Int32}; Vector{Int32}
# Histogram with atomic increments; data holds bin numbers 1..length(bins).
function histogram!(bins, data)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if i <= length(data)
        @inbounds b = data[i]
        AMDGPU.@atomic bins[b] += Int32(1)
    end
    return
end
