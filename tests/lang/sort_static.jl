# Sorting a work-item's few values, as median filters and order statistics do: sort(t) of a tuple (Julia's
# sort(::NTuple)), sort of an SVector, sort!(v) of a variable holding an MVector (the array is a value in
# juke: sort!(v) is v = sort(v)), sort! of a @private buffer, partialsort, and Statistics' median, with Base's
# keywords lt, by, rev and order. Stable, in isless order: -0.0 before 0.0, NaNs last.
using StaticArrays
using Statistics
using KernelAbstractions

function tuple_sorts!(fo, io, a, b, c)
    t = (a[1], a[2], a[3], a[4], a[5], a[6], a[7])
    t2 = (b[1], b[2], b[3], b[4], b[5], b[6])
    t3 = (c[1], c[2], c[3], c[4], c[5], c[6])
    s1 = sort(t)
    s2 = sort(t; rev = true)
    s3 = sort(t; by = abs)
    s4 = sort(t; by = abs, rev = true)
    for k in 1:7
        fo[k] = s1[k]
        fo[7 + k] = s2[k]
        fo[14 + k] = s3[k]
        fo[21 + k] = s4[k]
    end
    r1 = sort(t2; lt = (x, y) -> x > y)
    r2 = sort(t3; lt = (x, y) -> abs(x) < abs(y))
    r3 = sort(t3; by = abs, rev = true)
    r4 = sort(t2; order = Base.Order.Reverse)
    for k in 1:6
        io[k] = r1[k]
        io[6 + k] = r2[k]
        io[12 + k] = r3[k]
        io[18 + k] = r4[k]
    end
    return
end
# run: tuple_sorts!(fo = zeros(Float64, 28), io = zeros(Int64, 24), a = Float64[2.5, -0.0, NaN, -4.0, 0.0, -2.5, 1.25], b = Int64[5, -3, 8, 0, -3, 7], c = Int64[4, -3, 1, 3, -1, -4])
# expect fo: [-4.0, -2.5, -0.0, 0.0, 1.25, 2.5, NaN, NaN, 2.5, 1.25, 0.0, -0.0, -2.5, -4.0, -0.0, 0.0, 1.25, 2.5, -2.5, -4.0, NaN, NaN, -4.0, 2.5, -2.5, 1.25, -0.0, 0.0]
# expect io: [8, 7, 5, 0, -3, -3, 1, -1, -3, 3, 4, -4, 4, -4, -3, 3, 1, -1, 8, 7, 5, 0, -3, -3]

# each work-item sorts its column in an MVector, then writes it back
function mvector_sorts!(a, mode)
    i = workitemIdx().x
    m = MVector{5, Float32}(a[1, i], a[2, i], a[3, i], a[4, i], a[5, i])
    if mode == 1
        s = sort!(m)
        a[6, i] = s[5]
    elseif mode == 2
        sort!(m; by = abs, rev = true)
    else
        sort!(m, order = Base.Order.Reverse)
    end
    for k in 1:5
        a[k, i] = m[k]
    end
    return
end
# run: mvector_sorts!(a = reshape(Float32[1.5, -2.0, NaN, 0.0, -0.0, 0, 7.25, -3.5, 3.5, 0.5, -7.25, 0, -1.0, 2.0, -2.0, 1.0, 0.25, 0], 6, 3), mode = 1) groupsize 3
# expect a: [-2.0, -0.0, 0.0, 1.5, NaN, NaN, -7.25, -3.5, 0.5, 3.5, 7.25, 7.25, -2.0, -1.0, 0.25, 1.0, 2.0, 2.0]
# run: mvector_sorts!(a = reshape(Float32[1.5, -2.0, NaN, 0.0, -0.0, 0, 7.25, -3.5, 3.5, 0.5, -7.25, 0, -1.0, 2.0, -2.0, 1.0, 0.25, 0], 6, 3), mode = 2) groupsize 3
# expect a: [NaN, -2.0, 1.5, 0.0, -0.0, 0, 7.25, -7.25, -3.5, 3.5, 0.5, 0, 2.0, -2.0, -1.0, 1.0, 0.25, 0]
# run: mvector_sorts!(a = reshape(Float32[1.5, -2.0, NaN, 0.0, -0.0, 0, 7.25, -3.5, 3.5, 0.5, -7.25, 0, -1.0, 2.0, -2.0, 1.0, 0.25, 0], 6, 3), mode = 3) groupsize 3
# expect a: [NaN, 1.5, 0.0, -0.0, -2.0, 0, 7.25, 3.5, 0.5, -3.5, -7.25, 0, 2.0, 1.0, 0.25, -1.0, -2.0, 0]

# a sliding window's median and order statistics: median of a tuple (even length: the middle of the middle
# two), of an SVector (odd length), partialsort, the minimum through by, the median of integers (a Float64)
function window_stats!(out, a)
    i = workitemIdx().x
    t = (a[i], a[i+1], a[i+2], a[i+3])
    v = SVector(t)
    out[1, i] = median(t)
    out[2, i] = median(SVector(a[i], a[i+1], a[i+2]))
    out[3, i] = partialsort(v, 2)
    out[4, i] = partialsort(v, 1; rev = true)
    out[5, i] = sort(v; by = x -> -x)[4]
    out[6, i] = median((i, 3 * i, 10 - i))
    return
end
# run: window_stats!(out = zeros(Float64, 6, 4), a = Float64[3.0, -1.0, 2.5, 0.75, -2.0, 6.0, NaN]) groupsize 4
# expect out: [1.625, 2.5, 0.75, 3.0, -1.0, 3.0, -0.125, 0.75, -1.0, 2.5, -2.0, 6.0, 1.625, 0.75, 0.75, 6.0, -2.0, 7.0, NaN, 0.75, 0.75, NaN, NaN, 6.0]

# a 5-point median filter over each work-item's @private window, then its maximum and minimum
@kernel function private_median!(out, @Const(a))
    i = @index(Global, Linear)
    buf = @private Float32 (5,)
    for k in 1:5
        buf[k] = a[i + k - 1]
    end
    sort!(buf)
    out[1, i] = buf[3]
    sort!(buf; rev = true)
    out[2, i] = buf[1]
    out[3, i] = buf[5]
end
# run: private_median!(out = zeros(Float32, 3, 4), a = Float32[4.0, -1.5, 9.0, 0.5, 2.75, -6.0, 3.25, 8.0]) groupsize 4 ndrange 4
# expect out: [2.75, 9.0, -1.5, 0.5, 9.0, -6.0, 2.75, 9.0, -6.0, 2.75, 8.0, -6.0]
