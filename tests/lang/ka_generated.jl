# KernelAbstractions 0.10's `@kernel generated = true`: the body is a generated function's quoted
# expression, `$N` a where-parameter's value, `$(f(x))` computed with each argument x its type.
using KernelAbstractions
using KernelAbstractions.Extras

@kernel generated = true function scale_unrolled!(out, @Const(x), ::Val{K}) where {K}
    i = @index(Global, Linear)
    acc = zero(eltype(out))
    @unroll $K for k in 1:$K
        acc += x[i] * k
    end
    out[i] = acc + $(K * 100)
end
# run: scale_unrolled!(out = zeros(Float32, 4), x = Float32[1.5, -2, 3.25, 0.5], k = Val(3)) groupsize 2 ndrange 4
# expect out: [309, 288, 319.5, 303]

# inside $(...) an argument is its type: eltype of the array type, sizeof of that
@kernel generated = true function widths!(out, v)
    i = @index(Global, Linear)
    out[i] = $(sizeof(eltype(v))) + $(ndims(v)) * v[i]
end
# run: widths!(out = zeros(Int64, 3), v = Int32[7, -3, 11]) groupsize 4 ndrange 3
# expect out: [11, 1, 15]

# with inbounds = true, @localmem of a where-parameter's size and @synchronize
@kernel generated = true inbounds = true function tile_reverse!(a, @Const(b), ::Val{N}) where {N}
    tile = @localmem Float64 (N,)
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    tile[i] = b[I] * $N
    @synchronize
    a[I] = tile[$N + 1 - i]
end
# run: tile_reverse!(a = zeros(Float64, 8), b = Float64[1, 2, 3, 4, 5, 6, 7, 8], n = Val(4)) groupsize 4 ndrange 8
# expect a: [16, 12, 8, 4, 32, 28, 24, 20]

# Base.Cartesian's @ntuple and @nexprs with a spliced count, as KernelAbstractions' docstring suggests
@kernel generated = true function cartesian_sums!(out, @Const(x), ::Val{N}) where {N}
    i = @index(Global, Linear)
    t = Base.Cartesian.@ntuple $N k -> x[i] * k
    acc = zero(eltype(out))
    Base.Cartesian.@nexprs $N k -> (acc += t[k] + k)
    out[i] = acc
end
# run: cartesian_sums!(out = zeros(Float64, 3), x = Float64[2, -1, 0.5], n = Val(4)) groupsize 4 ndrange 3
# expect out: [30, 0, 15]
