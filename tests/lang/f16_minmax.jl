# max and min of Float16 values (v_max_f16 / v_min_f16 on AMDGPU), -0.0 below 0.0 and NaN propagating as in Julia.
function f16_minmax!(hi, lo, a, b)
    i = workitemIdx().x
    hi[i] = max(a[i], b[i])
    lo[i] = min(a[i], b[i])
    return
end
# run: f16_minmax!(hi = zeros(Float16, 4), lo = zeros(Float16, 4), a = Float16[1.5, -2, 0.0, 3], b = Float16[2.25, -3, -0.0, NaN]) groupsize 4
# expect hi: [2.25, -2, 0.0, NaN]
# expect lo: [1.5, -3, -0.0, NaN]
