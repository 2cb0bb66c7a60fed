#!/bin/sh
# Compile time and peak RSS of generated huge kernels (bench/gen_big_kernel.py)
# for each target, shape and statement count: the median of RUNS runs of
#   /usr/bin/time -v juke compile --target T -o OUT big.jl big! Vector{Float32} Float32
# Usage: bench/big_kernels.sh [JUKE] ; env SIZES, SHAPES, TARGETS, RUNS.
# Prints a Markdown table: shape, target, statements, wall seconds, CPU seconds
# (user + system: steadier than wall time on a shared machine), peak RSS MiB.
set -eu
here=$(dirname "$0")
juke=${1:-build/juke}
sizes=${SIZES:-"1000 2000 5000 10000 20000"}
shapes=${SHAPES:-"straight ifelse"}
targets=${TARGETS:-"cpu gfx90a"}
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| shape | target | statements | wall s | CPU s | peak RSS MiB |"
echo "|---|---|---:|---:|---:|---:|"
for shape in $shapes; do
  for n in $sizes; do
    python3 "$here/gen_big_kernel.py" "$shape" "$n" > "$tmp/big.jl"
    for t in $targets; do
      : > "$tmp/times"
      r=0
      while [ "$r" -lt "$runs" ]; do
        /usr/bin/time -v "$juke" compile --target "$t" -o "$tmp/out" "$tmp/big.jl" 'big!' 'Vector{Float32}' Float32 \
          2> "$tmp/err" || { echo "| $shape | $t | $n | FAILED | |"; sed 's/^/    /' "$tmp/err" | tail -3 >&2; break; }
        s=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/err" | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
        kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/err")
        u=$(sed -n 's/.*User time (seconds): //p' "$tmp/err")
        y=$(sed -n 's/.*System time (seconds): //p' "$tmp/err")
        echo "$s $kb $u $y" >> "$tmp/times"
        r=$((r + 1))
      done
      [ -s "$tmp/times" ] || continue
      # medians taken separately for each column
      for col in 1 2 3; do
        awk -v c="$col" '{ print (c == 3 ? $3 + $4 : $c) }' "$tmp/times" | sort -n |
          awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
      done | tr '\n' ' ' | awk -v shape="$shape" -v t="$t" -v n="$n" \
        '{ printf "| %s | %s | %d | %.2f | %.2f | %.0f |\n", shape, t, n, $1, $3, $2 / 1024 }'
    done
  done
done
