# A variable whose type changes across loop iterations.
function unstable_loop!(o, n)
    s = 0
    for i in 1:n
        s += 0.5
    end
    o[1] = s
    return nothing
end
# run: unstable_loop!(o = zeros(Float64, 1), n = 3)
# expect error: variable `s` has type Float64 here but Int64 at 3:5, and both reach one use; a kernel variable must keep one concrete type (Julia would box it, a GPU cannot)
# expect error at: 5:9
