# A captured variable assigned earlier in a loop around the closure is assigned again after the closure is made (by
# the next iteration), so Julia boxes it (Core.Box), as it does one assigned later in the source (E1951).
function boxed_in_loop!(out, x)
    s = 0.0f0
    for i in 1:3
        s = x[i]
        h = y -> y * s
        out[i] = h(2.0f0)
    end
    return
end
# run: boxed_in_loop!(out = zeros(Float32, 3), x = Float32[1, 2, 3])
# expect error: `s` is captured by the closure at line 7:22 and assigned again here: Julia boxes such a variable (Core.Box), which a kernel cannot hold; give the new value another name, or assign `s` only before the closure
# expect error at: 6:9
