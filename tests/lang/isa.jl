# `x isa T`: whether x's type is a subtype of T, a constant of the types as Julia's inference folds it; the branch
# that the constant rules out is not compiled (count_ones of a float would be a MethodError).
function isa_kinds!(out, x, y)
    out[1] = x isa Float32
    out[2] = x isa AbstractFloat
    out[3] = x isa Integer
    out[4] = y isa Signed
    out[5] = y isa Unsigned
    out[6] = (x, y) isa typeof((1.0f0, 1))
    out[7] = !(y isa Real)
    return
end
# run: isa_kinds!(out = zeros(Bool, 7), x = 1.5f0, y = 3)
# expect out: [true, true, false, true, false, true, false]

half_or_count(v) = v isa AbstractFloat ? v / 2 : count_ones(v)

function isa_branch!(out, a, b)
    out[1] = half_or_count(a)
    out[2] = half_or_count(b)
    return
end
# run: isa_branch!(out = zeros(Float64, 2), a = 5.0, b = 7)
# expect out: [2.5, 3.0]

# a Union{Nothing, Int64} (findfirst's result): its tag decides at run time
function isa_found!(out, a, v)
    i = findfirst(x -> x == v, a)
    out[1] = i isa Nothing
    out[2] = i isa Int64
    return
end
# run: isa_found!(out = zeros(Bool, 2), a = Int64[4, 5, 6], v = 5)
# expect out: [false, true]
# run: isa_found!(out = zeros(Bool, 2), a = Int64[4, 5, 6], v = 9)
# expect out: [true, false]
