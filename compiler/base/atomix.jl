# base/atomix.jl: Pair (a => b) and Atomix's @atomicswap/@atomicreplace, for files that use them
# (compiler/prelude.h: appended to the Base prelude when the kernel file uses it)

# a => b (Base.Pair)
struct Pair{A, B}
    first::A
    second::B
end
first(p::Pair) = p.first
last(p::Pair) = p.second

# ---- Atomix's @atomicswap and @atomicreplace (KernelAbstractions re-exports them; compiler/lower.c):
# on the element's pointer, bounds-checked as A[i] is; the stored values convert to the element type
function __atomic_ref(A::AbstractArray, i::Integer)
    A[i]
    return pointer(A, i)
end
function __atomic_ref(A::AbstractArray, i::Integer, j::Integer)
    A[i, j]
    return pointer(A, i + (j - 1) * size(A, 1))
end
function __atomic_ref(A::AbstractArray, i::Integer, j::Integer, k::Integer)
    A[i, j, k]
    return pointer(A, i + (j - 1 + (k - 1) * size(A, 2)) * size(A, 1))
end
__atomicswap(p, v) = atomic_xchg!(p, v)
function __atomicreplace(p, expected, desired)
    old = atomic_cas!(p, expected, desired)
    return (old = old, success = old == expected)
end
