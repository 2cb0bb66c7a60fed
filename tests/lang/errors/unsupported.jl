# Macros and strings the kernel language does not have: reported when a kernel reaches them.
function unsupported!(o)
    @show o[1]
    o[2] = "text"
    return nothing
end
# run: unsupported!(o = zeros(Int64, 2))
# expect error: unsupported macro @show
# expect error at: 3:5
# expect error: strings are not supported in kernels
# expect error at: 4:12
