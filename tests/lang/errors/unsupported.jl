# Macros and strings the kernel language does not have: reported when a kernel reaches them.
function unsupported!(o)
    @info o[1]
    o[2] = "text"
    return nothing
end
# run: unsupported!(o = zeros(Int64, 2))
# expect error: unsupported macro @info: print from a kernel with @rocprintf("fmt", args...), @rocprint or @rocprintln
# expect error at: 3:5
# expect error: strings are not values in kernels: only the formats and messages of @rocprintf, @rocprint, @rocprintln, error, throw and @assert
# expect error at: 4:12
