# KernelAbstractions.__iterspace(@context()): the launch's iteration space, whose blocks are the
# workgroups and whose workitems are a group's items, each a CartesianIndices (GPUArrays' mapreduce
# divides its groups among the outputs with length(blocks(...))).
using KernelAbstractions

@kernel function spaces!(counts, firsts)
    i = @index(Global, Linear)
    space = KernelAbstractions.__iterspace(@context())
    nb = length(KernelAbstractions.blocks(space))
    counts[1, i] = nb
    counts[2, i] = length(KernelAbstractions.workitems(space))
    counts[3, i] = size(KernelAbstractions.blocks(space))[end]
    firsts[i] = last(KernelAbstractions.blocks(space))[1] * 100 + nb
end

@kernel function spaces2d!(out)
    I = @index(Global, Cartesian)
    bl = KernelAbstractions.blocks(KernelAbstractions.__iterspace(@context()))
    wi = KernelAbstractions.workitems(KernelAbstractions.__iterspace(@context()))
    out[I] = size(bl)[1] * 1000 + size(bl)[2] * 100 + size(wi)[1] * 10 + size(wi)[2]
end

# run: spaces!(counts = zeros(Int64, 3, 10), firsts = zeros(Int64, 10)) groupsize 4 ndrange 10
# expect counts: [3, 4, 3, 3, 4, 3, 3, 4, 3, 3, 4, 3, 3, 4, 3, 3, 4, 3, 3, 4, 3, 3, 4, 3, 3, 4, 3, 3, 4, 3]
# expect firsts: [303, 303, 303, 303, 303, 303, 303, 303, 303, 303]
# run: spaces2d!(out = zeros(Int64, 5, 3)) groupsize 2,2 ndrange 5,3
# expect out: [3222, 3222, 3222, 3222, 3222, 3222, 3222, 3222, 3222, 3222, 3222, 3222, 3222, 3222, 3222]
