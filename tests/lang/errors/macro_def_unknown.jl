# Only annotating macros may wrap a definition; @generated only a generator that returns a `quote`.
@generated function gen(x)
    return x
end
function macro_def_unknown!(o)
    o[1] = 1
    return nothing
end
# expect error: juke compiles a @generated function whose generator ends in the body it returns, `quote ... end` (`$x` spliced in)
# expect error at: 2:12
