# first, last and step of a range have its element type (UnitRange{Int32} → Int32), as in Julia.
kind(::Int32) = 32
kind(::Int64) = 64
kind(::UInt8) = 8
function range_ends!(o, n::Int32)
    r = Int32(2):n
    o[1] = first(r) + last(r)
    o[2] = kind(first(r))
    o[3] = kind(last(r))
    s = Int32(3):Int32(4):n         # 3, 7, 11: last is 11 (the element reached), step Int32
    o[4] = last(s)
    o[5] = kind(step(s))
    o[6] = kind(first(0x02:0x05))
    o[7] = kind(last(1:n))          # Int64 and Int32 promote: Int64
    return nothing
end
# run: range_ends!(o = zeros(Int64, 7), n = Int32(12))
# expect o: [14, 32, 32, 11, 32, 8, 64]
