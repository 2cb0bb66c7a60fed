# Hints to Julia's compiler that change nothing a kernel computes: @nospecialize / @specialize on a parameter
# (juke specialises on every argument) and Base.@assume_effects on a definition.
bump(@nospecialize(x)) = x + 1
twice(@specialize(x), @nospecialize(n::Integer)) = n * x
Base.@assume_effects :total square(x) = x * x
Base.@assume_effects :foldable :nothrow function cube(x)
    return x * x * x
end

function hinted!(y, x)
    i = workitemIdx().x
    f = @nospecialize(v) -> v - 1
    y[i] = bump(x[i]) + twice(x[i], 3) + square(x[i]) + cube(x[i]) + f(x[i])
    return nothing
end
# run: hinted!(y = zeros(Float32, 3), x = Float32[1.5, -2, 0.25]) groupsize 3
# expect y: [13.125, -14.0, 1.328125]
