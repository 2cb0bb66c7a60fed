# AMDGPU.jl 0.5's @ROCDynamicLocalArray(T, dims, zeroinit, offset): two arrays in the launch's dynamic local
# memory, the second offset bytes after the first and zeroed by the group; and Base.FastMath's functions by
# name (what @fastmath rewrites max, abs, < ... to), computed as IEEE.
function two_arrays!(out, x)
    i = workitemIdx().x
    n = workgroupDim().x
    a = @ROCDynamicLocalArray(Float32, n, false)
    b = @ROCDynamicLocalArray(Int32, n, true, n * sizeof(Float32))
    a[i] = x[i]
    b[i] += Int32(i)
    sync_workgroup()
    out[i] = a[n-i+1] + b[n-i+1]
    return
end
# run: two_arrays!(out = zeros(Float32, 4), x = Float32[0.5, 1.5, 2.5, 3.5]) groupsize 4 shmem 32
# expect out: [7.5, 5.5, 3.5, 1.5]

function fast_names!(out, x)
    i = workitemIdx().x
    v = x[i]
    out[1, i] = Base.FastMath.max_fast(v, 0.5) + Base.FastMath.min_fast(v, 0.5)
    out[2, i] = Base.FastMath.abs_fast(v) + Base.FastMath.sign_fast(v)
    out[3, i] = Base.FastMath.lt_fast(v, 0.0) + 2 * Base.FastMath.eq_fast(v, v)
    out[4, i] = Base.FastMath.rem_fast(v, 1.0) + Base.FastMath.cbrt_fast(8.0)
    return nothing
end
# run: fast_names!(out = zeros(Float64, 4, 3), x = Float64[2.0, -1.5, 0.25]) groupsize 3
# expect out: [2.5, 3.0, 2.0, 2.0, -1.0, 0.5, 3.0, 1.5, 0.75, 1.25, 2.0, 2.25]
