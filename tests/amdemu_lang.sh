#!/bin/sh
# amdemu_lang.sh TEST_LANG ARCH [OPT]: the language suite (tests/lang) through the
# AMD ISA emulator (--device amdemu:ARCH): the real HIP backend and the real
# code objects (every run compiled at -OOPT when OPT is given). Passes when
# every file passes except those listed below (with why), and says which of
# those now pass, so the list only shrinks.
test_lang=$1
arch=$2
opt=${3:+--opt $3}
# file (as test_lang names it) and why it does not run here
known="
"
# at -O0 only: code a GPU runs differently from the CPU device when LLVM does not optimise it
[ "${3:-3}" = 0 ] && known="$known
barrier_rounds.jl same_place_barrier!: the barrier sits in a function called from both branches of a divergent if; at -O0 the call stays, so a wave's lanes reach s_barrier one branch after the other (as on the GPU; from -O1 the branches merge)
"
out=$("$test_lang" --device "amdemu:$arch" $opt 2>&1)
failed=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([^ ]*\.jl\)$/\1/p' | sort -u)
status=0
for f in $failed; do
    if ! printf '%s\n' "$known" | grep -q "^$f "; then
        printf '%s\n' "$out" | grep -A12 "RUN      \] $f\$" | head -14
        echo "amdemu_lang: $f fails on amdemu:$arch"
        status=1
    fi
done
printf '%s\n' "$known" | while read -r f why; do
    [ -n "$f" ] || continue
    if printf '%s\n' "$failed" | grep -qx "$f"; then
        echo "amdemu_lang: not run on amdemu:$arch: $f ($why)"
    else
        echo "amdemu_lang: $f now passes on amdemu:$arch: remove it from the list in $0"
    fi
done
printf '%s\n' "$out" | grep -E '^\[  PASSED  \]|test\(s\) run'
exit $status
