# KernelAbstractions' @private T dims: an array of each work-item's own, kept across @synchronize (as
# KernelAbstractions' test/private.jl uses it), its dims constants, `where` parameters or the static groupsize.
using KernelAbstractions

@kernel function private_keep!(A)
    @uniform N = prod(@groupsize())
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    priv = @private Int64 (1,)
    @inbounds begin
        priv[1] = N - i + 1
        @synchronize
        A[I] = priv[1]
    end
end
# run: private_keep!(A = zeros(Int64, 12)) groupsize 4 ndrange 12
# expect A: [4, 3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1]

# a row kept in private memory while the group rotates it into column 1 (test/private.jl's forloop)
@kernel function rotate_sum!(A, ::Val{N}) where {N}
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    priv = @private Int64 (N,)
    for j in 1:N
        priv[j] = A[I, j]
    end
    A[I, 1] = 0
    @synchronize
    for j in 1:N
        k = mod1(j + i - 1, N)
        A[k, 1] += priv[j]
        @synchronize
    end
end
# run: rotate_sum!(A = reshape(Int64[1, 2, 3, 4, 4, 8, 12, 16, 9, 18, 27, 36, 16, 32, 48, 64], 4, 4), n = Val(4)) groupsize 4 ndrange 4
# expect A: [76, 90, 84, 50, 4, 8, 12, 16, 9, 18, 27, 36, 16, 32, 48, 64]

# the element type from eltype, compared as test/private.jl's typetest does
@kernel function typetest!(A, B)
    priv = @private eltype(A) (1,)
    I = @index(Global, Linear)
    @inbounds begin
        B[I] = eltype(priv) === eltype(A)
    end
end
# run: typetest!(A = zeros(Float32, 4), B = zeros(Bool, 4)) groupsize 2 ndrange 4
# expect B: [true, true, true, true]

@kernel function reduce_private!(out, A)
    I = @index(Global, Linear)
    priv = @private eltype(A) (1,)
    @inbounds begin
        priv[1] = zero(eltype(A))
        for k in 1:size(A, ndims(A))
            priv[1] += A[I, k]
        end
        out[I] = priv[1]
    end
end
# run: reduce_private!(out = zeros(Float32, 4), A = reshape(Float32[1, 2, 3, 4, 5.5, 6, 7, 8], 4, 2)) groupsize 2 ndrange 4
# expect out: [6.5, 8, 10, 12]

# a 2-D private array, an integer dims form, length/size and a loop over eachindex
@kernel function private_matrix!(out)
    I = @index(Global, Linear)
    m = @private Float32 (2, 3)
    v = @private Int32 3
    for c in 1:3, r in 1:2
        m[r, c] = Float32(I * 100 + r * 10 + c)
    end
    for k in eachindex(v)
        v[k] = Int32(k * I)
    end
    @synchronize
    s = 0f0
    for c in 1:size(m, 2)
        s += m[2, c] - m[1, c]
    end
    for x in v
        s += Float32(x)
    end
    out[I] = s + Float32(length(m))
end
# run: private_matrix!(out = zeros(Float32, 3)) groupsize 3 ndrange 3
# expect out: [42, 48, 54]

# out of bounds on a private array is a BoundsError, as on any array
@kernel function private_oob!(out)
    I = @index(Global, Linear)
    p = @private Int64 (2,)
    p[1] = I
    out[I] = p[I + 1]
end
# run: private_oob!(out = zeros(Int64, 2)) groupsize 2 ndrange 2
# expect exception: BoundsError
