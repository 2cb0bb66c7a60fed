# Inside a function, assigning a name makes it local, even when a global
# constant has that name (function bodies are hard scope in Julia).
const N = 4
function shadow!(o)
    N = 5
    o[1] = N
    return nothing
end
function global_n!(o)
    o[1] = N
    return nothing
end
# run: shadow!(o = zeros(Int64, 1))
# expect o: [5]
# run: global_n!(o = zeros(Int64, 1))
# expect o: [4]
