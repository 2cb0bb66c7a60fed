# SVector{3}(x, y, z) and MVector{N}(...) with only the length given: the element type is the values' promoted
# type, as StaticArrays has it (DiffEqGPU's Lorenz system returns SVector{3}(du1, du2, du3)); SVector{2}(t) of
# a tuple; v isa SVector{3} of such a vector, not of an SVector{2}.
using StaticArrays

function deriv(u, s)
    return SVector{3}(s * (u[2] - u[1]), u[1] * u[3], Int32(2))
end
function sa_partial!(out, a, b)
    i = workitemIdx().x
    v = deriv((a[i], b[i], a[i] + b[i]), 0.5f0)
    w = SVector{2}((b[i], a[i]))
    m = MVector{3}(i, 2i, b[i])
    m[2] = a[i]
    out[1, i] = v[1] + v[2] + v[3]
    out[2, i] = w[1] - w[2]
    out[3, i] = m[1] + m[2] + m[3]
    out[4, i] = sizeof(eltype(v)) + sizeof(eltype(m)) + (v isa SVector{3}) + 10 * (w isa SVector{3})
    return
end
# run: sa_partial!(out = zeros(Float32, 4, 3), a = Float32[1.5, -2.25, 0.75], b = Float32[-0.5, 3.0, 2.0]) groupsize 3
# expect out: [2.5, -2.0, 2.0, 9.0, 2.9375, 5.25, 2.75, 9.0, 4.6875, 1.25, 5.75, 9.0]
