#sig scale! Vector{Float64}; Vector{Float64}; Float64
function scale!(y, x, a)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    y[i] = a * x[i]
    return
end
