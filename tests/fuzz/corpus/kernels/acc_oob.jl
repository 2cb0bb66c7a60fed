#sig oob! Vector{Float32}
# The last work-item writes one element past the end: a BoundsError that the host must see.
function oob!(x)
    i = workitemIdx().x
    x[i + 1] = 1f0
    return
end
