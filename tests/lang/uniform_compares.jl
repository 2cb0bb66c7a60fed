# Comparisons of uniform values (kernel arguments) with constants: on AMD GPUs they become scalar compares
# with a 16-bit immediate (s_cmpk_*), signed and unsigned, which the emulator runs too (amdemu_lang_*).
function uniform_compares!(out, a, b, n)
    i = workitemIdx().x
    if i <= n
        out[i] = (a > Int32(300)) + 2 * (a >= Int32(-300)) + 4 * (a < Int32(1000)) + 8 * (a <= Int32(-7)) +
                 16 * (b != UInt32(40000)) + 32 * (b > UInt32(700)) + 64 * (b >= UInt32(701)) +
                 128 * (b < UInt32(9)) + 256 * (b <= UInt32(65535)) + 512 * (a == Int32(42)) +
                 1024 * (b < UInt32(5000)) + 2048 * (a > Int32(-20000))
    end
    return
end
# run: uniform_compares!(out = zeros(Int64, 3), a = Int32(42), b = UInt32(40000), n = 3) groupsize 4
# expect out: [2918, 2918, 2918]
# run: uniform_compares!(out = zeros(Int64, 3), a = Int32(-301), b = UInt32(700), n = 3) groupsize 4
# expect out: [3356, 3356, 3356]
# run: uniform_compares!(out = zeros(Int64, 3), a = Int32(1000), b = UInt32(8), n = 3) groupsize 4
# expect out: [3475, 3475, 3475]
# run: uniform_compares!(out = zeros(Int64, 3), a = Int32(-7), b = UInt32(70000), n = 3) groupsize 4
# expect out: [2174, 2174, 2174]
# run: uniform_compares!(out = zeros(Int64, 3), a = Int32(300), b = UInt32(701), n = 3) groupsize 4
# expect out: [3446, 3446, 3446]
# run: uniform_compares!(out = zeros(Int64, 3), a = Int32(-25000), b = UInt32(4999), n = 3) groupsize 4
# expect out: [1404, 1404, 1404]
