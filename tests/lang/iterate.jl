# Julia's iterate protocol: for over arrays, matrices, tuples, ranges (negative steps, reversed,
# Int32), numbers; break and continue; `in` over tuples and arrays; sum and prod of ranges.
function iterate_loops!(o, x, m)
    s = 0f0
    for v in x                   # an array: its elements
        s += v
    end
    o[1] = s
    c = 0
    for v in m                   # a matrix: column-major
        c = 10c + v
    end
    o[2] = c
    p = 1
    for t in (2, 3, 5)           # a tuple
        p *= t
    end
    o[3] = p
    r = 0
    for i in reverse(1:4)        # 4:-1:1
        r = 10r + i
    end
    o[4] = r
    r = 0
    for i in reverse(10:-3:1)    # 10:-3:1 is 10, 7, 4, 1: reversed 1:3:10
        r = 100r + i
    end
    o[5] = r
    n = 0
    for v in 7                   # a number iterates once
        n += v
    end
    o[6] = n
    k = 0
    for v in x
        v > 3 && break
        v < 2 && continue
        k += 1
    end
    o[7] = k
    q = 0
    for i in Int32(2):Int32(4)   # Int32 values
        q += i
    end
    o[8] = q
    e = 0
    for i in 5:4                 # empty
        e += 1
    end
    for i in 1:-1:2              # empty
        e += 1
    end
    o[9] = e
    o[10] = (3 in (1, 2, 3)) + 2 * (4 in (1, 2, 3)) + 4 * (2.5f0 in x) + 8 * (Int32(6) in m)
    o[11] = sum(1:10) + sum(10:-2:1) + sum(3:2)   # 55 + 30 + 0
    o[12] = prod(1:5) + prod(2:1)                 # 120 + 1
    return nothing
end
# run: iterate_loops!(o = zeros(Int64, 12), x = Float32[1.5, 2.5, 3.0, 4.0], m = reshape(Int32[1, 2, 3, 4, 5, 6], 2, 3))
# expect o: [11, 123456, 30, 4321, 1040710, 7, 2, 9, 0, 13, 85, 121]

# nested loops, and a loop variable that is a tuple pattern
function iterate_nested!(o)
    s = 0
    for t in ((1, 2), (3, 4), (5, 6))
        a, b = t
        s = 100s + 10a + b
    end
    o[1] = s
    s = 0
    for (a, b) in ((1, 2), (3, 4))
        s = 100s + 10a + b
    end
    o[2] = s
    s = 0
    for i in (1, 2), j in 1:i
        s = 10s + j
    end
    o[3] = s
    return nothing
end
# run: iterate_nested!(o = zeros(Int64, 3))
# expect o: [123456, 1234, 112]

# enumerate, zip (2 and 3), pairs, keys, eachindex; and a hand-written iterate loop
# narrowing on === nothing as Julia's inference does
function iterate_iterators!(o, x, y)
    s = 0f0
    for (i, v) in enumerate(x)
        s += i * v
    end
    o[1] = s                     # 1*1.5 + 2*2.5 + 3*3 + 4*4 = 31.5
    s = 0f0
    for (a, b) in zip(x, y)      # y is shorter: 3 pairs
        s += a * b
    end
    o[2] = s                     # 1.5*2 + 2.5*4 + 3*6 = 31
    s = 0f0
    for (a, b, c) in zip(x, y, 10:10:100)
        s += a + b + c
    end
    o[3] = s                     # (1.5+2+10) + (2.5+4+20) + (3+6+30) = 79
    s = 0f0
    for (i, v) in pairs(y)
        s = 10s + i * v
    end
    o[4] = s                     # ((2)*10 + 8)*10 + 18 = 298
    s = 0f0
    for k in keys(y)
        s += k
    end
    o[5] = s                     # 6
    s = 0f0
    next = iterate(x)
    while next !== nothing
        v, st = next
        s += v
        next = iterate(x, st)
    end
    o[6] = s                     # 11
    n = iterate((5, 6), 3)
    o[7] = isnothing(n) + 2 * (n === nothing) + 4 * (n !== nothing)   # 3
    return nothing
end
# run: iterate_iterators!(o = zeros(Float32, 7), x = Float32[1.5, 2.5, 3.0, 4.0], y = Float32[2, 4, 6])
# expect o: [31.5, 31, 79, 298, 6, 11, 3]

# a function that narrows with `x === nothing && return`
function first_even(A)
    n = iterate(A)
    while n !== nothing
        v, s = n
        iseven(v) && return v
        n = iterate(A, s)
    end
    return -1
end
function firstidx(t)
    n = iterate(t)
    n === nothing && return 0
    return n[1] * 10
end
function iterate_narrow!(o, A)
    o[1] = first_even(A)
    o[2] = firstidx((7, 8))
    return nothing
end
# run: iterate_narrow!(o = zeros(Int64, 2), A = Int64[3, 5, 8, 9])
# expect o: [8, 70]
