# Definitions wrapped in annotating macros, and no-op loop/expression macros:
# @propagate_inbounds (also Base.-qualified, also on short definitions),
# @inline stacked on it, @fastmath, @simd (with ivdep), @unroll.
Base.@propagate_inbounds function getpair(A, i)
    return A[i] + A[i + 1]
end
@propagate_inbounds twice(A, i) = 2 * A[i]
@inline @propagate_inbounds third(A, i) = A[i] ÷ 3
@inline Base.@propagate_inbounds function fourth(x)
    x / 4
end
@noinline half(x) = x / 2
function macro_defs!(o, f)
    o[1] = getpair(o, 5)
    o[2] = twice(o, 5)
    @inbounds o[3] = third(o, 6)
    f[1] = @fastmath f[2] * 2 + fourth(8.0)
    @fastmath begin
        f[3] = half(5.0) + sqrt(f[2])
    end
    acc = 0
    @simd for i in 1:4
        acc += i
    end
    @simd ivdep for i in 1:2
        acc += 10i
    end
    @unroll for k in 1:3
        acc += 100k
    end
    o[4] = acc
    o[7] = o[8] = 11          # chained assignment: both get 11
    o[5], o[6] = o[6], o[5]   # a swap through the array
    return nothing
end
# run: macro_defs!(o = Int64[0, 0, 0, 0, 3, 9, 0, 0], f = Float64[0, 4, 0])
# expect o: [12, 6, 3, 640, 9, 3, 11, 11]
# expect f: [10.0, 4.0, 4.5]
