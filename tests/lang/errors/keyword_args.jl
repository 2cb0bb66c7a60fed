# Keyword arguments and default values are not supported in kernels.
f(x; scale = 2) = x * scale
g(x, y = 1) = x + y
function keyword_args!(o)
    o[1] = g(1)
    return nothing
end
# expect error: syntax: keyword arguments are not supported in kernels
# expect error at: 2:4
# expect error: default parameter values are not supported in kernels
# expect error at: 3:6
