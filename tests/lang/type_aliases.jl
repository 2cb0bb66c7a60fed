# Type aliases (`const F = Float32`, `const Vec3{T} = @NamedTuple{x::T, y::T, z::T}`) and types written as
# values (`x isa Tuple{Int, Float64}`), as kernels check what an API returns.
import KernelInterface as KI

const Real32 = Float32
const Index3 = @NamedTuple{x::Int, y::Int, z::Int}
const Vec3{T} = @NamedTuple{x::T, y::T, z::T}
const Pair2{A, B} = Tuple{A, B}

function checks!(r, v::Real32, p::Pair2{Int, Float64})
    r[1] = v isa Real32
    r[2] = workitemIdx() isa Index3
    r[3] = (1, 2.0) isa Tuple{Int, Float64}
    r[4] = KI.get_global_id() isa Vec3{Int}
    r[5] = (a = 1, b = 2f0) isa @NamedTuple{a::Int, b::Float32}
    r[6] = p isa Pair2{Int, Float64}
    r[7] = (1, 2) isa NTuple{3, Int}
    r[8] = KI.get_local_id(Int32) isa Vec3{Int32}
    r[9] = KI.get_local_id(Int32) isa Vec3{Int64}
    r[10] = (x = 1f0, y = 2f0, z = 3f0) isa Vec3{Real32}
    return
end
# run: checks!(r = zeros(Bool, 10), v = 2.5f0, p = (3, 4.5)) groupsize 1
# expect r: [true, true, true, true, true, true, false, true, false, true]

# An alias in a signature, and its parameter bound by the call.
norm1(v::Vec3{T}) where {T} = abs(v.x) + abs(v.y) + abs(v.z)
function norms!(out, a)
    i = workitemIdx().x
    out[i] = norm1((x = a[i], y = -2a[i], z = 0.5f0))
    return
end
# run: norms!(out = zeros(Float32, 3), a = Float32[1, -2, 0.25]) groupsize 3
# expect out: [3.5, 6.5, 1.25]
