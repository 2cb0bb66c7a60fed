# Comparisons, chained comparisons (each operand evaluated once), mixed
# signed/unsigned comparisons (exact in Julia) and mixed int/float.
function bump(c, v)
    c[1] += 1
    return v
end
function comparisons!(b, c, n::Int64)
    b[1] = 1 < n < 10
    b[2] = 1 < n < 3
    b[3] = 1 <= 1 < 2 <= 2
    b[4] = 3 > n > 1                 # n = 5: false
    b[5] = 1 < bump(c, n) < 10       # bump runs once
    b[6] = 10 < n < bump(c, 20)      # short-circuits: bump does not run
    b[7] = -1 < 0x01                 # exact: true (promotion would say false)
    b[8] = -1 == typemax(UInt64)     # exact: false
    b[9] = 0x01 > -1
    b[10] = 1 == 1.0
    b[11] = 0.1 + 0.2 == 0.3
    b[12] = NaN != NaN
    b[13] = n ≠ 5
    b[14] = 2 ≤ n ≥ 5
    b[15] = 1 === 1.0                # different types: not egal
    b[16] = -0.0 == 0.0
    b[17] = -0.0 === 0.0
    b[18] = NaN === NaN
    b[19] = Int32(5) == 5
    b[20] = 1 == 1 == 1.0
    return nothing
end
# run: comparisons!(b = zeros(Bool, 20), c = zeros(Int64, 1), n = 5)
# expect b: [true, false, true, false, true, false, true, false, true, true, false, true, false, true, false, true, false, true, true, true]
# expect c: [1]
