# base/intrinsics.jl: KernelAbstractions.KernelIntrinsics, for files that name the module
# (compiler/prelude.h: appended to the Base prelude when the kernel file uses it)

# ---- KernelAbstractions.KernelIntrinsics (KA src/intrinsics.jl; lib/KernelInterface, `import
# KernelInterface as KI`, is the same module under its newer name), as `import
# KernelAbstractions.KernelIntrinsics as KI` names them (KI.get_local_id() is get_local_id()):
# the ids are 1-based, each query a @NamedTuple{x::T, y::T, z::T}, T = Int unless given
# (`KI.get_local_id(Int32)`, which wraps as `%` does); the sub-group queries likewise, one
# number (a sub-group is a wavefront). KI.localmemory is lowered directly (compiler/lower.c):
# static local memory.
__ki3(d, ::Type{T}) where {T} = (x = d.x % T, y = d.y % T, z = d.z % T)
get_local_id(::Type{T}) where {T} = __ki3(workitemIdx(), T)
get_group_id(::Type{T}) where {T} = __ki3(workgroupIdx(), T)
get_local_size(::Type{T}) where {T} = __ki3(workgroupDim(), T)
get_num_groups(::Type{T}) where {T} = __ki3(gridGroupDim(), T)
get_global_size(::Type{T}) where {T} = __ki3(gridItemDim(), T)
function get_global_id(::Type{T}) where {T}
    g = workgroupIdx()
    d = workgroupDim()
    l = workitemIdx()
    return (x = ((g.x - 1) * d.x + l.x) % T, y = ((g.y - 1) * d.y + l.y) % T,
            z = ((g.z - 1) * d.z + l.z) % T)
end
get_local_id() = get_local_id(Int)
get_group_id() = get_group_id(Int)
get_local_size() = get_local_size(Int)
get_num_groups() = get_num_groups(Int)
get_global_size() = get_global_size(Int)
get_global_id() = get_global_id(Int)
__ki_local_linear() = workitemIdx().x - 1 + (workitemIdx().y - 1 + (workitemIdx().z - 1) * workgroupDim().y) * workgroupDim().x
# a partial last sub-group (a group that is no multiple of the wavefront) has fewer lanes, as AMDGPU.jl's
# KernelInterface test "partial sub-groups" has it
function get_sub_group_size(::Type{T}) where {T}
    n = workgroupDim().x * workgroupDim().y * workgroupDim().z
    w = wavefrontsize()
    return min(w, n - __ki_local_linear() ÷ w * w) % T
end
get_max_sub_group_size(::Type{T}) where {T} = wavefrontsize() % T
get_num_sub_groups(::Type{T}) where {T} = cld(workgroupDim().x * workgroupDim().y * workgroupDim().z, wavefrontsize()) % T
get_sub_group_id(::Type{T}) where {T} = (__ki_local_linear() ÷ wavefrontsize() + 1) % T
get_sub_group_local_id(::Type{T}) where {T} = (__ki_local_linear() % wavefrontsize() + 1) % T
get_sub_group_size() = get_sub_group_size(Int)
get_max_sub_group_size() = get_max_sub_group_size(Int)
get_num_sub_groups() = get_num_sub_groups(Int)
get_sub_group_id() = get_sub_group_id(Int)
get_sub_group_local_id() = get_sub_group_local_id(Int)
sub_group_barrier() = sync_wavefront()
barrier() = sync_workgroup()

# Sub-group communication. KI.shfl(x, lane[, width]) reads the 1-based `lane` of the sub-group
# (of the lane's segment of `width` lanes, modulo `width`): AMDGPU's 0-based shfl one lane lower.
# KI.shfl_down/shfl_up/shfl_xor are AMDGPU's (the lane's own value past the segment).
__ki_shfl(x, lane::Integer) = shfl(x, (lane - 1) % Int32)
__ki_shfl(x, lane::Integer, width::Integer) = shfl(x, (lane - 1) % Int32, width % Int32)
# the reductions and scans over the sub-group's lanes in lane order (wfred/wfscan); the exclusive
# scan gives the first lane `init` itself and lane l `op(init, x_1 op ... op x_(l-1))`
sub_group_reduce(op, x) = wfred(op, x)
sub_group_scan(op, x) = wfscan(op, x)
function sub_group_exclusive_scan(op, x, init)
    prefix = wfscan(op, x, false)
    return ifelse(get_sub_group_local_id() == 1, init, op(init, prefix))
end
sub_group_any(pred) = wfany(pred)
sub_group_all(pred) = wfall(pred)
sub_group_ballot(pred) = ballot(pred)
