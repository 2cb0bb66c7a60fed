# A construct juke cannot compile is reported when a launched kernel reaches it, with the call
# chain from the kernel as notes (in helper at ..., called from mid at ...).
function helper(a, i)
    @info a[i]
    return nothing
end
mid(a, i) = helper(a, i)
function lazy_chain!(a)
    mid(a, workitemIdx().x)
    return
end
# run: lazy_chain!(a = zeros(Int64, 2))
# expect error: unsupported macro @info: print from a kernel with @rocprintf("fmt", args...), @rocprint or @rocprintln
# expect error at: 4:5
