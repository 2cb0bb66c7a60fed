# A call that no method of a function with Tuple or NTuple annotations takes is a MethodError naming the
# call, not an UndefVarError of `Tuple` (a bare Tuple is no concrete type, yet it is defined).
pairsum(t::Tuple, s::NTuple{2, Int64}) = t[1] + s[2]
function tuple_args!(out, x)
    out[1] = pairsum(x[1], (1, 2))
    return nothing
end
# run: tuple_args!(out = zeros(Float64, 1), x = Float64[2.5])
# expect error: MethodError: no method matching pairsum(::Float64, ::Tuple{Int64, Int64})
# expect error at: 5:14
