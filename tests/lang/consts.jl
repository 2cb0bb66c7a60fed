# Top-level constants: numbers, tuples, expressions of constants.
const N = 4
const SCALE = 2.5f0
const WEIGHTS = (1, 2, 3, 4)
const MASK = 0x0f
const BIG = N * 1000 + 1
function consts!(o, f)
    s = 0
    for i in 1:N
        s += WEIGHTS[i] * i
    end
    o[1] = s                     # 1 + 4 + 9 + 16
    o[2] = BIG
    o[3] = 0xff & MASK
    o[4] = length(WEIGHTS)
    f[1] = SCALE * N
    return nothing
end
# run: consts!(o = zeros(Int64, 4), f = zeros(Float32, 1))
# expect o: [30, 4001, 15, 4]
# expect f: [10]
