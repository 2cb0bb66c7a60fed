# Index collections passed from the host as Julia writes them: 3:9 (a UnitRange), Base.OneTo(n), 2:3:14 (a
# StepRange), CartesianIndices and LinearIndices, read through firstindex/lastindex/first/last as Base defines
# them for each; and the zero-dimensional CartesianIndex(), the one index of an empty shape.
using KernelAbstractions

pick(r, k) = r[firstindex(r) + k - 1]

@kernel function ends!(out, r, s, C, L)
    k = @index(Global, Linear)
    out[k, 1] = pick(r, k) * 10 + length(r)
    out[k, 2] = pick(s, k) + 100 * last(s)
    I = pick(C, k)
    out[k, 3] = 10 * I[1] + I[2] + 1000 * lastindex(C)
    out[k, 4] = pick(L, k) + 100 * (first(L) + last(L))
    out[k, 5] = length(CartesianIndex()) + length(first(C)) + first(r) * last(C)[2]
end

# r = 3:9, s = 2:3:14 (2, 5, 8, 11, 14), C = CartesianIndices((2, 3)), L = LinearIndices((4, 2)); k = 1..5
# column 3: C[k] = (1,1) (2,1) (1,2) (2,2) (1,3) and lastindex(C) = 6; column 4: first(L) + last(L) = 9
# column 5: 0 + 2 + 3 * 3 = 11
# run: ends!(out = zeros(Int64, 5, 5), r = 3:9, s = 2:3:14, C = CartesianIndices((2, 3)), L = LinearIndices((4, 2))) groupsize 4 ndrange 5
# expect out: [37, 47, 57, 67, 77, 1402, 1405, 1408, 1411, 1414, 6011, 6021, 6012, 6022, 6013, 901, 902, 903, 904, 905, 11, 11, 11, 11, 11]
# run: ends!(out = zeros(Int64, 5, 5), r = Base.OneTo(7), s = 2:3:14, C = CartesianIndices((2, 3)), L = LinearIndices((4, 2))) groupsize 4 ndrange 5
# expect out: [17, 27, 37, 47, 57, 1402, 1405, 1408, 1411, 1414, 6011, 6021, 6012, 6022, 6013, 901, 902, 903, 904, 905, 5, 5, 5, 5, 5]
