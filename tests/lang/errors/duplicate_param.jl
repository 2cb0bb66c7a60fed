# A parameter name used twice.
function duplicate_param!(o, x, x)
    o[1] = x
    return nothing
end
# expect error: syntax: function argument name `x` is not unique
# expect error at: 2:33
