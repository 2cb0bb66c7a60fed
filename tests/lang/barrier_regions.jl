# Kernels with barriers, as the CPU device runs them: each workgroup as loops over its work-items, split at
# the barriers into rounds, with the values a work-item needs after a barrier kept per work-item. Barriers in
# loops and in both branches of a uniform `if`; values of every kind live across barriers.

# a barrier in a loop: each round reads what the other work-items wrote before the barrier
function loop_barrier!(out, x, rounds)
    i = workitemIdx().x
    n = workgroupDim().x
    tile = @ROCStaticLocalArray(Int64, 8, false)
    acc = 0
    for r in 1:rounds
        @inbounds tile[i] = x[i] * r
        sync_workgroup()
        @inbounds acc += tile[n - i + 1]
        sync_workgroup()
    end
    @inbounds out[i] = acc
    return
end
# run: loop_barrier!(out = zeros(Int64, 8), x = Int64[3, 1, 4, 1, 5, 9, 2, 6], rounds = 3) groupsize 8
# expect out: [36, 12, 54, 30, 6, 24, 6, 18]
# run: loop_barrier!(out = zeros(Int64, 8), x = Int64[3, 1, 4, 1, 5, 9, 2, 6], rounds = 0) groupsize 8
# expect out: [0, 0, 0, 0, 0, 0, 0, 0]

# a while loop whose trip count every work-item computes alike, the barrier at its top
function while_barrier!(out, x)
    i = workitemIdx().x
    s = @ROCStaticLocalArray(Float32, 16, false)
    @inbounds s[i] = x[i]
    d = workgroupDim().x ÷ 2
    while d > 0
        sync_workgroup()
        if i <= d
            @inbounds s[i] += s[i+d]
        end
        d ÷= 2
    end
    sync_workgroup()
    @inbounds out[i] = s[1] + Float32(i)
    return
end
# run: while_barrier!(out = zeros(Float32, 8), x = Float32[1.5, 2.5, 3.25, 4, 5, 6.5, 7, 8.75]) groupsize 8
# expect out: [39.5, 40.5, 41.5, 42.5, 43.5, 44.5, 45.5, 46.5]

# a barrier in both branches of an if that every work-item takes alike
function branch_barrier!(out, x, flag)
    i = workitemIdx().x
    n = workgroupDim().x
    s = @ROCStaticLocalArray(Float64, 8, false)
    if flag > 0
        @inbounds s[i] = x[i] * 2.0
        sync_workgroup()
        @inbounds out[i] = s[n-i+1] + 1.0
    else
        @inbounds s[i] = x[i] - 1.0
        sync_workgroup()
        @inbounds out[i] = s[i == n ? 1 : i + 1]
    end
    return
end
# run: branch_barrier!(out = zeros(Float64, 4), x = Float64[1.5, 2.25, 3, 4.75], flag = 1) groupsize 4
# expect out: [10.5, 7.0, 5.5, 4.0]
# run: branch_barrier!(out = zeros(Float64, 4), x = Float64[1.5, 2.25, 3, 4.75], flag = -1) groupsize 4
# expect out: [1.25, 2.0, 3.75, 0.5]

struct Pt
    a::Int32
    b::Float64
end

# values of every kind made before the barriers and used after them: integers of each width, floats,
# Bool, a tuple, a struct, a complex number, an array
function live_kinds!(out, x)
    i = workitemIdx().x
    t = (i, Float32(i) / 2f0, i % 2 == 0)
    p = Pt(Int32(i * 3), x[i] + 0.25)
    c = Complex(x[i], -x[i])
    u = UInt8(i + 200)
    h = Float16(i) * Float16(0.5)
    y = x
    sync_workgroup()
    k = i + 1
    sync_workgroup()
    out[i] = t[1] + t[2] + (t[3] ? 100 : 0) + p.a + p.b + real(c) - imag(c) + u + h + y[k-1] - x[i]
    return
end
# run: live_kinds!(out = zeros(Float64, 6), x = Float64[0.5, 1.5, 2.25, 3, 4.5, 5.75]) groupsize 6
# expect out: [207.75, 316.75, 225.0, 333.25, 243.75, 353.5]

# a 2-D group, x fastest: a value carried across a barrier inside a loop, the loop's bound from an argument
function grid2d_barrier!(out, n)
    tx = workitemIdx().x
    ty = workitemIdx().y
    s = @ROCStaticLocalArray(Int32, (4, 2), false)
    acc = Int32(0)
    for k in 1:n
        @inbounds s[tx, ty] = Int32(tx * 10 + ty * k)
        sync_workgroup()
        @inbounds acc += s[5-tx, 3-ty]
        sync_workgroup()
    end
    @inbounds out[tx, ty] = acc
    return
end
# run: grid2d_barrier!(out = zeros(Int32, 4, 2), n = 2) groupsize 4,2
# expect out: [86, 66, 46, 26, 83, 63, 43, 23]

# a bounds error after a barrier: reported at its line, by the work-item that made it
function oob_after_barrier!(out)
    i = workitemIdx().x
    s = @ROCStaticLocalArray(Int64, 4, false)
    @inbounds s[i] = i
    sync_workgroup()
    out[i+1] = s[i]
    return
end
# run: oob_after_barrier!(out = zeros(Int64, 4)) groupsize 4
# expect exception: BoundsError: attempt to access 4-element ROCDeviceVector{Int64, 1} at index [5]
# expect exception at: 114:5
