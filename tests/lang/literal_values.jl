# Literal values, numeric juxtaposition and the special float constants.
function literal_values!(f, i, n)
    i[1] = 0x1f
    i[2] = 3n                 # 3 * n
    i[3] = 2(n + 1)           # juxtaposition with a parenthesis
    i[4] = 1_000_000
    i[5] = 0xff + 1           # UInt8 + Int64 is Int64: 256
    i[6] = -0x01              # UInt8 negation wraps: 0xff
    i[7] = 2n^2               # 2 * (n^2)
    f[1] = 1f-3
    f[2] = 1.5e2
    f[3] = Inf32
    f[4] = -Inf
    f[5] = NaN
    f[6] = -0.0
    f[7] = 1e-3
    f[8] = .25
    f[9] = 2.5f0 * n          # Float32 * Int64 stays Float32: 12.5f0
    return nothing
end
# run: literal_values!(f = zeros(Float64, 9), i = zeros(Int64, 7), n = 5)
# expect i: [31, 15, 12, 1000000, 256, 255, 50]
# expect f: [0.0010000000474974513, 150.0, Inf, -Inf, NaN, -0.0, 0.001, 0.25, 12.5]
