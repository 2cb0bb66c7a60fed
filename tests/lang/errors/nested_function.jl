# Functions defined inside functions (closures) are not supported.
function nested_function!(o)
    function inner(x)
        return x + 1
    end
    o[1] = inner(1)
    return nothing
end
# run: nested_function!(o = zeros(Int64, 1))
# expect error: nested function definitions (closures) are not supported in kernels
# expect error at: 3:5
