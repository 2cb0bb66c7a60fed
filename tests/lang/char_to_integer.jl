# An integer of a character is its code point, as Julia's constructors of the integer types take a Char:
# Int('a') == 97; one that does not fit the type throws an InexactError. The type names stay types beside
# those methods (zeros and conversions of numbers).

function char_codes!(out, s)
    i = workitemIdx().x
    c = 'a' + (s[i] - 1)
    out[1, i] = Int(c)
    out[2, i] = Int32(c) + Int64(1)
    out[3, i] = UInt8(c)
    out[4, i] = Int64(UInt32(c) - UInt32('a'))
    out[5, i] = Int16(uppercase(c))
    out[6, i] = Int(2.0) + Int32(UInt8(3))
    return nothing
end
# run: char_codes!(out = zeros(Int64, 6, 3), s = Int64[1, 5, 26]) groupsize 3
# expect out: [97, 98, 97, 0, 65, 5, 101, 102, 101, 4, 69, 5, 122, 123, 122, 25, 90, 5]

function char_too_wide!(out, k)
    out[1] = Int8('a' + k[1])
    return nothing
end
# run: char_too_wide!(out = zeros(Int8, 1), k = Int64[3])
# expect out: [100]
# run: char_too_wide!(out = zeros(Int8, 1), k = Int64[40])
# expect exception: InexactError
