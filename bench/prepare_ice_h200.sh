#!/bin/bash
# prepare_ice_h200.sh [OUT]: the MPI shallow-ice solver (examples/ice) for a GPU machine that has
# no LLVM and maybe no MPI, into OUT (default build-h200; bench/prepare_h200.sh calls it):
#   bin/ice_mpi, bin/ice.jl   the runtime-only build's solver and its kernels
#   cache/                     the kernels compiled for sm_90 (JUKE_CACHE_DIR there)
#   mpi/                       Debian's OpenMPI relocated (OPAL_PREFIX=OUT/mpi): bin/mpirun, orted,
#                              its lib/ tree with the MCA plugins, share/openmpi (help texts)
#   lib/                       the shared libraries of both that a bare machine may lack
# Run there with bench/ice_h200.sh. Needs build-bench/juke (or $JUKE) and build-bench-rt.
set -euo pipefail
cd "$(dirname "$0")/.."
O=${1:-build-h200}
J=${JUKE:-./build-bench/juke}
RT=${RT:-build-bench-rt}
(test -d $RT || meson setup $RT -Dcompiler=false >/dev/null) && ninja -C $RT examples/ice_mpi >/dev/null
mkdir -p $O/bin $O/lib $O/cache $O/mpi/bin $O/mpi/share
cp $RT/examples/ice_mpi examples/ice/ice.jl $O/bin/
cp -L $RT/libjuke.so.0 $O/lib/
M='Matrix{Float64}' V='Vector{Float64}' F=Float64
while read -r fn types; do
    # shellcheck disable=SC2086
    JUKE_CACHE_DIR=$O/cache $J compile --target sm_90 -o /dev/null $O/bin/ice.jl "$fn" $types
done <<KERNELS
diffusivity! $M $M $F $F
residual! $M $M $M $M $M $M $M $F $F $F $F
update! $M $M $M $F $F $F $F
pack_x! $V $M Int64
unpack_x! $M $V Int64
rowmax! $V $M
KERNELS
# OpenMPI: Debian's prefix is /usr, its libdir /usr/lib/x86_64-linux-gnu/openmpi/lib: the same
# relative layout under mpi/ lets OPAL_PREFIX find the plugins, orted and the help texts.
ml=lib/x86_64-linux-gnu/openmpi
mkdir -p $O/mpi/$ml
cp -a /usr/lib/x86_64-linux-gnu/openmpi/lib $O/mpi/$ml/
rm -rf $O/mpi/$ml/lib/pkgconfig $O/mpi/$ml/lib/libmpi_java.so* $O/mpi/$ml/lib/openmpi3/mca_*java*
cp -L /usr/bin/orterun $O/mpi/bin/mpirun
cp -L /usr/bin/orted $O/mpi/bin/
cp -a /usr/share/openmpi $O/mpi/share/
# every library these load, but the C library's own (always there)
for f in $O/bin/ice_mpi $RT/libjuke.so.0 $O/mpi/bin/* $O/mpi/$ml/lib/*.so $O/mpi/$ml/lib/openmpi3/*.so; do
    { ldd "$f" 2>/dev/null || true; } | awk '/=> \// {print $3}'
done | sort -u | grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libresolv|libutil)\.so' |
    grep -v -E "$PWD|/juke" | while read -r lib; do cp -L -n "$lib" $O/lib/ 2>/dev/null || true; done
du -sh $O/mpi $O/lib $O/bin $O/cache
