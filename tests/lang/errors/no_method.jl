# No method matching the argument types (Julia's MethodError).
scale(x::Float32) = 2x
scale(x::Float64) = 3x
function no_method!(y, x)
    y[1] = scale(x[1])
    return nothing
end
# run: no_method!(y = zeros(Float16, 1), x = Float16[1])
# expect error: MethodError: no method matching scale(::Float16)
# expect error at: 5:12
