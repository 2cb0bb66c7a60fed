# A branch on isnothing(x), !isnothing(x), or a call of a function that tests x === nothing, where x is an
# argument of type Nothing: the types decide the branch, and the side not taken is neither inferred nor compiled,
# as Julia's inference folds it (AcceleratedKernels' `if !isnothing(prefixes) prefixes[i] = ... end`, launched
# with prefixes = nothing).
isabsent(x) = x === nothing

function store_opt!(out, extra, scale)
    i = workitemIdx().x
    v = out[i] * 2
    if !isnothing(extra)
        extra[i] = v + 1
    end
    if isabsent(scale)
        out[i] = v
    else
        out[i] = v * scale[i]
    end
    return
end
# run: store_opt!(out = Int64[3, -4, 7], extra = nothing, scale = nothing) groupsize 3
# expect out: [6, -8, 14]
# run: store_opt!(out = Int64[3, -4, 7], extra = zeros(Int64, 3), scale = Int64[5, 2, -1]) groupsize 3
# expect out: [30, -16, -14]
# expect extra: [7, -7, 15]
# run: store_opt!(out = Int64[3, -4, 7], extra = nothing, scale = Int64[5, 2, -1]) groupsize 3
# expect out: [30, -16, -14]
