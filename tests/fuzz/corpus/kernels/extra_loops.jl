#sig loops! Vector{Int32}; Int32
function loops!(out, n)
    i = workitemIdx().x
    acc = zero(eltype(out))
    j = 1
    while true
        j += 1
        if j > n
            break
        elseif j % 3 == 0
            continue
        end
        acc += Int32(j) ⊻ Int32(i)
    end
    for k = 1:2:n, m in 1:2
        acc = acc + (k < m ? Int32(1) : Int32(2))
    end
    out[i] = acc
    return
end
