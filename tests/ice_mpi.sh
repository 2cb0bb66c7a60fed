#!/usr/bin/env bash
# The MPI shallow-ice solver (examples/ice) on CPU devices: 1 rank writes the
# reference; 2 ranks (halo staged through host buffers) and 4 ranks (MPI on
# the arrays' memory) must agree with it to round-off (1e-12 relative); the
# linear-diffusion case must match its analytic decay within its stated bound.
# usage: ice_mpi.sh ICE_MPI MPIRUN
set -euo pipefail
ice=$(realpath "$1")
mpirun=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# OpenMPI refuses root without these, and containers lack its single-copy transports.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
# Under AddressSanitizer, LeakSanitizer needs whole stacks to match OpenMPI's
# own allocations to tests/lsan.supp (its libraries have no frame pointers).
if [ -n "${ASAN_OPTIONS:-}" ]; then
    export ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0
fi
run() { "$mpirun" --allow-run-as-root --oversubscribe --mca btl self,vader "$@"; }
common=(--case ice --global 18 --nt 2 --quiet)
run -np 1 "$ice" "${common[@]}" --out one
test -s one/H_0002.npy -a -s one/H_0002.png -a -s one/residual.png -a -s one/residual.txt
run -np 2 "$ice" "${common[@]}" --staged --compare one/H_0002.npy | tee two.txt
grep -q 'staged through host buffers' two.txt
grep -q 'compare with .*: OK' two.txt
run -np 4 "$ice" "${common[@]}" --compare one/H_0002.npy | tee four.txt
grep -q '(2x2)' four.txt
grep -q 'compare with .*: OK' four.txt
run -np 2 "$ice" --case decay --global 18 --nt 2 --dt 1e-3 --quiet | tee decay.txt
grep -q 'decay check: .*: OK' decay.txt
echo "ice_mpi: 1, 2 and 4 ranks agree; the decay case is within its bound"
