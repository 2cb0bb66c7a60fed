#sig bad! Vector{Float32}
function bad!(x)
    i = workitemIdx().x
    x[i] = undefined_thing(i)
    return
end
