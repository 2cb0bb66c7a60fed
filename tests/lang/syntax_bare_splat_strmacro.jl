# A splat inside a tuple written without parentheses (`a, b = t..., x`, also as the one argument of a
# statement macro such as @inbounds), and non-standard string literals: `lazy"..."` reads as the string it
# prints (a kernel exception's message), other `name"..."` literals parse as @name_str calls (host code only).
function unused_on_device(s)
    # never compiled for the device: it only has to parse
    return occursin(r"^k[0-9]+\"q", s) ? raw"C:\dir\\" : b"xy"
end

function pad_index!(out, I::CartesianIndex{2}, t)
    row, col = @inbounds Tuple(I)..., 1
    a, b, c, d = t..., -4, t[1] * 2
    out[1] = row
    out[2] = col
    out[3] = a + b
    out[4] = c
    out[5] = d
    return
end
# run: pad_index!(out = zeros(Int64, 5), I = CartesianIndex(7, 3), t = (10, 20))
# expect out: [7, 3, 30, -4, 20]

# a vector's index gets the trailing 1 as its second value
function row_col!(out, i::Int)
    r, c = Tuple(CartesianIndex(i))..., 1
    out[1] = r * 100 + c
    return
end
# run: row_col!(out = zeros(Int64, 1), i = 42)
# expect out: [4201]

function checked_scale!(out, x, limit)
    i = 1
    x[i] > limit && throw(DomainError(x[i], lazy"value $(x[i]) over the limit $limit"))
    out[i] = 2 * x[i]
    return
end
# run: checked_scale!(out = zeros(Float64, 1), x = Float64[1.25], limit = 3)
# expect out: [2.5]
# run: checked_scale!(out = zeros(Float64, 1), x = Float64[4.5], limit = 3)
# expect exception: value 4.5 over the limit 3
