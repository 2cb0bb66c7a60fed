# A complex array's elements, loaded and stored with Julia's alignment of Complex{T} (T's).
function cscale!(y, x, a)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(y)
        @inbounds y[i] = a * x[i]
    end
    return
end
