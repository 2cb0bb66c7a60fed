# Tuples: destructuring, swaps, size(A) destructuring, indexing and length.
const SHAPE = (4, 5, 6)
const COEFFS = (1.5, 2.5)
function tuples!(o, f, A)
    a, b = 1, 2
    a, b = b, a                  # a swap: both right sides first
    o[1] = a
    o[2] = b
    w, h = size(A)
    o[3] = w
    o[4] = h
    t = (10, 20, 30)
    p, q, r = t
    o[5] = p + q + r
    o[6] = t[2]
    o[7] = length(t)
    o[8] = SHAPE[3]
    o[9] = length(SHAPE)
    o[10] = size(A, 2)
    x, y, z = 7, 8, 9
    x, y, z = z, x, y            # rotate
    o[11] = 100x + 10y + z
    f[1] = COEFFS[1] + COEFFS[2]
    m = (1, 2.5f0)               # heterogeneous, constant indices
    f[2] = m[1] + m[2]
    return nothing
end
# run: tuples!(o = zeros(Int64, 11), f = zeros(Float64, 2), A = zeros(Int32, 3, 7))
# expect o: [2, 1, 3, 7, 60, 20, 3, 6, 3, 7, 978]
# expect f: [4.0, 3.5]
