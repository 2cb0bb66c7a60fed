# where-parameters, bounds, and array annotations.
same(x::T, y::T) where {T} = 1
same(x, y) = 2
width(x::T) where {T<:Integer} = Int(T(2))
width(x::T) where {T<:AbstractFloat} = -Int(T(8))
total(v::AbstractArray{T}) where {T} = sum_it(v, zero(T))
function sum_it(v, acc)
    for i in 1:length(v)
        acc += v[i]
    end
    return acc
end
dims(A::AbstractArray{T,N}) where {T,N} = N
shape(A::AbstractMatrix) = 2
shape(A::AbstractVector) = 1
shape(A::AbstractArray) = 0
elk(A::AbstractArray{Float32}) = 32
elk(A::AbstractArray{T}) where {T<:Integer} = 1
elk(A::AbstractArray) = 0
function dispatch_where!(o, f, v::AbstractVector{Float32}, M::AbstractMatrix{Int16}, A)
    o[1] = same(1, 2)
    o[2] = same(1, 2.0)
    o[3] = width(Int16(1))
    o[4] = width(1.0)
    o[5] = dims(A)
    o[6] = shape(v)
    o[7] = shape(M)
    o[8] = shape(A)
    o[9] = total(M)
    o[10] = elk(v)
    o[11] = elk(M)
    o[12] = elk(A)
    f[1] = total(v)
    return nothing
end
# run: dispatch_where!(o = zeros(Int64, 12), f = zeros(Float32, 1), v = Float32[1.5, 2.5], M = reshape(Int16[1, 2, 3, 4], 2, 2), A = zeros(Float64, 2, 2, 2))
# expect o: [1, 2, 2, -8, 3, 1, 2, 0, 10, 32, 1, 0]
# expect f: [4]
