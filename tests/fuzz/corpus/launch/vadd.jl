#sig vadd! Vector{Float32}; Vector{Float32}; Vector{Float32}
function vadd!(c, a, b)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(c)
        @inbounds c[i] = a[i] + b[i]
    end
    return
end
