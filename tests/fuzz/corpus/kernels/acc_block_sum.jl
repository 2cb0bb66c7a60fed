#sig block_sum! Vector{Float32}; Vector{Float32}
# Per-workgroup sum with static local memory, barriers and a helper function.
@inline function tree_reduce!(shared, item, n)
    d = n ÷ 2
    while d > 0
        sync_workgroup()
        if item <= d
            @inbounds shared[item] += shared[item + d]
        end
        d ÷= 2
    end
    sync_workgroup()
    return nothing
end

function block_sum!(out, x)
    item = workitemIdx().x
    group = workgroupIdx().x
    n = workgroupDim().x
    shared = @ROCStaticLocalArray(Float32, 256, false)
    i = (group - 1) * n + item
    @inbounds shared[item] = i <= length(x) ? x[i] : 0f0
    tree_reduce!(shared, item, n)
    if item == 1
        @inbounds out[group] = shared[1]
    end
    return
end
