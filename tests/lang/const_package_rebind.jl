# `const AS = AMDGPUnative.AS` (AMDGPUnative's and AMDGPU.jl's test files): a package's binding given its own
# name again is what the name already means, not a constant that reads itself; a module so (Device) as well.
const AS = AMDGPU.AS
const Device = AMDGPU.Device

function stage!(b, a)
    p = alloc_special(Val(:stage), Float32, Val(AS.Local), Val(4))
    i = workitemIdx().x
    unsafe_store!(p, a[i] * 2f0, i)
    Device.sync_workgroup()
    b[i] = unsafe_load(p, 5 - i) + AS.Local
    return
end
# run: stage!(b = zeros(Float32, 4), a = Float32[1.5, -2, 0.25, 8]) groupsize 4
# expect b: [19.0, 3.5, -1.0, 6.0]
