# Base's functions over tuples (extrema, findmax / findmin and argmax / argmin, cumsum, cumprod, accumulate,
# Base.setindex, promote_type), the rounding modes (round(x, RoundUp), round(Int, x, RoundDown), div(a, b,
# RoundUp), rem(a, b, RoundDown)), and checkbounds / @boundscheck as kernels guard their accesses.

function tuplefuns!(out, x)
    i = workitemIdx().x
    t = (x[i], 2f0, -x[i], 0.5f0)
    lo, hi = extrema(t)
    m, k = findmax(t)
    n, j = findmin(t)
    c = cumsum(t)
    p = cumprod((1, 2, i, 3))
    s = Base.setindex(t, 9f0, 2)
    out[1, i] = lo
    out[2, i] = hi
    out[3, i] = m
    out[4, i] = k
    out[5, i] = n
    out[6, i] = j
    out[7, i] = c[4]
    out[8, i] = c[3]
    out[9, i] = p[4]
    out[10, i] = s[2] + s[1]
    out[11, i] = argmax((i, 3, 2)) + 10 * argmin((i, 3, 2))
    out[12, i] = promote_type(Int32, Float32) === Float32
    out[13, i] = accumulate(max, (1, 5, i, 2))[3]
    return nothing
end
# run: tuplefuns!(out = zeros(Float32, 13, 3), x = Float32[1.5, -3.0, 2.0]) groupsize 3
# expect out: [-1.5, 2, 2, 2, -1.5, 3, 2.5, 2.0, 6, 10.5, 12, 1, 5, -3, 3, 3, 3, -3, 1, 2.5, 2.0, 12, 6, 12, 1, 5, -2, 2, 2, 1, -2, 3, 2.5, 2.0, 18, 11, 31, 1, 5]

function rounding_modes!(out, iout, x)
    i = workitemIdx().x
    v = x[i]
    out[1, i] = round(v, RoundUp)
    out[2, i] = round(v, RoundDown)
    out[3, i] = round(v, RoundToZero)
    out[4, i] = round(v, RoundNearest)
    out[5, i] = round(v, RoundNearestTiesAway)
    out[6, i] = round(v, RoundFromZero)
    iout[1, i] = round(Int, v, RoundUp)
    iout[2, i] = round(Int32, v, RoundDown)
    n = unsafe_trunc(Int, v * 10)
    iout[3, i] = div(n, 4, RoundUp)
    iout[4, i] = div(n, 4, RoundDown)
    iout[5, i] = div(n, 4, RoundToZero)
    iout[6, i] = rem(n, 4, RoundDown)
    return nothing
end
# run: rounding_modes!(out = zeros(Float64, 6, 4), iout = zeros(Int64, 6, 4), x = Float64[2.5, -2.5, 0.3, -7.6]) groupsize 4
# expect out: [3.0, 2.0, 2.0, 2.0, 3.0, 3.0, -2.0, -3.0, -2.0, -2.0, -3.0, -3.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, -7.0, -8.0, -7.0, -8.0, -8.0, -8.0]
# expect iout: [3, 2, 7, 6, 6, 1, -2, -3, -6, -7, -6, 3, 1, 0, 1, 0, 0, 3, -7, -8, -19, -19, -19, 0]

# checkbounds(Bool, A, I...) with a linear index, two indices and a CartesianIndex (a tuple here)
function guarded!(out, A)
    i = workitemIdx().x
    out[i] = checkbounds(Bool, A, i - 1) + 2 * checkbounds(Bool, A, i, 2) + 4 * checkbounds(Bool, A, (i, 3))
    return nothing
end
# run: guarded!(out = zeros(Int64, 4), A = zeros(Int64, 3, 2)) groupsize 4
# expect out: [2, 3, 3, 1]

# a helper that checks with @boundscheck checkbounds and then reads @inbounds, as Base's getindex methods do
Base.@propagate_inbounds function firstcol(A, i)
    @boundscheck checkbounds(A, i, 1)
    return @inbounds A[i, 1]
end
function checked!(out, A)
    i = workitemIdx().x
    out[i] = firstcol(A, i)
    return nothing
end
# run: checked!(out = zeros(Int64, 4), A = reshape(Int64[4, 5, 6, 7, 8, 9], 3, 2)) groupsize 4
# expect exception: BoundsError: attempt to access 3×2 ROCDeviceMatrix{Int64, 1} at index [4, 1]
