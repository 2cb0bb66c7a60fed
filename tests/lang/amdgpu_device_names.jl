# AMDGPU.Device's functions under the names its source defines besides the exported ones: indexing by
# dimension (threadIdx_x(), gridDim_x() is the grid in work-items, gridDimWG_x() in workgroups), the ocml
# wavefront functions (wfred_add, wfscan_max, wfbcast), memfence!, the clocks, and the float atomics by
# compare-and-swap (atomic_mul!, atomic_div!, which return the new value); Atomix's @atomic with a memory
# order, with *=, and as a load.
using AMDGPU
using Atomix

function dims_by_name!(out)
    i = AMDGPU.Device.threadIdx_x()
    if i == 1 && AMDGPU.Device.blockIdx_x() == 2
        out[1] = AMDGPU.Device.blockDim_x()
        out[2] = AMDGPU.Device.gridDim_x()
        out[3] = AMDGPU.Device.gridDimWG_x()
        out[4] = threadIdx_y() + blockIdx_z() + blockDim_y() + gridDim_z() + gridDimWG_y()
    end
    return
end
# run: dims_by_name!(out = zeros(Int64, 4)) groupsize 4 gridsize 3
# expect out: [4, 12, 3, 5]

function wave_names!(out, x)
    i = workitemIdx().x
    v = x[i]
    out[1, i] = AMDGPU.Device.wfred_add(v)
    out[2, i] = AMDGPU.Device.wfscan_add(v, true)
    out[3, i] = AMDGPU.Device.wfscan_max(v, false)
    out[4, i] = AMDGPU.Device.wfbcast(v, UInt32(2))
    out[5, i] = AMDGPU.Device.wfred_xor(v)
    return
end
# run: wave_names!(out = zeros(Int32, 5, 4), x = Int32[3, -1, 4, 6]) groupsize 4
# expect out: [12, 3, -2147483648, 4, -2, 12, 2, 3, 4, -2, 12, 6, 3, 4, -2, 12, 12, 4, 4, -2]

function atomics_more!(prod, quot, counts, stamps, x)
    i = workitemIdx().x
    p = AMDGPU.Device.atomic_mul!(pointer(prod, 1), x[i])
    AMDGPU.atomic_div!(pointer(quot, 1), x[i])
    Atomix.@atomic :monotonic counts[1] += 1
    Atomix.@atomic counts[2] *= 2
    v = Atomix.@atomic counts[3]
    Atomix.@atomic :acquire_release counts[4] += v
    AMDGPU.Device.memfence!(Val(:seq_cst))
    t0 = AMDGPU.Device.device_time()
    t1 = AMDGPU.Device.readcyclecounter()
    stamps[i] = (t1 >= t0) + (AMDGPU.Device.device_realtime() > 0) + (p != 0.0)
    return
end
# run: atomics_more!(prod = Float64[1.0], quot = Float64[1024.0], counts = Int64[0, 1, 5, 0], stamps = zeros(Int64, 4), x = Float64[2.0, 0.5, 4.0, -1.0]) groupsize 4
# expect prod: [-4.0]
# expect quot: [-256.0]
# expect counts: [4, 16, 5, 20]
# expect stamps: [3, 3, 3, 3]
