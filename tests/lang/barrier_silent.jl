# The CPU device's region kernels record a work-item's status only where not every item stops: a barrier or
# return that no branch differing between items decides is silent (every item that gets to one gets to the
# same), the others record theirs, and the workgroup function fills in the silent ones after a round that
# ends with the items at different places. Each shape here, over several groups: a uniform choice between
# two barriers, loops whose trip count differs between items before a barrier, returns that differ between
# items after the last barrier, an exception in some items while the others reach a silent barrier, and a
# barrier divergence in a later group than groups whose items recorded their statuses.

# a value alike in every item picks one of two barriers
function uniform_choice!(out, x, n)
    i = workitemIdx().x
    g = workgroupIdx().x
    gs = workgroupDim().x
    s = @ROCStaticLocalArray(Int64, 16, false)
    @inbounds s[i] = x[(g - 1) * gs + i]
    if n > 2
        sync_workgroup()
        v = s[gs + 1 - i] * 3
    else
        sync_workgroup()
        v = s[i % gs + 1] - 1
    end
    out[(g - 1) * gs + i] = v
    return
end

# run: uniform_choice!(out = zeros(Int64, 12), x = Int64[14, -3, 27, 8, -19, 5, 31, -7, 12, 22, -11, 6], n = 3) groupsize 4 gridsize 3
# expect out: [24, 81, -9, 42, -21, 93, 15, -57, 18, -33, 66, 36]
# run: uniform_choice!(out = zeros(Int64, 12), x = Int64[14, -3, 27, 8, -19, 5, 31, -7, 12, 22, -11, 6], n = 1) groupsize 4 gridsize 3
# expect out: [-4, 26, 7, 13, 4, 30, -8, -20, 21, -12, 5, 11]

# item i sums i values before the barrier: the loop's trip count differs, the barrier after it does not
function ragged_loop!(out, x)
    i = workitemIdx().x
    g = workgroupIdx().x
    gs = workgroupDim().x
    s = @ROCStaticLocalArray(Int64, 16, false)
    acc = 0
    for j in 1:i
        acc += x[(g - 1) * gs + j]
    end
    @inbounds s[i] = acc
    sync_workgroup()
    out[(g - 1) * gs + i] = s[gs + 1 - i] * 2 + i
    return
end

# run: ragged_loop!(out = zeros(Int64, 12), x = Int64[14, -3, 27, 8, -19, 5, 31, -7, 12, 22, -11, 6]) groupsize 6 gridsize 2
# expect out: [65, 56, 95, 80, 27, 34, 107, 96, 119, 76, 53, 68]

# after the last barrier, items past m return early: those returns are recorded, group after group
function tail_return!(out, x, m)
    i = workitemIdx().x
    g = workgroupIdx().x
    gs = workgroupDim().x
    s = @ROCStaticLocalArray(Int64, 16, false)
    @inbounds s[i] = x[(g - 1) * gs + i]
    sync_workgroup()
    v = s[gs + 1 - i]
    if i > m
        return
    end
    out[(g - 1) * gs + i] = v + i
    return
end

# run: tail_return!(out = zeros(Int64, 12), x = Int64[14, -3, 27, 8, -19, 5, 31, -7, 12, 22, -11, 6], m = 2) groupsize 4 gridsize 3
# expect out: [9, 29, 0, 0, -6, 33, 0, 0, 7, -9, 0, 0]
# run: tail_return!(out = zeros(Int64, 12), x = Int64[14, -3, 27, 8, -19, 5, 31, -7, 12, 22, -11, 6], m = 0) groupsize 4 gridsize 3
# expect out: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
# run: tail_return!(out = zeros(Int64, 12), x = Int64[14, -3, 27, 8, -19, 5, 31, -7, 12, 22, -11, 6], m = 4) groupsize 4 gridsize 3
# expect out: [9, 29, 0, 18, -6, 33, 8, -15, 7, -9, 25, 16]

# items 6..8 read past x's end while the others reach the (silent) barrier: the first of them raises
function exit_mixed!(out, x, k)
    i = workitemIdx().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    s[i] = x[i + k]
    sync_workgroup()
    out[i] = s[9 - i]
    return
end

# run: exit_mixed!(out = zeros(Int64, 8), x = Int64[5, 3, 8, 1, 9, 2, 7, 4], k = 0) groupsize 8
# expect out: [4, 7, 2, 9, 1, 8, 3, 5]
# run: exit_mixed!(out = zeros(Int64, 8), x = Int64[5, 3, 8, 1, 9, 2, 7, 4], k = 3) groupsize 8
# expect exception: BoundsError: attempt to access 8-element ROCDeviceVector{Int64, 1} at index [9]
# expect exception at: 78:12

# group g's items past 5 would return before the barrier (a divergence); no group is g here, but every
# group's items record their statuses at both stops, as the branch may differ between them
function late_divergence!(out, g)
    i = workitemIdx().x
    grp = workgroupIdx().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    @inbounds s[i] = i + 10 * grp
    if grp == g && i > 5
        return
    end
    sync_workgroup()
    v = s[9 - i]
    if i > 4
        return
    end
    out[(grp - 1) * 4 + i] = v
    return
end

# run: late_divergence!(out = zeros(Int64, 12), g = 4) groupsize 8 gridsize 3
# expect out: [18, 17, 16, 15, 28, 27, 26, 25, 38, 37, 36, 35]
# (with g = 3 the third group diverges: test_cpu_safety.c's late_divergence checks the report, which only the
# CPU device gives)
