# AMDGPU.jl's alloc_special(Val(id), T, Val(AS.Local), Val(len)): a pointer to len elements of static local
# memory (LDS), shared by the workgroup, read and written with unsafe_load / unsafe_store!.
function memory_static!(a, b)
    ptr_local = alloc_special(Val(:local), Float32, Val(AS.Local), Val(1))
    unsafe_store!(ptr_local, a[1])
    b[1] = unsafe_load(ptr_local)
    nothing
end
# run: memory_static!(a = Float32[2.5, 7], b = zeros(Float32, 1))
# expect b: [2.5]

# The workgroup shares the memory: each work-item writes its slot, then reads its neighbour's.
function rotate!(out, x)
    i = workitemIdx().x
    n = workgroupDim().x
    tile = AMDGPU.Device.alloc_special(Val(:tile), Float64, Val(AMDGPU.AS.Local), Val(8))
    unsafe_store!(tile, x[i] * 2, i)
    sync_workgroup()
    out[i] = unsafe_load(tile, i % n + 1)
    nothing
end
# run: rotate!(out = zeros(Float64, 8), x = Float64[1, 2, 3, 4, 5, 6, 7, 8.5]) groupsize 8
# expect out: [4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 17.0, 2.0]

# The address-space numbers are AMDGPU.jl's.
function spaces!(o)
    o[1] = AS.Generic
    o[2] = AS.Global
    o[3] = AS.Region
    o[4] = AS.Local
    o[5] = AS.Constant
    o[6] = AMDGPU.AS.Private
    nothing
end
# run: spaces!(o = zeros(Int64, 6))
# expect o: [0, 1, 2, 3, 4, 5]
