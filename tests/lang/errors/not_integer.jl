# `!` is for Bool only in Julia 1.x (~ is the bitwise not).
function not_integer!(o, n)
    o[1] = !n
    o[2] = ~n
    return nothing
end
# run: not_integer!(o = zeros(Int64, 2), n = 5)
# expect error: MethodError: no method matching !(::Int64)
# expect error at: 3:12
