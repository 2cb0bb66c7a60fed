# `for (f, op) in [(...), ...] @eval ... end`: the elements written as a vector literal, as Base's and
# GPUArrays' sources often do, unroll as a tuple's would.
for (name, op, k) in [(:scaled_add, +, 3), (:scaled_sub, -, 5)]
    @eval $name(x, y) = $op(x, y) * $k
end

for T in [Float32, Int16]
    @eval widen_twice(::Type{$T}, x) = 2 * $T(x)
end

function eval_vector_loops!(out, x, y)
    i = workitemIdx().x
    if i <= length(x)
        out[i] = scaled_add(x[i], y[i]) + scaled_sub(x[i], y[i]) + widen_twice(Float32, y[i])
    end
    return nothing
end
# run: eval_vector_loops!(out = zeros(Float32, 3), x = Float32[1.5, -2.25, 7.0], y = Float32[0.5, 4.0, -3.0]) groupsize 4
# expect out: [12.0, -18.0, 56.0]
