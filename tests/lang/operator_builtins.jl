# The built-ins that take an operator read it whatever methods the file adds to it: wfred(+, x) and
# wfred(max, x) of Float32 values are the wavefront's sum and maximum although the file extends Base's + and
# max for its own struct (Julia dispatches op(x, y) of two Float32 to Base's method either way). And the
# CartesianIndex arithmetic is always there: the indices that findmax and findmin of a matrix return take
# max, min, - and + in a file that never names CartesianIndex.
struct V2
    x::Float32
    y::Float32
end
Base.:+(a::V2, b::V2) = V2(a.x + b.x, a.y + b.y)
Base.max(a::V2, b::V2) = V2(max(a.x, b.x), max(a.y, b.y))

function wave_ops!(out, a)
    i = workitemIdx().x
    s = wfred(+, a[i])
    m = wfred(max, a[i])
    v = max(V2(a[i], 1f0) + V2(1f0, a[i]), V2(0f0, 3f0))
    if i == 1
        out[1] = s
        out[2] = m
        out[3] = v.x
        out[4] = v.y
    end
    return
end
# sum 1.5 - 2 + 4 + 0.25 + 8 - 3.5 + 2 + 16 = 26.25 (exact in any order); V2(2.5, 2.5) then max with (0, 3)
# run: wave_ops!(out = zeros(Float32, 4), a = Float32[1.5, -2, 4, 0.25, 8, -3.5, 2, 16]) groupsize 8
# expect out: [26.25, 16, 2.5, 3]

function corner!(out, A)
    _, I = findmax(A)
    _, J = findmin(A)
    K = max(I, J) - min(I, J) + I
    out[1] = K[1]
    out[2] = K[2]
    out[3] = (2 * J)[2]
    return
end
# A = [3 1 4; 1 5 9; 2 6 5]: the maximum 9 at (2, 3), the first minimum 1 at (2, 1); K = (0, 2) + (2, 3)
# run: corner!(out = zeros(Int64, 3), A = reshape(Float32[3, 1, 2, 1, 5, 6, 4, 9, 5], 3, 3))
# expect out: [2, 5, 2]
