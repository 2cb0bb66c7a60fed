# Atomic max and min of floats are Julia's max and min (Atomix's CAS loop around them): a NaN from any work-item
# wins, and -0.0 orders below 0.0, in global and local memory, for Float16, Float32 and Float64 alike. The value
# the update returns is the stored one.

function fmaxmin!(m, r, x)
    i = workitemIdx().x
    v = x[i]
    AMDGPU.@atomic max(m[1], v)
    AMDGPU.@atomic min(m[2], v)
    s = @ROCStaticLocalArray(eltype(m), 2)
    if i == 1
        s[1] = x[1]
        s[2] = x[1]
    end
    sync_workgroup()
    AMDGPU.@atomic max(s[1], v)
    AMDGPU.@atomic min(s[2], v)
    sync_workgroup()
    if i == 1
        r[1] = s[1]
        r[2] = s[2]
    end
    return nothing
end
# run: fmaxmin!(m = Float32[-3.5, 9.25], r = zeros(Float32, 2), x = Float32[0.75, -1.5, NaN, 2.25, -0.5]) groupsize 5
# expect m: [NaN, NaN]
# expect r: [NaN, NaN]
# run: fmaxmin!(m = Float64[0.0, 0.0], r = zeros(Float64, 2), x = Float64[0.0, -0.0, -0.0, 0.0]) groupsize 4
# expect m: [0.0, -0.0]
# expect r: [0.0, -0.0]
# run: fmaxmin!(m = Float64[-0.0, -0.0], r = zeros(Float64, 2), x = Float64[-0.0, 0.0, -0.0]) groupsize 3
# expect m: [0.0, -0.0]
# expect r: [0.0, -0.0]
# run: fmaxmin!(m = Float16[0.5, 0.5], r = zeros(Float16, 2), x = Float16[0.5, -2.25, 3.75, 1.0, -0.125, 2.5]) groupsize 6
# expect m: [3.75, -2.25]
# expect r: [3.75, -2.25]
# run: fmaxmin!(m = Float16[NaN, 1.0], r = zeros(Float16, 2), x = Float16[1.5, -7.0]) groupsize 2
# expect m: [NaN, -7.0]
# expect r: [1.5, -7.0]

# the value after the update, as AMDGPU.@atomic returns it
function fmax_new!(out, m, x)
    i = workitemIdx().x
    v = AMDGPU.@atomic max(m[i], x[i])
    out[i] = v
    return nothing
end
# run: fmax_new!(out = zeros(Float32, 4), m = Float32[1.0, NaN, -0.0, 2.0], x = Float32[NaN, 3.0, 0.0, -1.0]) groupsize 4
# expect out: [NaN, NaN, 0.0, 2.0]
# expect m: [NaN, NaN, 0.0, 2.0]
