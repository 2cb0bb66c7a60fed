# π is an Irrational: it takes the float type of what it meets.
code(::Float64) = 1
code(::Float32) = 2
function pi!(f, g, c, x::Float32)
    f[1] = π
    f[2] = 2π
    f[3] = sin(π / 2)
    f[4] = pi
    g[1] = Float32(π)
    g[2] = π * x                 # Float32 arithmetic: Float32(π) * x
    g[3] = x + π
    c[1] = code(π * 1.0)
    c[2] = code(π * x)
    c[3] = code(2π)
    c[4] = code(π / x)
    return nothing
end
# run: pi!(f = zeros(Float64, 4), g = zeros(Float32, 3), c = zeros(Int64, 4), x = 2.0f0)
# expect f: [3.141592653589793, 6.283185307179586, 1.0, 3.141592653589793]
# expect g: [3.1415927, 6.2831855, 5.141593]
# expect c: [1, 2, 1, 2]
