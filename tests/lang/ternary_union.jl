# The value of `c ? a : b` whose branches give two number types is Julia's Union{A, B}: each statement that
# reads it is split on the type it holds (union_split.c), as for a variable assigned two types. A radix
# sort's `UInt32(i < len ? digit(v[i]) : 0)`: a UInt32 digit, or the Int64 0 past the end.
using KernelAbstractions

digit(x::Int32) = (reinterpret(UInt32, x) ⊻ 0x80000000) & 0x0000000f

@kernel function digits_or_zero!(out, @Const(v))
    i = @index(Global, Linear)
    out[i] = UInt32(i <= length(v) ? digit(v[i]) : 0)
end
# run: digits_or_zero!(out = zeros(UInt32, 7), v = Int32[-3, 17, 2147483647, -2147483648, 40]) ndrange 7
# expect out: [13, 1, 15, 0, 8, 0, 0]

# a generic function takes each member by its own method, and a variable takes the union on
kind(x::Int64) = 10 * x
kind(x::Float32) = x / 2
function pick!(out, v, n)
    for i = 1:n
        y = v[i] > 0 ? v[i] : -1
        out[i, 1] = kind(v[i] > 0 ? v[i] : 7)
        out[i, 2] = y
    end
    return
end
# run: pick!(out = zeros(Float32, 4, 2), v = Float32[1.5, -2, 0.25, 0], n = 4)
# expect out: [0.75, 70.0, 0.125, 70.0, 1.5, -1.0, 0.25, -1.0]

# nested: three member types, the inner value read by the outer's assignment
function tiers!(out, v)
    i = workitemIdx().x
    x = v[i] > 1 ? (v[i] > 2 ? v[i] : Int32(2)) : UInt8(1)
    out[i] = x + 0.5
    return
end
# run: tiers!(out = zeros(Float64, 4), v = Float64[0.5, 1.5, 2.5, 3]) groupsize 4
# expect out: [1.5, 2.5, 3.0, 3.5]
