#!/bin/sh
# The CPU device against C twins (bench/cpu_device.c): builds the driver and the twins with
# gcc -O3 -fopenmp -march=native against BUILD/libjuke.so and runs it. Usage: bench/cpu_device.sh [BUILD] [SCALE [ONLY]]
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cflags="-O3 -fopenmp -march=native -ffp-contract=off"
gcc $cflags -c "$root/bench/cpu_twins.c" -o "$out/twins.o"
gcc $cflags -I"$root/include" "$root/bench/cpu_device.c" "$out/twins.o" -L"$build" -Wl,-rpath,"$build" -ljuke -lm \
    -o "$out/cpu_device"
echo "# gcc $(gcc -dumpfullversion) $cflags; $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores"
"$out/cpu_device" "$root/bench/cpu/kernels.jl" ${2:-1} ${3:-mdbt}
