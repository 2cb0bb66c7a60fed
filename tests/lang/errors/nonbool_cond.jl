# Conditions must be Bool: Julia has no truthiness.
function nonbool_cond!(o, n)
    if n
        o[1] = 1
    end
    while o[1]
        o[1] = 0
    end
    o[2] = n && true
    return nothing
end
# run: nonbool_cond!(o = zeros(Int64, 2), n = 1)
# expect error: TypeError: non-boolean (Int64) used in boolean context
# expect error at: 3:5
# expect error: TypeError: non-boolean (Int64) used in boolean context
# expect error at: 6:5
# expect error: TypeError: non-boolean (Int64) used in boolean context
# expect error at: 9:12
