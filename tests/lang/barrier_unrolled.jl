# Region shapes that appear once the CPU device unrolls short loops before it splits a kernel at its
# barriers: a loop of a constant trip count between two barriers inside an outer loop (the tiled matmul's
# shape), two barriers with nothing between them, private values indexed by constants across a barrier, and
# a bounds error inside the unrolled loop, still reported by its work-item at its line.

# a loop of four between two barriers, in a loop over tiles; a 2-D group, x fastest
function tile_rows!(out, x, ntiles)
    tx = workitemIdx().x
    ty = workitemIdx().y
    t = @ROCStaticLocalArray(Float32, (4, 2), false)
    acc = 0f0
    for r in 1:ntiles
        @inbounds t[tx, ty] = x[tx, ty] * Float32(r)
        sync_workgroup()
        for k in 1:4
            @inbounds acc += t[k, ty] * Float32(tx)
        end
        sync_workgroup()
    end
    @inbounds out[tx, ty] = acc
    return
end
# run: tile_rows!(out = zeros(Float32, 4, 2), x = reshape(Float32[1.5, 2, 3.25, 4, 0.5, 1, 2.5, 3], 4, 2), ntiles = 3) groupsize 4,2
# expect out: [64.5, 129.0, 193.5, 258.0, 42.0, 84.0, 126.0, 168.0]
# run: tile_rows!(out = zeros(Float32, 4, 2), x = reshape(Float32[1.5, 2, 3.25, 4, 0.5, 1, 2.5, 3], 4, 2), ntiles = 0) groupsize 4,2
# expect out: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]

# two barriers in a row: the value made before them is used after both
function double_barrier!(out, x)
    i = workitemIdx().x
    n = workgroupDim().x
    s = @ROCStaticLocalArray(Int32, 8, false)
    v = x[i] * Int32(3)
    @inbounds s[i] = v
    sync_workgroup()
    sync_workgroup()
    @inbounds out[i] = s[n-i+1] - v
    return
end
# run: double_barrier!(out = zeros(Int32, 6), x = Int32[5, -2, 7, 1, 9, 4]) groupsize 6
# expect out: [-3, 33, -18, 18, -33, 3]

# a tuple of each work-item's own, read at constant indices after the barrier
function tuple_across!(out, x)
    i = workitemIdx().x
    n = workgroupDim().x
    s = @ROCStaticLocalArray(Float64, 4, false)
    p = (x[i], x[i] * 2.0, x[i] + 0.5)
    @inbounds s[i] = p[2]
    sync_workgroup()
    acc = 0.0
    for k in 1:3
        acc += p[k]
    end
    @inbounds out[i] = acc + s[n-i+1]
    return
end
# run: tuple_across!(out = zeros(Float64, 4), x = Float64[1.25, 2.5, -3, 4.75]) groupsize 4
# expect out: [15.0, 4.5, -6.5, 22.0]

# work-item 3 reads past the local array in the unrolled loop's last trip
function oob_in_tile!(out, x)
    i = workitemIdx().x
    s = @ROCStaticLocalArray(Int64, 4, false)
    @inbounds s[i] = x[i]
    sync_workgroup()
    acc = 0
    for k in 1:4
        acc += s[k+(i == 3 ? 1 : 0)]
    end
    sync_workgroup()
    @inbounds out[i] = acc
    return
end
# run: oob_in_tile!(out = zeros(Int64, 4), x = Int64[3, 1, 4, 1]) groupsize 4
# expect exception: at index [5]
# expect exception at: 69:16
