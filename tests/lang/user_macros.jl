# Macros a kernel file defines: templates that return `quote ... end` or `:(...)` with the
# arguments spliced in ($x, $(f(x)), $(xs...)), gensym'd names, QuoteNode and esc, as users
# write for local memory and small expressions. juke runs the macro's body on the syntax of
# each call and compiles the expression it returns in the call's place.
using AMDGPU

# a static local array under a fresh id per call (two calls must not share memory)
macro sharedmem(T, n)
    id = gensym("shmem")
    ex = quote
        ROCDeviceArray(($n,), alloc_local($(QuoteNode(id)), $T, $n))
    end
    esc(ex)
end

macro sharedmem(T, n1, n2)
    id = gensym("shmem2")
    esc(:(ROCDeviceArray(($n1, $n2), alloc_local($(QuoteNode(id)), $T, $n1 * $n2))))
end

# no esc: the template's own variable `t` is renamed, so the caller's `t` stays its own
macro cube(x)
    quote
        t = $(esc(x))
        t * t * t
    end
end

# a vararg macro splicing its arguments into a call; `if` on the number of arguments
macro addall(xs...)
    if length(xs) == 1
        return esc(xs[1])
    end
    esc(:(+($(xs...))))
end

# Symbol(...) builds a name; a macro may return a plain expression
macro field(name, k)
    esc(Symbol(name, "_", k))
end

function reverse_blocks!(out, a, ::Val{N}) where {N}
    tx = workitemIdx().x
    bx = workgroupIdx().x
    s = @sharedmem(Float32, N)
    w = @sharedmem(Float32, N)
    m = @sharedmem(Float32, 2, N)
    i = (bx - 1) * N + tx
    s[tx] = a[i]
    w[tx] = 2 * a[i]
    m[2, tx] = a[i] + 1
    sync_workgroup()
    out[i] = s[N + 1 - tx] + w[tx] - m[2, tx]
    return nothing
end
# run: reverse_blocks!(out = zeros(Float32, 8), a = Float32[1.5, 2, -3, 4, 0.25, 6, 7, -8], n = Val(4)) groupsize 4 gridsize 2
# expect out: [4.5, -2.0, -2.0, 4.5, -8.75, 12.0, 12.0, -8.75]

function cubes!(out, a)
    i = workitemIdx().x
    t = 10
    out[i] = @cube(a[i]) + t
    return nothing
end
# run: cubes!(out = zeros(Int64, 3), a = Int64[2, -3, 5]) groupsize 3
# expect out: [18, -17, 135]

function sums!(out, a, b)
    i = workitemIdx().x
    v_1 = a[i]
    v_2 = b[i]
    out[i] = @addall(a[i], b[i], 3) * @addall(2) + @field(v, 2) - @field(v, 1)
    return nothing
end
# run: sums!(out = zeros(Int64, 2), a = Int64[1, 7], b = Int64[4, -2]) groupsize 2
# expect out: [19, 7]
