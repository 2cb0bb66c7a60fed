# Names written with their module path, as AMDGPU.jl code often does.
function qualified!(a::ROCDeviceArray{Float32,1,AMDGPU.Device.AS.Global}, b::AMDGPU.Device.ROCDeviceVector{Float32},
                    n::Base.Int64)
    i = AMDGPU.workitemIdx().x + (AMDGPU.workgroupIdx().x - 1) * AMDGPU.workgroupDim().x
    if i <= n
        @inbounds a[i] = Base.Float32(i) * b[i]
    end
    AMDGPU.sync_workgroup()
    return nothing
end
# run: qualified!(a = zeros(Float32, 4), b = Float32[1, 2, 3, 4], n = 3) groupsize 4
# expect a: [1, 4, 9, 0]
