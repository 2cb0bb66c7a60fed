#!/bin/bash
# probe3.sh (RESULTS.md §19, third call): the launch's shape read first (target_nvptx.c hoist_launch_shape:
# build-h200/probe/ptx32new, what lands) against main's PTX (probe/ptx32) and nvcc's twins, with the row
# hybrids (hand/*_rows: rows iy and iy+2 based at ix + 1, as nvcc's); then h200_bench on ptx32new (what lands:
# memcopy, diffusion2d, the checked kernels) and SASS. Run there after
# `rm -rf build-h200 && cp -r build-h200-gpu build-h200`. Writes $OUT/env.txt probeN.txt bench_new.txt sass.txt.
set -uo pipefail
H=build-h200
P=$H/probe
T=/tmp/p8
OUT=${OUT:-/tmp/out}
mkdir -p $T $OUT
export LD_LIBRARY_PATH=$PWD/$H/lib
smi() { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv; }
{ date -u; smi; } > $OUT/env.txt 2>&1
nvcc -O3 -arch=sm_90 -cubin -o $T/twins.cubin bench/twins.cu || exit 1
nvcc -O3 -arch=sm_90 -cubin -o $T/probe.cubin $P/probe_twins.cu
{
    for t in f32 f64; do
        cat <<SPEC
nvcc_cubin        nvcc $t $T/twins.cubin plain diffusion2d_$t
nvcc_jsig         juke $t $T/probe.cubin plain diffusion2d_${t}_jsig
juke_main         juke $t $P/ptx32/diffusion2d_$t.ptx jit
juke_new          juke $t $P/ptx32new/diffusion2d_$t.ptx jit
juke_main_rows    juke $t $P/hand/diffusion2d_${t}_rows.ptx jit
juke_new_rows     juke $t $P/hand/diffusion2d_${t}_newrows.ptx jit
juke_main_madlt   juke $t $P/hand/diffusion2d_${t}_madlt.ptx jit
nvcc_cubin_again  nvcc $t $T/twins.cubin plain diffusion2d_$t
SPEC
    done
} > $T/spec
cp $T/spec $OUT/spec.txt
for pass in 1 2 3; do
    $P/h200_probe $T/twins.cubin $T/spec 16384 100 $T > $OUT/probe$pass.txt 2>&1
    grep -E 'PROBE|SKIP' $OUT/probe$pass.txt
done
for pass in 1 2; do
    echo "== ptx32new, pass $pass" >> $OUT/bench_new.txt
    $H/bin/h200_bench $P/ptx32new $T/twins.cubin 100 mdc >> $OUT/bench_new.txt 2>&1
done
grep -E '^(== |Float(32|64) +(16384|2\^28)|diffusion2d |memcopy )' $OUT/bench_new.txt
{
    for d in ptx32 ptx32new; do for f in $P/$d/diffusion2d*.ptx $P/$d/memcopy*.ptx; do
        ptxas -arch=sm_90 -O3 -v $f -o $T/k.cubin 2> $T/ptxas.txt
        echo "=== $d/$(basename $f .ptx): $(cuobjdump -sass $T/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vcE 'NOP|BRA 0x') instructions; $(grep -o 'Used [0-9]* registers' $T/ptxas.txt)"
        cuobjdump -sass $T/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vE 'NOP|BRA 0x'
    done; done
} > $OUT/sass.txt 2>&1
grep '^===' $OUT/sass.txt
{ date -u; smi; } >> $OUT/env.txt 2>&1
