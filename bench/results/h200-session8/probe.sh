#!/bin/bash
# probe.sh (RESULTS.md §19): where diffusion2d's gap to nvcc's `int` twin is. Run there from the repository root
# after `rm -rf build-h200 && cp -r build-h200-gpu build-h200`; build-h200/probe/ holds h200_probe (bench/h200_probe.c),
# probe_twins.cu, ptx32/ (mkptx.sh: the PTX juke_launch picks) and hand/ (that PTX with the fma edits).
# Writes $OUT/env.txt probe1.txt probe2.txt bench_i32.txt sass.txt.
set -uo pipefail
H=build-h200
P=$H/probe
T=/tmp/p8
OUT=${OUT:-/tmp/out}
mkdir -p $T $OUT
export LD_LIBRARY_PATH=$PWD/$H/lib
smi() { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu --format=csv; }
{ date -u; smi; nvcc --version | tail -2; } > $OUT/env.txt 2>&1
nvcc -O3 -arch=sm_90 -cubin -o $T/twins.cubin bench/twins.cu || exit 1
nvcc -O3 -arch=sm_90 -ptx -o $T/twins.ptx bench/twins.cu
nvcc -O3 -fmad=false -arch=sm_90 -cubin -o $T/twins_nofma.cubin bench/twins.cu
nvcc -O3 -arch=sm_90 -cubin -o $T/probe.cubin $P/probe_twins.cu
nvcc -O3 -arch=sm_90 -ptx -o $T/probe.ptx $P/probe_twins.cu
VER=$(grep -m1 '^\.version' $T/twins.ptx)
echo "nvcc's PTX header: $VER / $(grep -m1 '^\.target' $T/twins.ptx)" >> $OUT/env.txt
for t in f32 f64; do
    j=$P/ptx32/diffusion2d_$t.ptx
    ptxas -arch=sm_90 -O3 -v $j -o $T/juke_$t.cubin 2>> $OUT/env.txt
    sed "s/^\.version .*/$VER/" $j > $T/juke_${t}_ver.ptx
    sed -e "s/^\.version .*/$VER/" -e 's/^\.target sm_90$/.target sm_90a/' $j > $T/juke_${t}_sm90a.ptx
    ptxas -arch=sm_90 -O3 $P/hand/diffusion2d_${t}_fma1.ptx -o $T/juke_${t}_fma1.cubin
    ptxas -arch=sm_90 -O3 $P/hand/diffusion2d_${t}_fma2.ptx -o $T/juke_${t}_fma2.cubin
done
{
    for t in f32 f64; do
        j=$P/ptx32/diffusion2d_$t.ptx
        cat <<SPEC
nvcc_cubin        nvcc $t $T/twins.cubin plain diffusion2d_$t
nvcc_ptx_jit      nvcc $t $T/twins.ptx jit diffusion2d_$t
nvcc_ptx_link     nvcc $t $T/twins.ptx link diffusion2d_$t
nvcc_nofma        nvcc $t $T/twins_nofma.cubin plain diffusion2d_$t
nvcc_jl           nvcc $t $T/probe.cubin plain diffusion2d_${t}_jl
nvcc_jl_jit       nvcc $t $T/probe.ptx jit diffusion2d_${t}_jl
nvcc_fma1         nvcc $t $T/probe.cubin plain diffusion2d_${t}_fma1
nvcc_jsig         juke $t $T/probe.cubin plain diffusion2d_${t}_jsig
juke_jit          juke $t $j jit
juke_plain        juke $t $j plain
juke_ptxas        juke $t $T/juke_$t.cubin plain diffusion2d_21
juke_link         juke $t $j link
juke_O3           juke $t $j jit:O3
juke_O4           juke $t $j jit:O4
juke_pic0         juke $t $j jit:pic0
juke_ca           juke $t $j jit:ca
juke_cg           juke $t $j jit:cg
juke_ver          juke $t $T/juke_${t}_ver.ptx jit
juke_sm90a        juke $t $T/juke_${t}_sm90a.ptx jit
juke_fma1_jit     juke $t $P/hand/diffusion2d_${t}_fma1.ptx jit
juke_fma1_ptxas   juke $t $T/juke_${t}_fma1.cubin plain diffusion2d_21
juke_fma2_jit     juke $t $P/hand/diffusion2d_${t}_fma2.ptx jit
nvcc_cubin_again  nvcc $t $T/twins.cubin plain diffusion2d_$t
SPEC
    done
} > $T/spec
cp $T/spec $OUT/spec.txt
for pass in 1 2; do
    $P/h200_probe $T/twins.cubin $T/spec 16384 100 $T > $OUT/probe$pass.txt 2>&1
    grep PROBE $OUT/probe$pass.txt
done
for pass in 1 2; do
    echo "== ptx32, pass $pass" >> $OUT/bench_i32.txt
    $H/bin/h200_bench $H/ptx32 $T/twins.cubin 100 dc >> $OUT/bench_i32.txt 2>&1
done
$H/bin/h200_bench $H/ptx32 $T/twins.cubin 100 m >> $OUT/bench_i32.txt 2>&1
grep -E '^(== |Float(32|64) +(16384|2\^28)|diffusion2d |memcopy )' $OUT/bench_i32.txt
{
    sass() { cuobjdump -sass "$@" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vE 'NOP|BRA 0x'; }
    for t in f32 f64; do
        for k in diffusion2d_$t; do echo "=== nvcc twins.cubin $k"; sass -fun $k $T/twins.cubin; done
        for k in diffusion2d_${t}_jl diffusion2d_${t}_jsig; do echo "=== nvcc probe.cubin $k"; sass -fun $k $T/probe.cubin; done
        echo "=== juke ptxas -O3 $t"; sass $T/juke_$t.cubin
    done
    for t in f32 f64; do
        echo "=== driver JIT (cuLink) juke_link_$t"; sass $T/juke_link_$t.cubin
        echo "=== driver JIT (cuLink) nvcc_ptx_link_$t"; sass -fun diffusion2d_$t $T/nvcc_ptx_link_$t.cubin
    done
} > $OUT/sass.txt 2>&1
grep '^===' $OUT/sass.txt | head -40
{ date -u; smi; } >> $OUT/env.txt 2>&1
