# sync_wavefront() (AMDGPU.jl's test/device/synchronization.jl) and sync_grid() in a cooperative launch:
# every workgroup writes its part, meets the others, then reads what another group wrote.
function test_sync_wavefront!(out)
    i = workitemIdx().x
    ws = Device.wavefrontsize()
    shmem = @ROCStaticLocalArray(Int32, 64, false)
    shmem[i] = i
    AMDGPU.sync_wavefront()
    # the value written by the next lane of the wavefront
    out[i] = shmem[mod1(i + 1, ws)]
    return
end
# run: test_sync_wavefront!(out = zeros(Int32, 64)) groupsize 64 wavefrontsize 64
# expect out: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 1]
# run: test_sync_wavefront!(out = zeros(Int32, 32)) groupsize 32 wavefrontsize 32
# expect out: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 1]

function rotate!(A, B)
    n = gridGroupDim().x * workgroupDim().x
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    A[i] = i * i
    AMDGPU.Device.sync_grid()
    # written by another workgroup before the grid barrier
    B[i] = A[mod1(i + workgroupDim().x, n)]
    AMDGPU.Device.sync_grid()
    A[i] = 0
    return
end
# run: rotate!(A = zeros(Int64, 12), B = zeros(Int64, 12)) groupsize 3 gridsize 4 cooperative
# expect B: [16, 25, 36, 49, 64, 81, 100, 121, 144, 1, 4, 9]
# expect A: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
