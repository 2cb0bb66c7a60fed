# Undefined names: a variable, a function, a type; all reported.
function undef_var!(out)
    out[1] = y + 1
    out[2] = frobnicate(2)
    z::Foo = 1
    return nothing
end
# run: undef_var!(out = zeros(Int64, 2))
# expect error: UndefVarError: `y` not defined
# expect error at: 3:14
# expect error: UndefVarError: `frobnicate` not defined
# expect error at: 4:14
# expect error: UndefVarError: `Foo` not defined
# expect error at: 5:8
