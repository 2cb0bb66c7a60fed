#!/bin/bash
# the final H200 measurement (session 6): juke's general kernels (ptx), the launch classes' variants (ptx32:
# --index-bits 32 --small-grid, memcopy also --same-shape) and session 5's 32-bit variant (ptx32old, main
# before this work) against nvcc's int and long twins and cuMemcpyDtoDAsync, two passes each; diffusion2d
# against -fmad=false twins; the SASS of every kernel.
set -uo pipefail
H=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$H/lib
nvcc -O3 -arch=sm_90 -cubin -o /tmp/twins.cubin $H/twins.cu || exit 1
nvcc -O3 -fmad=false -arch=sm_90 -cubin -o /tmp/twins_nofma.cubin $H/twins.cu || exit 1
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu --format=csv; nvcc --version | tail -2; } > $OUT/env.txt 2>&1
for run in 1 2; do
  echo "== ptx32 (launch classes), run $run" >> $OUT/bench_i32.txt
  $H/bin/h200_bench $H/ptx32 /tmp/twins.cubin 100 mdc >> $OUT/bench_i32.txt 2>&1
  echo "== ptx (general kernels), run $run" >> $OUT/bench.txt
  $H/bin/h200_bench $H/ptx /tmp/twins.cubin 100 mdcl >> $OUT/bench.txt 2>&1
  echo "== ptx32old (session 5's 32-bit variant), run $run" >> $OUT/bench_i32old.txt
  $H/bin/h200_bench $H/ptx32old /tmp/twins.cubin 100 dc >> $OUT/bench_i32old.txt 2>&1
done
echo "diffusion2d, ptx32, against nvcc -O3 -fmad=false twins (the nvcc columns)" > $OUT/nofma.txt
$H/bin/h200_bench $H/ptx32 /tmp/twins_nofma.cubin 100 d >> $OUT/nofma.txt 2>&1
{
  for d in ptx32 ptx32old ptx; do for f in $H/$d/*.ptx; do
    n=$(basename $f .ptx); ptxas -arch=sm_90 -O3 -v $f -o /tmp/k.cubin 2>/tmp/ptxas.txt
    echo "=== juke $d/$n: $(cuobjdump -sass /tmp/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vcE 'NOP|BRA 0x') instructions; $(grep -o 'Used [0-9]* registers' /tmp/ptxas.txt)"
    cuobjdump -sass /tmp/k.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vE 'NOP|BRA 0x'
  done; done
  for k in memcopy_f64 memcopy_f32 diffusion2d_f64 diffusion2d_f32 memcopy_f64_i64 diffusion2d_f64_i64; do
    echo "=== nvcc $k: $(cuobjdump -sass -fun $k /tmp/twins.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vcE 'NOP|BRA 0x') instructions"
    cuobjdump -sass -fun $k /tmp/twins.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -vE 'NOP|BRA 0x'
  done
} > $OUT/sass.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >> $OUT/env.txt 2>&1
cd $OUT && grep -E '^(== |Float(32|64) +(16384|2\^28)|diffusion2d |memcopy )' bench_i32.txt bench.txt bench_i32old.txt nofma.txt; grep '^===' sass.txt
