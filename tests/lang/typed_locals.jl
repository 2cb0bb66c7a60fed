# x::T = v declares the variable's type: every store converts to it.
function typed_locals!(f, i)
    x::Float32 = 1               # the Int 1 becomes 1f0
    x += 1                       # stays Float32
    x = x / 3                    # Float32
    f[1] = x
    n::Int32 = 7
    n = n * 2                    # Int32 * Int64 is Int64, converted back to Int32 on the store
    i[1] = n
    y::Float64 = 0
    for k in 1:3
        y += 0.5f0               # Float32 added, converted to Float64
    end
    f[2] = y
    return nothing
end
code(::Float32) = 1
code(::Int32) = 2
function typed_kinds!(o)
    x::Float32 = 1
    n::Int32 = 5
    n += 1
    o[1] = code(x)
    o[2] = code(n)
    return nothing
end
# run: typed_locals!(f = zeros(Float32, 2), i = zeros(Int32, 1))
# expect f: [0.6666667, 1.5]
# expect i: [14]
# run: typed_kinds!(o = zeros(Int64, 2))
# expect o: [1, 2]
