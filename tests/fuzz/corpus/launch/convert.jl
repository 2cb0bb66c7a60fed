#sig conv! Vector{Int8}; Vector{Float64}
function conv!(out, x)
    i = workitemIdx().x
    if i <= length(out)
        out[i] = Int8(round(x[i] * 10.0))
    end
    return
end
