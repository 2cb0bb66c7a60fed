# AMDGPU.jl's dimension functions (test/device/indexing.jl): gridDim() is the grid in work-items, gridDimWG()
# in workgroups (CUDA's gridDim); and fences with UnsafeAtomics' orderings and AMDGPU.jl's scopes
# (test/core/codegen.jl).
function dim_kern(X)
    X[1] = workgroupDim().x
    X[2] = workgroupDim().y
    X[3] = workgroupDim().z
    X[4] = gridDim().x
    X[5] = gridDim().y
    X[6] = gridDim().z
    X[7] = AMDGPU.gridDimWG().x
    X[8] = AMDGPU.Device.gridDimWG().z
    return nothing
end
# run: dim_kern(X = zeros(Int64, 8)) groupsize 1,2,3 gridsize 4,5,6
# expect X: [1, 2, 3, 4, 10, 18, 4, 6]

# A release fence before a flag, an acquire fence after reading it: the message passing pattern.
function publish!(data, flag, out)
    i = workitemIdx().x
    if i == 1
        data[1] = 42f0
        AMDGPU.UnsafeAtomics.fence(AMDGPU.UnsafeAtomics.release, AMDGPU.syncscope_workgroup)
        flag[1] = Int32(1)
    end
    sync_workgroup()
    UnsafeAtomics.fence(UnsafeAtomics.acquire, AMDGPU.syncscope_workgroup)
    out[i] = flag[1] == 1 ? data[1] : 0f0
    UnsafeAtomics.fence(UnsafeAtomics.seq_cst, AMDGPU.syncscope_agent)
    UnsafeAtomics.fence(UnsafeAtomics.acq_rel, AMDGPU.Device.syncscope_wavefront)
    UnsafeAtomics.fence(UnsafeAtomics.seq_cst)
    UnsafeAtomics.fence()
    return
end
# run: publish!(data = zeros(Float32, 1), flag = zeros(Int32, 1), out = zeros(Float32, 4)) groupsize 4
# expect out: [42f0, 42f0, 42f0, 42f0]
# expect typed: fence(
