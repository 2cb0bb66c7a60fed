# ifelse with arguments of two types would be a Union: not on the device.
function ifelse_types!(o, n)
    o[1] = ifelse(n > 0, 1, 2.0)
    return nothing
end
# run: ifelse_types!(o = zeros(Float64, 1), n = 1)
# expect error: ifelse(cond, a, b) needs a and b of one type; got Int64 and Float64
# expect error at: 3:12
