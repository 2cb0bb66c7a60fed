# Values live across barriers that the CPU device keeps once per group when every work-item holds them
# alike (a loop's counter and scale computed from arguments and constants), and per work-item when they
# differ: set in a branch on the item's index, or counted in a loop whose trip count is the item's.

# the scale and the shift are alike in every item; the values they move are not
function uniform_steps!(out, x, steps)
    i = workitemIdx().x
    n = workgroupDim().x
    s = @ROCStaticLocalArray(Float64, 8, false)
    @inbounds s[i] = x[i]
    scale = 1.0
    shift = 1
    for r in 1:steps
        sync_workgroup()
        @inbounds v = s[(i+shift-1)%n+1] * scale
        sync_workgroup()
        @inbounds s[i] = v
        scale *= 2.0
        shift += r
    end
    sync_workgroup()
    @inbounds out[i] = s[i] + scale
    return
end
# run: uniform_steps!(out = zeros(Float64, 4), x = Float64[1.5, 2, -3, 4.25], steps = 3) groupsize 4
# expect out: [42.0, 20.0, 24.0, -16.0]

# set in both branches of an `if` on the item's index
function split_value!(out, x)
    i = workitemIdx().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    if i % 2 == 0
        k = 10
    else
        k = 20
    end
    @inbounds s[i] = x[i]
    sync_workgroup()
    @inbounds out[i] = s[9-i] + k
    return
end
# run: split_value!(out = zeros(Int64, 8), x = Int64[3, 1, 4, 1, 5, 9, 2, 6]) groupsize 8
# expect out: [26, 12, 29, 15, 21, 14, 21, 13]

# counted in a loop that runs as many times as the item's index
function count_up!(out, x)
    i = workitemIdx().x
    n = workgroupDim().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    j = 0
    k = 1
    while k <= i
        j += x[k]
        k += 1
    end
    @inbounds s[i] = j * 3
    sync_workgroup()
    @inbounds out[i] = s[n-i+1] + j
    return
end
# run: count_up!(out = zeros(Int64, 6), x = Int64[2, 7, 1, 8, 2, 8]) groupsize 6
# expect out: [86, 69, 64, 48, 47, 34]
