# A call passing a keyword that no method takes: Julia's MethodError, reported when a call reaches it.
f(x; scale = 2) = x * scale
function keyword_args!(o)
    o[1] = f(1; size = 3)
    return nothing
end
# run: keyword_args!(o = zeros(Int64, 1))
# expect error: MethodError: f got an unsupported keyword argument "size"
# expect error at: 2:1
