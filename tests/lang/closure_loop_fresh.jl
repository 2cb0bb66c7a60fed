# A variable first assigned inside a loop is a new variable in each iteration, as is the loop's own: a closure made
# in the loop captures that iteration's, which nothing assigns again (no Core.Box in Julia).
function fresh_in_loop!(out, x)
    for i in 1:3
        t = x[i]
        h = y -> y * t + i
        out[i] = h(2.0f0)
    end
    k = 0
    while k < 2
        k += 1
        u = x[k] * 10
        g = () -> u + 1
        out[3 + k] = g()
    end
    return
end
# run: fresh_in_loop!(out = zeros(Float32, 5), x = Float32[1.5, 2, 3])
# expect out: [4, 6, 9, 16, 21]
