# A constant index past the end of a tuple.
const T3 = (1, 2, 3)
function tuple_bounds!(o)
    o[1] = T3[4]
    o[2] = T3[0]
    return nothing
end
# run: tuple_bounds!(o = zeros(Int64, 2))
# expect error: BoundsError: attempt to access Tuple{Int64, Int64, Int64} at index [4]
# expect error at: 4:12
# expect error: BoundsError: attempt to access Tuple{Int64, Int64, Int64} at index [0]
# expect error at: 5:12
