# `in` and ∈ with unit ranges, step ranges and axes(A, d).
function in_ranges!(b, A)
    b[1] = 3 in 1:5
    b[2] = 0 ∈ 1:5
    b[3] = 4 in 1:2:9
    b[4] = 5 in 1:2:9
    b[5] = 10 in 10:-1:1
    b[6] = 0 in 10:-1:1
    b[7] = 3 in 5:4                  # empty
    b[8] = 3 ∈ axes(A, 1)            # A is 3×2
    b[9] = 3 ∈ axes(A, 2)
    b[10] = Int32(2) in 1:3
    b[11] = 9 in 1:2:10              # last element of 1:2:10 is 9
    b[12] = 10 in 1:2:10
    return nothing
end
# run: in_ranges!(b = zeros(Bool, 12), A = zeros(Float32, 3, 2))
# expect b: [true, false, false, true, true, false, false, true, false, true, true, false]
