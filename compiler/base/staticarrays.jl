# base/staticarrays.jl: StaticArrays.jl's fixed-size arrays, as juke compiles them: loaded with the Base
# prelude (compiler/prelude.h) when the kernel file says `using StaticArrays` (or imports from it).
# SVector{N,T} and MVector{N,T} hold their elements in a tuple, `.data`; SMatrix{N,M,T} and MMatrix{N,M,T}
# in a tuple of M columns of N. The S ones are immutable values, the M ones mutable structs whose
# setindex! replaces the tuple: both live in registers or on the stack, as StaticArrays' do on a GPU.

struct UndefInitializer end
const undef = UndefInitializer()

struct SVector{N, T}
    data::NTuple{N, T}
end
mutable struct MVector{N, T}
    data::NTuple{N, T}
end
struct SMatrix{N, M, T}
    data::NTuple{M, NTuple{N, T}}
end
mutable struct MMatrix{N, M, T}
    data::NTuple{M, NTuple{N, T}}
end

# tuples of n copies of x; t with element i replaced by v (i checked by t[i])

__sa_fill(x, ::Val{1}) = (x,)
__sa_fill(x, ::Val{2}) = (x, x)
__sa_fill(x, ::Val{3}) = (x, x, x)
__sa_fill(x, ::Val{4}) = (x, x, x, x)
__sa_fill(x, ::Val{5}) = (x, x, x, x, x)
__sa_fill(x, ::Val{6}) = (x, x, x, x, x, x)
__sa_fill(x, ::Val{7}) = (x, x, x, x, x, x, x)
__sa_fill(x, ::Val{8}) = (x, x, x, x, x, x, x, x)
__sa_fill(x, ::Val{9}) = (x, x, x, x, x, x, x, x, x)
__sa_fill(x, ::Val{10}) = (x, x, x, x, x, x, x, x, x, x)
__sa_fill(x, ::Val{11}) = (x, x, x, x, x, x, x, x, x, x, x)
__sa_fill(x, ::Val{12}) = (x, x, x, x, x, x, x, x, x, x, x, x)
__sa_fill(x, ::Val{13}) = (x, x, x, x, x, x, x, x, x, x, x, x, x)
__sa_fill(x, ::Val{14}) = (x, x, x, x, x, x, x, x, x, x, x, x, x, x)
__sa_fill(x, ::Val{15}) = (x, x, x, x, x, x, x, x, x, x, x, x, x, x, x)
__sa_fill(x, ::Val{16}) = (x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x)
__sa_set(t::NTuple{1, Any}, v, i::Integer) = (i == 1 ? v : t[1],)
__sa_set(t::NTuple{2, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2])
__sa_set(t::NTuple{3, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3])
__sa_set(t::NTuple{4, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4])
__sa_set(t::NTuple{5, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5])
__sa_set(t::NTuple{6, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6])
__sa_set(t::NTuple{7, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7])
__sa_set(t::NTuple{8, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7], i == 8 ? v : t[8])
__sa_set(t::NTuple{9, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7], i == 8 ? v : t[8], i == 9 ? v : t[9])
__sa_set(t::NTuple{10, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7], i == 8 ? v : t[8], i == 9 ? v : t[9], i == 10 ? v : t[10])
__sa_set(t::NTuple{11, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7], i == 8 ? v : t[8], i == 9 ? v : t[9], i == 10 ? v : t[10], i == 11 ? v : t[11])
__sa_set(t::NTuple{12, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7], i == 8 ? v : t[8], i == 9 ? v : t[9], i == 10 ? v : t[10], i == 11 ? v : t[11], i == 12 ? v : t[12])
__sa_set(t::NTuple{13, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7], i == 8 ? v : t[8], i == 9 ? v : t[9], i == 10 ? v : t[10], i == 11 ? v : t[11], i == 12 ? v : t[12], i == 13 ? v : t[13])
__sa_set(t::NTuple{14, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7], i == 8 ? v : t[8], i == 9 ? v : t[9], i == 10 ? v : t[10], i == 11 ? v : t[11], i == 12 ? v : t[12], i == 13 ? v : t[13], i == 14 ? v : t[14])
__sa_set(t::NTuple{15, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7], i == 8 ? v : t[8], i == 9 ? v : t[9], i == 10 ? v : t[10], i == 11 ? v : t[11], i == 12 ? v : t[12], i == 13 ? v : t[13], i == 14 ? v : t[14], i == 15 ? v : t[15])
__sa_set(t::NTuple{16, Any}, v, i::Integer) = (i == 1 ? v : t[1], i == 2 ? v : t[2], i == 3 ? v : t[3], i == 4 ? v : t[4], i == 5 ? v : t[5], i == 6 ? v : t[6], i == 7 ? v : t[7], i == 8 ? v : t[8], i == 9 ? v : t[9], i == 10 ? v : t[10], i == 11 ? v : t[11], i == 12 ? v : t[12], i == 13 ? v : t[13], i == 14 ? v : t[14], i == 15 ? v : t[15], i == 16 ? v : t[16])

# constructors: from values (converted to T), from a tuple, and (undef) (zeros here)
SVector{N, T}(x1, x2) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2)))
SVector(x1, x2) = SVector((x1, x2))
SVector{N, T}(x1, x2, x3) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3)))
SVector(x1, x2, x3) = SVector((x1, x2, x3))
SVector{N, T}(x1, x2, x3, x4) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4)))
SVector(x1, x2, x3, x4) = SVector((x1, x2, x3, x4))
SVector{N, T}(x1, x2, x3, x4, x5) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5)))
SVector(x1, x2, x3, x4, x5) = SVector((x1, x2, x3, x4, x5))
SVector{N, T}(x1, x2, x3, x4, x5, x6) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6)))
SVector(x1, x2, x3, x4, x5, x6) = SVector((x1, x2, x3, x4, x5, x6))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7)))
SVector(x1, x2, x3, x4, x5, x6, x7) = SVector((x1, x2, x3, x4, x5, x6, x7))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8)))
SVector(x1, x2, x3, x4, x5, x6, x7, x8) = SVector((x1, x2, x3, x4, x5, x6, x7, x8))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9)))
SVector(x1, x2, x3, x4, x5, x6, x7, x8, x9) = SVector((x1, x2, x3, x4, x5, x6, x7, x8, x9))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10)))
SVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10) = SVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11)))
SVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11) = SVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12)))
SVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12) = SVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12), convert(T, x13)))
SVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13) = SVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12), convert(T, x13), convert(T, x14)))
SVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14) = SVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12), convert(T, x13), convert(T, x14), convert(T, x15)))
SVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) = SVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15))
SVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16) where {N, T} = SVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12), convert(T, x13), convert(T, x14), convert(T, x15), convert(T, x16)))
SVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16) = SVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16))
SVector(t::NTuple{N, T}) where {N, T} = SVector{N, T}(t)
SVector{N, T}(::UndefInitializer) where {N, T} = SVector{N, T}(__sa_fill(zero(T), Val(N)))
MVector{N, T}(x1, x2) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2)))
MVector(x1, x2) = MVector((x1, x2))
MVector{N, T}(x1, x2, x3) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3)))
MVector(x1, x2, x3) = MVector((x1, x2, x3))
MVector{N, T}(x1, x2, x3, x4) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4)))
MVector(x1, x2, x3, x4) = MVector((x1, x2, x3, x4))
MVector{N, T}(x1, x2, x3, x4, x5) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5)))
MVector(x1, x2, x3, x4, x5) = MVector((x1, x2, x3, x4, x5))
MVector{N, T}(x1, x2, x3, x4, x5, x6) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6)))
MVector(x1, x2, x3, x4, x5, x6) = MVector((x1, x2, x3, x4, x5, x6))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7)))
MVector(x1, x2, x3, x4, x5, x6, x7) = MVector((x1, x2, x3, x4, x5, x6, x7))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8)))
MVector(x1, x2, x3, x4, x5, x6, x7, x8) = MVector((x1, x2, x3, x4, x5, x6, x7, x8))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9)))
MVector(x1, x2, x3, x4, x5, x6, x7, x8, x9) = MVector((x1, x2, x3, x4, x5, x6, x7, x8, x9))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10)))
MVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10) = MVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11)))
MVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11) = MVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12)))
MVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12) = MVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12), convert(T, x13)))
MVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13) = MVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12), convert(T, x13), convert(T, x14)))
MVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14) = MVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12), convert(T, x13), convert(T, x14), convert(T, x15)))
MVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) = MVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15))
MVector{N, T}(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16) where {N, T} = MVector{N, T}((convert(T, x1), convert(T, x2), convert(T, x3), convert(T, x4), convert(T, x5), convert(T, x6), convert(T, x7), convert(T, x8), convert(T, x9), convert(T, x10), convert(T, x11), convert(T, x12), convert(T, x13), convert(T, x14), convert(T, x15), convert(T, x16)))
MVector(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16) = MVector((x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16))
MVector(t::NTuple{N, T}) where {N, T} = MVector{N, T}(t)
MVector{N, T}(::UndefInitializer) where {N, T} = MVector{N, T}(__sa_fill(zero(T), Val(N)))
SMatrix{N, M, T}(::UndefInitializer) where {N, M, T} = SMatrix{N, M, T}(__sa_fill(__sa_fill(zero(T), Val(N)), Val(M)))
MMatrix{N, M, T}(::UndefInitializer) where {N, M, T} = MMatrix{N, M, T}(__sa_fill(__sa_fill(zero(T), Val(N)), Val(M)))

# indexing (checked, as the tuple's), length, size, iteration, conversion to a tuple
getindex(v::SVector, i::Integer) = v.data[i]
getindex(v::MVector, i::Integer) = v.data[i]
# x[i] = v on a variable holding an MVector or MMatrix is x = __sa_setindex(x, v, i) (compiler/lower.c):
# juke keeps mutable structs as values, so the update is a new array in the variable
__sa_setindex(v::MVector{N, T}, x, i::Integer) where {N, T} = MVector{N, T}(__sa_set(v.data, convert(T, x), i))
getindex(A::SMatrix, i::Integer, j::Integer) = A.data[j][i]
getindex(A::MMatrix, i::Integer, j::Integer) = A.data[j][i]
getindex(A::SMatrix{N, M, T}, k::Integer) where {N, M, T} = A.data[(k - 1) ÷ N + 1][(k - 1) % N + 1]
getindex(A::MMatrix{N, M, T}, k::Integer) where {N, M, T} = A.data[(k - 1) ÷ N + 1][(k - 1) % N + 1]
__sa_setindex(A::MMatrix{N, M, T}, x, i::Integer, j::Integer) where {N, M, T} =
    MMatrix{N, M, T}(__sa_set(A.data, __sa_set(A.data[j], convert(T, x), i), j))
__sa_setindex(A::MMatrix{N, M, T}, x, k::Integer) where {N, M, T} = __sa_setindex(A, x, (k - 1) % N + 1, (k - 1) ÷ N + 1)
length(v::SVector{N, T}) where {N, T} = N
length(v::MVector{N, T}) where {N, T} = N
length(A::SMatrix{N, M, T}) where {N, M, T} = N * M
length(A::MMatrix{N, M, T}) where {N, M, T} = N * M
size(v::SVector{N, T}) where {N, T} = (N,)
size(v::MVector{N, T}) where {N, T} = (N,)
size(A::SMatrix{N, M, T}) where {N, M, T} = (N, M)
size(A::MMatrix{N, M, T}) where {N, M, T} = (N, M)
eltype(v::SVector{N, T}) where {N, T} = T
eltype(v::MVector{N, T}) where {N, T} = T
eltype(A::SMatrix{N, M, T}) where {N, M, T} = T
eltype(A::MMatrix{N, M, T}) where {N, M, T} = T
Tuple(v::SVector) = v.data
Tuple(v::MVector) = v.data
iterate(v::SVector) = iterate(v.data)
iterate(v::SVector, i) = iterate(v.data, i)
iterate(v::MVector) = iterate(v.data)
iterate(v::MVector, i) = iterate(v.data, i)
sum(v::SVector) = sum(v.data)
sum(v::MVector) = sum(v.data)

# vector arithmetic: elementwise + and -, scaling by a number; the result an SVector (as StaticArrays')
+(a::SVector, b::SVector) = SVector(a.data .+ b.data)
-(a::SVector, b::SVector) = SVector(a.data .- b.data)
+(a::MVector, b::MVector) = SVector(a.data .+ b.data)
-(a::MVector, b::MVector) = SVector(a.data .- b.data)
-(a::SVector) = SVector(broadcast(-, a.data))
*(s::Number, v::SVector) = SVector(s .* v.data)
*(v::SVector, s::Number) = SVector(v.data .* s)
*(s::Number, v::MVector) = SVector(s .* v.data)
*(v::MVector, s::Number) = SVector(v.data .* s)
/(v::SVector, s::Number) = SVector(v.data ./ s)
/(v::MVector, s::Number) = SVector(v.data ./ s)
function dot(a::SVector, b::SVector)
    return sum(a.data .* b.data)
end
