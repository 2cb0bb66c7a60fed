# The tuple an `@nexprs N i -> I_i = e` makes (N not a literal) belongs to the function that wrote it:
# a later function's own `@nexprs N i -> I_i = e` assigns its I_i afresh (GPUArrays' getindex and
# setindex! helpers, one after the other).
using Base.Cartesian

@generated function pick(src, i, Is::Vararg{Any,N}) where {N}
    quote
        @nexprs $N k -> I_k = Is[k][i]
        @ncall $N getindex src k -> I_k
    end
end

@generated function place!(dest, v, i, Is::Vararg{Any,N}) where {N}
    quote
        @nexprs $N k -> I_k = Is[k][i]
        @ncall $N setindex! dest v k -> I_k
        return
    end
end

function move!(dest, src, rows, cols)
    i = workitemIdx().x
    place!(dest, pick(src, i, rows, cols), i, cols, rows)
    return nothing
end
# run: move!(dest = zeros(Int64, 3, 3), src = reshape(Int64[11, 21, 31, 12, 22, 32, 13, 23, 33], 3, 3), rows = Int64[3, 1, 2], cols = Int64[2, 3, 1]) groupsize 3
# expect dest: [0, 0, 13, 21, 0, 0, 0, 32, 0]
