# The Base prelude (base/prelude.jl): minmax, evalpoly, oftype, mod1, fld1, identity, iszero, isone.
# identity is redefined below: the file's definition wins everywhere in the file, as in Julia.
function prelude!(o, x)
    i = workitemIdx().x
    a, b = minmax(x[i], 1.5f0)
    o[1, i] = a
    o[2, i] = b
    o[3, i] = evalpoly(x[i], (1f0, 2f0, 3f0))
    o[4, i] = oftype(x[i], 3)
    o[5, i] = mod1(i + 5, 4)
    o[6, i] = identity(x[i])
    o[7, i] = iszero(x[i]) + isone(x[i])
    o[8, i] = fld1(i + 5, 4)
    return nothing
end
# run: prelude!(o = zeros(Float32, 8, 4), x = Float32[0.5, 2.0, 1.0, -3.0]) groupsize 4
# expect o: [0.5, 1.5, 2.75, 3, 2, 1, 0, 2, 1.5, 2, 17, 3, 3, 4, 0, 2, 1, 1.5, 6, 3, 4, 2, 1, 2, -3, 1.5, 22, 3, 1, -6, 0, 3]

# integers: minmax keeps the type, evalpoly promotes to the argument's type
function prelude_int!(o, f)
    lo, hi = minmax(7, 3)
    o[1] = lo
    o[2] = hi
    o[3] = evalpoly(2, (1, 1, 1, 1))       # 1 + 2 + 4 + 8
    o[4] = mod1(-1, 5)                      # 4
    o[5] = mod1(10, 5)                      # 5
    f[1] = evalpoly(0.5, (1, 2))            # Int coefficients, Float64 x: 2.0
    f[2] = mod1(7.5, 2.5)                   # 2.5
    return nothing
end
# run: prelude_int!(o = zeros(Int64, 5), f = zeros(Float64, 2))
# expect o: [3, 7, 15, 4, 5]
# expect f: [2.0, 2.5]

# A definition in the user's file shadows the prelude's (as Main shadows Base)
identity(x) = 2x
function shadow!(o)
    o[1] = identity(21)
    return nothing
end
# run: shadow!(o = zeros(Int64, 1))
# expect o: [42]
