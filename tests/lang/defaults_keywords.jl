# Default positional arguments (one method per arity, a default seeing the arguments before it) and keyword
# arguments (f(x; k = v), the shorthand f(x; k), defaults seeing earlier keywords, required keywords), in
# helpers and in a kernel launched with fewer arguments than it declares.
scaled(x, a = 2, b = a + 1) = x * a + b
function kw(x; scale = 2, shift = scale * 10, sign::Int64 = 1)
    return sign * (x * scale + shift)
end
kwreq(x; k) = x + k
mixed(x, y = 3; z = 4) = 100x + 10y + z
anon(::Type{T}, x = 1) where {T} = T(x)
function defaults_keywords!(o, n = 7)
    o[1] = scaled(1)             # 1*2 + 3
    o[2] = scaled(1, 5)          # 5 + 6
    o[3] = scaled(1, 5, 0)
    o[4] = kw(1)                 # 2 + 20
    o[5] = kw(1; scale = 3)      # 3 + 30
    o[6] = kw(1, shift = 1)      # 2 + 1
    shift = 5
    o[7] = kw(2; shift, sign = -1)
    o[8] = kwreq(1; k = 9)
    o[9] = mixed(1)
    o[10] = mixed(1, 5; z = 6)
    o[11] = anon(Int64) + anon(Int64, 4)
    o[12] = n
    return nothing
end
# run: defaults_keywords!(o = zeros(Int64, 12))
# expect o: [5, 11, 5, 22, 33, 3, -9, 10, 134, 156, 5, 7]
# run: defaults_keywords!(o = zeros(Int64, 12), n = 3)
# expect o: [5, 11, 5, 22, 33, 3, -9, 10, 134, 156, 5, 3]
