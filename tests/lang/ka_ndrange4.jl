# KernelAbstractions ndranges of more than 3 dimensions: launched linearly, the groupsize (one number)
# shaped over the dimensions as KernelAbstractions' threads_to_workgroupsize does; @index Cartesian,
# Linear and NTuple, @groupsize() and @ndrange() are N-dimensional, as in Julia.
@kernel function index4!(A, L, G)
    I = @index(Global, Cartesian)
    A[I] = 1000 * I[1] + 100 * I[2] + 10 * I[3] + I[4]
    L[I] = @index(Global, Linear)
    G[I] = 100 * @index(Group, Linear) + @index(Local, Linear)
end
# run: index4!(A = zeros(Int64, 2, 3, 2, 3), L = zeros(Int64, 2, 3, 2, 3), G = zeros(Int64, 2, 3, 2, 3)) groupsize 4 ndrange 2,3,2,3
# expect A: [1111, 2111, 1211, 2211, 1311, 2311, 1121, 2121, 1221, 2221, 1321, 2321, 1112, 2112, 1212, 2212, 1312, 2312, 1122, 2122, 1222, 2222, 1322, 2322, 1113, 2113, 1213, 2213, 1313, 2313, 1123, 2123, 1223, 2223, 1323, 2323]
# expect L: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36]
# expect G: [101, 102, 103, 104, 201, 202, 301, 302, 303, 304, 401, 402, 501, 502, 503, 504, 601, 602, 701, 702, 703, 704, 801, 802, 901, 902, 903, 904, 1001, 1002, 1101, 1102, 1103, 1104, 1201, 1202]

# the shape of the group, the ndrange and the local NTuple index
@kernel function shape4!(S)
    g = @groupsize()
    n = @ndrange()
    t = @index(Local, NTuple)
    S[@index(Global, Linear)] = 100000 * length(g) + 10000 * g[2] + 1000 * n[4] + 100 * t[1] + 10 * t[2] + t[3] + t[4]
end
# run: shape4!(S = zeros(Int64, 60)) groupsize 4 ndrange 3,2,2,5
# expect S: [415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312, 415112, 415212, 415312]

# a strided 4-D view of flat ComplexF32 vectors: the offset from a CartesianIndex{N} with Base.OneTo, a
# reduction over CartesianIndices of an NTuple{4,Int}, and the function applied (conj) passed as an argument
@inline function offset4(strides::NTuple{N, Int}, I::CartesianIndex{N}) where {N}
    s = 0
    for d in Base.OneTo(N)
        @inbounds s += strides[d] * (I[d] - 1)
    end
    return s
end
@kernel function mapadd4!(out, A, f, st, red)
    I = @index(Global, Cartesian)
    o = offset4(st, I) + 1
    acc = out[o]
    for J in CartesianIndices(red)
        acc += f(A[o + offset4(st, J)])
    end
    out[o] = acc
end
# run: mapadd4!(out = ComplexF32[0.5, 1, 0.5, 2, 0.5, 3, 0.5, 4, 0.5, 5, 0.5, 6, 0.5, 7, 0.5, 8], A = ComplexF32[1, 2, 2, 4, 3, 6, 4, 8, 5, 10, 6, 12, 7, 14, 8, 16, 9, 18, 10, 20, 11, 22, 12, 24], f = conj, st = (1, 2, 2, 4), red = (1, 1, 1, 2)) groupsize 4 ndrange 2,1,2,2
# expect out: [6.5, -11, 8.5, -14, 10.5, -17, 12.5, -20, 14.5, -23, 16.5, -26, 18.5, -29, 20.5, -32]
# run: mapadd4!(out = ComplexF32[0.5, 1, 0.5, 2, 0.5, 3, 0.5, 4, 0.5, 5, 0.5, 6, 0.5, 7, 0.5, 8], A = ComplexF32[1, 2, 2, 4, 3, 6, 4, 8, 5, 10, 6, 12, 7, 14, 8, 16, 9, 18, 10, 20, 11, 22, 12, 24], f = conj, st = (1, 2, 2, 4), red = (1, 1, 1, 2)) ndrange 2,1,2,2
# expect out: [6.5, -11, 8.5, -14, 10.5, -17, 12.5, -20, 14.5, -23, 16.5, -26, 18.5, -29, 20.5, -32]
