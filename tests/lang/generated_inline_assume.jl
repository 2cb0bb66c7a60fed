# A @generated function under @inline (GPUArrays' permute_linearindex), whose quote splices $(N-1) into
# Base.Cartesian.@nexprs, and LLVM.Interop's assume(cond), a promise that changes no result.
using LLVM.Interop: assume

@inline @generated function digits_of(x::T, bases::NTuple{N,T}) where {N,T}
    quote
        acc = zero(T)
        Base.Cartesian.@nexprs $(N-1) i->begin
            assume(bases[i] > 0)
            x, r = divrem(x, bases[i])
            acc = acc * 10 + r
        end
        return acc * 10 + x
    end
end

function digits!(out, xs)
    i = workitemIdx().x
    assume(i >= 1)
    out[i] = digits_of(xs[i], (3, 4, 5))
    return nothing
end
# run: digits!(out = zeros(Int64, 3), xs = Int64[0, 7, 59]) groupsize 3
# expect out: [0, 120, 234]
