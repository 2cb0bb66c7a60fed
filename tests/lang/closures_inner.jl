# Functions defined inside functions are closures, as in Julia: they see the enclosing function's locals.
function inner_functions!(o, v, s)
    function inner(x)
        return x + 1
    end
    function scaled(x)
        y = x * s
        return y + v[1]
    end
    o[1] = inner(1)
    o[2] = scaled(3)
    o[3] = sum(scaled, v)
    return nothing
end
# run: inner_functions!(o = zeros(Int64, 3), v = Int64[5, -2, 7], s = 4)
# expect o: [2, 17, 55]
