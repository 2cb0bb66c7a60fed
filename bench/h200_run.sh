#!/bin/bash
# h200_run.sh: run on the GPU machine (CUDA driver + toolkit, no LLVM), from the
# repository root, after bench/prepare_h200.sh made build-h200/ here:
#   1. every acceptance kernel through juke's cuda backend (h200_acceptance)
#   2. memcopy / diffusion2d juke vs nvcc vs cuMemcpyDtoD, and launch overhead
#      (h200_bench), twice, to see the run-to-run spread
#      then the 16-byte-access copies (section v) and the bounds-checked kernels (section c);
#      then the same with the 32-bit-index variants (build-h200/ptx32: bench_i32.txt)
#   3. diffusion2d against twins built with nvcc -fmad=false (no fma contraction, as Julia)
#   4. juke_launch (public API, kernel from the on-disk cache) vs raw cuLaunchKernel (bench/launch_api.c)
#   5. the language suite (tests/lang) on the cuda device, and a timeline with device spans (trace_check.py)
#   6. SASS of juke's kernels (ptxas -O3 of its PTX) and of the nvcc twins
#   7. the Python package with PyTorch tensors (bench/python_h200.py): checks through DLPack, the fused
#      broadcast vs PyTorch eager, matmul (cuBLAS) vs torch.matmul
#   8. the CPU device against its C twins on this machine's CPU (bench/cpu_device.c built here with gcc
#      -O3 -fopenmp -march=native, the kernels from the disk cache), three runs each with every core, 8 and 2
# Results go to $OUT (or ./h200-out): env.txt acceptance.txt bench1.txt bench2.txt bench_i32.txt nofma.txt
# launch_api.txt lang_cuda.txt trace_cuda.json trace_check.txt sass.txt python.txt cpu_device.txt
# The whole run takes over 10 minutes, more than one device command may: H200_PARTS names the parts to run
# (default all): acceptance bench bench32 nofma launch lang sass python cpu, e.g.
#   H200_PARTS="acceptance bench32 launch lang python" OUT=$OUT bash bench/h200_run.sh
set -uo pipefail
PARTS=" ${H200_PARTS:-acceptance bench bench32 nofma launch lang sass python cpu} "
want() { [[ $PARTS == *" $1 "* ]]; }
OUT=${OUT:-h200-out}
mkdir -p "$OUT"
H=build-h200
export LD_LIBRARY_PATH=$PWD/$H/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
{
    date -u; uname -r; nproc
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu --format=csv
    $NVCC --version | tail -2
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
# the twins, compiled here with nvcc -O3 (fall back to the cubin built beside juke)
CUBIN=/tmp/twins.cubin
if ! $NVCC -O3 -arch=sm_90 -cubin -Xptxas -v -o $CUBIN bench/twins.cu > /tmp/nvcc.txt 2>&1; then
    cat /tmp/nvcc.txt; CUBIN=$H/twins.cubin
fi
echo "twins: $CUBIN" >> "$OUT/env.txt"
grep -E "Compiling|Used" /tmp/nvcc.txt | paste - - | sed 's/ptxas info *: //g' >> "$OUT/env.txt"
want acceptance && $H/bin/h200_acceptance $H/acc cuda 2>&1 | tee "$OUT/acceptance.txt"
if want bench; then
    $H/bin/h200_bench $H/ptx $CUBIN 100 2>&1 | tee "$OUT/bench1.txt"
    $H/bin/h200_bench $H/ptx $CUBIN 100 mdvc > "$OUT/bench2.txt" 2>&1
    grep -v RESULT "$OUT/bench2.txt"
fi
# the 32-bit-index variants (build-h200/ptx32, what juke_launch picks for arrays of < 2^31
# elements), twice: memcopy, diffusion2d and the bounds-checked kernels against the same twins
if want bench32; then
    for run in 1 2; do
        echo "== 32-bit-index variants, run $run" >> "$OUT/bench_i32.txt"
        $H/bin/h200_bench $H/ptx32 $CUBIN 100 mdc >> "$OUT/bench_i32.txt" 2>&1
    done
    grep -v RESULT "$OUT/bench_i32.txt"
fi
if want nofma && $NVCC -O3 -fmad=false -arch=sm_90 -cubin -o /tmp/twins_nofma.cubin bench/twins.cu; then
    echo "diffusion2d against nvcc -O3 -fmad=false twins (the nvcc columns)" > "$OUT/nofma.txt"
    $H/bin/h200_bench $H/ptx /tmp/twins_nofma.cubin 100 d >> "$OUT/nofma.txt" 2>&1
    grep -v RESULT "$OUT/nofma.txt"
fi
want launch && JUKE_CACHE_DIR=$H/cache $H/bin/launch_api bench/jl/empty.jl 201 256 2>&1 | tee "$OUT/launch_api.txt"
# the language suite (tests/lang) on the cuda device, its kernels from the disk cache
if want lang; then
    JUKE_CACHE_DIR=$H/cache JUKE_SOURCE_ROOT=$PWD $H/bin/lang_gpu --device cuda > "$OUT/lang_cuda.txt" 2>&1
    grep -E '^\[  (PASSED|FAILED) ' "$OUT/lang_cuda.txt"
    # a host program's own cuMemAlloc buffers wrapped (juke_array_wrap), launched through a kernel handle
    JUKE_CACHE_DIR=$H/cache $H/bin/wrap_buffers examples/vadd.jl 2>&1 | tee "$OUT/wrap_buffers.txt"
    # a timeline on the GPU: kernels' device spans from CUDA events, each inside its synchronisation
    JUKE_TRACE=$OUT/trace_cuda.json JUKE_CACHE_DIR=$H/cache $H/bin/launch_api bench/jl/empty.jl 5 20 > /dev/null 2>&1
    python3 tests/trace_check.py "$OUT/trace_cuda.json" --expect 'empty!' --contained > "$OUT/trace_check.txt" 2>&1 &&
        echo "trace on cuda: schema and containment pass" | tee -a "$OUT/trace_check.txt" ||
        { echo "trace on cuda: FAILED"; cat "$OUT/trace_check.txt"; }
fi
want sass && {
    for f in $H/sass/*.cubin; do echo "=== juke $(basename $f)"; cuobjdump -sass "$f" | grep -E '^\s+/\*[0-9a-f]{4}\*/' ; done
    for k in memcopy_f64 memcopy_f32 diffusion2d_f64 diffusion2d_f32 memcopy_f64_i64 diffusion2d_f64_i64 empty_kernel; do
        echo "=== nvcc $k"; cuobjdump -sass -fun $k $CUBIN | grep -E '^\s+/\*[0-9a-f]{4}\*/'
    done
} > "$OUT/sass.txt" 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >> "$OUT/env.txt" 2>&1
# the Python package on PyTorch tensors, its kernels from the disk cache
want python && JUKE_CACHE_DIR=$H/cache PYTHONPATH=$PWD/$H/python python3 bench/python_h200.py 2>&1 | tee "$OUT/python.txt"
if want cpu; then
    cflags="-O3 -fopenmp -march=native -ffp-contract=off"
    gcc $cflags -c bench/cpu_twins.c -o /tmp/cpu_twins.o &&
        gcc $cflags -Iinclude bench/cpu_device.c /tmp/cpu_twins.o $H/lib/libjuke.so.0 -lm -o /tmp/cpu_device || echo "cpu: build failed"
    {
        echo "# gcc $(gcc -dumpfullversion) $cflags; $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores"
        for th in $(nproc) 8 2; do
            for run in 1 2 3; do
                echo "== $th threads, run $run"
                JUKE_CPU_THREADS=$th OMP_NUM_THREADS=$th JUKE_CACHE_DIR=$H/cache /tmp/cpu_device bench/cpu/kernels.jl 1
            done
        done
    } > "$OUT/cpu_device.txt" 2>&1
    grep -E "^(#|==)|RESULT" "$OUT/cpu_device.txt"
fi
echo "h200_run: done"
