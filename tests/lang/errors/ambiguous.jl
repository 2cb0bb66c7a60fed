# Two methods, neither more specific: an ambiguity.
pick(x::Integer, y::Int64) = 1
pick(x::Int64, y::Integer) = 2
function ambiguous!(o)
    o[1] = pick(1, 2)
    return nothing
end
# run: ambiguous!(o = zeros(Int64, 1))
# expect error: MethodError: pick(::Int64, ::Int64) is ambiguous
# expect error at: 5:12
