# Ranges keep their element type: for i in Int32(1):Int32(4) gives i::Int32.
code(::Int32) = 32
code(::Int64) = 64
code(::UInt8) = 8
function range_int32!(o, n::Int32)
    s = Int32(0)
    for i in Int32(1):n
        s += i                   # Int32 + Int32 stays Int32
        o[1] = code(i)
    end
    o[2] = s
    o[3] = code(s)
    for i in 0x01:0x03
        o[4] = code(i)
    end
    for i in Int32(1):n:Int32(10)   # a StepRange{Int32, Int32}: 1, 5, 9
        o[5] = code(i)
        o[6] += i
    end
    for i in 1:n                 # Int64 and Int32 promote: Int64
        o[7] = code(i)
    end
    return nothing
end
# run: range_int32!(o = zeros(Int64, 7), n = Int32(4))
# expect o: [32, 10, 32, 8, 32, 15, 64]
