# A variable assigned values of different types in sequence (no merge of the
# two) is fine in Julia; each use sees the type of the assignment reaching it.
function slot_split!(f, o, n)
    x = n                        # Int64
    o[1] = x * 2
    x = Float32(x) / 4           # now Float32
    f[1] = x
    x = x > 1 ? 1.5 : 2.5        # now Float64
    f[2] = x
    y = 1
    for i in 1:3
        y += i
    end
    o[2] = y
    y = y / 2                    # Float64 after the loop
    f[3] = y
    return nothing
end
# run: slot_split!(f = zeros(Float64, 3), o = zeros(Int64, 2), n = 5)
# expect f: [1.25, 1.5, 3.5]
# expect o: [10, 7]
