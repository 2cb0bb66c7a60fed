# `end` inside indexing is lastindex / size(A, d).
function end_index!(o, v, M)
    o[1] = v[end]
    o[2] = v[end - 1]
    o[3] = M[end, 1]
    o[4] = M[1, end]
    o[5] = M[end]
    o[end] = v[(end + 1) ÷ 2]
    v[end] = 0
    return nothing
end
# run: end_index!(o = zeros(Int64, 6), v = Int64[10, 20, 30, 40, 50], M = reshape(Int64[1, 2, 3, 4, 5, 6], 2, 3))
# expect o: [50, 40, 2, 5, 6, 30]
# expect v: [10, 20, 30, 40, 0]
