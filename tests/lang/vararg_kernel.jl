# A kernel whose last parameter is a vararg, `foreach_index!(f, xs...)`: the launch's values after the
# fixed ones form one tuple, which the code object takes as one parameter (JACC's AMDGPU back end
# launches `_parallel_for_amdgpu(f, x...)` with a user function f so). Uniform comparisons with 16-bit
# constants (s_cmpk_* on AMD) pick each work-item's case.
scale_add(i, alpha, x, y) = (@inbounds x[i] += alpha * y[i]; nothing)

function foreach_index!(f, xs...)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    f(i, xs...)
    return nothing
end
# run: foreach_index!(f = scale_add, alpha = Int32(3), x = Float64[1.5, -2, 4, 0.25], y = Float64[2, 0.5, -1, 8]) groupsize 2 gridsize 2
# expect x: [7.5, -0.5, 1.0, 24.25]

function classify!(out, n::Int32, m::UInt32)
    i = workitemIdx().x
    a = n > Int32(1000) ? 1 : n >= Int32(600) ? 2 : n < Int32(-40) ? 3 : n <= Int32(100) ? 4 : 5
    b = m > UInt32(3000) ? 10 : m >= UInt32(512) ? 20 : m < UInt32(7) ? 30 : m <= UInt32(99) ? 40 : 50
    out[i] = a + b + (n == Int32(700)) + (m != UInt32(512))
    return nothing
end
# run: classify!(out = zeros(Int64, 1), n = Int32(700), m = UInt32(512))
# expect out: [23]
# run: classify!(out = zeros(Int64, 1), n = Int32(-41), m = UInt32(3001))
# expect out: [14]
# run: classify!(out = zeros(Int64, 1), n = Int32(100), m = UInt32(99))
# expect out: [45]
# run: classify!(out = zeros(Int64, 1), n = Int32(150), m = UInt32(6))
# expect out: [36]
