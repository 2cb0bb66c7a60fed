# Character literals ('a', '\n', '\x41', 'é'): Char values compared (GPUArrays' `uplo == 'U'`, a GEMM's
# `tA == 'N'`), stepped through (c + 1, c - 'a') and read as code points. A Char argument is the struct
# Char(code point).
function chars!(out, tA)
    i = workitemIdx().x
    c = 'a' + (i - 1)
    out[i, 1] = codepoint(c)
    out[i, 2] = tA == 'N' ? 1 : tA == 'T' ? 2 : 3
    out[i, 3] = c - 'a'
    out[i, 4] = isdigit('7') + isletter(c) * 10 + (c < 'c') * 100
    out[i, 5] = codepoint('\n') + codepoint('\x41') * 100 + codepoint('é') * 10000
    out[i, 6] = codepoint(uppercase(c))
    return
end
# run: chars!(out = zeros(Int64, 3, 6), tA = Char(78)) groupsize 3
# expect out: [97, 98, 99, 1, 1, 1, 0, 1, 2, 111, 111, 11, 2336510, 2336510, 2336510, 65, 66, 67]
# run: chars!(out = zeros(Int64, 3, 6), tA = Char(84)) groupsize 3
# expect out: [97, 98, 99, 2, 2, 2, 0, 1, 2, 111, 111, 11, 2336510, 2336510, 2336510, 65, 66, 67]
