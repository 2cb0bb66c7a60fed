# == and === of tuples, named tuples and structs: field by field, as Julia compares them
# (tuples with ==, so 0.0 == -0.0; structs with ===, so NaN === NaN and 0.0 !== -0.0).
struct S
    a::Float64
    b::Int32
end
function eq!(o, x, z)
    o[1] = (1, 2.0) == (1, 2.0)
    o[2] = (1, 2.0) == (1, x)
    o[3] = (0.0, 1) == (-0.0, 1)
    o[4] = S(0.0, 1) == S(-0.0, 1)
    o[5] = S(z, 1) === S(z, 1)
    o[6] = (a = 1, b = x) != (a = 1, b = 2.0)
    o[7] = S(1.0, 2) !== S(1.0, 3)
    o[8] = (z, 1) == (z, 1)
    return nothing
end
# run: eq!(o = zeros(Bool, 8), x = 3.0, z = NaN)
# expect o: [true, false, true, false, true, true, true, false]
