#sig sums! Vector{Int64}; Int64
function sums!(out, n)
    i = workitemIdx().x
    acc = 0
    for k in 1:n
        for m = 1:2:8
            acc += k * m
        end
    end
    out[i] = acc
    return
end
