# eachindex of a tuple is Base.OneTo(length(t)): a loop over a function's tuple result, as GeoParams' store!
# writes each element of a law's result.
function store_each!(out, x)
    i = workitemIdx().x
    r = (x[i], 2 * x[i], x[i] - 1, Float64(i))
    for k in eachindex(r)
        out[k, i] = r[k]
    end
    out[5, i] = length(eachindex(())) + last(eachindex(r))
    return
end
# run: store_each!(out = zeros(Float64, 5, 2), x = Float64[1.5, -0.25]) groupsize 2
# expect out: [1.5, 3.0, 0.5, 1.0, 4.0, -0.25, -0.5, -1.25, 2.0, 4.0]
