# Kernels written for older AMDGPU.jl: the device half was the AMDGPUnative package, indexing had one
# function per dimension, and local memory came from alloc_local(id, T, len).

# workitemIdx_x() and friends: AMDGPUnative.workitemIdx().x under their old names; workitemDim_x() is the
# workgroup's size and workgroupDim_x() the grid's, counted in work-items.
function where_am_i!(ids, dims)
    i = AMDGPUnative.workitemIdx_x() + (AMDGPUnative.workgroupIdx_x() - 1) * AMDGPUnative.workitemDim_x()
    ids[i] = 100 * AMDGPUnative.workgroupIdx_x() + AMDGPUnative.workitemIdx_x()
    if i == 1
        dims[1] = AMDGPUnative.workitemDim_x()
        dims[2] = AMDGPUnative.workitemDim_y()
        dims[3] = AMDGPUnative.workgroupDim_x()
        dims[4] = AMDGPUnative.workgroupDim_y()
        dims[5] = AMDGPUnative.workitemIdx_y() + AMDGPUnative.workitemIdx_z()
        dims[6] = AMDGPUnative.workgroupIdx_y() + AMDGPUnative.workgroupIdx_z() + AMDGPUnative.workitemDim_z() +
                  AMDGPUnative.workgroupDim_z()
    end
    return nothing
end
# run: where_am_i!(ids = zeros(Int64, 6), dims = zeros(Int64, 6)) groupsize 3 gridsize 2
# expect ids: [101, 102, 103, 201, 202, 203]
# expect dims: [3, 1, 6, 1, 2, 4]

# AMDGPUnative.f of a math function is Base's f.
function old_math!(y, x)
    i = AMDGPUnative.threadIdx().x
    y[i] = AMDGPUnative.sqrt(x[i]) + AMDGPUnative.exp2(x[i])
    return nothing
end
# run: old_math!(y = zeros(Float64, 3), x = Float64[4, 1, 2.25]) groupsize 3
# expect y ≈ [18.0, 3.0, 6.256828460010884]

# alloc_local(id, T, len): a pointer to len elements of the workgroup's local memory, one allocation per
# id; len (and zeroinit, the fourth argument) are constants of the call site.
function reverse_tile!(out, x)
    i = workitemIdx().x
    n = workgroupDim().x
    tile = AMDGPU.Device.alloc_local(:tile, Int32, 16)
    spare = alloc_local(:spare, Int32, 16, true)
    unsafe_store!(tile, x[i] + unsafe_load(spare, i), i)
    sync_workgroup()
    out[i] = unsafe_load(tile, n - i + 1)
    return nothing
end
# run: reverse_tile!(out = zeros(Int32, 5), x = Int32[3, -1, 4, 1, 5]) groupsize 5
# expect out: [5, 1, 4, -1, 3]

# (a; b): a block in parentheses, its value the last expression's.
bump!(x) = (x[1] += 1; nothing)
function blocks!(x, y)
    i = workitemIdx().x
    i == 1 && bump!(x)
    y[i] = (t = 2i; t * t + 1)
    return
end
# run: blocks!(x = Int64[41], y = zeros(Int64, 3)) groupsize 3
# expect x: [42]
# expect y: [5, 17, 37]

# ROCDeviceArray(dims, p) of a local pointer: a local array over it, as AMDGPU.jl builds
# @ROCStaticLocalArray from alloc_local.
function transpose_tile!(out, x)
    i = workitemIdx().x
    j = workitemIdx().y
    tile = ROCDeviceArray((4, 3), AMDGPU.Device.alloc_local(:tr, Float64, 12))
    tile[i, j] = x[i, j]
    sync_workgroup()
    out[j, i] = tile[i, j] + length(tile)
    return nothing
end
# run: transpose_tile!(out = zeros(Float64, 3, 4), x = reshape(Float64[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 4, 3)) groupsize 4,3
# expect out: [13, 17, 21, 14, 18, 22, 15, 19, 23, 16, 20, 24]

# DevicePtr{T, AS}, older AMDGPU.jl's name of Core.LLVMPtr{T, AS}, with AS.Global as its address space.
function scratch_sum!(out, a)
    i = workitemIdx().x
    raw = AMDGPU.Device.malloc(Csize_t(sizeof(Int32) * 4))
    buf = ROCDeviceArray(4, reinterpret(AMDGPU.DevicePtr{Int32, AMDGPU.AS.Global}, raw))
    for k in 1:4
        buf[k] = a[k] * Int32(i)
    end
    out[i] = sum(buf)
    AMDGPU.Device.free(raw)
    return nothing
end
# run: scratch_sum!(out = zeros(Int32, 2), a = Int32[1, 2, 3, -4]) groupsize 2
# expect out: [2, 4]

# A pointer stored in an integer array is its address, as older AMDGPU.jl's DevicePtr converted
# (its malloc returned one; `X[1] = ptr` was its test).
function address_of!(X, ok)
    p = AMDGPU.malloc(Csize_t(16))
    X[1] = p
    ok[1] = X[1] == reinterpret(UInt64, p) && X[1] != 0
    AMDGPU.free(p)
    return
end
# run: address_of!(X = zeros(UInt64, 1), ok = zeros(Bool, 1))
# expect ok: [true]

# alloc_local(id, T, 0): the launch's dynamic local memory (shmem bytes), as @ROCDynamicLocalArray sees it.
function rotate_dynamic!(x)
    i = workitemIdx().x
    n = workgroupDim().x
    p = alloc_local(:rot, Int16, 0)
    view = @ROCDynamicLocalArray(Int16, n)
    unsafe_store!(p, x[i], i)
    sync_workgroup()
    x[i] = view[i % n + 1]
    return nothing
end
# run: rotate_dynamic!(x = Int16[5, -6, 7, 8]) groupsize 4 shmem 8
# expect x: [-6, 7, 8, 5]
