# Storing a tuple into a Float64 array: no conversion exists.
function store_tuple!(o)
    o[1] = (1, 2)
    return nothing
end
# run: store_tuple!(o = zeros(Float64, 1))
# expect error: MethodError: cannot convert a value of type Tuple{Int64, Int64} to Float64
# expect error at: 3:5
