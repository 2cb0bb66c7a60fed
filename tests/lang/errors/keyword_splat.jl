# Keyword-argument splats (kwargs...) are not supported: in a definition, reported when a call reaches it.
h(x; kws...) = x
function keyword_splat!(o)
    o[1] = h(1)
    return nothing
end
# run: keyword_splat!(o = zeros(Int64, 1))
# expect error: keyword-argument splats (`kwargs...`) are not supported in kernels: name each keyword
# expect error at: 2:9
