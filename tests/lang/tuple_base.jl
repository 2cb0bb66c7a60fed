# Base's tuple functions in Julia (the prelude): first, last, reverse, Base.tail, Base.front, tuple, map over
# one to three tuples (as long as the shortest), ntuple with Val(N) and with a constant N, all / any.
sq(x) = x * x
addp(a, b) = a + b
function tuple_base!(o)
    t = (3, 4, 5)
    o[1] = first(t)
    o[2] = last(t)
    r = reverse(t)
    o[3] = r[1]
    m = map(sq, t)
    o[4] = m[3]
    s = map(addp, t, (10, 20))
    o[5] = s[2] + length(s)
    n = ntuple(sq, Val(4))
    o[6] = n[4]
    n2 = ntuple(sq, 3)
    o[7] = n2[3] + length(n2)
    o[8] = length(Base.tail(t))
    o[9] = tuple(t...)[2]
    o[10] = all((true, true)) ? 1 : 0
    o[11] = length(Base.front(t))
    return nothing
end
# run: tuple_base!(o = zeros(Int64, 11))
# expect o: [3, 5, 5, 25, 26, 16, 12, 2, 4, 1, 2]
