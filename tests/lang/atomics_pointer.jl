# AMDGPU.jl's pointer API for atomics: atomic_add!(pointer(A, i), v) and
# friends return the OLD value; atomic_cas! too; pointer(A) is element 1.
function atomics_pointer!(c, f, u)
    i = workitemIdx().x
    o = AMDGPU.atomic_add!(pointer(c, 1), 1)       # the old values are 0..63, one each
    AMDGPU.atomic_add!(pointer(c, 7), o)
    AMDGPU.atomic_sub!(pointer(c, 2), i)
    AMDGPU.atomic_max!(pointer(c, 3), i * 3)
    AMDGPU.atomic_min!(pointer(c, 4), 100 - i)
    AMDGPU.atomic_add!(pointer(f), 0.5f0)
    AMDGPU.atomic_max!(pointer(f, 2), Float32(i))
    AMDGPU.atomic_or!(pointer(u, 1), UInt32(1) << ((i - 1) % 32))
    AMDGPU.atomic_and!(pointer(u, 2), ~(UInt32(1) << ((i - 1) % 32)))
    if i <= 3
        AMDGPU.atomic_xor!(pointer(u, 3), UInt32(i))
    end
    old = AMDGPU.atomic_xchg!(pointer(c, 5), 42)
    AMDGPU.atomic_add!(pointer(c, 10), old == 0 || old == 42 ? 1 : 100)
    # a lock-free update through compare-and-swap
    p = pointer(c, 6)
    while true
        v = unsafe_load(p)
        if AMDGPU.atomic_cas!(p, v, v + 2) == v
            break
        end
    end
    # local memory
    s = @ROCStaticLocalArray(Int32, 2)
    AMDGPU.atomic_add!(pointer(s, 2), Int32(1))
    sync_workgroup()
    if i == 1
        c[8] = s[2]
        unsafe_store!(pointer(c), 7, 9)
        fo = AMDGPU.atomic_cas!(pointer(f, 3), 1.5f0, 2.5f0)    # succeeds: returns 1.5
        fo2 = AMDGPU.atomic_cas!(pointer(f, 3), 1.5f0, 9.5f0)   # fails: returns 2.5
        f[4] = fo + fo2
    end
    return nothing
end
# run: atomics_pointer!(c = Int64[0, 0, 0, 1000, 0, 0, 0, 0, 0, 0], f = Float32[0, 0, 1.5, 0], u = UInt32[0, 0xffffffff, 0]) groupsize 64
# expect c: [64, -2080, 192, 36, 42, 128, 2016, 64, 7, 64]
# expect f: [32, 64, 2.5, 4.0]
# expect u: [0xffffffff, 0, 0]
