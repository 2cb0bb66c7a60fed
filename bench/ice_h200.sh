#!/bin/bash
# ice_h200.sh: the MPI shallow-ice solver on the GPU machine, from the repository root, after
# bench/prepare_ice_h200.sh (or prepare_h200.sh) made build-h200/ here. Runs, each a timing run of
# ITERS PT iterations of one implicit step (--maxiter) at NX x NY cells per rank (halo included):
#   ice_1rank.txt   1 rank on the cuda device
#   ice_2ranks.txt  2 ranks sharing that GPU (a 2x1 topology), halo through host buffers unless
#                   the MPI is CUDA-aware (the report's first table line says which)
#   ice_check.txt   a small 1-rank vs 2-rank comparison on the GPU (bitwise agreement expected)
# The carried OpenMPI (OPAL_PREFIX=build-h200/mpi, the ranks' libmpi is that one), else the system's.
# Results go to $OUT (default h200-out).
set -uo pipefail
OUT=${OUT:-h200-out}
H=${H:-build-h200}
NX=${NX:-4098} NY=${NY:-4098} ITERS=${ITERS:-2000} DEVICE=${DEVICE:-cuda}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$PWD/$H/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export JUKE_CACHE_DIR=${JUKE_CACHE_DIR:-$PWD/$H/cache}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# the carried PMIx looks for its plugins at Debian's absolute path: its compression plugin is missing there
export PMIX_MCA_pcompress_base_silence_warning=1
if [ -x $H/mpi/bin/mpirun ]; then
    export OPAL_PREFIX=$PWD/$H/mpi
    export LD_LIBRARY_PATH=$OPAL_PREFIX/lib/x86_64-linux-gnu/openmpi/lib:$LD_LIBRARY_PATH
    export PATH=$OPAL_PREFIX/bin:$PATH # mpirun starts orted by name
    MPIRUN=$OPAL_PREFIX/bin/mpirun
else
    MPIRUN=$(command -v mpirun)
fi
echo "mpirun: $MPIRUN" | tee "$OUT/ice_env.txt"
"$MPIRUN" --version 2>&1 | head -1 | tee -a "$OUT/ice_env.txt"
run() { "$MPIRUN" --allow-run-as-root --oversubscribe --mca btl self,vader "$@"; }
common=(--device "$DEVICE" --nx "$NX" --ny "$NY" --nt 1 --dt 0.1 --maxiter "$ITERS" --ncheck 1000)
run -np 1 $H/bin/ice_mpi "${common[@]}" 2>&1 | tee "$OUT/ice_1rank.txt"
run -np 2 $H/bin/ice_mpi "${common[@]}" 2>&1 | tee "$OUT/ice_2ranks.txt"
mkdir -p "$OUT/ice_ref"
run -np 1 $H/bin/ice_mpi --device "$DEVICE" --global 258 --nt 2 --dt 0.1 --quiet --out "$OUT/ice_ref" > "$OUT/ice_check.txt" 2>&1
run -np 2 $H/bin/ice_mpi --device "$DEVICE" --global 258 --nt 2 --dt 0.1 --quiet \
    --compare "$OUT/ice_ref/H_0002.npy" >> "$OUT/ice_check.txt" 2>&1
cat "$OUT/ice_check.txt"
