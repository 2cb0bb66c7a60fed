# @ROCStaticLocalArray: zeroinit defaults to true; with false the contents are
# whatever is written before reading; shared by a workgroup with sync_workgroup.
function static_local!(y, z)
    i = workitemIdx().x
    n = workgroupDim().x
    zs = @ROCStaticLocalArray(Int32, 64)          # zero-initialised
    z[i] = zs[i]
    tmp = @ROCStaticLocalArray(Float32, (64,), false)
    tmp[i] = i * 1.5f0
    sync_workgroup()
    y[i] = tmp[n + 1 - i]                         # reversed
    grid = @ROCStaticLocalArray(Int64, (4, 4))
    if i <= 4
        grid[i, i] = i
    end
    sync_workgroup()
    if i == 1
        s = 0
        for q in 1:16
            s += grid[q]
        end
        z[1] = s + length(grid) * 100             # 10 + 1600
    end
    return nothing
end
# run: static_local!(y = zeros(Float32, 8), z = Int32[5, 5, 5, 5, 5, 5, 5, 5]) groupsize 8
# expect y: [12, 10.5, 9, 7.5, 6, 4.5, 3, 1.5]
# expect z: [1610, 0, 0, 0, 0, 0, 0, 0]
