# Older KernelAbstractions and CUDA-era forms: callable (functor) kernels dispatching on Val, @dynamic_localmem
# sized from the group size, CUDAnative's @cuprintf (C's printf, every work-item), CartesianIndices of an
# array indexed by the linear global index, and @synchronize(cond) (a plain barrier since KA 0.9.34).
using KernelAbstractions

function fill_val end
@kernel function (a::typeof(fill_val))(x, ::Val{m}) where {m}
    I = @index(Global)
    @inbounds x[I] = m
end
@kernel function (::typeof(fill_val))(x, ::Val{1})
    I = @index(Global)
    @inbounds x[I] = -1
end
# run: fill_val(x = zeros(Int64, 3), v = Val(4)) groupsize 2 ndrange 3
# expect x: [4, 4, 4]
# run: fill_val(x = zeros(Int64, 3), v = Val(1)) groupsize 2 ndrange 3
# expect x: [-1, -1, -1]

@kernel function twice_local(A)
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    lmem = @dynamic_localmem eltype(A) (wgs) -> 2 * wgs
    lmem[2 * i] = A[I]
    @synchronize(i % 2 == 0)
    A[I] = lmem[2 * i] + length(lmem)
end
# run: twice_local(A = Float64[1.5, 2, 3, 4]) groupsize 2 ndrange 4 shmem 32
# expect A: [5.5, 6.0, 7.0, 8.0]

@kernel function cartesian_copy!(c, a)
    cI = CartesianIndices(c)[@index(Global)]
    if size(c) != size(a)
        CUDAnative.@cuprintf("size mismatch %d\n", size(c)[1])
        return nothing
    end
    c[cI] = a[cI[1], cI[2]] * 10
end
# run: cartesian_copy!(c = zeros(Int64, 2, 2), a = reshape(Int64[1, 2, 3, 4], 2, 2)) groupsize 4 ndrange 4
# expect c: [10, 20, 30, 40]

function say(x)
    @cuprintf("item %d of %d\n", workitemIdx().x, x)
    return
end
# run: say(x = 2) groupsize 2
# expect output: item 1 of 2\nitem 2 of 2\n

# B[:, I]: the column (a view here; Julia copies it), summed
@kernel function colsum!(A, @Const(B))
    I = @index(Global)
    @inbounds A[I] = sum(B[:, I])
end
# run: colsum!(A = zeros(Float64, 3), B = reshape(Float64[1, 2, 3, 4, 5, 6.5], 2, 3)) groupsize 2 ndrange 3
# expect A: [3.0, 7.0, 11.5]
