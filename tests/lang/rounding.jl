# trunc/round/floor/ceil with and without a type; round is ties-to-even.
function rounding!(f, i, g)
    f[1] = round(2.5)
    f[2] = round(3.5)
    f[3] = round(-2.5)
    f[4] = round(-0.4)           # -0.0
    f[5] = trunc(-2.7)
    f[6] = floor(-2.5)
    f[7] = ceil(-2.5)            # -2.0
    f[8] = ceil(-0.5)            # -0.0
    f[9] = floor(2.0)
    f[10] = round(0.5)           # 0.0
    i[1] = round(Int, 2.5)
    i[2] = round(Int, 3.5)
    i[3] = floor(Int, -2.5)
    i[4] = ceil(Int32, 2.1)
    i[5] = trunc(Int, -2.9)
    i[6] = round(5)              # round of an integer is itself
    i[7] = round(Int8, -1.5)     # -2
    i[8] = floor(UInt8, 7.9)
    g[1] = round(2.5f0)
    g[2] = floor(-1.25f0)
    g[3] = ceil(1.0000001f0)
    g[4] = trunc(Float32(-3.99))
    return nothing
end
# run: rounding!(f = zeros(Float64, 10), i = zeros(Int64, 8), g = zeros(Float32, 4))
# expect f: [2.0, 4.0, -2.0, -0.0, -2.0, -3.0, -2.0, -0.0, 2.0, 0.0]
# expect i: [2, 4, -3, 3, -2, 5, -2, 7]
# expect g: [2.0, -2.0, 2.0, -3.0]
