# A type written as a value is built at compile time: a parameter known only at run time cannot be one.
function same_length!(r, t, n)
    r[1] = t isa NTuple{n, Float32}
    return
end
# run: same_length!(r = zeros(Bool, 1), t = (1f0, 2f0), n = 2)
# expect error: NTuple{...}: parameter 1 is a value of type Int64, not a type or constant
# expect error at: 3:18
