# A Union{Nothing, T} value (findfirst's, findlast's, a function's that returns nothing on some path) in a
# call: Julia dispatches on the type the value has at run time, so `x == 3` compares the Int and is false for
# nothing, `nothing == nothing` holds, `something(x, -1)` is an Int, and a function with a method for each
# member calls the one that matches. Both orders, ===, !==, isnothing, and unions on both sides.

twice(::Nothing) = -100
twice(x::Int) = 2x

function union_int!(out, s, g, a, v)
    i = workitemIdx().x
    x = findfirst(e -> e > v[i], a)
    y = findlast(e -> e > v[i], a)
    out[1, i] = x == 3
    out[2, i] = 3 == x
    out[3, i] = x != 3
    out[4, i] = x == nothing
    out[5, i] = nothing == x
    out[6, i] = x === nothing
    out[7, i] = x !== nothing
    out[8, i] = isnothing(x)
    out[9, i] = x === 3
    out[10, i] = 3 !== x
    out[11, i] = x == 3.0
    out[12, i] = x === 3.0
    out[13, i] = x == y
    out[14, i] = x != y
    s[i] = something(x, -1)
    g[i] = twice(x)
    return nothing
end
# run: union_int!(out = zeros(Bool, 14, 8), s = zeros(Int64, 8), g = zeros(Int64, 8), a = (-6, 3, 12, -8, -8, -6, 7), v = Int64[20, 12, -10, 13, 13, 11, 5, -9]) groupsize 8
# expect out: [false, false, true, true, true, true, false, true, false, true, false, false, true, false, false, false, true, true, true, true, false, true, false, true, false, false, true, false, false, false, true, false, false, false, true, false, false, true, false, false, false, true, false, false, true, true, true, true, false, true, false, true, false, false, true, false, false, false, true, true, true, true, false, true, false, true, false, false, true, false, true, true, false, false, false, false, true, false, true, false, true, false, true, false, true, true, false, false, false, false, true, false, true, false, true, false, false, true, false, false, true, false, false, false, true, false, false, true, false, false, false, true]
# expect s: [-1, -1, 1, -1, -1, 3, 3, 1]
# expect g: [-100, -100, 2, -100, -100, 6, 6, 2]

positive(w, i) = w[i] > 0 ? w[i] : nothing

function union_float!(out, s, w, a, v)
    i = workitemIdx().x
    y = positive(w, i)
    x = findfirst(e -> e > v[i], a)
    out[1, i] = y == 0.5
    out[2, i] = y == 1
    out[3, i] = y === nothing
    out[4, i] = !isnothing(y)
    out[5, i] = 0.5 == y
    out[6, i] = y == x
    out[7, i] = y === 1.0
    s[i] = something(y, -1.0)
    return nothing
end
# run: union_float!(out = zeros(Bool, 7, 8), s = zeros(Float64, 8), w = Float64[-1.375, -1.25, 0.5, 1.0, 0.625, -0.625, 1.375, 1.0], a = (-6, 3, 12, -8, -8, -6, 7), v = Int64[20, 12, -10, 13, 13, 11, 5, -9]) groupsize 8
# expect out: [false, false, true, false, false, true, false, false, false, true, false, false, true, false, true, false, false, true, true, false, false, false, true, false, true, false, false, true, false, false, false, true, false, false, false, false, false, true, false, false, false, false, false, false, false, true, false, false, false, false, true, false, true, false, true, true]
# expect s: [-1.0, -1.0, 0.5, 1.0, 0.625, -1.0, 1.375, 1.0]

# something(x) of a union that is nothing throws (Julia's ArgumentError); of one that is not, it is the Int
function union_something!(out, a, v)
    i = workitemIdx().x
    out[i] = something(findfirst(e -> e > v[i], a)) + 10
    return nothing
end
# run: union_something!(out = zeros(Int64, 3), a = (-6, 3, 12, -8), v = Int64[0, 5, -7]) groupsize 3
# expect out: [12, 13, 11]
# run: union_something!(out = zeros(Int64, 3), a = (-6, 3, 12, -8), v = Int64[0, 50, -7]) groupsize 3
# expect exception: ArgumentError
