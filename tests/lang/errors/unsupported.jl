# Macros, strings and top-level statements the kernel language does not have.
function unsupported!(o)
    @show o[1]
    o[2] = "text"
    return nothing
end
x = 1
# expect error: only function definitions and `const` are allowed at the top level of a kernel file
# expect error at: 7:1
# expect error: unsupported macro @show
# expect error at: 3:5
# expect error: strings are not supported in kernels
# expect error at: 4:12
