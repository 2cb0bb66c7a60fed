# A required keyword (no default) that the call leaves out: Julia's UndefKeywordError, at compile time.
g(x; k) = x + k
function keyword_required!(o)
    o[1] = g(1)
    return nothing
end
# run: keyword_required!(o = zeros(Int64, 1))
# expect error: UndefKeywordError: keyword argument `k` not assigned
# expect error at: 2:6
