#sig intops! Vector{Int32}; Vector{Int32}; Vector{Int32}
#sig intops! Vector{Int64}; Vector{Int64}; Vector{Int64}
# Integer semantics: Julia's division family, bit operations, shifts, ifelse and the ternary.
function intops!(out, a, b)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(a)
        @inbounds x = a[i]
        @inbounds y = b[i]
        r = div(x, y) + rem(x, y) + mod(x, y) + fld(x, y) + cld(x, y)
        r += (x & y) | (x ⊻ y)
        r += (x << 2) + (x >> 1) + (x >>> 3)
        r += ifelse(x > y, x, y) + (x == y ? one(x) : zero(x))
        @inbounds out[i] = r
    end
    return
end
