#!/bin/bash
# probe19b2.sh (RESULTS.md §19b, second call): the checked Float32 diffusion2d with fewer compares on the hot path
# (hand/fewer*.ptx by mkfewer.py) against main's checked and @inbounds PTX and the unclamped early loads (spec);
# then h200_bench dc on ptxA (main's PTX) and ptxD (fewer as the checked Float32 kernel); SASS.
# Run there after `rm -rf build-h200 && cp -r build-h200-gpu build-h200`.
set -uo pipefail
H=build-h200; P=$H/probe; T=/tmp/p19b; OUT=${OUT:-/tmp/out}
mkdir -p $T $OUT
export LD_LIBRARY_PATH=$PWD/$H/lib
smi() { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv; }
{ date -u; smi; } > $OUT/env2.txt 2>&1
nvcc -O3 -arch=sm_90 -cubin -o $T/twins.cubin bench/twins.cu || exit 1
cat > $T/spec <<SPEC
nvcc_cubin        nvcc f32 $T/twins.cubin plain diffusion2d_f32
inbounds          juke f32 $H/ptxA/diffusion2d_f32.ptx jit
checked           juke f32 $P/hand/checked.ptx jit
fewer             juke f32 $P/hand/fewer.ptx jit
fewer_keep        juke f32 $P/hand/fewer_keep.ptx jit
fewer_spec        juke f32 $P/hand/fewer_spec.ptx jit
spec_unclamped    juke f32 $P/hand/spec.ptx jit
inbounds_again    juke f32 $H/ptxA/diffusion2d_f32.ptx jit
checked_again     juke f32 $P/hand/checked.ptx jit
SPEC
cp $T/spec $OUT/spec2.txt
for pass in 1 2 3; do
    $H/bin/h200_probe $T/twins.cubin $T/spec 16384 100 $T > $OUT/probe2_$pass.txt 2>&1
    grep -E 'PROBE|SKIP|FAIL' $OUT/probe2_$pass.txt
done
for d in ptxA ptxD; do for pass in 1 2; do
    echo "== $d, pass $pass" >> $OUT/bench2.txt
    $H/bin/h200_bench $H/$d $T/twins.cubin 100 dc >> $OUT/bench2.txt 2>&1
done; done
grep -E '^(== |diffusion2d )' $OUT/bench2.txt
{
    for f in $P/hand/fewer*.ptx; do
        ptxas -arch=sm_90 -O3 -v $f -o $T/k.cubin 2> $T/ptxas.txt
        echo "=== $(basename $f .ptx): $(cuobjdump -sass $T/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vcE 'NOP') instructions with branches; $(grep -o 'Used [0-9]* registers' $T/ptxas.txt)"
        cuobjdump -sass $T/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vE 'NOP'
    done
} > $OUT/sass2.txt 2>&1
grep '^===' $OUT/sass2.txt
{ date -u; smi; } >> $OUT/env2.txt 2>&1
