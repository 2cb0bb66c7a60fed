# A variable of five number types: juke splits unions of at most four (Julia would box the value).
function five!(o, k)
    x = Int8(1)
    if k == 1
        x = Int16(2)
    elseif k == 2
        x = Int32(3)
    elseif k == 3
        x = 4
    elseif k == 4
        x = 5.0
    end
    o[1] = x
    return
end
# run: five!(o = zeros(Float64, 1), k = 1)
# expect error: variable `x` has type Float64 here but is a Union{Int8, Int16, Int32, Int64} elsewhere; juke splits unions of at most 4 number types (Julia would box a larger one, a GPU cannot)
# expect error at: 11:9
