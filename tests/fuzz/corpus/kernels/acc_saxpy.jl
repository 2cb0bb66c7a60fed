#sig saxpy! Vector{Float32}; Float32; Vector{Float32}
# y = a*x + y with a scalar argument.
function saxpy!(y, a, x)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if i <= length(y)
        @inbounds y[i] = a * x[i] + y[i]
    end
    return nothing
end
