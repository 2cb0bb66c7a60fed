# A macro whose body does what juke's expansion does not run (a loop building the expression), and a
# call no method of a macro takes: errors at the construct, with a note at the call.
macro unrolled(n, x)
    ex = :(0)
    for k in 1:n
        ex = :($ex + $x)
    end
    esc(ex)
end
macro pair(a, b)
    esc(:(($a, $b)))
end
function user_macro_eval!(a)
    a[1] = @unrolled 3 a[2]
    a[2] = @pair(1)
    return
end
# run: user_macro_eval!(a = zeros(Int64, 2))
# expect error: juke expands a macro this file defines by running its body on the syntax of the call, which may build the result with `quote ... end` and `:(...)` (`$x` spliced in), gensym, QuoteNode, Symbol, esc, assignments and if; `for k in 1:n` is none of those
# expect error at: 5:5
# expect error: MethodError: no method matching @pair with 1 argument (see the definitions of @pair)
# expect error at: 15:12
