# Atomix's @atomicswap and @atomicreplace (as KernelAbstractions re-exports them) and KernelAbstractions
# 0.x's pointer atomics atomic_inc!/atomic_dec! (CUDA's atomicInc/atomicDec), each returning the old value.
using KernelAbstractions: @atomic, @atomicswap, @atomicreplace

# every work-item swaps v in: one sees the first value, the others v
@kernel function swaps(A, total, v)
    old = @atomicswap A[2] = v
    @atomic total[1] += old
end
# run: swaps(A = Int64[7, 100, 9], total = zeros(Int64, 1), v = 5) groupsize 4 ndrange 8
# expect A: [7, 5, 9]
# expect total: [135]

# compare-and-swap: exactly one work-item replaces 0 by 1; the others see 1
@kernel function replaces(A, counts, b, c)
    r = @atomicreplace A[2] b => c
    @atomic counts[1] += r.success
    @atomic counts[2] += r.old
end
# run: replaces(A = Int32[5, 0], counts = zeros(Int32, 2), b = Int32(0), c = Int32(1)) groupsize 2 ndrange 6
# expect A: [5, 1]
# expect counts: [1, 5]

# on a matrix element, and a pair made with => in plain code
function replace2d(A, out)
    p = 3 => 4
    r = @atomicreplace A[2, 1] first(p) => last(p)
    out[1] = r.old
    out[2] = r.success
    out[3] = (@atomicreplace A[1, 2] 0 => 5).success
    out[4] = p.second
    return
end
# run: replace2d(A = reshape(Int64[1, 3, 2, 4], 2, 2), out = zeros(Int64, 4))
# expect A: [1, 4, 2, 4]
# expect out: [3, 1, 0, 4]

# atomicInc wraps to 0 after reaching b; atomicDec wraps to b at 0 or above b
@kernel function incdec(A, b)
    atomic_inc!(pointer(A, 1), b)
    atomic_dec!(pointer(A, 2), b)
end
# run: incdec(A = Int32[0, 2], b = Int32(4)) groupsize 4 ndrange 12
# expect A: [2, 0]
