# Guards on the work-item's index against a value alike in every item, after a barrier: the CPU device runs
# such a round's items in two loops split where the guard changes, each without the test (compiler/
# cpu_split.c). The results, the order the items run in and the item that reports an error stay the same
# for every place the split can fall: before the first item, inside the group, after the last.

# a tree reduction in local memory: `i <= d` with d halved each round (and a group size that is no power of 2)
function tree_sum!(out, x)
    i = workitemIdx().x
    g = workgroupIdx().x
    n = workgroupDim().x
    s = @ROCStaticLocalArray(Int64, 64, false)
    @inbounds s[i] = x[(g-1)*n+i]
    d = n ÷ 2
    while d > 0
        sync_workgroup()
        if i <= d
            @inbounds s[i] += s[i+d]
        end
        d ÷= 2
    end
    sync_workgroup()
    if i == 1
        @inbounds out[g] = s[1]
    end
    return
end
# run: tree_sum!(out = zeros(Int64, 3), x = Int64[-72, 58, 80, 94, 67, 35, -36, -30, 89, -34, -25, 88, -81, 69, 16, -22, 20, 76, 2, 1, -69, -32, -42, -19, -8, -33, -7, 62, 62, 33, -61, -58, 42, 71, 70, -29, -57, -97, 67, -82, -68, 53, -13, -92, -78, -29, -47, -2]) groupsize 16 gridsize 3
# expect out: [296, -73, -291]
# run: tree_sum!(out = zeros(Int64, 4), x = Int64[-72, 58, 80, 94, 67, 35, -36, -30, 89, -34, -25, 88, -81, 69, 16, -22, 20, 76, 2, 1, -69, -32, -42, -19, -8, -33, -7, 62, 62, 33, -61, -58, 42, 71, 70, -29, -57, -97, 67, -82, -68, 53, -13, -92, -78, -29, -47, -2]) groupsize 12 gridsize 4
# expect out: [22, -85, 105, -485]

# `i < k` with both branches storing, k an argument: the split below the first item, inside, past the last
function guard_prefix!(out, x, k)
    i = workitemIdx().x
    n = workgroupDim().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[i] = x[i]
    sync_workgroup()
    if i < k
        @inbounds out[i] = s[n+1-i] * 3
    else
        @inbounds out[i] = s[i] - 1
    end
    return
end
# run: guard_prefix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = -2) groupsize 8
# expect out: [25, 37, 28, 38, 6, 41, 43, 7]
# run: guard_prefix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = 1) groupsize 8
# expect out: [25, 37, 28, 38, 6, 41, 43, 7]
# run: guard_prefix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = 5) groupsize 8
# expect out: [24, 132, 126, 21, 6, 41, 43, 7]
# run: guard_prefix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = 8) groupsize 8
# expect out: [24, 132, 126, 21, 117, 87, 114, 7]
# run: guard_prefix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = 9) groupsize 8
# expect out: [24, 132, 126, 21, 117, 87, 114, 78]
# run: guard_prefix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = 100) groupsize 8
# expect out: [24, 132, 126, 21, 117, 87, 114, 78]

# `i - 2 >= k`: the guard holds from the split on, the item's side below zero for the first items
function guard_suffix!(out, x, k)
    i = workitemIdx().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[i] = x[i]
    sync_workgroup()
    if i - 2 >= k
        @inbounds out[i] = s[i] + s[1]
    else
        @inbounds out[i] = -s[i]
    end
    return
end
# run: guard_suffix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = -5) groupsize 8
# expect out: [52, 64, 55, 65, 33, 68, 70, 34]
# run: guard_suffix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = 0) groupsize 8
# expect out: [-26, 64, 55, 65, 33, 68, 70, 34]
# run: guard_suffix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = 3) groupsize 8
# expect out: [-26, -38, -29, -39, 33, 68, 70, 34]
# run: guard_suffix!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = 7) groupsize 8
# expect out: [-26, -38, -29, -39, -7, -42, -44, -8]

# an unsigned comparison, the bound on the left, one far past any group
function guard_unsigned!(out, x, k)
    i = workitemIdx().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[i] = x[i]
    sync_workgroup()
    if k < (i % UInt32) + UInt32(1)
        @inbounds out[i] = s[9-i] * 2
    else
        @inbounds out[i] = s[i]
    end
    return
end
# run: guard_unsigned!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = UInt32(0)) groupsize 8
# expect out: [16, 88, 84, 14, 78, 58, 76, 52]
# run: guard_unsigned!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = UInt32(3)) groupsize 8
# expect out: [26, 38, 84, 14, 78, 58, 76, 52]
# run: guard_unsigned!(out = zeros(Int64, 8), x = Int64[26, 38, 29, 39, 7, 42, 44, 8], k = UInt32(4000000000)) groupsize 8
# expect out: [26, 38, 29, 39, 7, 42, 44, 8]

# a two-dimensional group: the x loop splits inside the y loop
function guard_2d!(out, k)
    tx = workitemIdx().x
    ty = workitemIdx().y
    s = @ROCStaticLocalArray(Int64, (4, 3), false)
    @inbounds s[tx, ty] = tx * 100 + ty * 7
    sync_workgroup()
    if tx <= k
        @inbounds out[tx, ty] = s[5-tx, ty] * 10 + ty
    else
        @inbounds out[tx, ty] = s[tx, ty]
    end
    return
end
# run: guard_2d!(out = zeros(Int64, 4, 3), k = 0) groupsize 4,3
# expect out: [107, 207, 307, 407, 114, 214, 314, 414, 121, 221, 321, 421]
# run: guard_2d!(out = zeros(Int64, 4, 3), k = 2) groupsize 4,3
# expect out: [4071, 3071, 307, 407, 4142, 3142, 314, 414, 4213, 3213, 321, 421]
# run: guard_2d!(out = zeros(Int64, 4, 3), k = 4) groupsize 4,3
# expect out: [4071, 3071, 2071, 1071, 4142, 3142, 2142, 1142, 4213, 3213, 2213, 1213]

# a bounds error in the guarded part: the first item past the end reports it, at its line
function guard_oob!(out, k)
    i = workitemIdx().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[i] = i
    sync_workgroup()
    if i > k
        out[i+2] = s[i]
    end
    return
end
# run: guard_oob!(out = zeros(Int64, 8), k = 3) groupsize 8
# expect exception: BoundsError: attempt to access 8-element ROCDeviceVector{Int64, 1} at index [9]
# expect exception at: 129:9
