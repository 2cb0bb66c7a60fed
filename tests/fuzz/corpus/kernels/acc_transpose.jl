#sig transpose! Matrix{Float32}; Matrix{Float32}
# Tiled transpose through a padded 2-D local-memory tile.
const TILE = 16

function transpose!(out, inp)
    tile = @ROCStaticLocalArray(Float32, (TILE, TILE + 1), false)
    tx = workitemIdx().x; ty = workitemIdx().y
    bx = workgroupIdx().x; by = workgroupIdx().y
    i = (bx - 1) * TILE + tx
    j = (by - 1) * TILE + ty
    if i <= size(inp, 1) && j <= size(inp, 2)
        @inbounds tile[tx, ty] = inp[i, j]
    end
    sync_workgroup()
    i2 = (by - 1) * TILE + tx
    j2 = (bx - 1) * TILE + ty
    if i2 <= size(out, 1) && j2 <= size(out, 2)
        @inbounds out[i2, j2] = tile[ty, tx]
    end
    return
end
