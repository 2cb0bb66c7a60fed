#!/usr/bin/env bash
# The trace of examples/demo.sh --trace checked against the schema (tests/trace_check.py):
# a compile by stages, a module load, the launch, its kernel on the device inside it, the copies.
# usage: trace_demo.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BUILD_DIR=$(realpath "$1") "$root/examples/demo.sh" --trace "$tmp/demo.json" > "$tmp/out.txt"
python3 "$root/tests/trace_check.py" "$tmp/demo.json" --contained --expect parse --expect infer --expect 'LLVM IR' \
    --expect optimise --expect 'code object' --expect 'module load' --expect 'vadd!' --expect upload --expect download
