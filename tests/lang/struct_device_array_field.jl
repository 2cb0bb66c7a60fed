# A struct field declared ROCDeviceArray{T, N, AS} (JACC's ArrayPart, AMDGPU.jl's Adapt of a ROCArray) is the
# device array itself: global memory for AS 1 / AS.Global, a workgroup's local memory for AS 3 / AS.Local. The
# default constructor finds T and N from the array it is given, as Julia's does.
struct Part{T, N}
    a::ROCDeviceArray{T, N, AMDGPU.Device.AS.Global}
    offset::Int
end
struct Fixed
    m::ROCDeviceArray{Float32, 2, 1}
end
struct Staged{T}
    s::ROCDeviceArray{T, 1, AMDGPU.Device.AS.Local}
end
Base.getindex(p::Part, i) = p.a[i + p.offset]
Base.size(p::Part) = size(p.a)

function parts!(out, x, m)
    i = workitemIdx().x
    p = Part(x, 1)
    f = Fixed(m)
    st = Staged(@ROCStaticLocalArray(Float32, 4))
    st.s[i] = p[i] * 2
    sync_workgroup()
    out[i] = st.s[5 - i] + f.m[i, 2] + length(size(p)) * 100
    return
end
# p[i] = x[i + 1] (linear), so s = 2 x[2:5] = [-4, 6.5, 1, 8]; out[i] = s[5 - i] + m[i, 2] + 200 (a Part of a matrix
# has 2 dims)
# run: parts!(out = zeros(Float32, 4), x = reshape(Float32[1.5, -2, 3.25, 0.5, 4, -1], 3, 2), m = reshape(Float32[1, 2, 3, 4, 10, 20, 30, 40], 4, 2)) groupsize 4
# expect out: [218.0, 221.0, 236.5, 236.0]
