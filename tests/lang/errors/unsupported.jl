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
# expect error: strings are not values in kernels: only the formats and messages of @rocprintf, @rocprint, @rocprintln, error, throw and @assert
# expect error at: 4:12
