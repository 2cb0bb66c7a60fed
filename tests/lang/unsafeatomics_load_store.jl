# UnsafeAtomics.load(ptr, order) and UnsafeAtomics.store!(ptr, x, order) on element pointers (pointer(A, i)):
# atomic loads and stores, as a decoupled look-back scan publishes and reads its per-block flags; and
# signed(T) / unsigned(T) of integer types, which such code uses to make a loop counter signed.
using KernelAbstractions
import UnsafeAtomics

@kernel function mark_seen!(flags, out, @Const(x))
    i = @index(Global)
    v = UnsafeAtomics.load(pointer(x, i), UnsafeAtomics.acquire)
    UnsafeAtomics.store!(pointer(flags, i), v % UInt8 + 0x01, UnsafeAtomics.release)
    out[i] = 2 * Int(UnsafeAtomics.load(pointer(flags, i), UnsafeAtomics.monotonic))
end
# run: mark_seen!(flags = zeros(UInt8, 5), out = zeros(Int64, 5), x = Int32[7, 300, -1, 0, 41]) groupsize 4 ndrange 5
# expect flags: [8, 45, 0, 1, 42]
# expect out: [16, 90, 0, 2, 84]

# the default ordering (seq_cst); a store converts its value to the element type
function bump!(a, b)
    i = workitemIdx().x
    old = UnsafeAtomics.load(pointer(a, i))
    UnsafeAtomics.store!(pointer(b, i), old + 1)
    UnsafeAtomics.store!(pointer(a, i), 0.25, UnsafeAtomics.seq_cst)
    return
end
# run: bump!(a = Float32[1.5, -3, 8], b = zeros(Float64, 3)) groupsize 3
# expect a: [0.25, 0.25, 0.25]
# expect b: [2.5, -2.0, 9.0]

# a look-back over earlier slots: a counter made signed so it can pass 0
function look_back!(out, vals, flags)
    k = workitemIdx().x
    acc = 0
    j = signed(typeof(UInt32(k)))(UInt32(k)) - Int32(2)
    while j >= 0
        if UnsafeAtomics.load(pointer(flags, j + 1), UnsafeAtomics.monotonic)
            acc += vals[j + 1]
        end
        j -= Int32(1)
    end
    out[k] = acc
    return
end
# run: look_back!(out = zeros(Int64, 4), vals = Int64[5, 10, 20, 40], flags = Bool[true, false, true, true]) groupsize 4
# expect out: [0, 5, 5, 25]

function types_of!(out)
    out[1] = sizeof(signed(UInt16)) + 10 * sizeof(unsigned(Int64))
    out[2] = signed(Int8) === Int8 ? 1 : 0
    out[3] = unsigned(Int32)(7) === UInt32(7) ? 1 : 0
    out[4] = signed(UInt8)(0x7f)
    return
end
# run: types_of!(out = zeros(Int64, 4))
# expect out: [82, 1, 1, 127]
