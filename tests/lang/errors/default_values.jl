# Default values are not supported in kernels: reported when a kernel calls the method.
g(x, y = 1) = x + y
function default_values!(o)
    o[1] = g(1, 2)
    return nothing
end
# run: default_values!(o = zeros(Int64, 1))
# expect error: default parameter values are not supported in kernels
# expect error at: 2:6
