# KernelAbstractions.@context passed to a helper that uses @index (test/test.jl), and
# Base._unsafe_getindex(IndexStyle(B), B, i) (test/unsafe_getindex.jl).
using KernelAbstractions

function fill_index(KernelAbstractions.@context, a, v)
    I = @index(Global, Linear)
    a[I] = v * I
    return
end

@kernel cpu = false function context_kernel!(a)
    fill_index(KernelAbstractions.@context, a, 7)
end
# run: context_kernel!(a = zeros(Int64, 6)) groupsize 4 ndrange 6
# expect a: [7, 14, 21, 28, 35, 42]

@kernel function unsafe_copy!(A, @Const(B))
    I = @index(Global, Linear)
    @inbounds A[I] = Base._unsafe_getindex(IndexStyle(B), B, I)[1] * 2
end
# run: unsafe_copy!(A = zeros(Float64, 5), B = Float64[1.5, 2, 3, 4, 5]) groupsize 2 ndrange 5
# expect A: [3, 4, 6, 8, 10]
