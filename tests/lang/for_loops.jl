# for over a:b, a:s:b (positive, negative, empty), nested, break, continue.
function for_loops!(o, n)
    s = 0
    for i in 1:n
        s += i
    end
    o[1] = s                     # 55
    s = 0
    for i = 1:3:n                # 1, 4, 7, 10
        s += i
    end
    o[2] = s                     # 22
    s = 0
    for i ∈ n:-2:1               # 10, 8, 6, 4, 2
        s = 10s + i ÷ 2
    end
    o[3] = s                     # 54321
    c = 0
    for i in 5:4
        c += 1
    end
    for i in 1:-1:2
        c += 1
    end
    o[4] = c                     # 0: both empty
    s = 0
    for i in 1:n, j in 1:i       # nested: sum over j <= i
        s += 1
    end
    o[5] = s                     # 55
    s = 0
    for i in 1:100
        i % 2 == 0 && continue
        i > 9 && break
        s += i
    end
    o[6] = s                     # 1+3+5+7+9 = 25
    last = 0
    for i in 1:n
        last = i
    end
    o[7] = last
    s = 0
    for i in 7:-3:-5             # 7, 4, 1, -2, -5
        s += i
    end
    o[8] = s                     # 5
    s = 0
    for i in 1:2:8               # 1, 3, 5, 7 (8 is not reached)
        s += i
    end
    o[9] = s
    return nothing
end
# run: for_loops!(o = zeros(Int64, 9), n = 10)
# expect o: [55, 22, 54321, 0, 55, 25, 10, 5, 16]
