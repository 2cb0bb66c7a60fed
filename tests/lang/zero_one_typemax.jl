# zero/one of a value or a type, typemin/typemax, eltype-driven zero.
function zero_one_typemax!(i8, u16, i64, f32, x::Float32)
    i8[1] = typemin(Int8)
    i8[2] = typemax(Int8)
    i8[3] = zero(Int8)
    i8[4] = one(Int8) + one(Int8)
    u16[1] = typemax(UInt16)
    u16[2] = typemin(UInt16)
    u16[3] = one(0x0000)
    i64[1] = typemax(Int64)
    i64[2] = typemin(Int64)
    i64[3] = typemax(Int32)
    i64[4] = typemax(UInt32)
    i64[5] = zero(3)
    i64[6] = one(Int64)
    f32[1] = zero(x)
    f32[2] = one(x)
    f32[3] = typemax(Float32)
    f32[4] = typemin(Float32)
    f32[5] = zero(eltype(f32)) + 2
    f32[6] = eps(Float32)
    return nothing
end
# run: zero_one_typemax!(i8 = zeros(Int8, 4), u16 = zeros(UInt16, 3), i64 = zeros(Int64, 6), f32 = zeros(Float32, 6), x = 2.5f0)
# expect i8: [-128, 127, 0, 2]
# expect u16: [65535, 0, 1]
# expect i64: [9223372036854775807, -9223372036854775808, 2147483647, 4294967295, 0, 1]
# expect f32: [0, 1, Inf, -Inf, 2, 1.1920928955078125e-7]
