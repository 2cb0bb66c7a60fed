#!/usr/bin/env bash
# The demo of README's first command: compile an example kernel, show its
# dumps at every stage, then run it on the best device present (an AMD GPU,
# else an NVIDIA GPU, else the CPU) with random inputs and check the result.
# Run after ./setup.sh; BUILD_DIR picks another build directory.
# --trace FILE: also write a timeline of the run (Chrome/Perfetto trace JSON, see docs/cli.md).
set -euo pipefail
trace=
if [[ ${1:-} == --trace ]]; then
    [[ -n ${2:-} ]] || { echo "usage: examples/demo.sh [--trace FILE]" >&2; exit 2; }
    trace=$(realpath -m "$2")
fi
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
juke=$build/juke
kernel=examples/vadd.jl
types=('Vector{Float32}' 'Vector{Float32}' 'Vector{Float32}')

# show TITLE COMMAND...: print the title and the command (quoted as typed), then run it.
show() {
    printf '\n==== %s ====\n$' "$1"
    local arg
    for arg in "${@:2}"; do
        if [[ $arg =~ ^[A-Za-z0-9_./=:,+-]+$ ]]; then printf ' %s' "$arg"; else printf " '%s'" "$arg"; fi
    done
    printf '\n'
    "${@:2}"
}

show "the kernel" cat "$kernel"
show "lowered IR (@code_lowered)" "$juke" lowered "$kernel" 'vadd!'
show "typed IR (@code_typed)" "$juke" typed "$kernel" 'vadd!' "${types[@]}"
show "optimised LLVM IR for gfx90a (@device_code_llvm)" "$juke" llvm --target gfx90a "$kernel" 'vadd!' "${types[@]}"
show "GCN assembly for gfx90a (@device_code_gcn)" "$juke" gcn --target gfx90a "$kernel" 'vadd!' "${types[@]}"
show "resources on gfx90a" "$juke" resources --target gfx90a "$kernel" 'vadd!' "${types[@]}"
dumps=$(mktemp -d)
trap 'rm -rf "$dumps"' EXIT
show "all dumps and the code object as files" "$juke" compile --target gfx90a --dump-dir "$dumps" \
    -o "$dumps/vadd.hsaco" "$kernel" 'vadd!' "${types[@]}"
ls -l "$dumps"
show "run on the best device present, 1_000_003 random elements" \
    "$build/examples/vadd_host" --no-dumps "$kernel"
if [[ -n $trace ]]; then
    show "the same run, traced into $trace" env JUKE_TRACE="$trace" "$build/examples/vadd_host" --no-dumps "$kernel"
fi
