# f.(a, b, c, d, ...) of numbers only, of any count, is the call f(a, b, c, d, ...), as Base's broadcast of scalars
# is: a stencil macro's max. over the 27 points around a cell, a varargs function of its own, an operator.

function maxloc9!(out, A)
    i = workitemIdx().x + 1
    out[i] = max.(A[i-1, 1], A[i, 1], A[i+1, 1], A[i-1, 2], A[i, 2], A[i+1, 2], A[i-1, 3], A[i, 3], A[i+1, 3])
    return
end
# run: maxloc9!(out = Float32[0.5, 0.5, 0.5, 0.5, 0.5], A = reshape(Float32[3.5, -1.25, 0.75, 2.0, -4.0, 1.5, -0.5, 0.25, 6.0, -2.5, 1.0, 1.75, -3.0, 0.5, 2.25], 5, 3)) groupsize 3
# expect out: [0.5, 3.5, 6.0, 6.0, 0.5]

weighted(a, b, c, d, e) = a + 2b + 3c + 4d + 5e
function calls!(out, x, n::Int32)
    out[1] = weighted.(x[1], x[2], x[3], x[4], n)
    out[2] = (+).(x[1], x[2], x[3], x[4])
    out[3] = min.(x[4], x[3], x[2], x[1], n, -7)
    return
end
# run: calls!(out = zeros(Int64, 3), x = Int64[3, -5, 11, 2], n = Int32(-9))
# expect out: [-11, 11, -9]
