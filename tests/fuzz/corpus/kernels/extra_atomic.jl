#sig count! Vector{Int64}; Vector{Float32}; Float32
function count!(c, x, t)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(x) && x[i] > t || i == 1
        AMDGPU.@atomic c[1] += 1
    end
    return
end
