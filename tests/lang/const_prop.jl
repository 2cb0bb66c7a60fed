# Julia infers a call with constant arguments with those constants (constant propagation): a function that
# indexes a tuple of mixed types by its argument is typed field by field where the index is a constant, as are
# t[Int32(3)], getfield(s, 2), a constant field of a struct built in the kernel, and ntuple's function, which
# ntuple calls with each constant index.
getk(t, k) = t[k]
twice(t, k) = getk(t, k) * 2
pick(t, first::Bool) = first ? t[1] : t[2]
struct Cfg
    k::Int64
end
struct Pair2
    a::Float64
    b::Int32
end

function const_calls!(out, x)
    i = workitemIdx().x
    t = (x[i], Int32(i), 2.5f0)
    a = getk(t, 1) + getk(t, 2) + getk(t, 3)   # Float64, Int32, Float32: one specialisation each
    out[1, i] = a
    out[2, i] = twice(t, 2) + t[Int32(3)]      # the constant reaches getk through twice
    out[3, i] = getk(t, UInt8(1)) - pick(t, false)
    cfg = Cfg(3)
    out[4, i] = t[cfg.k] + getk(t, cfg.k)
    return
end

function const_fields!(out, x)
    i = workitemIdx().x
    s = Pair2(x[i], Int32(3i))
    t = (x[i], Int32(i), 2.5f0)
    u = ntuple(j -> t[j] * 2, 3)               # (Float64, Int64, Float32)
    out[1, i] = getfield(s, 2) + getfield(s, :a)
    out[2, i] = u[1] + u[2] + u[3]
    out[3, i] = sizeof(typeof(u[2])) + sizeof(typeof(u[3]))
    return
end
# run: const_calls!(out = zeros(Float64, 4, 3), x = Float64[0.75, -1.5, 3.25]) groupsize 3
# expect out: [4.25, 4.5, -0.25, 5.0, 3.0, 6.5, -3.5, 5.0, 8.75, 8.5, 0.25, 5.0]
# run: const_fields!(out = zeros(Float64, 3, 3), x = Float64[0.75, -1.5, 3.25]) groupsize 3
# expect out: [3.75, 8.5, 12.0, 4.5, 6.0, 12.0, 12.25, 17.5, 12.0]
