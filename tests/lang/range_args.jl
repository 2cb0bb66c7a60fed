# Ranges as kernel arguments (docs/abi.md): a halo-copy kernel as ImplicitGlobalGrid writes them takes the
# ranges of the plane it copies; a StepRange strides; an empty range skips. The zero-dimensional
# CartesianIndices(()) that AMDGPU.jl's scan kernels index with is a struct of an empty tuple.

function copy_plane!(buf, A, rx::UnitRange{Int64}, ry::UnitRange{Int64}, rz::UnitRange{Int64})
    ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x + rx[1] - 1
    iy = workitemIdx().y + ry[1] - 1
    iz = workitemIdx().z + rz[1] - 1
    if !(ix in rx && iy in ry && iz in rz)
        return nothing
    end
    buf[ix - first(rx) + 1, iz - first(rz) + 1] = A[ix, iy, iz] + length(ry) * 1000
    return nothing
end
# A is 3 x 2 x 2 with A[i, j, k] = 100i + 10j + k; the plane j = 2 of rows 2:3.
# run: copy_plane!(buf = zeros(Int64, 2, 2), A = reshape(Int64[111, 211, 311, 121, 221, 321, 112, 212, 312, 122, 222, 322], 3, 2, 2), rx = UnitRange{Int64}(2, 3), ry = UnitRange{Int64}(2, 2), rz = UnitRange{Int64}(1, 2)) groupsize 2,1,2 gridsize 2,1,1
# expect buf: [1221, 1321, 1222, 1322]

function stride_sum!(out, r, s)
    i = workitemIdx().x
    acc = 0
    for k in r
        acc += k * i
    end
    out[i] = acc + 100 * length(s) + (isempty(s) ? 7 : 0) + 1000 * last(r)
    return nothing
end
# r = 3:4:17 is 3, 7, 11, 15 (its last 15, as Julia's StepRange); s = 5:2 is empty.
# run: stride_sum!(out = zeros(Int64, 3), r = StepRange{Int64,Int64}(3, 4, 17), s = UnitRange{Int64}(5, 2)) groupsize 3
# expect out: [15043, 15079, 15115]

# A range of Int32 converts its fields exactly and keeps Int32 elements.
function eltypes!(out, r)
    out[1] = sizeof(first(r)) + 10 * sizeof(last(r))
    out[2] = sum(r)
    return nothing
end
# run: eltypes!(out = zeros(Int64, 2), r = UnitRange{Int32}(-3, 6))
# expect out: [44, 15]

# CartesianIndices(()): one element, the empty index; indexing an array with it adds no dimension.
function zero_dim!(out, x)
    R = CartesianIndices(())
    I = R[1]
    out[1] = length(R)
    out[2] = length(I)
    out[3] = x[I, 2, I]
    return nothing
end
# run: zero_dim!(out = zeros(Int64, 3), x = Int64[5, 7])
# expect out: [1, 0, 7]
