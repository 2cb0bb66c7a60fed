# dest .= src in a kernel (Base's materialize! of a copying broadcast): an indexed destination is its view
# (A[:, j, k], A[i, :], with `end`), the source an array or view of the same dims or a number; other dims are
# a DimensionMismatch at run time, as Julia's broadcast checks.
function gather_cols!(out, src, perm)
    i = workitemIdx().x
    out[:, i, 2] .= view(src, :, perm[i])
    out[i, :, 1] .= -1.5
    return
end

function fill_tail!(A, x)
    j = workitemIdx().x
    col = view(A, :, j)
    col .= x
    A[2:end, j] .= x + j
    A[end:end, j] .= view(A, 1, j:j)
    return
end

function mismatch!(A, B)
    A[:, 1] .= view(B, 1:2)
    return
end
# out[:, i, 2] = src[:, perm[i]]; out[i, :, 1] = -1.5 (a row of the first slice, strided)
# run: gather_cols!(out = reshape(Float64[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18], 3, 3, 2), src = reshape(Float64[0.5, -2, 3.25, 7, 8, -9, 1.5, 0, 4], 3, 3), perm = Int64[3, 1, 2]) groupsize 3
# expect out: [-1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, 1.5, 0.0, 4.0, 0.5, -2.0, 3.25, 7.0, 8.0, -9.0]
# column j: x, then x + j below the first row, then the last row a copy of the first (1-element views)
# run: fill_tail!(A = zeros(Int32, 4, 2), x = Int32(7)) groupsize 2
# expect A: [7, 8, 8, 7, 7, 9, 9, 7]
# run: mismatch!(A = zeros(Float32, 3, 2), B = Float32[1, 2, 3, 4]) groupsize 1
# expect exception: DimensionMismatch: array could not be broadcast to match destination
