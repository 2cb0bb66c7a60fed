# findfirst's Union{Nothing, Int64} narrowed in the branches of a test against nothing, as Julia's inference
# narrows it: the else of `if i === nothing` / `isnothing(i)`, the then of `i !== nothing` / `!isnothing(i)`, and
# both arms of `?:`; after the if, i is the union again.
function first_match!(out, a, v)
    i = findfirst(x -> x == v, a)
    if i === nothing
        out[1] = -1
    else
        out[1] = i + 10
    end
    if !isnothing(i)
        out[2] = 2i
    elseif v > 100
        out[2] = 100
    else
        out[2] = -2
    end
    out[3] = i !== nothing ? a[i] * 3 : 0
    out[4] = isnothing(i) ? -4 : i - 1
    out[5] = i === nothing ? 0 : 1
    return
end
# run: first_match!(out = zeros(Int64, 5), a = Int64[4, 5, 6, 5], v = 5)
# expect out: [12, 4, 15, 1, 1]
# run: first_match!(out = zeros(Int64, 5), a = Int64[4, 5, 6, 5], v = 9)
# expect out: [-1, -2, 0, -4, 0]
# run: first_match!(out = zeros(Int64, 5), a = Int64[4, 5, 6, 5], v = 200)
# expect out: [-1, 100, 0, -4, 0]
