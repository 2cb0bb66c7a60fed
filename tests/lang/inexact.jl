# Conversions that are not exact raise InexactError, as do stores that do not fit.
function to_int32!(o, x)
    o[1] = Int32(x)
    return nothing
end
function store!(o, x)
    o[1] = x
    return nothing
end
function to_uint!(o, x)
    o[1] = UInt8(x)
    return nothing
end
function round_int!(o, x)
    o[1] = round(Int, x)
    return nothing
end
# run: to_int32!(o = zeros(Int32, 1), x = 3.5)
# expect exception: InexactError
# expect exception: 3.5
# expect exception at: 3:12
# run: to_int32!(o = zeros(Int32, 1), x = 3.0e10)
# expect exception: InexactError
# run: to_int32!(o = zeros(Int32, 1), x = 5000000000)
# expect exception: InexactError
# run: to_int32!(o = zeros(Int32, 1), x = -7.0)
# expect o: [-7]
# run: store!(o = zeros(UInt8, 1), x = 300)
# expect exception: InexactError
# run: store!(o = zeros(Int64, 1), x = 2.5)
# expect exception: InexactError
# run: store!(o = zeros(UInt8, 1), x = -1)
# expect exception: InexactError
# run: store!(o = zeros(Int64, 1), x = 2.0f0)
# expect o: [2]
# run: to_uint!(o = zeros(UInt8, 1), x = Int8(-1))
# expect exception: InexactError
# run: round_int!(o = zeros(Int64, 1), x = 1.0e30)
# expect exception: InexactError
# run: round_int!(o = zeros(Int64, 1), x = NaN)
# expect exception: InexactError
