# begin ... end blocks (with a value), local declarations, ; separators.
function blocks_local!(o)
    a = begin
        x = 3
        x * 2
    end
    o[1] = a
    local b = 5; local c
    c = b + 1
    o[2] = c
    begin
        o[3] = 7; o[4] = 8
    end
    local d::Int32 = 9
    o[5] = d
    s = 0
    for i in 1:3
        local t = i * i
        s += t
    end
    o[6] = s
    return nothing
end
# run: blocks_local!(o = zeros(Int64, 6))
# expect o: [6, 6, 7, 8, 9, 14]
