# if / elseif / else, nested, and if as a value.
function classify(x)
    if x < 0
        return -1
    elseif x == 0
        return 0
    elseif x < 10
        return 1
    else
        return 2
    end
end
function if_else!(o, v)
    for i in 1:length(v)
        o[i] = classify(v[i])
    end
    x = v[1]
    y = if x > 0
        100
    else
        200
    end
    o[6] = y
    if x < 0
        if x < -5
            o[7] = 1
        else
            o[7] = 2
        end
    end
    return nothing
end
# run: if_else!(o = zeros(Int64, 7), v = Int64[-3, 0, 5, 50, 9])
# expect o: [-1, 0, 1, 2, 1, 200, 2]
