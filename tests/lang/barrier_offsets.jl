# Guards on the global index `(group - 1) * n + item` against a bound: the offset is alike in every item of
# a group but no constant, and the CPU device splits the round's item loop where the guard changes
# (compiler/cpu_split.c), in the round before the first barrier as in later ones. The split falls inside
# one group, past the last item of another and before the first item of a third. Helpers kept out of line
# (@noinline) read the item's index through the state after a barrier, and report errors from it.

# the load of a group's slice, zero past the end, before the first barrier (block_sum's first round)
function load_guard!(out, x)
    t = workitemIdx().x
    n = workgroupDim().x
    j = (workgroupIdx().x - 1) * n + t
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[t] = j <= length(x) ? x[j] : 0
    sync_workgroup()
    @inbounds out[j] = s[n+1-t] * 10 + t
    return
end
# run: load_guard!(out = zeros(Int64, 16), x = Int64[31, -17, 52, 8, -44, 29, 73, -6, 15, 61]) groupsize 4 gridsize 4
# expect out: [81, 522, -167, 314, -59, 732, 293, -436, 1, 2, 613, 154, 1, 2, 3, 4]

# `j > k` after a barrier, both branches storing: every item, a split inside the second group, none
function guard_offset!(out, x, k)
    t = workitemIdx().x
    n = workgroupDim().x
    j = (workgroupIdx().x - 1) * n + t
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[t] = x[j]
    sync_workgroup()
    if j > k
        @inbounds out[j] = s[n+1-t] * 3
    else
        @inbounds out[j] = s[t] - 1
    end
    return
end
# run: guard_offset!(out = zeros(Int64, 12), x = Int64[26, 38, -29, 39, 7, 42, -44, 8, 19, -53, 64, 11], k = -3) groupsize 4 gridsize 3
# expect out: [117, -87, 114, 78, 24, -132, 126, 21, 33, 192, -159, 57]
# run: guard_offset!(out = zeros(Int64, 12), x = Int64[26, 38, -29, 39, 7, 42, -44, 8, 19, -53, 64, 11], k = 0) groupsize 4 gridsize 3
# expect out: [117, -87, 114, 78, 24, -132, 126, 21, 33, 192, -159, 57]
# run: guard_offset!(out = zeros(Int64, 12), x = Int64[26, 38, -29, 39, 7, 42, -44, 8, 19, -53, 64, 11], k = 5) groupsize 4 gridsize 3
# expect out: [25, 37, -30, 38, 6, -132, 126, 21, 33, 192, -159, 57]
# run: guard_offset!(out = zeros(Int64, 12), x = Int64[26, 38, -29, 39, 7, 42, -44, 8, 19, -53, 64, 11], k = 6) groupsize 4 gridsize 3
# expect out: [25, 37, -30, 38, 6, 41, 126, 21, 33, 192, -159, 57]
# run: guard_offset!(out = zeros(Int64, 12), x = Int64[26, 38, -29, 39, 7, 42, -44, 8, 19, -53, 64, 11], k = 12) groupsize 4 gridsize 3
# expect out: [25, 37, -30, 38, 6, 41, -45, 7, 18, -54, 63, 10]
# run: guard_offset!(out = zeros(Int64, 12), x = Int64[26, 38, -29, 39, 7, 42, -44, 8, 19, -53, 64, 11], k = 40) groupsize 4 gridsize 3
# expect out: [25, 37, -30, 38, 6, 41, -45, 7, 18, -54, 63, 10]

# a bounds error in the guarded part: only the third group goes past the end, its second item first
function guard_offset_oob!(out, k)
    t = workitemIdx().x
    n = workgroupDim().x
    j = (workgroupIdx().x - 1) * n + t
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[t] = j
    sync_workgroup()
    if j > k
        out[j+3] = s[t]
    end
    return
end
# run: guard_offset_oob!(out = zeros(Int64, 12), k = 6) groupsize 4 gridsize 3
# expect exception: BoundsError: attempt to access 12-element ROCDeviceVector{Int64, 1} at index [13]
# expect exception at: 58:9

# a helper out of line reads the item's index itself, after the barrier
@noinline mirrored(n) = n + 1 - workitemIdx().x

function noinline_ids!(out, x)
    t = workitemIdx().x
    n = workgroupDim().x
    j = (workgroupIdx().x - 1) * n + t
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[t] = x[j]
    sync_workgroup()
    @inbounds out[j] = s[mirrored(n)] * 10 + t
    return
end
# run: noinline_ids!(out = zeros(Int64, 12), x = Int64[26, 38, -29, 39, 7, 42, -44, 8, 19, -53, 64, 11]) groupsize 4 gridsize 3
# expect out: [391, -288, 383, 264, 81, -438, 423, 74, 111, 642, -527, 194]

# a bounds error raised in a helper out of line, after the barrier
@noinline pick(a, k) = a[k]

function noinline_oob!(out, x, k)
    t = workitemIdx().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[t] = x[t]
    sync_workgroup()
    @inbounds out[t] = pick(x, t + k) + s[t]
    return
end
# run: noinline_oob!(out = zeros(Int64, 8), x = Int64[26, 38, -29, 39, 7, 42, -44, 8], k = 2) groupsize 8
# expect exception: BoundsError: attempt to access 8-element ROCDeviceVector{Int64, 1} at index [9]
# expect exception at: 83:24

# a three-dimensional group: the item's three indices after a barrier, inline and in a helper out of line
@noinline zyx() = workitemIdx().z * 100 + workitemIdx().y * 10 + workitemIdx().x

function swap3!(out)
    x = workitemIdx().x
    y = workitemIdx().y
    z = workitemIdx().z
    s = @ROCStaticLocalArray(Int64, (3, 2, 2), false)
    @inbounds s[x, y, z] = x * 100 + y * 10 + z
    sync_workgroup()
    g = workgroupIdx().x
    @inbounds out[x, y, z+2*(g-1)] = s[4-x, 3-y, 3-z] * 1000 + zyx()
    return
end
# run: swap3!(out = zeros(Int64, 3, 2, 4)) groupsize 3,2,2 gridsize 2
# expect out: [322111, 222112, 122113, 312121, 212122, 112123, 321211, 221212, 121213, 311221, 211222, 111223, 322111, 222112, 122113, 312121, 212122, 112123, 321211, 221212, 121213, 311221, 211222, 111223]
