# Struct fields declared without a type (Any in Julia, where the field is a box that keeps its value's type):
# a struct built by its default constructor takes each such field's type from the value it is built with, in a
# kernel and as a host argument; such structs nest, and methods dispatch on them as on any struct.
using KernelAbstractions

struct Strided
    data
    step
    first
end
Base.getindex(s::Strided, i) = s.data[s.first + (i - 1) * s.step]

struct Pair2
    a
    b::Int32
end
total(p::Pair2) = p.a[1] + p.a[2] + p.b

@kernel function gather!(out, @Const(A), s0)
    i = @index(Global, Linear)
    s = Strided(A, 3, i)                 # built in the kernel: Strided{Vector{Float32}, Int64, Int64}
    p = Pair2((s[1], s[2]), Int32(i))    # a tuple in the untyped field
    out[i] = total(p) + s0[i]
end

# s0 = Strided(B, 2, 1) from the host: s0[i] = B[1 + 2(i - 1)]
# out[i] = A[i] + A[i + 3] + i + B[2i - 1]
# run: gather!(out = zeros(Float32, 4), A = Float32[0.5, -1.25, 2, 3.5, -0.75, 1, 4.25, -2], s0 = Strided(Float32[10, 20, 30, 40, 50, 60, 70], 2, 1)) groupsize 4 ndrange 4
# expect out: [15.0, 30.0, 56.0, 81.75]
