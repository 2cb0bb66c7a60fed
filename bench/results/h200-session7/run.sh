#!/bin/bash
# Session 7's H200 measurement (issue 14): juke's launch-class kernels (ptx32: addr32.c's 32-bit addresses),
# a variant with the guards narrowed too (ptx32g, when present), session 6's ptx32 (ptx32old: main before this
# work) against nvcc's int and long twins, two passes each; SASS of every kernel; optionally the language suite
# on cuda for LANG_S seconds. Run there from the repository root after
#   rm -rf build-h200 && cp -r build-h200-gpu build-h200
set -uo pipefail
H=build-h200
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/$H/lib
nvcc -O3 -arch=sm_90 -cubin -o /tmp/twins.cubin bench/twins.cu || exit 1
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu --format=csv; nvcc --version | tail -2; } > $OUT/env.txt 2>&1
DIRS=${DIRS:-ptx32 ptx32g ptx32old}
for run in 1 2; do
  for d in $DIRS; do
    test -d $H/$d || continue
    echo "== $d, run $run" >> $OUT/bench_$d.txt
    $H/bin/h200_bench $H/$d /tmp/twins.cubin 100 ${SECTIONS:-dc} >> $OUT/bench_$d.txt 2>&1
  done
done
test -n "${MEMCOPY:-}" && for run in 1 2; do
  echo "== ptx32 memcopy, run $run" >> $OUT/bench_memcopy.txt
  $H/bin/h200_bench $H/ptx32 /tmp/twins.cubin 100 m >> $OUT/bench_memcopy.txt 2>&1
done
{
  for d in $DIRS; do test -d $H/$d || continue; for f in $H/$d/diffusion2d*.ptx $H/$d/memcopy_f32*.ptx; do
    n=$(basename $f .ptx); ptxas -arch=sm_90 -O3 -v $f -o /tmp/k.cubin 2>/tmp/ptxas.txt
    echo "=== juke $d/$n: $(cuobjdump -sass /tmp/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vcE 'NOP|BRA 0x') instructions; $(grep -o 'Used [0-9]* registers' /tmp/ptxas.txt)"
    cuobjdump -sass /tmp/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vE 'NOP|BRA 0x'
  done; done
  for k in diffusion2d_f64 diffusion2d_f32 memcopy_f32; do
    echo "=== nvcc $k: $(cuobjdump -sass -fun $k /tmp/twins.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vcE 'NOP|BRA 0x') instructions"
    cuobjdump -sass -fun $k /tmp/twins.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vE 'NOP|BRA 0x'
  done
} > $OUT/sass.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >> $OUT/env.txt 2>&1
if [ -n "${LANG_S:-}" ]; then
  JUKE_CACHE_DIR=$H/cache JUKE_SOURCE_ROOT=$PWD timeout $LANG_S $H/bin/lang_gpu --device cuda > $OUT/lang_cuda.txt 2>&1
  echo "lang rc=$?"; grep -cE '^\[       OK \]' $OUT/lang_cuda.txt; grep -E '^\[  (PASSED|FAILED) |FAILED|mismatch' $OUT/lang_cuda.txt | head -20
fi
cd $OUT && grep -E '^(== |Float(32|64) +(16384|2\^28)|diffusion2d |memcopy )' bench_*.txt; grep '^===' sass.txt
