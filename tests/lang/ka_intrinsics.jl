# KernelAbstractions' KernelIntrinsics in plain functions launched like @roc kernels: the 1-based ids
# as @NamedTuple{x::Int, y::Int, z::Int} (KA src/intrinsics.jl: Int unless a type is given), destructured
# or read by field; localmemory and barrier.
import KernelAbstractions.KernelIntrinsics as KI

function ki_ids(A, B)
    i, j, _ = KI.get_local_id()
    gi, gj, _ = KI.get_group_id()
    ni, nj, _ = KI.get_num_groups()
    li = KI.get_local_size()
    g = KI.get_global_id()
    A[g.x, g.y] = 1000 * gi + 100 * gj + 10 * i + j
    B[g.x, g.y] = 1000 * ni + 100 * nj + 10 * li.x + li.y
    return
end
# run: ki_ids(A = zeros(Int64, 4, 6), B = zeros(Int64, 4, 6)) groupsize 2,3 gridsize 2,2
# expect A: [1111, 1121, 2111, 2121, 1112, 1122, 2112, 2122, 1113, 1123, 2113, 2123, 1211, 1221, 2211, 2221, 1212, 1222, 2212, 2222, 1213, 1223, 2213, 2223]
# expect B: [2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223, 2223]

# the types: Int fields, and the grid in work-items
function ki_types(A)
    id = KI.get_global_id()
    A[id.x] = sizeof(id.x) + 10 * sizeof(KI.get_global_size().y) + 100 * KI.get_global_size().x
    return
end
# run: ki_types(A = zeros(Int64, 6)) groupsize 3 gridsize 2
# expect A: [688, 688, 688, 688, 688, 688]

# a tile in local memory, reversed across the group after the barrier
function ki_reverse(out, inp)
    tile = KI.localmemory(eltype(out), (4,))
    i = KI.get_local_id().x
    g = KI.get_global_id().x
    tile[i] = inp[g]
    KI.barrier()
    out[g] = tile[5 - i]
    return
end
# run: ki_reverse(out = zeros(Float32, 8), inp = Float32[1.5, 2, 3, 4, 5, 6, 7, 8.25]) groupsize 4 gridsize 2
# expect out: [4.0, 3.0, 2.0, 1.5, 8.25, 7.0, 6.0, 5.0]

# sub-groups are wavefronts: 1-based ids within the group; a group smaller than the wavefront is one partial
# sub-group of its size
function ki_subgroups(A)
    i = KI.get_global_id().x
    A[i] = 1000000 * KI.get_sub_group_size() + 10000 * KI.get_num_sub_groups() + 100 * KI.get_sub_group_id() +
           KI.get_sub_group_local_id()
    return
end
# run: ki_subgroups(A = zeros(UInt32, 4)) groupsize 4 gridsize 1 wavefrontsize 32
# expect A: [4010101, 4010102, 4010103, 4010104]

# renamings: `import A as B`, `using A: b as c`
import KernelAbstractions as KA
using KernelAbstractions.KernelIntrinsics: get_local_id as lid, barrier as sync_all

function ki_renamed(A)
    i = lid().x
    sync_all()
    A[i] = i * KA.KernelIntrinsics.get_local_size().x
    return
end
# run: ki_renamed(A = zeros(Int32, 3)) groupsize 3
# expect A: [3, 6, 9]
