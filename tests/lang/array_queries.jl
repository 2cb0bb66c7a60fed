# size, length, axes, eltype, ndims, eachindex on 1-, 2- and 3-D arrays.
code(::Type{Float32}) = 1
code(::Type{Int16}) = 2
code(::Type{Float64}) = 3
function array_queries!(o, v, M, A)
    o[1] = length(v)
    o[2] = length(M)
    o[3] = length(A)
    o[4] = size(M, 1)
    o[5] = size(M, 2)
    d1, d2, d3 = size(A)
    o[6] = 100d1 + 10d2 + d3
    o[7] = ndims(A)
    o[8] = code(eltype(v))
    o[9] = code(eltype(M))
    o[10] = last(axes(M, 2))
    o[11] = first(axes(A, 3))
    s = 0
    for i in eachindex(v)
        s += i
    end
    o[12] = s
    s = 0
    for j in axes(M, 2), i in axes(M, 1)
        s += 1
    end
    o[13] = s
    o[14] = length(axes(A, 2))
    o[15] = size(v)[1]
    return nothing
end
# run: array_queries!(o = zeros(Int64, 15), v = zeros(Float32, 5), M = zeros(Int16, 3, 4), A = zeros(Float64, 2, 3, 4))
# expect o: [5, 12, 24, 3, 4, 234, 3, 1, 2, 4, 1, 15, 12, 3, 5]
