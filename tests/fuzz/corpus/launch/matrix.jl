#sig transpose! Matrix{Float32}; Matrix{Float32}
function transpose!(b, a)
    i = workitemIdx().x
    j = workgroupIdx().x
    if i <= size(a, 1) && j <= size(a, 2)
        b[j, i] = a[i, j]
    end
    return
end
