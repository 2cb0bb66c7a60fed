# Calling a value that is not a function.
function not_callable!(o)
    x = 3
    o[1] = x(2)
    return nothing
end
# run: not_callable!(o = zeros(Int64, 1))
# expect error: MethodError: objects of type Int64 are not callable
# expect error at: 4:12
