# AMDGPU.jl's device malloc and free (test/device/memory.jl, docs/src/memory.md): malloc(n) returns a
# Ptr{Cvoid} to n bytes of global memory from the device's heap, NULL when the heap has no room; free(p)
# gives it back (free of NULL does nothing). reinterpret makes it a typed pointer, ROCDeviceArray an array.
function malloc_kernel(X)
    ptr = AMDGPU.malloc(Csize_t(4))
    X[1] = reinterpret(UInt64, ptr) != 0 ? 1 : 0
    other = AMDGPU.malloc(Csize_t(4))
    X[2] = ptr != C_NULL && other != ptr && other == other ? 1 : 0
    X[3] = ptr === reinterpret(Ptr{Cvoid}, reinterpret(Core.LLVMPtr{Float32,1}, ptr)) ? 1 : 0
    AMDGPU.free(ptr)
    AMDGPU.free(other)
    AMDGPU.free(C_NULL)
    nothing
end
# run: malloc_kernel(X = zeros(Int64, 3))
# expect X: [1, 1, 1]

# Every work-item allocates its own scratch array, fills it, reads it back, frees it, and allocates again.
function scratch!(out, x, n)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    for round in 1:3
        p = AMDGPU.Device.malloc(Csize_t(sizeof(Float64) * n))
        tmp = ROCDeviceArray(n, reinterpret(Core.LLVMPtr{Float64,1}, p))
        for k in 1:n
            tmp[k] = x[i] * k + round
        end
        s = 0.0
        for k in 1:n
            s += tmp[k]
        end
        out[i] += s
        AMDGPU.Device.free(p)
    end
    nothing
end
# run: scratch!(out = zeros(Float64, 128), x = collect(Float64, 1:128), n = 5) groupsize 64 gridsize 2
# expect out: [75.0, 120.0, 165.0, 210.0, 255.0, 300.0, 345.0, 390.0, 435.0, 480.0, 525.0, 570.0, 615.0, 660.0, 705.0, 750.0, 795.0, 840.0, 885.0, 930.0, 975.0, 1020.0, 1065.0, 1110.0, 1155.0, 1200.0, 1245.0, 1290.0, 1335.0, 1380.0, 1425.0, 1470.0, 1515.0, 1560.0, 1605.0, 1650.0, 1695.0, 1740.0, 1785.0, 1830.0, 1875.0, 1920.0, 1965.0, 2010.0, 2055.0, 2100.0, 2145.0, 2190.0, 2235.0, 2280.0, 2325.0, 2370.0, 2415.0, 2460.0, 2505.0, 2550.0, 2595.0, 2640.0, 2685.0, 2730.0, 2775.0, 2820.0, 2865.0, 2910.0, 2955.0, 3000.0, 3045.0, 3090.0, 3135.0, 3180.0, 3225.0, 3270.0, 3315.0, 3360.0, 3405.0, 3450.0, 3495.0, 3540.0, 3585.0, 3630.0, 3675.0, 3720.0, 3765.0, 3810.0, 3855.0, 3900.0, 3945.0, 3990.0, 4035.0, 4080.0, 4125.0, 4170.0, 4215.0, 4260.0, 4305.0, 4350.0, 4395.0, 4440.0, 4485.0, 4530.0, 4575.0, 4620.0, 4665.0, 4710.0, 4755.0, 4800.0, 4845.0, 4890.0, 4935.0, 4980.0, 5025.0, 5070.0, 5115.0, 5160.0, 5205.0, 5250.0, 5295.0, 5340.0, 5385.0, 5430.0, 5475.0, 5520.0, 5565.0, 5610.0, 5655.0, 5700.0, 5745.0, 5790.0]

# Blocks live while the work-item holds them: each work-item's block is its own, whatever the others do.
function distinct!(ok)
    i = workitemIdx().x
    p = reinterpret(Core.LLVMPtr{Int32,1}, AMDGPU.malloc(Csize_t(12)))
    unsafe_store!(p, Int32(i), 1)
    unsafe_store!(p, Int32(-i), 3)
    sync_workgroup()
    ok[i] = unsafe_load(p, 1) == i && unsafe_load(p, 3) == -i
    AMDGPU.free(reinterpret(Ptr{Cvoid}, p))
    nothing
end
# run: distinct!(ok = zeros(Bool, 64)) groupsize 64
# expect ok: [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]

# An exhausted heap gives NULL, not a crash: 64 blocks of 1 MiB do not fit in the default 8 MiB heap, a
# request past any heap never fits, and free(NULL) does nothing.
function exhaust!(counts)
    p = AMDGPU.malloc(Csize_t(1 << 20))
    if p == C_NULL
        AMDGPU.@atomic counts[1] += 1
    else
        q = reinterpret(Core.LLVMPtr{UInt8,1}, p)
        unsafe_store!(q, 0x2a, 1 << 20)
        AMDGPU.@atomic counts[2] += Int(unsafe_load(q, 1 << 20) == 0x2a)
    end
    sync_workgroup()
    AMDGPU.free(p)
    huge = AMDGPU.malloc(typemax(Csize_t))
    counts[3] = Int(reinterpret(UInt64, huge))
    AMDGPU.free(huge)
    nothing
end
# run: exhaust!(counts = zeros(Int64, 3)) groupsize 64
# expect counts: [57, 7, 0]
