#sig tiled! Matrix{Float32}; Matrix{Float32}
const N = 16
const HALF = N ÷ 2
function tiled!(out, inp)
    tile = @ROCStaticLocalArray(Float32, (N, N), false)
    tx, ty = workitemIdx().x, workitemIdx().y
    gx = (workgroupIdx().x - 1) * N + tx
    gy = (workgroupIdx().y - 1) * N + ty
    if gx <= size(inp, 1) && gy <= size(inp, 2)
        tile[tx, ty] = inp[gx, gy]
    end
    sync_workgroup()
    if gx <= size(out, 1) && gy <= size(out, 2)
        out[gx, gy] = tile[tx, ty] * 2f0 + Float32(HALF)
    end
    return
end
