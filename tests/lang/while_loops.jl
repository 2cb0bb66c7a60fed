# while loops with break and continue.
function while_loops!(o, n)
    i = 0
    s = 0
    while i < n
        i += 1
        if i % 3 == 0
            continue
        end
        if i > 10
            break
        end
        s += i
    end
    o[1] = s                     # 1+2+4+5+7+8+10 = 37
    o[2] = i                     # 11 (stopped by break)
    k = 1
    while true
        k *= 2
        k >= 1000 && break
    end
    o[3] = k                     # 1024
    c = 0
    while false
        c += 1
    end
    o[4] = c
    # Collatz steps of 27
    m = 27
    steps = 0
    while m != 1
        m = iseven(m) ? m ÷ 2 : 3m + 1
        steps += 1
    end
    o[5] = steps
    return nothing
end
# run: while_loops!(o = zeros(Int64, 5), n = 20)
# expect o: [37, 11, 1024, 0, 111]
