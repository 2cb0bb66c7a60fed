#!/bin/bash
# probe2.sh (RESULTS.md §19, second call): juke's PTX edited by hand toward nvcc's prologue (hand/*_mad, *_lt,
# *_madlt) and nvcc's Julia-order twin with juke's parameters edited toward juke's prologue (hand/jsigpro_*).
# Run there after `rm -rf build-h200 && cp -r build-h200-gpu build-h200`. Writes $OUT/env.txt probeN.txt sass.txt.
set -uo pipefail
H=build-h200
P=$H/probe
T=/tmp/p8
OUT=${OUT:-/tmp/out}
mkdir -p $T $OUT
smi() { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv; }
{ date -u; smi; } > $OUT/env.txt 2>&1
nvcc -O3 -arch=sm_90 -cubin -o $T/twins.cubin bench/twins.cu || exit 1
nvcc -O3 -arch=sm_90 -cubin -o $T/probe.cubin $P/probe_twins.cu
for f in $P/hand/*.ptx $P/ptx32/diffusion2d_f32.ptx $P/ptx32/diffusion2d_f64.ptx ${EXTRA_PTX:-}; do
    ptxas -arch=sm_90 -O3 $f -o $T/$(basename $f .ptx).cubin
done
{
    for t in f32 f64; do
        cat <<SPEC
nvcc_cubin        nvcc $t $T/twins.cubin plain diffusion2d_$t
nvcc_jsig         juke $t $T/probe.cubin plain diffusion2d_${t}_jsig
jsig_ptx_jit      juke $t $P/hand/jsig_$t.ptx jit diffusion2d_${t}_jsig
jsigpro_jit       juke $t $P/hand/jsigpro_$t.ptx jit diffusion2d_${t}_jsigpro
juke_jit          juke $t $P/ptx32/diffusion2d_$t.ptx jit
juke_lt           juke $t $P/hand/diffusion2d_${t}_lt.ptx jit
juke_mad          juke $t $P/hand/diffusion2d_${t}_mad.ptx jit
juke_madlt        juke $t $P/hand/diffusion2d_${t}_madlt.ptx jit
SPEC
        for d in ${EXTRA_DIRS:-}; do echo "juke_$(basename $d) juke $t $d/diffusion2d_$t.ptx jit"; done
        echo "nvcc_cubin_again  nvcc $t $T/twins.cubin plain diffusion2d_$t"
    done
} > $T/spec
cp $T/spec $OUT/spec.txt
for pass in 1 2 3; do
    $P/h200_probe $T/twins.cubin $T/spec 16384 100 $T > $OUT/probe$pass.txt 2>&1
    grep -E 'PROBE|SKIP' $OUT/probe$pass.txt
done
{
    for f in $T/*.cubin; do
        case $f in */twins.cubin) continue ;; esac
        echo "=== $(basename $f)"
        cuobjdump -sass $f | grep -E '^\s+/\*[0-9a-f]{4}\*/|Function' | grep -vE 'NOP|BRA 0x' | sed 's|/\* 0x[0-9a-f]* \*/||'
    done
} > $OUT/sass.txt 2>&1
{ date -u; smi; } >> $OUT/env.txt 2>&1
