# base/intrinsics.jl: KernelAbstractions.KernelIntrinsics, for files that name the module
# (compiler/prelude.h: appended to the Base prelude when the kernel file uses it)

# ---- KernelAbstractions.KernelIntrinsics (KA src/intrinsics.jl), as `import
# KernelAbstractions.KernelIntrinsics as KI` names them (KI.get_local_id() is get_local_id()):
# the ids are 1-based, each query a @NamedTuple{x::Int32, y::Int32, z::Int32}; the sub-group
# queries are UInt32 (a sub-group is a wavefront). KI.localmemory is lowered directly
# (compiler/lower.c): static local memory.
__ki3(d) = (x = d.x % Int32, y = d.y % Int32, z = d.z % Int32)
get_local_id() = __ki3(workitemIdx())
get_group_id() = __ki3(workgroupIdx())
get_local_size() = __ki3(workgroupDim())
get_num_groups() = __ki3(gridGroupDim())
get_global_size() = __ki3(gridItemDim())
function get_global_id()
    g = workgroupIdx()
    d = workgroupDim()
    l = workitemIdx()
    return (x = ((g.x - 1) * d.x + l.x) % Int32, y = ((g.y - 1) * d.y + l.y) % Int32,
            z = ((g.z - 1) * d.z + l.z) % Int32)
end
__ki_local_linear() = workitemIdx().x - 1 + (workitemIdx().y - 1 + (workitemIdx().z - 1) * workgroupDim().y) * workgroupDim().x
get_sub_group_size() = wavefrontsize() % UInt32
get_max_sub_group_size() = wavefrontsize() % UInt32
get_num_sub_groups() = cld(workgroupDim().x * workgroupDim().y * workgroupDim().z, wavefrontsize()) % UInt32
get_sub_group_id() = (__ki_local_linear() ÷ wavefrontsize() + 1) % UInt32
get_sub_group_local_id() = (__ki_local_linear() % wavefrontsize() + 1) % UInt32
sub_group_barrier() = sync_wavefront()
barrier() = sync_workgroup()
