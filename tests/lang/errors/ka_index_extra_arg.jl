# @index(Global, NTuple{3,Int}) is, as KernelAbstractions' macro reads it, the Linear index given one more
# argument, which no GPU method takes: Julia's MethodError where the kernel is compiled. The file still loads
# (ka_index_extra_arg_loads.jl runs its other kernel).
using KernelAbstractions

@kernel function typed_index!(A)
    i, j, k = @index(Global, NTuple{3,Int})
    A[i, j, k] = 1
end
# run: typed_index!(A = zeros(Int64, 2, 2, 2)) groupsize 2,2,2 ndrange 2,2,2
# expect error: MethodError: no method matching __ka_index_Global_Linear(::Tuple{Int64, Int64, Int64, Val{2}, Val{2}, Val{2}}, ::Type{Tuple{Int64, Int64, Int64}})
# expect error at: 7:15
