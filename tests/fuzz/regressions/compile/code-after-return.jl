#sig indices3d! Array{Int64,3}
# Every index intrinsic in three dimensions, tuple destructuring and a 3-D array.
function indices3d!(out)
    tx, ty, tz = workitemIdx().x, workitemIdx().y, workitemIdx().z
    gx, gy, gz = workgroupIdx().x, workgroupIdx().y, workgroupIdx().z
    dx, dy, dz = workgroupDim().x, workgroupDim().y, workgroupDim().z
    i = (gx - 1) * dx + tx
    j = (gy - 1) * dy + ty
    k = (gz - 1) * dz + tz
    if i <= size(out, 1) && j <= size(out, 2) && k <= size(out, 3)
        @inbounds out[i, j, k] = i + 100 * j + 10000 * k + 1000000 * (gridGroupDim().x - 1)
    end
    return
    i = workitemIdx().x
end
