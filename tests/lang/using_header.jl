# A kernel file written for Julia keeps its header lines: using/import/export are accepted and ignored.
using AMDGPU
import AMDGPU: workitemIdx, workgroupIdx
using AMDGPU.Device
export using_header!

function using_header!(a)
    i = workitemIdx().x
    @inbounds a[i] = 10i
    return
end
# run: using_header!(a = zeros(Int64, 3)) groupsize 3
# expect a: [10, 20, 30]
