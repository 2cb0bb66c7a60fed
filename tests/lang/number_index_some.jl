# A number is a container of one element: x[], x[1], x[1, 1] are x (JACC's lattice-Boltzmann kernel writes
# p = p[1, 1] + f[ind]), any other index a BoundsError. fldmod1, and Some/something as AMDGPU.jl's scan kernel
# takes its init: a Some value's branch is decided by its type, with a varargs method called inside it.

function scalar_index!(out, x)
    i = workitemIdx().x
    p = 0.5 * i
    p = p[1, 1] + x[i]
    out[i] = p[] + p[1] + i[1, 1, 1]
    return nothing
end
# run: scalar_index!(out = zeros(Float64, 3), x = Float64[0.25, -1.0, 4.0]) groupsize 3
# expect out: [2.5, 2.0, 14.0]

function scalar_oob!(out)
    p = 2.0
    out[1] = p[1, 2]
    return nothing
end
# run: scalar_oob!(out = zeros(Float64, 1))
# expect exception: BoundsError

function fm1!(out, x, y)
    i = workitemIdx().x
    q, r = fldmod1(x[i], y[i])
    out[i] = 100 * q + r
    return nothing
end
# run: fm1!(out = zeros(Int64, 4), x = Int64[7, 8, 1, -3], y = Int64[4, 4, 4, 4]) groupsize 4
# expect out: [203, 204, 101, 1]

rest_count(x::Some, y...) = something(x) + length(y)
function with_init!(out, init)
    i = workitemIdx().x
    v = 10 * i
    if init !== nothing
        v = v + rest_count(init) + something(nothing, init, 5)
    end
    out[i] = v
    return nothing
end
# run: with_init!(out = zeros(Int64, 3), init = Some{Int64}(100)) groupsize 3
# expect out: [210, 220, 230]
# run: with_init!(out = zeros(Int64, 3), init = nothing) groupsize 3
# expect out: [10, 20, 30]
