# Functions passed as arguments: a built-in operator, a built-in function, a user function.
twice(x) = 2x
apply(op, a, b) = op(a, b)
apply1(f, x) = f(x)
function reduce_with(op, v, init)
    acc = init
    for i in 1:length(v)
        acc = op(acc, v[i])
    end
    return acc
end
mymax(a, b) = a > b ? a : b
function function_args!(o, v)
    o[1] = apply(+, 3, 4)
    o[2] = apply(max, 3, 9)
    o[3] = apply(*, 6, 7)
    o[4] = apply1(twice, 21)
    o[5] = apply1(abs, -5)
    o[6] = reduce_with(+, v, 0)
    o[7] = reduce_with(max, v, typemin(Int64))
    o[8] = reduce_with(mymax, v, 0)
    o[9] = reduce_with(min, v, typemax(Int64))
    o[10] = apply(-, 1, 10)
    return nothing
end
# run: function_args!(o = zeros(Int64, 10), v = Int64[4, -2, 9, 1])
# expect o: [7, 9, 42, 42, 5, 12, 9, 9, -2, -9]
