# base/wmma.jl: AMDGPU.jl's WMMA (AMDGPU.Device.WMMA, WMMA_RDNA3, and the flat wmma_* names), the matrix cores
# of RDNA 3 (gfx11): loaded with the Base prelude (compiler/prelude.h) when the kernel file names them. The
# parser spells WMMA.x as wmma_x (WMMA_x for a capitalised x: WMMA.M is WMMA_M, WMMA.ColMajor is
# WMMA_ColMajor), so that the module's M, N, K, load_a and mma never meet the kernel's own names.
#
# A fragment is one lane's share of a 16x16 tile in a wave of 32, as RDNA 3 lays it out in registers:
#   A (16xK, Float16): lane l holds row l & 15, all 16 columns (lanes l and l + 16 hold the same);
#   B (Kx16, Float16): lane l holds column l & 15, all 16 rows;
#   C and D (16x16, Float32): lane l holds column l & 15, rows 2k + (l >> 4) for k = 0..7.
# Loads and stores are Julia over activelane() and pointers (Core.LLVMPtr arithmetic is in bytes; unsafe_load
# and unsafe_store! with an index count elements from 1); wmma_mma is the built-in (builtins_wmma.c):
# v_wmma_f32_16x16x16_f16 on gfx11, lanes exchanging their rows on the CPU, a compile error elsewhere.

const WMMA_M = 16
const WMMA_N = 16
const WMMA_K = 16

struct WMMA_ColMajor end
struct WMMA_RowMajor end

struct WMMA_Fragment{M, N, T, L}
    data::NTuple{L, T}
end

# a lane's lane in its wave of 32, and its 16-lane half
__wmma_lane() = (activelane() % Int32) & Int32(31)

# (p[i], p[i + s], ..., p[i + 15s]) and the 8 of (p[i], p[i + s], ..., p[i + 7s]): unsafe_load counts from 1
__wmma_ld16(p, i, s) = (unsafe_load(p, i + 1), unsafe_load(p, i + s + 1), unsafe_load(p, i + 2s + 1),
                        unsafe_load(p, i + 3s + 1), unsafe_load(p, i + 4s + 1), unsafe_load(p, i + 5s + 1),
                        unsafe_load(p, i + 6s + 1), unsafe_load(p, i + 7s + 1), unsafe_load(p, i + 8s + 1),
                        unsafe_load(p, i + 9s + 1), unsafe_load(p, i + 10s + 1), unsafe_load(p, i + 11s + 1),
                        unsafe_load(p, i + 12s + 1), unsafe_load(p, i + 13s + 1), unsafe_load(p, i + 14s + 1),
                        unsafe_load(p, i + 15s + 1))
__wmma_ld8(p, i, s) = (Float32(unsafe_load(p, i + 1)), Float32(unsafe_load(p, i + s + 1)),
                       Float32(unsafe_load(p, i + 2s + 1)), Float32(unsafe_load(p, i + 3s + 1)),
                       Float32(unsafe_load(p, i + 4s + 1)), Float32(unsafe_load(p, i + 5s + 1)),
                       Float32(unsafe_load(p, i + 6s + 1)), Float32(unsafe_load(p, i + 7s + 1)))

# the element offsets of a tile's (row, col) in a layout with leading dimension `stride`
__wmma_at(::WMMA_ColMajor, row, col, stride) = col * stride + row
__wmma_at(::WMMA_RowMajor, row, col, stride) = row * stride + col
# the offset between (row, col) and (row + 1, col), and between (row, col) and (row, col + 1)
__wmma_rowstep(::WMMA_ColMajor, stride) = Int32(1)
__wmma_rowstep(::WMMA_RowMajor, stride) = stride
__wmma_colstep(::WMMA_ColMajor, stride) = stride
__wmma_colstep(::WMMA_RowMajor, stride) = Int32(1)

# layouts as AMDGPU.jl's two versions pass them: WMMA.ColMajor() (WMMA) or WMMA.ColMajor (WMMA_RDNA3)
__wmma_layout(l::WMMA_ColMajor) = l
__wmma_layout(l::WMMA_RowMajor) = l
__wmma_layout(::Type{WMMA_ColMajor}) = WMMA_ColMajor()
__wmma_layout(::Type{WMMA_RowMajor}) = WMMA_RowMajor()

# fill_c(Float32, x): a C fragment of x
wmma_fill_c(::Type{Float32}, x::Float32) = WMMA_Fragment{16, 16, Float32, 8}((x, x, x, x, x, x, x, x))

# load_a(ptr, stride, layout = ColMajor()): this lane's row of the 16x16 Float16 tile A at ptr
function wmma_load_a(ptr, stride::Integer, layout = WMMA_ColMajor())
    l = __wmma_layout(layout)
    s = stride % Int32
    row = __wmma_lane() & Int32(15)
    d = __wmma_ld16(ptr, __wmma_at(l, row, Int32(0), s), __wmma_colstep(l, s))
    return WMMA_Fragment{16, 16, Float16, 16}(__wmma_needs_Float16(d))
end

# load_b(ptr, stride, layout = ColMajor()): this lane's column of the 16x16 Float16 tile B at ptr
function wmma_load_b(ptr, stride::Integer, layout = WMMA_ColMajor())
    l = __wmma_layout(layout)
    s = stride % Int32
    col = __wmma_lane() & Int32(15)
    d = __wmma_ld16(ptr, __wmma_at(l, Int32(0), col, s), __wmma_rowstep(l, s))
    return WMMA_Fragment{16, 16, Float16, 16}(__wmma_needs_Float16(d))
end

# load_c(ptr, stride, layout = ColMajor()): this lane's 8 elements of the 16x16 tile C (Float32, or Float16
# widened)
function wmma_load_c(ptr, stride::Integer, layout = WMMA_ColMajor())
    l = __wmma_layout(layout)
    s = stride % Int32
    lane = __wmma_lane()
    col = lane & Int32(15)
    d = __wmma_ld8(ptr, __wmma_at(l, lane >> Int32(4), col, s), Int32(2) * __wmma_rowstep(l, s))
    return WMMA_Fragment{16, 16, Float32, 8}(d)
end

# store_d(ptr, frag, stride, layout = ColMajor()): this lane's 8 elements of D to the tile at ptr, converted
# to the pointer's element type
function wmma_store_d(ptr, frag::WMMA_Fragment{16, 16, Float32, 8}, stride::Integer, layout = WMMA_ColMajor())
    l = __wmma_layout(layout)
    s = stride % Int32
    lane = __wmma_lane()
    i = __wmma_at(l, lane >> Int32(4), lane & Int32(15), s) + Int32(1)
    step = Int32(2) * __wmma_rowstep(l, s)
    for k in 1:8
        unsafe_store!(ptr, frag.data[k], i)
        i += step
    end
    return
end

# only Float16 tiles feed the f16 instruction (AMDGPU.jl's load_a/load_b take Float16 pointers)
__wmma_needs_Float16(d::NTuple{16, Float16}) = d

# x * frag and frag * x: a C fragment scaled
*(frag::WMMA_Fragment{16, 16, Float32, 8}, x::Number) =
    WMMA_Fragment{16, 16, Float32, 8}(frag.data .* Float32(x))
*(x::Number, frag::WMMA_Fragment{16, 16, Float32, 8}) = frag * x

# frag .* x, x .* frag, f.(frag), frag .+ frag: a fragment's values, each converted back to its element type
broadcast(f, a::WMMA_Fragment{M, N, T, L}, b::Number) where {M, N, T, L} =
    WMMA_Fragment{M, N, T, L}(broadcast(T, broadcast(f, a.data, b)))
broadcast(f, a::Number, b::WMMA_Fragment{M, N, T, L}) where {M, N, T, L} =
    WMMA_Fragment{M, N, T, L}(broadcast(T, broadcast(f, a, b.data)))
broadcast(f, a::WMMA_Fragment{M, N, T, L}, b::WMMA_Fragment{M, N, T, L}) where {M, N, T, L} =
    WMMA_Fragment{M, N, T, L}(broadcast(T, broadcast(f, a.data, b.data)))
broadcast(f, a::WMMA_Fragment{M, N, T, L}) where {M, N, T, L} = WMMA_Fragment{M, N, T, L}(broadcast(T, broadcast(f, a.data)))
