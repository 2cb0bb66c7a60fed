#!/usr/bin/env bash
# `juke run` with tuple, struct, named tuple, Type, Val, Symbol and function arguments written as Julia
# literals; `juke typed` with their types (Tuple{...}, NTuple{N,T}, a struct's name, Val{4}, typeof(+)).
# usage: cli_values.sh JUKE
set -euo pipefail
juke=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > k.jl <<'JL'
struct Params
    scale::Float32
    n::Int32
end
struct P{T}
    x::T
    y::T
end
function k!(o, t, p, q, nt, ::Type{T}, ::Val{N}, mode, op) where {T, N}
    o[1] = t[1] + t[2]
    o[2] = p.scale * p.n
    o[3] = q.x - q.y
    o[4] = nt.a * nt.b
    o[5] = sizeof_t(T) + N
    o[6] = mode === :add ? op(1, 2) : 0
    return
end
sizeof_t(::Type{UInt8}) = 1
sizeof_t(::Type{Float64}) = 8
h(c::NTuple{3, Float32}) = c[1]
struct Particle
    pos::Tuple{Float32, Float32}
    alive::Bool
end
function move!(ps, dt)
    i = workitemIdx().x
    p = ps[i]
    ps[i] = Particle((p.pos[1] + dt, p.pos[2]), p.alive)
    return
end
JL
# a Float64 vector of 6 zeros in .npy
python3 - <<'PY'
import struct
hdr = "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }"
hdr += ' ' * (63 - (10 + len(hdr)) % 64) + '\n'
open('o.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode() + bytes(48))
PY
"$juke" run --device cpu --groupsize 1 k.jl 'k!' o.npy '(1f0, 2f0)' 'Params(1f0, 3)' 'P{Float64}(5, 1.5)' \
    '(a = 3, b = 0.5)' 'Type{UInt8}' 'Val(4)' :add + --out 1=out.npy 2> err.txt
python3 - <<'PY'
import struct
b = open('out.npy', 'rb').read()
hl = struct.unpack('<H', b[8:10])[0]
got = struct.unpack('<6d', b[10 + hl:])
want = (3.0, 3.0, 3.5, 1.5, 5.0, 3.0)
assert got == want, (got, want)
PY
# the typed signatures spell the same types
"$juke" typed k.jl 'k!' 'Vector{Float64}' 'Tuple{Float32,Float32}' Params 'P{Float64}' \
    '@NamedTuple{a::Int64, b::Float64}' 'Type{UInt8}' 'Val{4}' :add 'typeof(+)' > typed.txt
grep -q 'p.scale::Float32' typed.txt
"$juke" typed k.jl h 'NTuple{3,Float32}' | grep -q '=> Float32'
for t in gfx90a gfx942 gfx1100 sm_90; do
    "$juke" asm --target "$t" k.jl 'k!' 'Vector{Float64}' 'Tuple{Float32,Float32}' Params 'P{Float64}' \
        '@NamedTuple{a::Int64, b::Float64}' 'Type{UInt8}' 'Val{4}' :add 'typeof(+)' > /dev/null
done
# arrays of structs compile for every target
for t in cpu gfx90a gfx942 gfx1100 sm_90; do
    "$juke" asm --target "$t" k.jl 'move!' 'Vector{Particle}' Float32 > /dev/null
done
# a bad value is a usage error that says why
if "$juke" run --device cpu k.jl 'k!' o.npy '(1f0, 2f0)' 'Params(1.5f0, 2.5)' 'P{Float64}(5, 1.5)' \
    '(a = 3, b = 0.5)' 'Type{UInt8}' 'Val(4)' :add + 2> err.txt; then
    echo "a bad struct argument ran"; exit 1
fi
grep -q "field 2 of Params has type Int32" err.txt
# AMDGPU.jl's WMMA layouts, singletons of a module, as arguments (its docs' kernel passes WMMA.ColMajor())
cat > w.jl <<'JL'
using AMDGPU.Device: WMMA, WMMA_RDNA3
code(::WMMA.ColMajor) = 1.0
code(::WMMA.RowMajor) = 2.0
code(::Type{WMMA_RDNA3.RowMajor}) = 4.0
code(::Type{Float32}) = 8.0
function lay!(o, a, b, c, d)
    o[1] = code(a)
    o[2] = code(b)
    o[3] = WMMA.M + WMMA.K
    o[4] = code(c) + code(d)
    return
end
JL
# (and a type by its name, as Julia passes one: WMMA_RDNA3.RowMajor, Float32)
"$juke" run --device cpu --groupsize 1 w.jl 'lay!' o.npy 'WMMA.ColMajor()' 'AMDGPU.Device.WMMA.RowMajor()' \
    WMMA_RDNA3.RowMajor Float32 --out 1=wout.npy 2> err.txt
python3 - <<'PY'
import struct
b = open('wout.npy', 'rb').read()
hl = struct.unpack('<H', b[8:10])[0]
got = struct.unpack('<6d', b[10 + hl:])[:4]
assert got == (1.0, 2.0, 32.0, 12.0), got
PY
"$juke" typed w.jl 'lay!' 'Vector{Float64}' WMMA.RowMajor WMMA.ColMajor 'Type{WMMA_RDNA3.RowMajor}' \
    'Type{Float32}' | grep -q 'code(b)::Float64'
# complex numbers as Julia writes them (1.5+2.0im a ComplexF64, 0.5f0-1.75f0im a ComplexF32), typemin(T), and a
# complex array inside a value (ComplexF32[1, 2.5im] is [1+0im, 0+2.5im])
cat > c.jl <<'JL'
function cx!(o, z, w, nt)
    o[1] = real(z) * imag(z)
    o[2] = Float64(real(w) + imag(w))
    o[3] = Float64(imag(nt.v[2]) + nt.n)
    return
end
JL
"$juke" run --device cpu --groupsize 1 c.jl 'cx!' o.npy '1.5+2.0im' '0.5f0 - 1.75f0im' \
    '(v = ComplexF32[1, 2.5im], n = typemin(Int8))' --out 1=cout.npy
python3 - <<'PY'
import struct
b = open('cout.npy', 'rb').read()
hl = struct.unpack('<H', b[8:10])[0]
got = struct.unpack('<6d', b[10 + hl:])[:3]
assert got == (3.0, -1.25, -125.5), got
PY
"$juke" typed c.jl 'cx!' 'Vector{Float64}' ComplexF64 ComplexF32 '@NamedTuple{v::Vector{ComplexF32}, n::Int8}' |
    grep -q 'real(z)::Float64'
# Complex{Int64} is no argument juke takes: a usage error that says so
if "$juke" run --device cpu c.jl 'cx!' o.npy '1+2im' '0.5f0im' '(v = ComplexF32[1], n = 1)' 2> err.txt; then
    echo "a Complex{Int64} argument ran"; exit 1
fi
grep -q "no Complex{Int64}" err.txt
echo ok
