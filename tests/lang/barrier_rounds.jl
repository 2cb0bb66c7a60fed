# Rounds of the CPU device's region kernels: a round whose work-items all wait at one barrier runs that
# barrier's region alone (a loop of its own in the workgroup function, past the first eight barriers the
# general one); work-items that wait at two barriers of one source place (a function with a barrier called
# from both branches of an `if`) resume each at its own; a loop between two barriers keeps its checks.

# twelve barriers in a row: each stage reads the next work-item's value
function many_barriers!(out, x)
    i = workitemIdx().x
    n = workgroupDim().x
    s = @ROCStaticLocalArray(Int64, 8, false)
    j = i % n + 1
    v = x[i]
    @inbounds s[i] = v
    sync_workgroup()
    v = s[j] + 2v
    sync_workgroup()
    @inbounds s[i] = v
    sync_workgroup()
    v = s[j] + 2v
    sync_workgroup()
    @inbounds s[i] = v
    sync_workgroup()
    v = s[j] + 2v
    sync_workgroup()
    @inbounds s[i] = v
    sync_workgroup()
    v = s[j] + 2v
    sync_workgroup()
    @inbounds s[i] = v
    sync_workgroup()
    v = s[j] + 2v
    sync_workgroup()
    @inbounds s[i] = v
    sync_workgroup()
    v = s[j] + 2v
    sync_workgroup()
    @inbounds out[i] = v
    return
end
# run: many_barriers!(out = zeros(Int64, 6), x = Int64[3, 1, 4, 1, 5, 9]) groupsize 6
# expect out: [1915, 2449, 3284, 3773, 3185, 2161]

# one barrier in a function called from both branches of an `if` that the work-items take differently
function exchange(s, i, v)
    @inbounds s[i] = v
    sync_workgroup()
    @inbounds return s[5-i]
end

function same_place_barrier!(out, x)
    i = workitemIdx().x
    s = @ROCStaticLocalArray(Float32, 4, false)
    if i % 2 == 0
        r = exchange(s, i, x[i] * 2f0)
    else
        r = exchange(s, i, x[i] + 1f0)
    end
    @inbounds out[i] = r
    return
end
# run: same_place_barrier!(out = zeros(Float32, 4), x = Float32[1.5, 2.5, 3.5, 4.5]) groupsize 4
# expect out: [9.0, 4.5, 5.0, 2.5]

# a loop between two barriers, its bound the group's size
function inner_loop_barrier!(out, x)
    i = workitemIdx().x
    n = workgroupDim().x
    s = @ROCStaticLocalArray(Float32, 8, false)
    @inbounds s[i] = x[i]
    sync_workgroup()
    acc = 0f0
    for k in 1:n
        @inbounds acc += s[k] * Float32(i)
    end
    sync_workgroup()
    @inbounds s[i] = acc
    sync_workgroup()
    @inbounds out[i] = s[n-i+1]
    return
end
# run: inner_loop_barrier!(out = zeros(Float32, 4), x = Float32[1.25, 2, 3.5, 4]) groupsize 4
# expect out: [43.0, 32.25, 21.5, 10.75]
