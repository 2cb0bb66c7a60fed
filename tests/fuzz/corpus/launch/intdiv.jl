#sig idiv! Vector{Int32}; Vector{Int32}; Int32
function idiv!(out, a, k)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(out) && i <= length(a)
        out[i] = div(a[i], k) + rem(a[i], Int32(3))
    end
    return
end
