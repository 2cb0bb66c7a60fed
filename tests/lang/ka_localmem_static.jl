# Static local memory whose dims are compile-time facts: the launch's groupsize (a KernelAbstractions
# kernel launched with a groupsize is specialised on it, KernelAbstractions' static workgroupsize),
# `where` parameters of Val arguments, constants and local constant bindings.
using KernelAbstractions

const TILE = 4

# dims from @groupsize() through a @uniform binding, as KernelAbstractions' test/localmem.jl
@kernel function reverse_in_group!(A)
    N = @uniform prod(@groupsize())
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    lmem = @localmem Int64 (N,)
    @inbounds begin
        lmem[i] = I
        @synchronize
        A[I] = lmem[N - i + 1]
    end
end
# run: reverse_in_group!(A = zeros(Int64, 24)) groupsize 8 ndrange 24
# expect A: [8, 7, 6, 5, 4, 3, 2, 1, 16, 15, 14, 13, 12, 11, 10, 9, 24, 23, 22, 21, 20, 19, 18, 17]
# the same kernel, another static groupsize: another specialisation
# run: reverse_in_group!(A = zeros(Int64, 12)) groupsize 4 ndrange 12
# expect A: [4, 3, 2, 1, 8, 7, 6, 5, 12, 11, 10, 9]

# `@localmem T (@groupsize()[1],)` written inline, and a groupsize that does not divide the ndrange
@kernel function shift_left!(out, @Const(x))
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    buf = @localmem Float32 (@groupsize()[1],)
    buf[i] = x[I] * 2f0
    @synchronize
    j = i == @groupsize()[1] ? 1 : i + 1
    # the group's last work-item reads slot 1; the padding ones (past 10) wrote nothing, so only
    # whole groups read a neighbour
    if I <= 8
        out[I] = buf[j]
    end
end
# run: shift_left!(out = zeros(Float32, 10), x = Float32[1.5, 2, 3, 4, 5, 6, 7, 8.25, 9, 10]) groupsize 4 ndrange 10
# expect out: [4, 6, 8, 3, 12, 14, 16.5, 10, 0, 0]

# a 2-D tile of (N + BANK) x M, N and M the groupsize and BANK a `where` parameter (the padding
# that avoids bank conflicts in KernelAbstractions' examples/performance.jl)
@kernel function tile_transpose!(out, @Const(inp), ::Val{BANK}) where {BANK}
    I, J = @index(Global, NTuple)
    i, j = @index(Local, NTuple)
    N = @uniform @groupsize()[1]
    M = @uniform @groupsize()[2]
    tile = @localmem eltype(out) (N + BANK, M)
    @inbounds tile[i, j] = inp[I, J]
    @synchronize
    @inbounds out[I, J] = tile[j, i] + size(tile, 1)
end
# run: tile_transpose!(out = zeros(Float32, 4, 2), inp = reshape(Float32[1, 2, 3, 4, 5, 6, 7, 8], 4, 2), b = Val(1)) groupsize 2,2 ndrange 4,2
# expect out: [4, 8, 6, 10, 5, 9, 7, 11]
# run: tile_transpose!(out = zeros(Float32, 4, 2), inp = reshape(Float32[1, 2, 3, 4, 5, 6, 7, 8], 4, 2), b = Val(0)) groupsize 2,2 ndrange 4,2
# expect out: [3, 7, 5, 9, 4, 8, 6, 10]

# a constant and arithmetic on it: TILE x (TILE + 1)
@kernel function const_tile!(out)
    i = @index(Local, Linear)
    I = @index(Global, Linear)
    t = @localmem Int32 (TILE, TILE + 1)
    t[1, i] = Int32(i)
    @synchronize
    out[I] = length(t) + t[1, TILE - i + 1]
end
# run: const_tile!(out = zeros(Int32, 8)) groupsize 4 ndrange 8
# expect out: [24, 23, 22, 21, 24, 23, 22, 21]

# AMDGPU.jl's @ROCStaticLocalArray with dims from a Val{N} parameter and a local constant binding
function val_local!(out, ::Val{N}) where {N}
    M = 2
    s = @ROCStaticLocalArray(Float32, (N, M))
    i = workitemIdx().x
    s[i, 1] = Float32(i)
    s[i, 2] = Float32(10 * i)
    sync_workgroup()
    out[i] = s[N - i + 1, 1] + s[i, 2] + Float32(length(s))
    return
end
# run: val_local!(out = zeros(Float32, 3), n = Val(3)) groupsize 3
# expect out: [19, 28, 37]

# dims through integer conversions of typed constants (a radix sort's `(Int(RADIX),)` of RADIX = UInt32(16)),
# and UInt8 arithmetic, which wraps at 8 bits as Julia's does: 0xf0 + 0x14 is 0x04
const RADIX = UInt32(16)
const WIDE = UInt8(0xf0)
@kernel function radix_count!(counts, @Const(keys))
    digits = @localmem UInt32 (Int(RADIX),)
    small = @localmem Int16 (Int(WIDE + 0x14),)
    i = @index(Local, Linear)
    digits[i] = UInt32(keys[i] % Int(RADIX))
    small[mod1(i, 4)] = Int16(length(small))
    @synchronize
    c = UInt32(0)
    for j in 1:Int(RADIX)
        c += UInt32(digits[j] == i - 1)
    end
    counts[i] = c + UInt32(small[1])
end
# run: radix_count!(counts = zeros(UInt32, 16), keys = Int64[3, 19, 35, 7, 0, 15, 31, 2, 18, 5, 21, 9, 25, 12, 28, 44]) groupsize 16 ndrange 16
# expect counts: [5, 4, 6, 7, 4, 6, 4, 5, 4, 6, 4, 4, 7, 4, 4, 6]
