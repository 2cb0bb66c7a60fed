#sig fill3! Array{Int64,3}; Int64
function fill3!(a, v)
    i = workitemIdx().x
    for j in 1:size(a, 2), k in 1:size(a, 3)
        if i <= size(a, 1)
            a[i, j, k] = v + i + 10 * j + 50 * k
        end
    end
    return
end
