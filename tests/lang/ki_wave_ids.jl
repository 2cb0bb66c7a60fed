# The wavefront of each work-item from KernelIntrinsics ids, as the AMDGPU.jl tests compute it: the checked
# UInt32 conversion, the integer division and the store's bounds check come one after another (compiler/
# checkopt.c merges such runs of checks on GPU targets; this kernel once produced invalid IR on gfx942).
import KernelAbstractions.KernelIntrinsics as KI

function wave_ids!(out)
    g = KI.get_global_id()
    lid = KI.get_local_id()
    lsz = KI.get_local_size()
    linear_local_id = (lid.x - 1) + (lid.y - 1) * lsz.x + (lid.z - 1) * lsz.x * lsz.y
    out[g.x, g.y] = UInt32(linear_local_id ÷ wavefrontsize() + 1)
    return
end
# run: wave_ids!(out = zeros(UInt32, 64, 2)) groupsize 64,2 gridsize 1 wavefrontsize 64
# expect out: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]
