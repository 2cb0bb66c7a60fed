# A number iterates as its one element, so sum, prod, maximum and minimum of a number are the number (sum and
# prod widen a small integer or a Bool as Base's add_sum and mul_prod do), and sum of what a function gives
# works whether it gives a number or a tuple.

function num_reduce!(out, x, k)
    i = workitemIdx().x
    out[1, i] = sum(x[i])
    out[2, i] = prod(x[i] - 1.0)
    out[3, i] = maximum(x[i] * 2)
    out[4, i] = minimum(-x[i])
    out[5, i] = sum(sincos(x[i]))
    out[6, i] = sum(k[i]) + prod(k[i])
    return nothing
end
# run: num_reduce!(out = zeros(Float64, 6, 3), x = Float64[0.5, -1.25, 3.0], k = Int8[3, -4, 127]) groupsize 3
# expect out ≈ [0.5, -0.5, 1.0, -0.5, 1.3570081004945758, 6.0, -1.25, -2.25, -2.5, 1.25, -0.6336622569603175, -8.0, 3.0, 2.0, 6.0, -3.0, -0.8488724885405782, 254.0]

function widen_types!(out, a, b)
    s = sum(a[1])
    p = prod(b[1])
    t = sum(true)
    out[1] = s isa Int64
    out[2] = p isa UInt64
    out[3] = t isa Int64
    out[4] = sum(a[1]) == Int64(a[1]) && prod(b[1]) == UInt64(b[1]) && t == 1
    out[5] = maximum(a[1]) isa Int16
    return nothing
end
# run: widen_types!(out = zeros(Bool, 5), a = Int16[-300], b = UInt8[200])
# expect out: [true, true, true, true, true]
