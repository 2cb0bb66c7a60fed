# Keyword arguments are not supported in kernels (a syntax error at load).
f(x; scale = 2) = x * scale
function keyword_args!(o)
    o[1] = f(1)
    return nothing
end
# expect error: syntax: keyword arguments are not supported in kernels
# expect error at: 2:4
