# A KernelAbstractions kernel that gets its CartesianIndex values only from a CartesianIndices argument and
# never names the type: Julia's CartesianIndex arithmetic (+, -, max, min) still applies to them.
using KernelAbstractions

@kernel function corner_codes!(out, Rows, Cols, lo, hi)
    i = @index(Global, Linear)
    I = Rows[i]
    J = Cols[i]
    K = max(I, J) - min(I, J)
    L = max(min(I + J, hi), lo)
    out[i] = 1000 * K[1] + 100 * K[2] + 10 * L[1] + L[2]
end

# Rows = CartesianIndices((3, 2)), Cols = CartesianIndices((2, 3)): for i in 1:6, Rows[i] and Cols[i] column-major
# Rows: (1,1) (2,1) (3,1) (1,2) (2,2) (3,2); Cols: (1,1) (2,1) (1,2) (2,2) (1,3) (2,3)
# K = |I - J| elementwise; L = clamp(I + J, lo = (2, 3), hi = (4, 4)) elementwise
# run: corner_codes!(out = zeros(Int64, 6), Rows = CartesianIndices{2}((3, 2)), Cols = CartesianIndices{2}((2, 3)), lo = CartesianIndex(2, 3), hi = CartesianIndex(4, 4)) groupsize 4 ndrange 6
# expect out: [23, 43, 2143, 1034, 1134, 1144]
