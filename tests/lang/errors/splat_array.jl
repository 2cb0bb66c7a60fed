# Only a value whose type gives its length splats (a tuple or a NamedTuple), not an array.
add3(a, b, c) = a + b + c
function splat_array!(o, v)
    o[1] = add3(v...)
    return nothing
end
# run: splat_array!(o = zeros(Int64, 1), v = Int64[1, 2, 3])
# expect error: splatting a value of type ROCDeviceArray{Int64, 1, 1} is not supported in kernels: only a tuple (or NamedTuple) splats, its length known from its type
# expect error at: 4:18
