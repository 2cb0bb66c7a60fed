# A block in parentheses ends with ")": a second expression on its last line needs a ";" before it.
function k!(x)
    x[1] = (t = 2; t + 1 t)
    return
end
# expect error: syntax: missing ";" or ")" in a parenthesized block
# expect error at: 3:26
