# Base.Order as Julia's base/ordering.jl has it (Forward, Reverse, By, Lt, ReverseOrdering, lt, ord), the
# sorted searches of base/sort.jl with their keywords, and sort! of a work-item's own column.
# work-item i: where xs[i] goes in the sorted v, first and last, in several orders
function search_orders!(out, v, rv, av, xs)
    i = workitemIdx().x
    x = xs[i]
    out[1, i] = searchsortedfirst(v, x)
    out[2, i] = searchsortedlast(v, x)
    out[3, i] = searchsortedfirst(rv, x; rev = true)
    out[4, i] = searchsortedlast(rv, x, Base.Order.Reverse)
    out[5, i] = searchsortedfirst(av, x; by = abs)
    out[6, i] = length(searchsorted(v, x))
    out[7, i] = insorted(x, v)
    return
end

function order_lt!(out, a, b)
    i = workitemIdx().x
    x, y = a[i], b[i]
    out[1, i] = Base.Order.lt(Base.Order.Forward, x, y)
    out[2, i] = Base.Order.lt(Base.Order.Reverse, x, y)
    out[3, i] = Base.Order.lt(Base.Order.By(abs), x, y)
    out[4, i] = Base.Order.lt(Base.Order.Lt((p, q) -> p > q), x, y)
    out[5, i] = Base.Order.lt(Base.Order.ord(isless, abs, true), x, y)
    out[6, i] = Base.Order.lt(Base.Order.ReverseOrdering(Base.Order.By(abs)), x, y)
    out[7, i] = Base.Order.lt(Base.Order.ReverseOrdering(Base.Order.Reverse), x, y)
    return
end

# each work-item sorts its column, by value, then reversed, then by absolute value
function sort_columns!(a, mode)
    i = workitemIdx().x
    col = view(a, :, i)
    if mode == 1
        sort!(col)
    elseif mode == 2
        sort!(col; rev = true)
    else
        sort!(col; by = abs, order = Base.Order.Forward)
    end
    a[1, i] = a[1, i] + 1000 * issorted(col; by = abs)
    return
end
# run: search_orders!(out = zeros(Int64, 7, 6), v = Float64[-3.5, -1.0, 0.25, 0.25, 2.0, 7.5], rv = Float64[7.5, 2.0, 0.25, 0.25, -1.0, -3.5], av = Float64[0.25, -1.0, 2.0, -3.5, 7.5], xs = Float64[0.25, -4.0, 9.0, 1.5, -1.0, 2.0]) groupsize 6
# expect out: [3, 4, 3, 4, 1, 2, 1, 1, 0, 7, 6, 5, 0, 0, 7, 6, 1, 0, 6, 0, 0, 5, 4, 3, 2, 3, 0, 0, 2, 2, 5, 5, 2, 1, 1, 5, 5, 2, 2, 3, 1, 1]
# run: order_lt!(out = zeros(Bool, 7, 4), a = Float64[1.5, -2.0, 3.0, -0.5], b = Float64[-2.5, 1.0, 3.0, 0.75]) groupsize 4
# expect out: [false, true, true, true, false, false, false, true, false, false, false, true, true, true, false, false, false, false, false, false, false, true, false, true, false, false, false, true]
# run: sort_columns!(a = reshape(Int64[5, -3, 9, 0, -7, 2, 2, -1, 4, 8, -6, 3], 6, 2), mode = 1) groupsize 2
# expect a: [-7, -3, 0, 2, 5, 9, -6, -1, 2, 3, 4, 8]
# run: sort_columns!(a = reshape(Int64[5, -3, 9, 0, -7, 2, 2, -1, 4, 8, -6, 3], 6, 2), mode = 2) groupsize 2
# expect a: [9, 5, 2, 0, -3, -7, 8, 4, 3, 2, -1, -6]
# run: sort_columns!(a = reshape(Int64[5, -3, 9, 0, -7, 2, 2, -1, 4, 8, -6, 3], 6, 2), mode = 3) groupsize 2
# expect a: [1000, 2, -3, 5, -7, 9, 999, 2, 3, 4, -6, 8]
