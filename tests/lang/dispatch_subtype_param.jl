# Anonymous bounded parameters: AbstractVector{<:Integer} matches any integer element type.
which(x::AbstractVector{<:Integer}) = 1
which(x::AbstractVector{<:AbstractFloat}) = 2
which(x::AbstractArray{<:Real, 2}) = 3
function subtype_param!(o, xi, xu, xf, m)
    o[1] = which(xi)
    o[2] = which(xu)
    o[3] = which(xf)
    o[4] = which(m)
    return nothing
end
# run: subtype_param!(o = zeros(Int64, 4), xi = Int32[1, 2], xu = UInt8[3], xf = Float64[1.5], m = reshape(Float32[1, 2, 3, 4], 2, 2))
# expect o: [1, 1, 2, 3]
