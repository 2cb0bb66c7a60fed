# Base's higher-order functions over tuples, ranges and arrays, with closures and named functions:
# sum/prod/maximum/minimum(f, itr), mapreduce, reduce (with init), count, any, all, foreach, findfirst,
# ntuple(f, Val(N)) and ntuple(f, N), map over tuples.
function higher_order!(B, A, C)
    i = workitemIdx().x
    a = A[i]
    t = (1f0, 2f0, 3f0)
    B[i, 1] = sum(x -> x * a, t)
    B[i, 2] = sum(x -> x * a, 1:3)
    B[i, 3] = mapreduce(x -> x + a, *, t)
    B[i, 4] = reduce(+, t)
    B[i, 5] = count(x -> x > a, t)
    B[i, 6] = findfirst(x -> x > a, t) === nothing ? 1f0 : 0f0
    B[i, 7] = any(x -> x > a, 1:3) ? 1f0 : 0f0
    B[i, 8] = all(x -> x > a, t) ? 1f0 : 0f0
    u = ntuple(j -> j * a, Val(3))
    B[i, 9] = u[3]
    v = ntuple(j -> j + a, 3)
    B[i, 10] = v[2]
    w = map((x, y) -> x * y + a, t, u)
    B[i, 11] = w[1]
    foreach(x -> (B[i, 12] = x * a), t)
    B[i, 13] = maximum(x -> x * a, t)
    B[i, 14] = minimum(x -> x * a, t)
    B[i, 15] = prod(x -> x + a, t)
    B[i, 16] = reduce(max, t; init = a)
    B[i, 17] = sum(abs2, C)
    B[i, 18] = mapreduce(x -> x * a, +, C; init = 1f0)
    B[i, 19] = count(x -> x < a, C)
    B[i, 20] = sum(j -> C[j] * j, 1:length(C))
    return nothing
end
# run: higher_order!(B = zeros(Float32, 3, 20), A = Float32[1.5, -2, 4], C = Float32[0.5, -1, 2.5]) groupsize 3
# expect B: [9, -12, 24, 9, -12, 24, 39.375, -0.0, 210, 6, 6, 6, 2, 3, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0, 4.5, -6, 12, 3.5, 0, 6, 3, -4, 8, 4.5, -6, 12, 4.5, -2, 12, 1.5, -6, 4, 39.375, -0.0, 210, 3, 3, 4, 7.5, 7.5, 7.5, 4, -3, 9, 2, 0, 3, 6, 6, 6]

# sums of small integers widen to Int64, as Base.add_sum does
function widen_sum!(o, v, w)
    o[1] = sum(x -> Int32(2) * x, v)
    o[2] = sum(x -> x > Int32(1), v)
    o[3] = prod(x -> x + Int32(1), (Int32(1), Int32(2)))
    o[4] = sum(x -> x + Int32(0), w)
    return nothing
end
# run: widen_sum!(o = zeros(Int64, 4), v = Int32[3, -1, 4], w = Int32[1073741824, 1073741824, 1073741824])
# expect o: [12, 2, 6, 3221225472]

# idioms: `_` parameters, map and reduce with lambdas, Base.Fix2 from one-argument comparisons, a closure of a
# `let` variable, a do-block under @inbounds
function idioms!(B, A)
    i = workitemIdx().x
    a = A[i]
    z = ntuple(_ -> 0f0, Val(3))
    t = (1f0, 2f0, 3f0)
    B[i, 1] = z[2] + sum(map(x -> x^2, t))
    B[i, 2] = reduce((p, q) -> p * q + a, t)
    B[i, 3] = count(>(a), t)
    B[i, 4] = count(==(2f0), t)
    B[i, 5] = let c = a * 2
        (y -> y + c)(1f0)
    end
    @inbounds foreach(t) do x
        B[i, 6] += x
    end
    return nothing
end
# run: idioms!(B = zeros(Float32, 3, 6), A = Float32[1.5, -2, 4]) groupsize 3
# expect B: [14, 14, 14, 12, -2, 22, 2, 3, 0, 1, 1, 1, 4, -3, 9, 6, 6, 6]

# ntuple with a do-block, also in the pre-1.0 form ntuple(Val{N}) (GPUArrays' tests)
function ntuple_do!(o, ::Val{N}, s) where {N}
    t = ntuple(Val{N}) do i
        Float32(i) * s
    end
    u = ntuple(Val(N)) do i
        i + N
    end
    o[1] = t[N]
    o[2] = u[1]
    o[3] = sum(t)
    return nothing
end
# run: ntuple_do!(o = zeros(Float32, 3), n = Val(3), s = 2.5f0)
# expect o: [7.5, 4, 15]
