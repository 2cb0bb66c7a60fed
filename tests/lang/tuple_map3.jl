# map(f, t, s, u) over three tuples, as long as the shortest (it returned () for any three tuples)
f3(a, b, c) = a * b + c
function map3!(o)
    t = map(f3, (1, 2, 3), (4, 5, 6), (7, 8, 9))
    o[1] = length(t)
    o[2] = t[1] + t[2] + t[3]
    u = map(f3, (1, 2), (4, 5, 6), (7, 8, 9))
    v = map(f3, (1, 2, 3), (4, 5, 6), (7,))
    w = map(f3, (), (4,), ())
    o[3] = length(u) * 100 + length(v) * 10 + length(w)
    o[4] = u[2] + v[1]
    return
end
# run: map3!(o = zeros(Int64, 4))
# expect o: [3, 56, 210, 29]
