# ?: evaluates one branch; ifelse evaluates both and picks one.
function hit(c, v)
    c[1] += 1
    return v
end
function ternary_ifelse!(o, c, n)
    o[1] = n > 0 ? 10 : 20
    o[2] = n < 0 ? 10 : n == 3 ? 30 : 40
    o[3] = ifelse(n > 0, 1, 2)
    o[4] = ifelse(n > 0, hit(c, 5), hit(c, 6))   # both sides run: c == 2
    o[5] = n > 0 ? hit(c, 7) : hit(c, 8)         # one side runs: c == 3
    o[6] = (n > 0 ? n : -n) * 2
    return nothing
end
# run: ternary_ifelse!(o = zeros(Int64, 6), c = zeros(Int64, 1), n = 3)
# expect o: [10, 30, 1, 5, 7, 6]
# expect c: [3]
# run: ternary_ifelse!(o = zeros(Int64, 6), c = zeros(Int64, 1), n = -2)
# expect o: [20, 10, 2, 6, 8, 4]
# expect c: [3]
