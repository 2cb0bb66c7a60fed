# Tuples, splatted calls and call nesting past 64: a 100-element MVector filled and summed (StaticArrays'
# undef fill and setindex recurse once per element), a 70-entry constant table, ntuple of 90 values splatted
# into a varargs call and mapped, as Julia compiles them (up to 1024 fields).
using StaticArrays

const TABLE = (-33, 29, 17, 17, -50, 17, -41, -19, 33, -15, -46, -38, 19, 14, -28, -47, 16, -41, -32, 12, 4, 28, -13, -43, -13, 25, 7, -23, 42, 25, -1, -4, 24, 30, 32, 36, -4, -4, -23, 34, -18, 21, 5, -39, -43, 11, -9, 22, -50, 3, -4, -36, -39, 14, -19, 39, -15, -9, -12, -17, 30, -31, -42, 38, -5, -29, -43, -6, -46, 39)

addall(xs...) = sum(xs)

function long_tuples!(out, x)
    i = workitemIdx().x
    acc = MVector{100, Float32}(undef)
    for k in 1:100
        acc[k] = x[i] * k
    end
    t = ntuple(k -> Int32(k * i), Val(90))
    sq = map(v -> v * v, t)
    out[i, 1] = sum(acc)
    out[i, 2] = addall(t...)
    out[i, 3] = sq[90] + TABLE[65 + i]
    out[i, 4] = length(t) + length(TABLE)
    return
end
# out[i, :] = 5050 x[i], 4095 i, (90 i)^2 + TABLE[65 + i], 160
# run: long_tuples!(out = zeros(Float64, 3, 4), x = Float32[-0.65625f0, -1.953125f0, 0.15625f0]) groupsize 3
# expect out: [-3314.0625, -9863.28125, 789.0625, 4095.0, 8190.0, 12285.0, 8071.0, 32357.0, 72894.0, 160.0, 160.0, 160.0]
