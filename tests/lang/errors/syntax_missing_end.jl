# A block left open: the parser reports, at the end of the file, the
# `function` that needs an `end` ({file} stands for this file's path).
# expect error: syntax: incomplete: "function" at {file}:5 requires end
# expect error at: 10:1
function f!(x)
    if x[1] > 0
        x[1] = 0
    return nothing
end
