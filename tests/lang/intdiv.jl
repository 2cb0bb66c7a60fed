# div, rem, mod, fld, cld, ÷ and % on negative numbers, as Julia defines them.
function intdiv!(o, a, b)
    for k in 1:length(a)
        x = a[k]
        y = b[k]
        base = 8(k - 1)
        o[base + 1] = div(x, y)
        o[base + 2] = rem(x, y)
        o[base + 3] = mod(x, y)
        o[base + 4] = fld(x, y)
        o[base + 5] = cld(x, y)
        o[base + 6] = x ÷ y
        o[base + 7] = x % y
        o[base + 8] = fld(x, y) * y + mod(x, y) - x   # always 0
    end
    return nothing
end
# run: intdiv!(o = zeros(Int64, 40), a = Int64[-7, 7, -7, 7, -6], b = Int64[2, -2, -2, 2, 3])
# expect o: [-3, -1, 1, -4, -3, -3, -1, 0,  -3, 1, -1, -4, -3, -3, 1, 0,  3, -1, -1, 3, 4, 3, -1, 0,  3, 1, 1, 3, 4, 3, 1, 0,  -2, 0, 0, -2, -2, -2, 0, 0]
# run: intdiv!(o = zeros(Int32, 40), a = Int32[-7, 7, -7, 7, -6], b = Int32[2, -2, -2, 2, 3])
# expect o: [-3, -1, 1, -4, -3, -3, -1, 0,  -3, 1, -1, -4, -3, -3, 1, 0,  3, -1, -1, 3, 4, 3, -1, 0,  3, 1, 1, 3, 4, 3, 1, 0,  -2, 0, 0, -2, -2, -2, 0, 0]
