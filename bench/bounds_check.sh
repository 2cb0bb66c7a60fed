#!/bin/sh
# bounds_check.sh: the register and instruction cost of bounds checks on AMDGPU.
# For vadd and diffusion2d, compares the acceptance kernels (@inbounds) with
# copies that check every access (bench/kernels/*_checked.jl), on one target.
#
#   bench/bounds_check.sh [JUKE [TARGET]]     (from the repository root)
#
# JUKE defaults to $JUKE, then build/juke; TARGET to gfx90a. Prints a
# Markdown table: VGPRs and SGPRs from `juke resources`, and from `juke gcn`
# the kernel's instructions (all, the cold exception path — from the block
# that claims the exception buffer with global_atomic_cmpswap to the
# s_endpgm that ends it — and the rest, the hot path).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
juke=${1:-${JUKE:-$root/build/juke}}
target=${2:-gfx90a}
acc=$root/tests/kernels/acceptance
kern=$here/kernels
[ -x "$juke" ] || { echo "bounds_check.sh: no juke at $juke (build it, or pass its path)" >&2; exit 2; }

# count SYMBOL < gcn: "all cold" instruction counts of the kernel's text
count() {
    awk -v K="$1" '
        $1 == K":" { f = 1; next }
        f && (/^\t\.section/ || /^\.Lfunc_end/) { f = 0 }
        !f { next }
        /^\.LBB/ { nb++; blk[nb] = 0; next }
        /^\t[a-z]/ {
            n++; blk[nb]++; ins[n] = $1; inblk[n] = nb
        }
        END {
            cold = 0; start = 0
            for (i = 1; i <= n; i++) if (ins[i] ~ /^global_atomic_cmpswap/) { start = inblk[i]; break }
            if (start) {
                for (i = 1; i <= n && inblk[i] < start; i++) ;
                for (; i <= n; i++) { cold++; if (ins[i] == "s_endpgm") break }
            }
            print n + 0, cold
        }'
}

row() { # label file function types...
    label=$1 file=$2 fn=$3
    shift 3
    res=$("$juke" resources --target "$target" "$file" "$fn" "$@")
    vgprs=$(printf '%s\n' "$res" | sed -n 's/^VGPRs: *\([0-9]*\).*/\1/p')
    sgprs=$(printf '%s\n' "$res" | sed -n 's/.*SGPRs: *\([0-9]*\).*/\1/p')
    sym=$(printf '%s\n' "$res" | sed -n 's/^kernel: *//p')
    set -- $("$juke" gcn --target "$target" "$file" "$fn" "$@" | count "$sym")
    echo "| $label | $vgprs | $sgprs | $1 | $2 | $(($1 - $2)) |"
}

echo "| kernel ($target) | VGPRs | SGPRs | instructions | cold path | hot path |"
echo "|---|---:|---:|---:|---:|---:|"
v='Vector{Float32}'
row "vadd! @inbounds" "$acc/vadd.jl" 'vadd!' "$v" "$v" "$v"
row "vadd! checked" "$kern/vadd_checked.jl" 'vadd!' "$v" "$v" "$v"
for t in Float64 Float32; do
    m="Matrix{$t}"
    row "diffusion2d! $t @inbounds" "$acc/diffusion2d.jl" 'diffusion2d!' "$m" "$m" "$t"
    row "diffusion2d! $t checked" "$kern/diffusion2d_checked.jl" 'diffusion2d!' "$m" "$m" "$t"
done
