#!/bin/sh
# The acceptance kernels are part of the product's contract: the project keeps
# its own copy (tests/kernels/acceptance) so that a bare clone passes its
# tests. When the contract's original sits beside the project
# (../shared/acceptance), the copy must be identical to it.
root=${1:?usage: acceptance_copy.sh SOURCE_ROOT}
orig=$root/../shared/acceptance
copy=$root/tests/kernels/acceptance
[ -d "$copy" ] || { echo "missing $copy"; exit 1; }
if [ ! -d "$orig" ]; then
    echo "no $orig beside the project: nothing to compare"
    exit 77
fi
if diff -r "$orig" "$copy"; then
    echo "tests/kernels/acceptance is identical to ../shared/acceptance"
else
    echo "tests/kernels/acceptance differs from ../shared/acceptance: copy the contract's kernels again"
    exit 1
fi
