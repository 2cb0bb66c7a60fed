#!/bin/bash
# probe19b.sh (RESULTS.md §19b): the checked Float32 diffusion2d with its loads issued before the check resolves
# (hand/*.ptx, juke's checked PTX edited by one thing each) against the checked and @inbounds kernels; then
# h200_bench dc on ptxA (main's PTX), ptxB (clampb as the checked Float32 kernel), ptxC (clampb_late); SASS.
# (h200_probe, h200_bench and libmsgpackc from bench/prepare_h200.sh's build-h200/, the PTX in ptxA/B/C and probe/hand/.)
# Run there after `rm -rf build-h200 && cp -r build-h200-gpu build-h200`.
set -uo pipefail
H=build-h200; P=$H/probe; T=/tmp/p19b; OUT=${OUT:-/tmp/out}
mkdir -p $T $OUT
export LD_LIBRARY_PATH=$PWD/$H/lib
smi() { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv; }
{ date -u; smi; } > $OUT/env.txt 2>&1
nvcc -O3 -arch=sm_90 -cubin -o $T/twins.cubin bench/twins.cu || exit 1
cat > $T/spec <<SPEC
nvcc_cubin        nvcc f32 $T/twins.cubin plain diffusion2d_f32
inbounds          juke f32 $H/ptxA/diffusion2d_f32.ptx jit
checked           juke f32 $P/hand/checked.ptx jit
spec_unclamped    juke f32 $P/hand/spec.ptx jit
clamp             juke f32 $P/hand/clamp.ptx jit
clamp_late        juke f32 $P/hand/clamp_late.ptx jit
clampb            juke f32 $P/hand/clampb.ptx jit
clampb_late       juke f32 $P/hand/clampb_late.ptx jit
inbounds_again    juke f32 $H/ptxA/diffusion2d_f32.ptx jit
checked_again     juke f32 $P/hand/checked.ptx jit
SPEC
cp $T/spec $OUT/spec.txt
for pass in 1 2 3; do
    $H/bin/h200_probe $T/twins.cubin $T/spec 16384 100 $T > $OUT/probe$pass.txt 2>&1
    grep -E 'PROBE|SKIP|FAIL|bitwise' $OUT/probe$pass.txt
done
for d in ptxA ptxB ptxC; do for pass in 1 2; do
    echo "== $d, pass $pass" >> $OUT/bench.txt
    $H/bin/h200_bench $H/$d $T/twins.cubin 100 dc >> $OUT/bench.txt 2>&1
done; done
grep -E '^(== |Float(32|64) +(16384|2\^28)|diffusion2d )' $OUT/bench.txt
{
    for f in $H/ptxA/diffusion2d_f32.ptx $P/hand/*.ptx; do
        ptxas -arch=sm_90 -O3 -v $f -o $T/k.cubin 2> $T/ptxas.txt
        echo "=== $(basename $f .ptx): $(cuobjdump -sass $T/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vcE 'NOP|BRA 0x') instructions; $(grep -o 'Used [0-9]* registers' $T/ptxas.txt)"
        cuobjdump -sass $T/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vE 'NOP|BRA 0x'
    done
} > $OUT/sass.txt 2>&1
grep '^===' $OUT/sass.txt
{ date -u; smi; } >> $OUT/env.txt 2>&1
