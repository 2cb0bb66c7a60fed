# @generated functions whose generators branch on a where-parameter or an argument's type and build
# the returned expression in a loop, as users write power, unrolled-sum and dispatch helpers: the
# expression each call gets is the one its argument types select.
@generated function mypow(x, ::Val{N}) where {N}
    if N == 0
        return :(one(x))
    elseif N == 1
        return :(x)
    elseif N == 2
        return :(t = x * x;
        t)
    else
        ex = :(x)
        for _ in 2:N
            ex = :($ex * x)
        end
        return ex
    end
end

@generated function half(x)
    if x === Int64
        return :(x ÷ 2)
    else
        return :(x / 2)
    end
end

@generated function sumsq(t::NTuple{N,T}) where {N,T}
    ex = :(zero(T))
    for i in 1:N
        ex = :($ex + t[$i] * t[$i])
    end
    return ex
end

function powers!(out, a, ::Val{N}) where {N}
    i = workitemIdx().x
    out[i] = mypow(a[i], Val(N)) + mypow(a[i], Val(0)) + mypow(a[i], Val(2)) + half(a[i]) +
             sumsq((a[i], 2 * a[i], mypow(a[i], Val(1))))
    return nothing
end
# run: powers!(out = zeros(Float64, 3), a = Float64[1.5, -2.0, 0.5], n = Val(3)) groupsize 3
# expect out ≈ [20.875, 20.0, 3.125]
# run: powers!(out = zeros(Int64, 3), a = Int64[3, -2, 5], n = Val(4)) groupsize 3
# expect out: [146, 44, 803]
