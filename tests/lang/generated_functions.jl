# Top-level `@generated function`s as GPUArrays' indexing helpers write them: the generator computes
# constants from the argument types (`N = length(I)`, `ndims(A)`, `eltype(A)`) and returns a `quote` with
# `$` splices; Base.Cartesian's `@ncall` and `@nexprs` with a spliced count.

# A[I[1] + o, I[2] + o, ...]: one index per vararg, the count a constant of the call
@generated function shifted_getindex(A, o, I...)
    N = length(I)
    quote
        @inbounds Base.Cartesian.@ncall $N getindex A d -> I[d] + o
    end
end

# the sum of A's first ndims(A) elements, from a zero of the element type: both from the generator
@generated function head_sum(A)
    D = ndims(A)
    T = eltype(A)
    quote
        s = zero($T)
        Base.Cartesian.@nexprs $D d -> (@inbounds s += A[d])
        return s
    end
end

function generated_helpers!(out, M, v)
    i = workitemIdx().x
    if i <= 2
        out[i] = shifted_getindex(M, 1, i, 2 - i) + shifted_getindex(v, i, 1)
    elseif i == 3
        out[i] = head_sum(M) + head_sum(v)
    end
    return nothing
end
# run: generated_helpers!(out = zeros(Float32, 3), M = reshape(Float32[1.5, 2.5, 3.5, 4.5, 5.5, 6.5], 3, 2), v = Float32[10, 20, 30]) groupsize 4
# expect out: [25.5, 33.5, 14.0]
