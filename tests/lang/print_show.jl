# @show as Julia's: the expression's text, " = ", the value as show prints it (Float32 with f0, Float16 as
# Float16(...)), from every work-item; @show returns the value. KernelAbstractions' test writes @show A[I...].
using KernelAbstractions

@kernel function index_show(A)
    I = @index(Global, NTuple)
    @show A[I...]
end
# run: index_show(A = Float32[1.5, 2, 1e10, -0.25]) groupsize 2 ndrange 4
# expect output: A[I...] = 1.5f0\nA[I...] = 2.0f0\nA[I...] = 1.0f10\nA[I...] = -0.25f0\n

function show_values!(out, a, h, n)
    i = workitemIdx().x
    x = @show a[i] * 2 + n
    @show h[i] i == 1 n % 2
    out[i] = x
    return nothing
end
# run: show_values!(out = zeros(Float64, 2), a = Float64[0.5, 3], h = Float16[1.5, -2], n = Int32(3)) groupsize 2
# expect output: a[i] * 2 + n = 4.0\nh[i] = Float16(1.5)\ni == 1 = true\nn % 2 = 1\n
# expect output: a[i] * 2 + n = 9.0\nh[i] = Float16(-2.0)\ni == 1 = false\nn % 2 = 1\n
# expect out: [4.0, 9.0]
