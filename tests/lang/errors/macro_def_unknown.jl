# Only annotating macros may wrap a definition.
@generated function gen(x)
    return x
end
function macro_def_unknown!(o)
    o[1] = 1
    return nothing
end
# expect error: unsupported macro @generated before a function definition
# expect error at: 2:1
