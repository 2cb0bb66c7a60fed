# CartesianIndices over step ranges (Base.multidimensional's CartesianIndices of OrdinalRanges): a strided walk,
# each work-item summing every 4th row of every 3rd column from its own start (a grid reduction's pattern), a
# descending range, first/last/length and `in` (a point between the steps is not in it).

function strided_sums!(out, A)
    i = workitemIdx().x
    j = workitemIdx().y
    acc = 0
    for ci in CartesianIndices((i:4:size(A, 1), j:3:size(A, 2)))
        acc += A[ci]
    end
    out[i, j] = acc
    return
end
# A = reshape(1:70, 10, 7): item (i, j) sums A[i:4:10, j:3:7]; (1, 1): rows 1, 5, 9 of columns 1, 4, 7.
# run: strided_sums!(out = zeros(Int64, 4, 3), A = reshape(Int64[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70], 10, 7)) groupsize 4,3
# expect out: [315, 324, 210, 216, 180, 186, 120, 124, 240, 246, 160, 164]

function walk!(out, lo, hi)
    C = CartesianIndices((hi:-2:lo, 3:5:20))
    k = 0
    for I in C
        k += 1
        out[k] = 100 * I[1] + I[2]
    end
    out[k + 1] = length(C)
    out[k + 2] = 100 * first(C)[1] + first(C)[2]
    out[k + 3] = 100 * last(C)[1] + last(C)[2]
    out[k + 4] = (7, 13) in C
    out[k + 5] = (6, 13) in C
    out[k + 6] = (7, 12) in C
    return
end
# run: walk!(out = zeros(Int64, 18), lo = 4, hi = 9)
# expect out: [903, 703, 503, 908, 708, 508, 913, 713, 513, 918, 718, 518, 12, 903, 518, 1, 0, 0]
