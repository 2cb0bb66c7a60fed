# A top-level statement other than a definition or an assignment (Julia would run it on the host).
function toplevel_statement!(o)
    o[1] = 1
    return nothing
end
println(1)
# expect error: only function definitions and `const` are allowed at the top level of a kernel file
# expect error at: 6:1
