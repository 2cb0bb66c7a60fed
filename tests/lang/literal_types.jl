# Literals are typed as Julia types them; each literal is classified by dispatch.
code(::Int64) = 1
code(::Float64) = 2
code(::Float32) = 3
code(::UInt8) = 4
code(::UInt16) = 5
code(::UInt32) = 6
code(::UInt64) = 7
code(::Bool) = 8
code(::Nothing) = 9
code(::Int32) = 10
code(::Float16) = 11

function literal_types!(out)
    out[1] = code(1)
    out[2] = code(1.0)
    out[3] = code(1f0)
    out[4] = code(1.5f0)
    out[5] = code(1f-3)
    out[6] = code(0x1f)
    out[7] = code(0x01f)          # three hex digits: UInt16
    out[8] = code(0x0001f)        # five: UInt32
    out[9] = code(0x00000001f)    # nine: UInt64
    out[10] = code(true)
    out[11] = code(nothing)
    out[12] = code(Inf)
    out[13] = code(Inf32)
    out[14] = code(NaN32)
    out[15] = code(NaN)
    out[16] = code(1e3)
    out[17] = code(Int32(1))
    out[18] = code(1_000)
    out[19] = code(Float16(1))
    out[20] = code(.5)
    return nothing
end
# run: literal_types!(out = zeros(Int64, 20))
# expect out: [1, 2, 3, 3, 3, 4, 5, 6, 7, 8, 9, 2, 3, 3, 2, 2, 10, 1, 11, 2]
