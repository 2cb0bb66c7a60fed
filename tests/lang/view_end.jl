# `end` and `begin` inside @view A[...] are A's extent in that dimension, as in A[...]: columns to the end, a
# column given by `end`, a range from `begin`, the tail of a vector.

function end_views!(out, A, v)
    i = workitemIdx().x
    right = @view A[:, 2:end]
    last = @view A[begin:end, end]
    head = @view A[begin:end-1, 1]
    tail = @view v[2:end]
    for j in 1:size(right, 2)
        out[i, j] = right[i, j]
    end
    out[i, 3] = last[end - i + 1]
    out[i, 4] = tail[end - i + 1]
    out[i, 5] = size(right, 2) * 100 + length(head) * 10 + length(tail)
    return nothing
end
# run: end_views!(out = zeros(Float64, 3, 5), A = reshape(Float64[1.5, -2, 3.25, 4, -5.5, 6, 7.75, -8, 9], 3, 3), v = Float64[0.5, 1.5, 2.5, 3.5]) groupsize 3
# expect out: [4.0, -5.5, 6.0, 7.75, -8.0, 9.0, 9.0, -8.0, 7.75, 3.5, 2.5, 1.5, 223.0, 223.0, 223.0]
