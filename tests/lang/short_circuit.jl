# && and || short-circuit: the right side runs only when needed.
function mark(log, k)
    log[k] = 1
    return true
end
function short_circuit!(log, b, n)
    b[1] = false && mark(log, 1)
    b[2] = true && mark(log, 2)
    b[3] = true || mark(log, 3)
    b[4] = false || mark(log, 4)
    n > 3 && mark(log, 5)            # && as control flow
    n > 100 && mark(log, 6)
    n > 100 || mark(log, 7)
    b[5] = n > 0 && n < 10 && iseven(n)
    b[6] = !(n > 0) || n == 4
    return nothing
end
# run: short_circuit!(log = zeros(Int64, 7), b = zeros(Bool, 6), n = 4)
# expect log: [0, 1, 0, 1, 1, 0, 1]
# expect b: [false, true, true, true, true, true]
