# Functions and closures as values and kernel arguments: an operator, a built-in, a user function, a top-level
# `const f = x -> ...`, a callable struct; closures of static parameters, varargs closures, closures returning
# closures, a local function; KernelAbstractions kernels that take or make them.
using KernelAbstractions

struct Affine
    a::Float32
    b::Float32
end
(f::Affine)(x) = f.a * x + f.b
function (f::Affine)(x, y)
    return f.a * x + f.b * y
end
const triple = x -> 3x

function map_with!(B, f, A)
    i = workitemIdx().x
    B[i] = f(A[i])
    return nothing
end
# run: map_with!(B = zeros(Float32, 3), f = Affine(2f0, 0.5f0), A = Float32[1.5, -2, 4]) groupsize 3
# expect B: [3.5, -3.5, 8.5]
# run: map_with!(B = zeros(Float32, 3), f = triple, A = Float32[1.5, -2, 4]) groupsize 3
# expect B: [4.5, -6, 12]
# run: map_with!(B = zeros(Float32, 3), f = abs, A = Float32[1.5, -2, 4]) groupsize 3
# expect B: [1.5, 2, 4]

function combine!(B, op, A, C)
    i = workitemIdx().x
    B[i] = op(A[i], C[i])
    return nothing
end
# run: combine!(B = zeros(Float32, 3), op = +, A = Float32[1.5, -2, 4], C = Float32[2, 3, -1]) groupsize 3
# expect B: [3.5, 1, 3]
# run: combine!(B = zeros(Float32, 3), op = max, A = Float32[1.5, -2, 4], C = Float32[2, 3, -1]) groupsize 3
# expect B: [2, 3, 4]
# run: combine!(B = zeros(Float32, 3), op = Affine(2f0, 0.5f0), A = Float32[1.5, -2, 4], C = Float32[2, 3, -1]) groupsize 3
# expect B: [4, -2.5, 7.5]

function typed_closures!(B, A::AbstractVector{T}) where {T}
    i = workitemIdx().x
    conv = x -> T(x) * T(2)
    first_of = (xs...) -> xs[1] + length(xs)
    a = A[i]
    outer = y -> (z -> z * a + y)
    local_sq(x::T) = x * x
    B[i, 1] = conv(3)
    B[i, 2] = first_of(a, a, a)
    B[i, 3] = outer(1f0)(2f0)
    B[i, 4] = local_sq(a)
    return nothing
end
# run: typed_closures!(B = zeros(Float32, 3, 4), A = Float32[1.5, -2, 4]) groupsize 3
# expect B: [6, 6, 6, 4.5, 1, 7, 4, -3, 9, 2.25, 4, 16]

@kernel function ka_apply!(A, f)
    I = @index(Global)
    A[I] = f(A[I])
end
# run: ka_apply!(A = Float32[1.5, -2, 4], f = triple) groupsize 3 ndrange 3
# expect A: [4.5, -6, 12]

@kernel function ka_closure!(A, s)
    I = @index(Global)
    g = x -> x * s + I
    A[I] = g(A[I])
end
# run: ka_closure!(A = Float32[1.5, -2, 4], s = 2f0) groupsize 3 ndrange 3
# expect A: [4, -2, 11]

@kernel function ka_scaled!(A, @Const(B))
    I = @index(Global, Cartesian)
    s = @uniform 2f0
    f = v -> v * s + I[2]
    A[I] = f(B[I])
end
# run: ka_scaled!(A = zeros(Float32, 2, 2), B = reshape(Float32[1.5, -2, 4, 0.25], 2, 2)) groupsize 2 ndrange 2,2
# expect A: [4, -3, 10, 2.5]
