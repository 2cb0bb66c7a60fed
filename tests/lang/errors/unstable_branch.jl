# A variable that is an Int64 on one branch and a Float64 on the other, used after the merge.
function unstable_branch!(o, n)
    if n > 0
        x = 1
    else
        x = 2.5
    end
    o[1] = x
    return nothing
end
# run: unstable_branch!(o = zeros(Float64, 1), n = 1)
# expect error: variable `x` has type Float64 here but Int64 at 4:9, and both reach one use; a kernel variable must keep one concrete type (Julia would box it, a GPU cannot)
# expect error at: 6:9
