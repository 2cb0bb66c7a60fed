#!/bin/bash
# usage: cgrun.sh BIN_DIR TAG KERNEL : M instructions per warm compile (N=4 minus N=1, /3)
B=$1; T=$2; K=$3
cd /work/wt/complat4
for N in 1 4; do
  nice valgrind --tool=callgrind --toggle-collect=cold_compile --callgrind-out-file=/tmp/c4/cg/$T.$K.$N $B/compile_latency --loop tests/kernels/acceptance $K gfx90a $N >/dev/null 2>/tmp/c4/cg/$T.$K.$N.err
done
a=$(grep -h "^summary:\|^totals:" /tmp/c4/cg/$T.$K.1 | head -1 | awk '{print $2}')
b=$(grep -h "^summary:\|^totals:" /tmp/c4/cg/$T.$K.4 | head -1 | awk '{print $2}')
echo "$T $K $(python3 -c "print(round(($b-$a)/3e6,3))")"
