# Every index intrinsic and alias, on a 3-D launch of (2,3,2) work-items and (3,2,2) groups
# (gridItemDim() = (6, 6, 4): 144 work-items, each writing its own element).
function indices!(o)
    tx = workitemIdx().x; ty = workitemIdx().y; tz = workitemIdx().z
    gx = workgroupIdx().x; gy = workgroupIdx().y; gz = workgroupIdx().z
    dx = workgroupDim().x; dy = workgroupDim().y; dz = workgroupDim().z
    nx = gridItemDim().x; ny = gridItemDim().y
    i = (gx - 1) * dx + tx
    j = (gy - 1) * dy + ty
    k = (gz - 1) * dz + tz
    lin = i + (j - 1) * nx + (k - 1) * nx * ny
    same = threadIdx().x == tx && blockIdx().y == gy && blockDim().z == dz
    o[lin] = same ? 1000 * gridGroupDim().x + 100 * gridGroupDim().y + 10 * gridGroupDim().z + gridItemDim().z ÷ 4 : -1
    return nothing
end
# run: indices!(o = zeros(Int64, 144)) groupsize 2,3,2 gridsize 3,2,2
# expect o: [3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221, 3221]
