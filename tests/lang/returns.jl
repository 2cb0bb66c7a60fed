# return with and without a value, early return from loops and helpers.
function find_first(v, x)
    for i in 1:length(v)
        if v[i] == x
            return i
        end
    end
    return 0
end
function sign_of(x)
    x > 0 && return 1
    x < 0 && return -1
    0
end
function fill_until!(o, stop)
    for i in 1:length(o)
        if i > stop
            return
        end
        o[i] = i
    end
end
function returns!(o, v, p)
    o[1] = find_first(v, 30)
    o[2] = find_first(v, 99)
    o[3] = sign_of(-4)
    o[4] = sign_of(0)
    o[5] = sign_of(8)
    fill_until!(p, 3)
    if o[1] == 3
        return nothing
    end
    o[6] = 1                     # not reached
    return nothing
end
# run: returns!(o = zeros(Int64, 6), v = Int64[10, 20, 30, 40], p = zeros(Int64, 5))
# expect o: [3, 0, -1, 0, 1, 0]
# expect p: [1, 2, 3, 0, 0]
