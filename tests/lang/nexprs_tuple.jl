# Base.Cartesian's `@nexprs N i -> I_i = e` with N a where-parameter or a generated function's $N
# (GPUArrays' indexing helpers): the copies' I_1 ... I_N are the elements of a tuple, which later
# `i -> ... I_i ...` functions of @ncall and @ntuple read.
using Base.Cartesian

@generated function gather(src, i, Is::Vararg{Any,N}) where {N}
    quote
        @nexprs $N k -> J_k = Is[k][i]
        @ncall $N getindex src k -> J_k
    end
end

function gather!(out, src, rows, cols)
    i = workitemIdx().x
    out[i] = gather(src, i, rows, cols)
    return nothing
end
# run: gather!(out = zeros(Float32, 2), src = reshape(Float32[1.5, 2, 3, 4, 5, 6.5, 7, 8, 9], 3, 3), rows = Int64[3, 1], cols = Int64[2, 3]) groupsize 2
# expect out: [6.5, 7.0]

function weighted!(out, a, ::Val{N}) where {N}
    @nexprs N j -> v_j = a[j] * j
    out[1] = +((@ntuple N j -> v_j)...)
    return nothing
end
# run: weighted!(out = zeros(Int64, 1), a = Int64[2, 5, -1, 4], n = Val(3))
# expect out: [9]
