#sig fill3! Array{Float32,3}; Float32
function fill3!(a, v)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    j = workitemIdx().y + (workgroupIdx().y - 1) * workgroupDim().y
    k = workitemIdx().z + (workgroupIdx().z - 1) * workgroupDim().z
    nx, ny, nz = size(a)
    if i <= nx && j <= ny && k <= nz
        @inbounds a[i, j, k] = v * Float32(i + j * nx + k * nx * ny) + Float32(gridGroupDim().x)
    end
    return
end
