#!/bin/bash
# usage: mkptx.sh JUKE OUTDIR   (the nine benchmark kernels as prepare_h200.sh's ptx32)
set -euo pipefail
J=$1; O=$2; ACC=tests/kernels/acceptance
mkdir -p $O
c() { n=$1; shift; $J compile --no-cache --target sm_90 --index-bits 32 --small-grid "$@" -o $O/$n.ptx; }
c memcopy_f64 --same-shape $ACC/memcopy.jl 'memcopy!' 'Vector{Float64}' 'Vector{Float64}'
c memcopy_f32 --same-shape $ACC/memcopy.jl 'memcopy!' 'Vector{Float32}' 'Vector{Float32}'
c memcopy_f64_checked --same-shape bench/jl/memcopy_checked.jl 'memcopy!' 'Vector{Float64}' 'Vector{Float64}'
c memcopy_f32_checked --same-shape bench/jl/memcopy_checked.jl 'memcopy!' 'Vector{Float32}' 'Vector{Float32}'
c diffusion2d_f64 $ACC/diffusion2d.jl 'diffusion2d!' 'Matrix{Float64}' 'Matrix{Float64}' Float64
c diffusion2d_f32 $ACC/diffusion2d.jl 'diffusion2d!' 'Matrix{Float32}' 'Matrix{Float32}' Float32
c diffusion2d_f64_checked bench/kernels/diffusion2d_checked.jl 'diffusion2d!' 'Matrix{Float64}' 'Matrix{Float64}' Float64
c diffusion2d_f32_checked bench/kernels/diffusion2d_checked.jl 'diffusion2d!' 'Matrix{Float32}' 'Matrix{Float32}' Float32
c empty bench/jl/empty.jl 'empty!' 'Vector{Float32}'
