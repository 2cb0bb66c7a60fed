#!/bin/bash
# gcn_quality.sh: GCN code quality on gfx90a, juke against hipcc -O3 on the
# HIP C++ twins (bench/hip/kernels.hip): per kernel, the instructions from the
# kernel's label to its last s_endpgm (the s_nop padding after it excluded),
# VGPRs, SGPRs, AGPRs and scratch from the code object's metadata notes; juke
# with its @inbounds kernels (../shared/acceptance) and with bounds checks
# (bench/kernels/*_checked.jl, bench/jl/memcopy_checked.jl).
# Usage: bench/gcn_quality.sh [JUKE]   (from the repository root; JUKE defaults to build-bench/juke)
set -euo pipefail
cd "$(dirname "$0")/.."
J=${1:-build-bench/juke}
ACC=${JUKE_ACCEPTANCE_DIR:-tests/kernels/acceptance}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
count() { # ELF → "instructions vgprs sgprs agprs scratch"
    local n
    n=$(llvm-objdump-19 -d --no-show-raw-insn "$1" | awk '
        /^[0-9a-f]+ <.*>:$/ { infn = 1; n = 0; last = 0; next }
        infn && /^\t/ { n++; if ($1 == "s_endpgm") last = n }
        END { print last }')
    local notes
    notes=$(llvm-readelf-19 --notes "$1")
    local v s a p
    v=$(echo "$notes" | awk '/\.vgpr_count:/ {print $2; exit}')
    s=$(echo "$notes" | awk '/\.sgpr_count:/ {print $2; exit}')
    a=$(echo "$notes" | awk '/\.agpr_count:/ {print $NF; exit}')
    p=$(echo "$notes" | awk '/\.private_segment_fixed_size:/ {print $2; exit}')
    echo "$n $v $s ${a:-0} ${p:-0}"
}
hip() { # KERNEL-number name → ELF path
    hipcc --genco -O3 --offload-arch=gfx90a -DKERNEL=$1 bench/hip/kernels.hip -o "$T/$2.bundle" 2>/dev/null
    clang-offload-bundler-15 --unbundle --type=o --targets=hipv4-amdgcn-amd-amdhsa--gfx90a \
        --input="$T/$2.bundle" --output="$T/$2.hip.elf"
    echo "$T/$2.hip.elf"
}
row() { # label ELF
    read -r n v s a p < <(count "$2")
    printf "| %-40s | %5s | %5s | %5s | %5s | %7s |\n" "$1" "$n" "$v" "$s" "$a" "$p"
}
echo "gfx90a, code object v5, -O3; juke $($J --version 2>&1 | head -1); $(hipcc --version 2>/dev/null | grep -m1 'HIP version'); $(clang++-15 --version | head -1)"
echo
printf "| %-40s | %5s | %5s | %5s | %5s | %7s |\n" kernel instr VGPRs SGPRs AGPRs scratch
echo "|---|---:|---:|---:|---:|---:|"
$J compile --target gfx90a -o "$T/vadd.elf" "$ACC/vadd.jl" 'vadd!' 'Vector{Float32}' 'Vector{Float32}' 'Vector{Float32}'
$J compile --target gfx90a -o "$T/vaddc.elf" bench/kernels/vadd_checked.jl 'vadd!' 'Vector{Float32}' 'Vector{Float32}' 'Vector{Float32}'
row "vadd! juke @inbounds" "$T/vadd.elf"
row "vadd! juke bounds-checked" "$T/vaddc.elf"
row "vadd hipcc -O3" "$(hip 1 vadd)"
$J compile --target gfx90a -o "$T/mc.elf" "$ACC/memcopy.jl" 'memcopy!' 'Vector{Float64}' 'Vector{Float64}'
$J compile --target gfx90a -o "$T/mcc.elf" bench/jl/memcopy_checked.jl 'memcopy!' 'Vector{Float64}' 'Vector{Float64}'
row "memcopy! Float64 juke @inbounds" "$T/mc.elf"
row "memcopy! Float64 juke bounds-checked" "$T/mcc.elf"
row "memcopy Float64 hipcc -O3" "$(hip 2 memcopy)"
$J compile --target gfx90a -o "$T/df.elf" "$ACC/diffusion2d.jl" 'diffusion2d!' 'Matrix{Float64}' 'Matrix{Float64}' Float64
$J compile --target gfx90a -o "$T/dfc.elf" bench/kernels/diffusion2d_checked.jl 'diffusion2d!' 'Matrix{Float64}' 'Matrix{Float64}' Float64
row "diffusion2d! Float64 juke @inbounds" "$T/df.elf"
row "diffusion2d! Float64 juke bounds-checked" "$T/dfc.elf"
row "diffusion2d Float64 hipcc -O3" "$(hip 3 diffusion2d)"
if [ -n "${GCN_DUMP:-}" ]; then
    mkdir -p "$GCN_DUMP"
    for f in "$T"/*.elf; do llvm-objdump-19 -d --no-show-raw-insn "$f" > "$GCN_DUMP/$(basename "$f" .elf).s"; done
fi
