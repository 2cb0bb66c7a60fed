#!/bin/bash
# prepare_h200.sh: everything the H200 run needs, built on this machine (which
# has LLVM but no GPU) into build-h200/ (git-ignored, carried to the device):
#   bin/         h200_acceptance, h200_bench, h200_probe (runtime-only build, -Dcompiler=false)
#   lib/         libmsgpackc.so.2 (the runtime's one shared dependency)
#   acc/         acc_NN.ptx: every acceptance signature, compiled ahead of time for sm_90
#   cpu/         acc_NN.so + .sym: the same for the CPU (to check this program here)
#   ptx/         the benchmark kernels: memcopy_f64/f32, diffusion2d_f64/f32, empty, and the
#                bounds-checked memcopy/diffusion2d (*_checked)
#   ptx32/       the same, each the variant juke_launch picks (--index-bits 32 --small-grid, memcopy
#                also --same-shape)
#   twins.cubin  bench/twins.cu by nvcc -O3 (the run compiles it again there)
#   sass/        juke's PTX compiled by ptxas -O3 to cubins (disassembled there)
#   cache/       the on-disk kernel cache (JUKE_CACHE_DIR) holding empty!(Vector{Float32}) for
#                sm_90, for bench/launch_api.c (juke_launch in the runtime-only build)
#   bin/launch_api, lib/libjuke.so.0 (runtime-only build: front end + API + runtime)
#   bin/lang_gpu, lib/libcmocka.so.0: tests/test_lang against that libjuke, every tests/lang run
#                saved for sm_90 in cache/ (so the language suite runs on the cuda device)
#   bin/wrap_buffers: examples/wrap_buffers.c (cuMemAlloc buffers wrapped, a kernel handle, events)
#   python/juke/ the Python package (runtime-only build) for bench/python_h200.py, its kernels in cache/
#   bin/ice_mpi, mpi/: the MPI shallow-ice solver and a relocated OpenMPI (bench/prepare_ice_h200.sh)
#   cache/ also: bench/cpu/kernels.jl's four kernels for the portable CPU levels (x86-64-v4, -v3) in every
#                launch class, and lib/libgomp.so.1: h200_run.sh's part `cpu` builds bench/cpu_device.c there
#                (gcc -march=native) against the runtime-only libjuke, which cannot compile, on that host's CPU
# Usage: bench/prepare_h200.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
ACC=${JUKE_ACCEPTANCE_DIR:-tests/kernels/acceptance}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
(test -d build-bench || meson setup build-bench >/dev/null) && ninja -C build-bench >/dev/null
(test -d build-bench-rt || meson setup build-bench-rt -Dcompiler=false >/dev/null) && ninja -C build-bench-rt >/dev/null
# --no-cache: every kernel here is compiled afresh (the disk cache's build identity now holds the sources'
# identity, juke_build_id(), so an older juke's entries are not read back; the flag keeps this script
# independent of whatever the cache directory holds)
J=./build-bench/juke
O=build-h200
rm -rf $O && mkdir -p $O/bin $O/lib $O/acc $O/cpu $O/ptx $O/sass $O/cache
cp build-bench-rt/bench/h200_acceptance build-bench-rt/bench/h200_bench build-bench-rt/bench/h200_probe build-bench-rt/bench/launch_api $O/bin/
cp -L build-bench-rt/libjuke.so.0 $O/lib/
cp "$(ldd build-bench-rt/bench/h200_bench | awk '/libmsgpackc/ {print $3}')" $O/lib/
./build-bench-rt/bench/h200_acceptance --list | while read -r idx file fn types; do
    # shellcheck disable=SC2086
    $J compile --no-cache --target sm_90 -o $O/acc/acc_$idx.ptx "$ACC/$file" "$fn" $types
    $J compile --no-cache --target cpu -o $O/cpu/acc_$idx.so "$ACC/$file" "$fn" $types
    sed -n 's/^.*\.entry \([A-Za-z0-9_$]*\)(.*/\1/p' $O/acc/acc_$idx.ptx | head -1 > $O/cpu/acc_$idx.sym
done
$J compile --no-cache --target sm_90 -o $O/ptx/memcopy_f64.ptx "$ACC/memcopy.jl" 'memcopy!' 'Vector{Float64}' 'Vector{Float64}'
$J compile --no-cache --target sm_90 -o $O/ptx/memcopy_f32.ptx "$ACC/memcopy.jl" 'memcopy!' 'Vector{Float32}' 'Vector{Float32}'
$J compile --no-cache --target sm_90 -o $O/ptx/diffusion2d_f64.ptx "$ACC/diffusion2d.jl" 'diffusion2d!' 'Matrix{Float64}' 'Matrix{Float64}' Float64
$J compile --no-cache --target sm_90 -o $O/ptx/diffusion2d_f32.ptx "$ACC/diffusion2d.jl" 'diffusion2d!' 'Matrix{Float32}' 'Matrix{Float32}' Float32
$J compile --no-cache --target sm_90 -o $O/ptx/empty.ptx bench/jl/empty.jl 'empty!' 'Vector{Float32}'
$J compile --no-cache --target sm_90 -o $O/ptx/memcopy_f64_checked.ptx bench/jl/memcopy_checked.jl 'memcopy!' 'Vector{Float64}' 'Vector{Float64}'
$J compile --no-cache --target sm_90 -o $O/ptx/memcopy_f32_checked.ptx bench/jl/memcopy_checked.jl 'memcopy!' 'Vector{Float32}' 'Vector{Float32}'
$J compile --no-cache --target sm_90 -o $O/ptx/diffusion2d_f64_checked.ptx bench/kernels/diffusion2d_checked.jl 'diffusion2d!' 'Matrix{Float64}' 'Matrix{Float64}' Float64
$J compile --no-cache --target sm_90 -o $O/ptx/diffusion2d_f32_checked.ptx bench/kernels/diffusion2d_checked.jl 'diffusion2d!' 'Matrix{Float32}' 'Matrix{Float32}' Float32
# the same kernels as juke_launch picks them for the benchmark's launches: arrays of fewer than 2^31
# elements (--index-bits 32), grids of at most 2^20 workgroups a dimension (--small-grid), and for
# memcopy's two arrays of one shape (--same-shape): h200_run.sh runs h200_bench on this directory too
# (bench_i32.txt)
mkdir -p $O/ptx32
for f in $O/ptx/*.ptx; do
    n=$(basename "$f" .ptx)
    case $n in
        memcopy_f64*) set -- "$ACC/memcopy.jl" 'memcopy!' 'Vector{Float64}' 'Vector{Float64}' ;;
        memcopy_f32*) set -- "$ACC/memcopy.jl" 'memcopy!' 'Vector{Float32}' 'Vector{Float32}' ;;
        diffusion2d_f64*) set -- "$ACC/diffusion2d.jl" 'diffusion2d!' 'Matrix{Float64}' 'Matrix{Float64}' Float64 ;;
        diffusion2d_f32*) set -- "$ACC/diffusion2d.jl" 'diffusion2d!' 'Matrix{Float32}' 'Matrix{Float32}' Float32 ;;
        empty) set -- bench/jl/empty.jl 'empty!' 'Vector{Float32}' ;;
    esac
    case $n in
        memcopy*_checked) set -- bench/jl/memcopy_checked.jl "${@:2}" ;;
        diffusion2d*_checked) set -- bench/kernels/diffusion2d_checked.jl "${@:2}" ;;
    esac
    case $n in
        memcopy*) cls=--same-shape ;;
        *) cls= ;;
    esac
    # shellcheck disable=SC2086
    $J compile --no-cache --target sm_90 --index-bits 32 --small-grid $cls -o $O/ptx32/$n.ptx "$@"
done
# spelled Array{Float32,1}: the launch path keys its cache lookup by that spelling, and the
# cache key is not canonicalised (a `Vector{Float32}` entry is missed at launch)
JUKE_CACHE_DIR=$O/cache $J compile --target sm_90 -o /dev/null bench/jl/empty.jl 'empty!' 'Array{Float32,1}'
# the language suite for the cuda device: every tests/lang run compiled for sm_90 into the
# disk cache, and the suite's runner built against the runtime-only libjuke (bench/lang_gpu)
JUKE_SOURCE_ROOT=$PWD ./build-bench/tests/test_lang --targets sm_90 --cache-dir $O/cache > $O/lang_prepare.txt 2>&1 ||
    { tail -20 $O/lang_prepare.txt; echo "prepare_h200: tests/lang does not compile for sm_90"; }
cp build-bench-rt/bench/lang_gpu build-bench-rt/examples/wrap_buffers $O/bin/
JUKE_CACHE_DIR=$O/cache $J compile --target sm_90 -o /dev/null examples/vadd.jl 'vadd!' 'Vector{Float32}' 'Vector{Float32}' 'Vector{Float32}'
# wrap_buffers' first part runs on the cpu device: the GPU machine's CPU is not this one (a cpu entry is keyed by
# the host CPU), so vadd! for the portable levels, which the runtime-only build there tries when it cannot compile
for lv in x86-64-v3 x86-64-v2; do
    JUKE_CACHE_DIR=$O/cache $J compile --target cpu:$lv -o /dev/null examples/vadd.jl 'vadd!' 'Vector{Float32}' 'Vector{Float32}' 'Vector{Float32}'
done
cp "$(ldd build-bench-rt/bench/lang_gpu | awk '/libcmocka/ {print $3}')" $O/lib/
# the Python package of the runtime-only build (python/: _juke.abi3.so imports into the PyTorch machine's
# CPython whatever its version) and, in the disk cache, every kernel bench/python_h200.py launches, for sm_90
mkdir -p $O/python/juke
cp build-bench-rt/python/juke/*.py build-bench-rt/python/juke/_juke.abi3.so $O/python/juke/
cp "$(ldd build-bench-rt/libjuke.so.0 | awk '/libxxhash/ {print $3}')" $O/lib/
PYTHONPATH=build-bench/python ${PYTHON:-/usr/bin/python3} bench/python_h200.py --prepare $O/cache
$NVCC -O3 -arch=sm_90 -cubin -o $O/twins.cubin bench/twins.cu
for f in $O/ptx/*.ptx $O/ptx32/*.ptx; do
    n=$(basename "$f" .ptx)
    case $f in */ptx32/*) n=${n}_i32 ;; esac
    $PTXAS -arch=sm_90 -O3 -v "$f" -o $O/sass/$n.cubin 2> $O/sass/$n.ptxas.txt
done
# the MPI shallow-ice solver (examples/ice), its sm_90 kernels in cache/, and Debian's OpenMPI
# relocated under mpi/ for a machine without MPI (bench/ice_h200.sh runs it)
JUKE=$J RT=build-bench-rt bench/prepare_ice_h200.sh $O
# the CPU device benchmark (bench/cpu_device.c) on the GPU machine's CPU: its kernels in the disk cache for the
# portable levels that CPU may run, in each class a launch may pick (32-bit indices, arrays of one shape, small
# grids: any combination), under the spelling of the types cpu_device.c asks for
for lv in x86-64-v4 x86-64-v3; do
    for i32 in "" "--index-bits 32"; do
        for ss in "" --same-shape; do
            for sg in "" --small-grid; do
                # shellcheck disable=SC2086
                c() { JUKE_CACHE_DIR=$O/cache $J compile --target cpu:$lv $i32 $ss $sg -o /dev/null bench/cpu/kernels.jl "$@"; }
                c 'memcopy!' 'Vector{Float64}' 'Vector{Float64}'
                c 'diffusion2d!' 'Matrix{Float64}' 'Matrix{Float64}' Float64
                c 'block_sum!' 'Vector{Float32}' 'Vector{Float32}'
                c 'matmul_tiled!' 'Matrix{Float32}' 'Matrix{Float32}' 'Matrix{Float32}'
            done
        done
    done
done
cp "$(gcc -print-file-name=libgomp.so.1)" $O/lib/
# the CPU run of the same program checks the references and the code here
./build-bench-rt/bench/h200_acceptance $O/cpu cpu
du -sh $O
