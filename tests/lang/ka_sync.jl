# KernelAbstractions kernels with @localmem, @synchronize, @uniform and @private x = ...: padding
# work-items (outside the ndrange) skip the body but reach every @synchronize, in loops too.
using KernelAbstractions

@kernel function reverse_groups(A)
    N = @uniform prod(@groupsize())
    @uniform begin
        N2 = prod(@groupsize())
    end
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    lmem = @localmem Int64 (4,)
    @inbounds begin
        lmem[i] = 10 * i
        @synchronize
        A[I] = lmem[N2 - i + 1]
    end
end
# run: reverse_groups(A = zeros(Int64, 12)) groupsize 4 ndrange 12
# expect A: [40, 30, 20, 10, 40, 30, 20, 10, 40, 30, 20, 10]

# padding work-items (7 and 8 below) skip the body, so the local memory they would have written is
# undefined: only the slots of work-items inside the ndrange are read (on a GPU the others hold what
# an earlier kernel left there)
@kernel function pad_sync(A)
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    lmem = @localmem Int64 (4,)
    @inbounds begin
        lmem[i] = 10 * i
        @synchronize
        A[I] = lmem[i] + lmem[1]
    end
end
# run: pad_sync(A = zeros(Int64, 8)) groupsize 4 ndrange 6
# expect A: [20, 30, 40, 50, 20, 30, 0, 0]

# a loop with @synchronize() inside: its bounds come from @uniform, every work-item runs it
@kernel function loop_sync(A, n)
    i = @index(Local, Linear)
    I = @index(Global, Linear)
    @uniform iterations = 2n
    @private acc = 0
    tile = @localmem Float32 (3,)
    for j in 1:iterations
        tile[i] = Float32(j * i)
        @synchronize()
        acc += Int64(tile[4 - i])
        @synchronize()
    end
    A[I] = acc
end
# run: loop_sync(A = zeros(Int64, 6), n = 2) groupsize 3 ndrange 6
# expect A: [30, 20, 10, 30, 20, 10]
# run: loop_sync(A = zeros(Int64, 4), n = 1) groupsize 3 ndrange 3
# expect A: [9, 6, 3, 0]

# Atomix.@atomic and KernelAbstractions.@atomic are AMDGPU.@atomic
@kernel function histogram!(out, @Const(input))
    i = @index(Global)
    KernelAbstractions.@atomic out[input[i]] += 1
end
# run: histogram!(out = zeros(Int32, 4), input = Int64[1, 2, 2, 4, 4, 4, 1, 3, 4]) groupsize 4 ndrange 9
# expect out: [2, 2, 1, 4]

@kernel function atomix_max!(out, @Const(x))
    i = @index(Global)
    Atomix.@atomic out[1] += x[i]
end
# run: atomix_max!(out = Float64[0.5], x = Float64[1.5, 2.25, -1]) ndrange 3
# expect out: [3.25]
