# A @generated function's generator: juke runs each quote where the generator builds it, so a quote kept in
# a variable must only compute (Julia would run its assignment only where the returned expression splices it).
@generated function gen(a)
    ex = :(a[1] = 0)
    return :(a[2] = 1)
end
function macro_def_unknown!(o)
    gen(o)
    return nothing
end
# expect error: juke runs the code a @generated function's generator quotes where the generator builds it; this quote, kept in a variable, acts (an assignment, a `!` call or a macro), which Julia would run only where the returned expression splices it: return the quote, or build it inside one `quote ... end` the generator ends in
# expect error at: 4:10
