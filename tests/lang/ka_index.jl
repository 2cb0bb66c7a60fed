# KernelAbstractions kernels: @index in each scope and kind, ndranges that are not multiples of the
# groupsize (padding work-items do not run the body), @Const, and the qualified and short forms.
using KernelAbstractions
import KernelAbstractions as KA

@kernel function index_linear_global(A)
    I = @index(Global, Linear)
    A[I] = I
end
# run: index_linear_global(A = zeros(Int64, 7, 7)) groupsize 8 ndrange 49
# expect A: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49]

@kernel function index_linear_local(A)
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    A[I] = i
end
# run: index_linear_local(A = zeros(Int64, 13)) groupsize 4 ndrange 13
# expect A: [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1]

@kernel function index_linear_group(A)
    I = @index(Global, Linear)
    A[I] = @index(Group, Linear)
end
# run: index_linear_group(A = zeros(Int64, 10)) groupsize 3 ndrange 10
# expect A: [1, 1, 1, 2, 2, 2, 3, 3, 3, 4]

# 2-D: the global Cartesian index from the group and local ones, column-major linear indices
@kernel function index_cartesian(A, B, C)
    I = @index(Global, Cartesian)
    i, j = @index(Local, NTuple)
    g = @index(Group, Cartesian)
    A[I] = 100 * I[1] + I[2]
    B[I[1], I[2]] = 10 * i + j
    C[I] = 10 * g[1] + g[2] + 1000 * @index(Global, Linear)
end
# run: index_cartesian(A = zeros(Int64, 3, 5), B = zeros(Int64, 3, 5), C = zeros(Int64, 3, 5)) groupsize 2,2 ndrange 3,5
# expect A: [101, 201, 301, 102, 202, 302, 103, 203, 303, 104, 204, 304, 105, 205, 305]
# expect B: [11, 21, 11, 12, 22, 12, 11, 21, 11, 12, 22, 12, 11, 21, 11]
# expect C: [1011, 2011, 3021, 4011, 5011, 6021, 7012, 8012, 9022, 10012, 11012, 12022, 13013, 14013, 15023]

@kernel function constarg(A, @Const(B))
    I = @index(Global)
    @inbounds A[I] = B[I] * 2f0
end
# run: constarg(A = zeros(Float32, 5), B = Float32[1.5, 2.5, -3, 4, 0.25]) ndrange 5
# expect A: [3.0, 5.0, -6.0, 8.0, 0.5]

# the ndrange and group size as tuples; the default groupsize when none is given
@kernel inbounds=true function sizes(A)
    I = @index(Global, Linear)
    nd = @ndrange()
    A[I] = nd[1] * 1000 + prod(@groupsize())
end
# run: sizes(A = zeros(Int64, 6)) groupsize 4 ndrange 6
# expect A: [6004, 6004, 6004, 6004, 6004, 6004]
# run: sizes(A = zeros(Int64, 6)) ndrange 6
# expect A: [6006, 6006, 6006, 6006, 6006, 6006]

KA.@kernel function qualified(A, v)
    A[@index(Global)] += v
end
# run: qualified(A = Int32[1, 2, 3], v = Int32(5)) ndrange 3
# expect A: [6, 7, 8]

KernelAbstractions.@kernel cpu=false short(A) = A[@index(Global)] = -1
# run: short(A = Int64[5, 5, 5, 5]) ndrange 2
# expect A: [-1, -1, 5, 5]

# an empty ndrange runs nothing
@kernel function empty_range(A)
    A[1] = 99
end
# run: empty_range(A = Int64[0]) ndrange 0
# expect A: [0]

# KernelAbstractions' examples/matmul.jl: CartesianIndices of the output at the global linear index
@kernel function matmul!(a, b, c)
    cI = CartesianIndices(c)[@index(Global)]
    tmp = zero(eltype(c))
    for i = 1:size(a)[2]
        tmp += a[cI[1], i] * b[i, cI[2]]
    end
    c[cI] = tmp
end
# run: matmul!(a = reshape(Float64[1, 2, 3, 4, 5, 6], 2, 3), b = reshape(Float64[1, 2, 3, 4, 5, 6], 3, 2), c = zeros(Float64, 2, 2)) ndrange 2,2
# expect c: [22.0, 28.0, 49.0, 64.0]
