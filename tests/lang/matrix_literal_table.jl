# Matrix literals outside the kernels: a file may keep a host table in a `const` (rows by `;` or by a newline,
# elements by spaces, so `-1 -1` is two elements and `1 - 1` one), which the kernel gets as an argument. juke
# parses them as Julia's hvcat/hcat/vcat calls and, as the consts are never used in a kernel, leaves them alone.
using KernelAbstractions

const CASES::Array{Int32, 2} = [-1 -1 2;
3 0 -1
1 - 1 4 5] .+ 1

const ROW = [1 -2 +3]
const COL = [1; 2; 3]
const PAIRS = [
    0 1 ;
    1 2 ]

@kernel function lookup!(out, @Const(cases), @Const(keys))
    i = @index(Global, Linear)
    k = keys[i]
    out[i] = cases[k, 1] * 100 + cases[k, 2] * 10 + cases[k, 3]
end

# CASES = [0 0 3; 4 1 0; 1 5 6] (the third row is 1 - 1 = 0, 4, 5, plus one each)
# run: lookup!(out = zeros(Int32, 4), cases = reshape(Int32[0, 4, 1, 0, 1, 5, 3, 0, 6], 3, 3), keys = Int64[2, 3, 1, 2]) ndrange 4
# expect out: [410, 156, 3, 410]
