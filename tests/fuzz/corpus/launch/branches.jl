#sig branchy! Vector{Float32}; Float32
function branchy!(a, x)
    i = workitemIdx().x
    if i <= length(a)
        if a[i] > 0.5f0
            a[i] -= 1f0
        elseif a[i] < -0.5f0
            a[i] = a[i] * x
        else
            a[i] += 2f0
        end
    end
    return
end
