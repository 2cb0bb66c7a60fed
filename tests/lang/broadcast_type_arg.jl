# A type in a broadcast is a scalar, as Julia's Broadcast treats it: unsafe_trunc.(Int32, floor.(p)) over a
# tuple (DINCAE's interpolation kernel), round.(Int64, t) and trunc.(Int64, x), convert.(Float32, i).

function type_bcast!(out, k, p)
    i = workitemIdx().x
    t = (p[i], -p[i] * 2, p[i] + 0.5f0)
    ind = unsafe_trunc.(Int32, floor.(t))
    out[1, i] = ind[1] + ind[2] * 100 + ind[3] * 10000
    out[2, i] = sizeof(ind[2]) + sizeof(eltype(k))
    r = round.(Int64, t .* 3)
    out[3, i] = r[1] + r[2] + r[3]
    out[4, i] = trunc.(Int64, p[i] * 5)
    k[i] = convert.(Float32, i)
    return nothing
end
# run: type_bcast!(out = zeros(Int64, 4, 3), k = zeros(Float32, 3), p = Float32[1.75, -0.25, 3.5]) groupsize 3
# expect out: [19601, 8, 2, 8, -1, 8, 2, -1, 39303, 8, 1, 17]
# expect k: [1.0, 2.0, 3.0]
