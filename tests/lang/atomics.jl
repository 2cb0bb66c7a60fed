# AMDGPU.@atomic with += -= &= |= ⊻= and max/min, from 64 work-items at once.
function atomics!(c, f, bits)
    i = workitemIdx().x
    AMDGPU.@atomic c[1] += 1
    AMDGPU.@atomic c[2] -= i
    AMDGPU.@atomic max(c[3], i * 3)
    AMDGPU.@atomic min(c[4], 100 - i)
    AMDGPU.@atomic f[1] += 0.5f0
    AMDGPU.@atomic bits[1] |= UInt32(1) << ((i - 1) % 32)
    AMDGPU.@atomic bits[2] &= ~(UInt32(1) << ((i - 1) % 32))
    if i <= 3
        AMDGPU.@atomic bits[3] ⊻= UInt32(i)
    end
    AMDGPU.@atomic max(f[2], Float32(i))
    return nothing
end
# run: atomics!(c = Int64[0, 0, 0, 1000], f = Float32[0, 0], bits = UInt32[0, 0xffffffff, 0]) groupsize 64
# expect c: [64, -2080, 192, 36]
# expect f: [32, 64]
# expect bits: [0xffffffff, 0, 0]
