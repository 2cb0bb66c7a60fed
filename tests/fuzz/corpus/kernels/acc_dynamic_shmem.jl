#sig reverse_groups! Vector{Float32}; Vector{Float32}
# Reverse each workgroup's slice through dynamic local memory sized at launch (shmem).
function reverse_groups!(y, x)
    n = workgroupDim().x
    t = workitemIdx().x
    buf = @ROCDynamicLocalArray(Float32, n, false)
    i = (workgroupIdx().x - 1) * n + t
    @inbounds buf[t] = x[i]
    sync_workgroup()
    @inbounds y[i] = buf[n - t + 1]
    return
end
