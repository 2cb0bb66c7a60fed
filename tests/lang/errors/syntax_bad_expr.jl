# Syntax errors in two functions: the parser resynchronises and reports both.
function f!(x)
    x[1] = 1 + * 2
    return nothing
end
function g!(x)
    x[1] = (1, 2
    return nothing
end
# expect error: syntax: unexpected "*"
# expect error at: 3:16
# expect error: syntax: missing comma or ")" in tuple
# expect error at: 8:5
