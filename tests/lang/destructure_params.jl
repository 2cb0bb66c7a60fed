# A parameter written as a tuple, f((M, N), x), destructures its argument on entry (JACC's AMDGPU
# kernels take their 2-D extents so); tuples nest.
function fill2d!((M, N), a, v)
    i = workitemIdx().x
    j = workitemIdx().y
    if i <= M && j <= N
        a[i, j] = v * (i + 10j)
    end
    return nothing
end
# run: fill2d!(d = (2, 3), a = zeros(Float32, 3, 3), v = 1.5f0) groupsize 3,3
# expect a: [16.5, 18.0, 0.0, 31.5, 33.0, 0.0, 46.5, 48.0, 0.0]

inner((a, (b, c)), d) = a * b - c + d
function nested!(out, t)
    out[1] = inner(t, 2)
    out[2] = inner((t[2][1], (t[1], 1)), -3)
    return nothing
end
# run: nested!(out = zeros(Int64, 2), t = (4, (3, 5)))
# expect out: [9, 8]
