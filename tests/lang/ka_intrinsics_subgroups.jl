# KernelAbstractions' KernelIntrinsics (`import KernelAbstractions.KernelIntrinsics as KI`, src/intrinsics.jl) in
# plain kernels launched as AMDGPU.jl's: 1-based ids and sizes as @NamedTuple{x, y, z}, local memory, barriers and
# sub-groups (the wavefronts).
import KernelAbstractions.KernelIntrinsics as KI

function ki_ids!(out)
    i = KI.get_global_id().x
    if i <= length(out)
        out[i] = KI.get_local_size().x * 10000 + KI.get_global_size().x * 1000 + KI.get_local_id().x * 100 +
                 KI.get_group_id().x * 10 + KI.get_num_groups().x
    end
    return
end
# run: ki_ids!(out = zeros(Int64, 5)) groupsize 3 gridsize 2
# expect out: [36112, 36212, 36312, 36122, 36222]

function ki_grid2d!(arr)
    i, j, _ = KI.get_local_id()
    gi, gj, _ = KI.get_group_id()
    ni, nj, _ = KI.get_local_size()
    arr[(gi - 1) * ni + i, (gj - 1) * nj + j] = Float32(10 * i + j)
    return
end
# run: ki_grid2d!(arr = zeros(Float32, 4, 2)) groupsize 2,1 gridsize 2,2
# expect arr: [11, 21, 11, 21, 11, 21, 11, 21]

function ki_reverse!(a, ::Val{N}) where {N}
    i, _, _ = KI.get_local_id()
    g, _, _ = KI.get_group_id()
    tile = KI.localmemory(eltype(a), (N,))
    tile[i] = a[(g - 1) * N + i]
    KI.barrier()
    a[(g - 1) * N + i] = tile[N - i + 1]
    return
end
# run: ki_reverse!(a = Float32[1, 2, 3, 4, 5, 6, 7, 8.5], n = Val(4)) groupsize 4 gridsize 2
# expect a: [4, 3, 2, 1, 8.5, 7, 6, 5]

# (the 32 work-items past the first wavefront of 64 form a partial sub-group: its size, 32, is not the maximum)
function ki_subgroups!(out)
    i = KI.get_global_id().x
    @inbounds out[i] = KI.get_sub_group_id() * UInt32(1000) + KI.get_sub_group_local_id() +
             KI.get_num_sub_groups() * UInt32(100000) + (KI.get_sub_group_size() == KI.get_max_sub_group_size())
    return
end
# run: ki_subgroups!(out = zeros(UInt32, 96)) groupsize 96 wavefrontsize 64
# expect out: [201002, 201003, 201004, 201005, 201006, 201007, 201008, 201009, 201010, 201011, 201012, 201013, 201014, 201015, 201016, 201017, 201018, 201019, 201020, 201021, 201022, 201023, 201024, 201025, 201026, 201027, 201028, 201029, 201030, 201031, 201032, 201033, 201034, 201035, 201036, 201037, 201038, 201039, 201040, 201041, 201042, 201043, 201044, 201045, 201046, 201047, 201048, 201049, 201050, 201051, 201052, 201053, 201054, 201055, 201056, 201057, 201058, 201059, 201060, 201061, 201062, 201063, 201064, 201065, 202001, 202002, 202003, 202004, 202005, 202006, 202007, 202008, 202009, 202010, 202011, 202012, 202013, 202014, 202015, 202016, 202017, 202018, 202019, 202020, 202021, 202022, 202023, 202024, 202025, 202026, 202027, 202028, 202029, 202030, 202031, 202032]
# run: ki_subgroups!(out = zeros(UInt32, 96)) groupsize 96 wavefrontsize 32
# expect out: [301002, 301003, 301004, 301005, 301006, 301007, 301008, 301009, 301010, 301011, 301012, 301013, 301014, 301015, 301016, 301017, 301018, 301019, 301020, 301021, 301022, 301023, 301024, 301025, 301026, 301027, 301028, 301029, 301030, 301031, 301032, 301033, 302002, 302003, 302004, 302005, 302006, 302007, 302008, 302009, 302010, 302011, 302012, 302013, 302014, 302015, 302016, 302017, 302018, 302019, 302020, 302021, 302022, 302023, 302024, 302025, 302026, 302027, 302028, 302029, 302030, 302031, 302032, 302033, 303002, 303003, 303004, 303005, 303006, 303007, 303008, 303009, 303010, 303011, 303012, 303013, 303014, 303015, 303016, 303017, 303018, 303019, 303020, 303021, 303022, 303023, 303024, 303025, 303026, 303027, 303028, 303029, 303030, 303031, 303032, 303033]
