# Arrays whose elements are tuples, structs or 128-bit integers (juke_array_create_value), written in a run as
# T[v1, v2, ...] and compared element by element: points as NTuple{2, Float32}, a struct of mixed fields, and
# Int128 values past 64 bits, read and written by a kernel.

struct Sample
    id::Int32
    w::Float64
    ok::Bool
end

function value_arrays!(out, pts, s, big, t)
    i = workitemIdx().x
    p = pts[i]
    out[i] = p[1] * 10 + p[2]
    pts[i] = (p[2], p[1] + 1f0)
    q = s[i]
    s[i] = Sample(q.id * Int32(2), q.w + i, !q.ok)
    big[i] = big[i] * 3 + (Int128(1) << 70)
    t[i] = Int128(i) - (Int128(1) << 100)
    return nothing
end
# run: value_arrays!(out = zeros(Float32, 3), pts = NTuple{2, Float32}[(1.5f0, -2f0), (0.25f0, 4f0), (-3f0, 0.5f0)], s = Sample[Sample(1, 0.5, true), Sample(-7, 2.25, false), Sample(40, -1.0, true)], big = Int128[5, -36893488147419103232, 1180591620717411303424], t = Int128[0, 0, 0]) groupsize 3
# expect out: [13.0, 6.5, -29.5]
# expect pts: [(-2f0, 2.5f0), (4f0, 1.25f0), (0.5f0, -2f0)]
# expect s: [Sample(2, 1.5, false), Sample(-14, 4.25, true), Sample(80, 2.0, false)]
# expect big: [1180591620717411303439, 1069911156275153993728, 4722366482869645213696]
# expect t: [-1267650600228229401496703205375, -1267650600228229401496703205374, -1267650600228229401496703205373]

# a matrix of tuples (reshape of a value array): each work-item swaps its column's pairs and counts the rows
function swap_cols!(cnt, P)
    j = workitemIdx().x
    for i in 1:size(P, 1)
        a, b = P[i, j]
        P[i, j] = (b, a)
    end
    cnt[j] = size(P, 1) * 10 + size(P, 2)
    return
end
# run: swap_cols!(cnt = zeros(Int64, 2), P = reshape(NTuple{2, Int32}[(Int32(1), Int32(2)), (Int32(3), Int32(-4)), (Int32(5), Int32(6)), (Int32(-7), Int32(8)), (Int32(9), Int32(10)), (Int32(11), Int32(-12))], 3, 2)) groupsize 2
# expect cnt: [32, 32]
# expect P: [(Int32(2), Int32(1)), (Int32(-4), Int32(3)), (Int32(6), Int32(5)), (Int32(8), Int32(-7)), (Int32(10), Int32(9)), (Int32(-12), Int32(11))]
