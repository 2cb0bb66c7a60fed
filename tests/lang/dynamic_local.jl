# @ROCDynamicLocalArray: the size comes from the launch (shmem bytes).
function dynamic_local!(y, x)
    i = workitemIdx().x
    n = workgroupDim().x
    g = workgroupIdx().x
    buf = @ROCDynamicLocalArray(Float64, n)
    buf[i] = x[(g - 1) * n + i]
    sync_workgroup()
    y[(g - 1) * n + i] = buf[n + 1 - i] + buf[1]
    return nothing
end
# run: dynamic_local!(y = zeros(Float64, 8), x = Float64[1, 2, 3, 4, 5, 6, 7, 8]) groupsize 4 gridsize 2 shmem 32
# expect y: [5, 4, 3, 2, 13, 12, 11, 10]
