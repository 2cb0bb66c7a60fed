# Julia's promotion rules, checked through dispatch on the result type.
code(::Int64) = 1
code(::Float64) = 2
code(::Float32) = 3
code(::UInt8) = 4
code(::UInt16) = 5
code(::UInt32) = 6
code(::UInt64) = 7
code(::Bool) = 8
code(::Int32) = 10
code(::Float16) = 11
code(::Int8) = 12
code(::Int16) = 13

function promotion!(out, x::Float32, k::Int32)
    out[1] = code(x + 1)              # Float32 with an Int stays Float32
    out[2] = code(x * 2.0)            # with a Float64 literal becomes Float64
    out[3] = code(1 / 2)              # integer / gives Float64
    out[4] = code(k + 1)              # Int32 + Int64: Int64
    out[5] = code(k + k)              # Int32 + Int32: Int32
    out[6] = code(0x01 + 0x0001)      # UInt8 + UInt16: UInt16
    out[7] = code(Int8(1) + 0x01)     # Int8 + UInt8: Int64 (small unsigned with signed promotes to Int)
    out[8] = code(k + 0x00000001)     # Int32 + UInt32: Int64
    out[9] = code(1 + 0x0000000000000001) # Int64 + UInt64: UInt64
    out[10] = code(true + true)       # Bool arithmetic: Int64
    out[11] = code(x + Float16(1))    # Float32 + Float16: Float32
    out[12] = code(Float16(1) + 1)    # Float16 + Int: Float16
    out[13] = code(k / k)             # Int32 / Int32: Float64
    out[14] = code(x / k)             # Float32 / Int32: Float32
    out[15] = code(Int16(1) + Int8(1)) # Int16
    out[16] = code(0x0001 + Int16(1)) # UInt16 + Int16: Int64
    out[17] = code(0x00000001 + Int64(1)) # UInt32 + Int64: Int64
    out[18] = code(-x)                # Float32
    out[19] = code(-true)             # Int64
    out[20] = code(k * 1.5f0)         # Float32
    out[21] = code(x ^ 2)             # Float32
    out[22] = code(2 ^ 0.5)           # Float64
    out[23] = code(k ÷ Int32(2))      # Int32
    out[24] = code(k % 2)             # Int64
    return nothing
end
# run: promotion!(out = zeros(Int64, 24), x = 1.5f0, k = Int32(7))
# expect out: [3, 2, 2, 1, 10, 5, 1, 1, 7, 1, 3, 11, 2, 3, 13, 1, 1, 3, 1, 3, 3, 2, 10, 1]
