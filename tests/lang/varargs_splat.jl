# Varargs methods and splatting, as Julia defines them: f(xs...) takes the rest of the arguments as a
# tuple, f(t...) passes a tuple's elements, and both work in tuples and index lists.
addall(xs...) = sum(xs)
first_rest(a, xs...) = a * length(xs)
count_ints(xs::Vararg{Int64,N}) where {N} = N
pack(xs...) = xs
nargs_of(xs::Int64...) = length(xs)
pick(a) = 1
pick(a, b) = 2
pick(a, xs...) = 3                       # less specific than the fixed-arity methods
function varargs_splat!(o, A)
    o[1] = addall(1, 2, 3)
    o[2] = first_rest(5, 1, 2)
    o[3] = count_ints(4, 5, 6, 7)
    u = (1, 2)
    o[4] = addall(u..., 10)
    o[5] = max(u..., 3)
    w = (u..., 7)
    o[6] = w[3]
    o[7] = length(pack(u..., u...))
    o[8] = nargs_of()
    o[9] = 100 * pick(1) + 10 * pick(1, 2) + pick(1, 2, 3)
    I = (2, 3)
    o[10] = A[I...]
    A[I...] = 42
    o[11] = A[2, 3]
    o[12] = first_rest(u...)
    return nothing
end
# run: varargs_splat!(o = zeros(Int64, 12), A = reshape(Int64[1, 2, 3, 4, 5, 6, 7, 8, 9], 3, 3))
# expect o: [6, 10, 4, 13, 3, 7, 4, 0, 123, 8, 42, 1]

# Varargs outer constructors: P{T}(x1, x2, xs...) and P(x1, x2, xs...) pack the rest as any varargs call does.
struct Trip{T}
    d::NTuple{3, T}
end
Trip{T}(x1, x2, xs...) where {T} = Trip{T}((convert(T, x1), convert(T, x2), convert(T, xs[1])))
Trip(x1, x2, xs...) = Trip((x1, x2, xs...))
function varargs_construct!(o, v)
    i = workitemIdx().x
    p = Trip{Float64}(i, 2, v[i])        # Int64, Int64, Float32 -> Float64
    q = Trip(v[i], 2.5f0, 0.5f0)
    o[i] = p.d[1] + 10 * p.d[3] + 100 * q.d[2] + q.d[1] * q.d[3]
    return nothing
end
# run: varargs_construct!(o = zeros(Float64, 3), v = Float32[1.5, -2.25, 3.125]) groupsize 3
# expect o: [266.75, 228.375, 285.8125]
