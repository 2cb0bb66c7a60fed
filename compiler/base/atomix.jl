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

# ---- Atomix's references (NNlib's scatter kernels: Atomix.modify!(Atomix.IndexableRef(dst, idx), op, x)):
# the element of A at the index tuple I, read and written atomically through its checked pointer
struct IndexableRef{A, I}
    data::A
    indices::I
end
__ref_pointer(r::IndexableRef) = __atomic_ref(r.data, r.indices...)
swap!(r::IndexableRef, x, order = nothing) = atomic_xchg!(__ref_pointer(r), convert(eltype(r.data), x))
# old => op(old, x), stored by compare-and-swap as Atomix does for any op
function modify!(r::IndexableRef, op, x, order = nothing)
    p = __ref_pointer(r)
    old = unsafe_load(p)
    while true
        new = convert(typeof(old), op(old, x))
        cur = atomic_cas!(p, old, new)
        cur === old && return old => new
        old = cur
    end
end
function replace!(r::IndexableRef, expected, desired, success_order = nothing, fail_order = nothing)
    old = atomic_cas!(__ref_pointer(r), convert(eltype(r.data), expected), convert(eltype(r.data), desired))
    return (old = old, success = old === expected)
end
