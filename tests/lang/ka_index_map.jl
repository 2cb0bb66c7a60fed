# KernelAbstractions' index-map ndrange (ndrange = an array of indices, as Oceananigans launches over its active
# cells): one work-item per entry; @index(Global, Cartesian/NTuple) is the entry, @index(Global, Linear) its
# position, the group and local indices and @ndrange() those of the 1-D ndrange of the map's length.
using KernelAbstractions

@kernel function visit!(A, order)
    I = @index(Global, Cartesian)
    p = @index(Global, Linear)
    @inbounds A[I] += p
    @inbounds order[p] = I[1] + 10 * I[2]
end
# 5 entries in groups of 2: the last group's padding work-item does nothing
# run: visit!(A = reshape(Int64[0, 0, 0, 0, 0, 0], 3, 2), order = zeros(Int64, 5)) groupsize 2 ndrange CartesianIndex{2}[CartesianIndex(3, 1), CartesianIndex(1, 2), CartesianIndex(2, 1), CartesianIndex(3, 2), CartesianIndex(1, 1)]
# expect A: [5, 3, 1, 2, 0, 4]
# expect order: [13, 21, 12, 23, 11]

# tuples of Int32 read as Int64 indices; a 3-D map through NTuple, the positions through @ndrange and groups
@kernel function cells!(out, pos, @Const(src))
    i, j, k = @index(Global, NTuple)
    p = @index(Global, Linear)
    g = @index(Group, Linear)
    l = @index(Local, Linear)
    n = @ndrange()[1]
    out[i, j, k] = src[i, j, k] * 2 + (typeof(i) == Int64)
    pos[p] = 1000 * n + 100 * g + l
end
# run: cells!(out = zeros(Int64, 2, 2, 2), pos = zeros(Int64, 4), src = reshape(Int64[1, 2, 3, 4, 5, 6, 7, 8], 2, 2, 2)) groupsize 3 ndrange NTuple{3,Int32}[(Int32(2), Int32(1), Int32(1)), (Int32(1), Int32(2), Int32(2)), (Int32(2), Int32(2), Int32(2)), (Int32(1), Int32(1), Int32(2))]
# expect out: [0, 5, 0, 0, 11, 0, 15, 17]
# expect pos: [4101, 4102, 4103, 4201]
