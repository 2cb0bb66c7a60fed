# KernelAbstractions' offset ndranges (ndrange = (-3:4, 2:11), a launch option of KernelAbstractions 0.10):
# @index(Global, NTuple) and @index(Global, Cartesian) count from each range's first index, while the linear
# index, the group and local indices and @ndrange() are those of the ranges' lengths. `ndrange lo:hi` in a
# run line is such a range (juke_launch_config.ndrange_offset).
using KernelAbstractions

@kernel function record!(pos, lin, nd, lo)
    I = @index(Global, NTuple)
    J = I .- lo .+ 1
    pos[J...] = 100 * I[1] + I[2]
    lin[J...] = @index(Global, Linear)
    nd[J...] = prod(@ndrange())
end
# ragged groups (3x2 over 4x3), and the library's groupsize
# run: record!(pos = zeros(Int64, 4, 3), lin = zeros(Int64, 4, 3), nd = zeros(Int64, 4, 3), lo = (-2, 3)) groupsize 3,2 ndrange -2:1,3:5
# expect pos: [-197, -97, 3, 103, -196, -96, 4, 104, -195, -95, 5, 105]
# expect lin: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
# expect nd: [12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12]
# run: record!(pos = zeros(Int64, 4, 3), lin = zeros(Int64, 4, 3), nd = zeros(Int64, 4, 3), lo = (-2, 3)) ndrange -2:1,3:5
# expect pos: [-197, -97, 3, 103, -196, -96, 4, 104, -195, -95, 5, 105]
# an extent and a range mixed
# run: record!(pos = zeros(Int64, 4, 3), lin = zeros(Int64, 4, 3), nd = zeros(Int64, 4, 3), lo = (1, 3)) groupsize 2,2 ndrange 4,3:5
# expect pos: [103, 203, 303, 403, 104, 204, 304, 404, 105, 205, 305, 405]

# a Cartesian index past the padding work-items, which still reach the barrier
@kernel function shifted!(out, @Const(x), off)
    I = @index(Global, Cartesian)
    i = @index(Local)
    buf = @localmem Int64 (4,)
    buf[i] = x[I[1] - off]
    @synchronize
    out[I[1] - off] = buf[i] + I[1]
end
# run: shifted!(out = zeros(Int64, 10), x = Int64[137, -239, 259, -133, 314, 207, 465, 361, 257, 167], off = 10) groupsize 4 ndrange 11:20
# expect out: [148, -227, 272, -119, 329, 223, 482, 379, 276, 187]

# an empty range runs nothing
# run: shifted!(out = zeros(Int64, 10), x = Int64[137, -239, 259, -133, 314, 207, 465, 361, 257, 167], off = 10) groupsize 4 ndrange 11:10
# expect out: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
