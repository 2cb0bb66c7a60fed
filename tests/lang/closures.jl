# Anonymous functions and closures in kernels: x -> e, (x, y) -> e, () -> e, function (x) ... end, do-blocks,
# captured locals (each closure a struct of its captures, as Julia lowers it), closures passed to user functions.
apply(f, x) = f(x)
apply2(f, x, y) = f(x, y)
twice(f, x) = f(f(x))
compose(f, g) = x -> f(g(x))
function with_each(f, n)
    acc = 0f0
    for i in 1:n
        acc += f(i)
    end
    return acc
end
function closures!(B, A, s, k)
    i = workitemIdx().x
    a = A[i]
    inc = x -> x + 1f0
    scale = x -> s * x
    mul = (x, y) -> x * y + s
    konst = () -> a
    cube = function (x)
        y = x * x
        return y * x
    end
    B[i, 1] = apply(inc, a)
    B[i, 2] = apply(scale, a)
    B[i, 3] = apply2(mul, a, 3f0)
    B[i, 4] = konst() + cube(2f0)
    B[i, 5] = twice(x -> x * s + a, 1f0)
    B[i, 6] = compose(inc, scale)(a)
    B[i, 7] = with_each(3) do j
        j * a + Float32(k)
    end
    B[i, 8] = apply(a) do x
        t = x * 2f0
        t + s
    end
    return nothing
end
# run: closures!(B = zeros(Float32, 3, 8), A = Float32[1.5, -2, 4], s = 3f0, k = Int32(2)) groupsize 3
# expect B: [2.5, -1, 5, 4.5, -6, 12, 7.5, -3, 15, 9.5, 6, 12, 15, 1, 25, 5.5, -5, 13, 15, -6, 30, 6, -1, 11]
