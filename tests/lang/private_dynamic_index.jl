# A work-item's private array indexed by a loop variable, in a loop with a barrier that keeps it rolled: the
# array stays in registers, indexed with gfx9's GPR indexing mode (s_set_gpr_idx_on and off around v_mov) or
# gfx11's v_movreld/v_movrels, which amdemu models. Each work-item adds its row, rotated, into the first column.
using KernelAbstractions

@kernel function rotate_sum!(A, ::Val{N}) where {N}
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    priv = @private Int (N,)
    for j in 1:N
        priv[j] = A[I, j]
    end
    @synchronize
    for j in 1:N
        A[mod1(j + i, N), 1] += priv[j] * j
        @synchronize
    end
end
# run: rotate_sum!(A = reshape(Int64[3, 1, -2, -4, 3, 9, 0, 8, -1, 3, 9, -9, -2, -9, 5, -5, -5, 1, -4, -1, 9, -8, -6, 9, -8, 4, 0, -3, -7, 2, 6, -5, 8, -9, -6, -6], 6, 6), n = Val(6)) groupsize 6 ndrange 6
# expect A: [107, -91, 11, -49, -72, -47, 0, 8, -1, 3, 9, -9, -2, -9, 5, -5, -5, 1, -4, -1, 9, -8, -6, 9, -8, 4, 0, -3, -7, 2, 6, -5, 8, -9, -6, -6]
