# A file whose one kernel writes @index(Global, NTuple{3,Int}) (KernelAbstractions' Linear index with an extra
# argument, a MethodError once compiled: errors/ka_index_extra_arg.jl) loads, and its other kernels run, as
# in Julia, where only the call of that kernel fails (NNlib's grid_sample kernels in one file).
using KernelAbstractions

@kernel function typed_index!(A)
    i, j, k = @index(Global, NTuple{3,Int})
    A[i, j, k] = 1
end

@kernel function plain_index!(A)
    i, j = @index(Global, NTuple)
    A[i, j] = 10i + j
end
# run: plain_index!(A = zeros(Int64, 3, 2)) groupsize 2,2 ndrange 3,2
# expect A: [11, 21, 31, 12, 22, 32]
