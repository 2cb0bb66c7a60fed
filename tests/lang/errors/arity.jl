# Calls with too many and too few arguments.
add2(a, b) = a + b
function arity!(o)
    o[1] = add2(1, 2, 3)
    o[2] = add2(1)
    return nothing
end
# run: arity!(o = zeros(Int64, 2))
# expect error: MethodError: no method matching add2(::Int64, ::Int64, ::Int64)
# expect error at: 4:12
# expect error: MethodError: no method matching add2(::Int64)
# expect error at: 5:12
