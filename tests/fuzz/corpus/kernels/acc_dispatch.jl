#sig apply_scale! Vector{Float32}; Vector{Float32}
#sig apply_scale! Vector{Float64}; Vector{Float64}
#sig apply_scale! Vector{Int32}; Vector{Int32}
# Multiple dispatch on argument types, short function definitions and one().
scale(x::Float32) = 2f0 * x
scale(x::Float64) = 3.0 * x
scale(x::Integer) = x + one(x)

function apply_scale!(y, x)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(x)
        @inbounds y[i] = scale(x[i])
    end
    return
end
