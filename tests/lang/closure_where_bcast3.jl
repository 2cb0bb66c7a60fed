# An inner function with its own where-parameters (AMDGPU.jl's reverse kernels are such closures over what the
# host computed): lifted as a closure whose method keeps them, N its own and not the outer one. f.(a, b, c) over
# tuples and numbers (the prelude's methods of broadcast each lift closures: their names must differ);
# findlast/findfirst of a Bool tuple.

function flip_cols!(y::AbstractArray{T, N}, x::AbstractArray{T, N}, flip) where {T, N}
    lin = LinearIndices(x)
    cart = CartesianIndices(x)
    ref = size(x) .+ 1
    function inner!(y::AbstractArray{S, N}, x::AbstractArray{S, N}, k::Integer) where {S, N}
        idx = Tuple(cart[k])
        idx = ifelse.(flip, ref .- idx, idx)
        y[lin[idx...]] = x[k] + N * one(S)
        return
    end
    inner!(y, x, workitemIdx().x)
    return
end
# x is 2 x 3 [1 3 5; 2 4 6]; flipping the columns makes [5 3 1; 6 4 2], plus N = 2.
# run: flip_cols!(y = zeros(Int64, 2, 3), x = reshape(Int64[1, 2, 3, 4, 5, 6], 2, 3), flip = (false, true)) groupsize 6
# expect y: [7, 8, 5, 6, 3, 4]

function bcast3!(out, a, b)
    t = ifelse.((true, false, true), (a, a, a), (b, b, b))
    u = clamp.((a, b, 7), 0, 5)
    v = muladd.(2, (a, b), 1)
    out[1] = t[1] + 10 * t[2] + 100 * t[3]
    out[2] = u[1] + 10 * u[2] + 100 * u[3]
    out[3] = v[1] + 100 * v[2]
    l = findlast((true, false, true, false))
    f = findfirst((false, false, true))
    out[4] = (l === nothing ? -1 : l) + 10 * (f === nothing ? -1 : f)
    out[5] = findlast((false, false)) === nothing
    return
end
# run: bcast3!(out = zeros(Int64, 5), a = 3, b = -4)
# expect out: [263, 503, -693, 33, 1]
