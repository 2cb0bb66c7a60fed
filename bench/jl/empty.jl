# The launch-overhead kernel: one array argument, no work.
function empty!(x)
    return
end
