# Bool arrays: stores of comparisons, reads as conditions, Bool arithmetic.
function bool_arrays!(flags, cnt, v)
    for i in 1:length(v)
        flags[i] = v[i] > 0
    end
    c = 0
    for i in 1:length(flags)
        if flags[i]
            c += 1
        end
    end
    cnt[1] = c
    cnt[2] = flags[1] + flags[2] + flags[3]   # Bool + Bool is Int
    cnt[3] = !flags[2]
    return nothing
end
# run: bool_arrays!(flags = zeros(Bool, 5), cnt = zeros(Int64, 3), v = Int64[3, -1, 4, 0, 5])
# expect flags: [true, false, true, false, true]
# expect cnt: [3, 2, 1]
