#sig mathfuns! Vector{Float32}; Vector{Float32}
#sig mathfuns! Vector{Float64}; Vector{Float64}
# Math functions and mixed-type promotion; launched for Float32 and for Float64 arrays.
function mathfuns!(y, x)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if i <= length(x)
        @inbounds v = x[i]
        @inbounds y[i] = sqrt(abs(v)) + exp(-v * v) + sin(v) * cos(v) + log(1 + abs(v)) +
                         v^3 + tanh(v) + max(v, 0) - min(v, 0) + fma(v, v, v) + floor(v) + ceil(v)
    end
    return
end
