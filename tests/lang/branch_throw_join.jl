# An if/elseif chain whose branches the types decide, where an `a || b` condition leaves two sides open and the
# only other open side throws: that side has no value to join, as Julia's Union{} (the chain's value is the
# one open branch's). main's build said "compile error" without a message here.
function pick(x, ::Val{C}) where {C}
    if C == 1
        x
    elseif C == 2 || C == 3
        2x + C
    elseif C == 4
        x * 1000
    else
        throw(ArgumentError("no such case"))
    end
end
function branch_throw_join!(out, a, ::Val{C}) where {C}
    i = workitemIdx().x
    out[i] = pick(a[i], Val(C))
    return
end
# run: branch_throw_join!(out = zeros(Int64, 3), a = Int64[5, -3, 11], c = Val(2)) groupsize 3
# expect out: [12, -4, 24]
# run: branch_throw_join!(out = zeros(Int64, 3), a = Int64[5, -3, 11], c = Val(3)) groupsize 3
# expect out: [13, -3, 25]
# run: branch_throw_join!(out = zeros(Int64, 3), a = Int64[5, -3, 11], c = Val(7)) groupsize 3
# expect exception: ArgumentError
