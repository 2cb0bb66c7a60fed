#!/usr/bin/env bash
# Run one libFuzzer target for a time budget on a working copy of its seed
# corpus, keeping what it finds.
#   tests/fuzz/run.sh BUILD_DIR TARGET SECONDS [libFuzzer options...]
# TARGET: parse, frontend, compile, launch, npy or cache. The working corpus grows in
# BUILD_DIR/fuzz-corpus/TARGET (seeded from tests/fuzz/corpus/ each run);
# crashes, leaks, timeouts and findings land in BUILD_DIR/fuzz-artifacts/TARGET/.
# Exits non-zero when the target found something (libFuzzer's status).
set -euo pipefail
build=$1 target=$2 secs=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
case $target in
    npy) seeds=$here/corpus/npy; maxlen=4096 ;;
    cache) seeds=$here/corpus/cache; maxlen=16384 ;;
    launch) seeds=$here/corpus/launch; maxlen=4096 ;;
    *) seeds=$here/corpus/kernels; maxlen=4096 ;;
esac
work=$build/fuzz-corpus/$target
art=$build/fuzz-artifacts/$target
mkdir -p "$work" "$art"
cp -n "$seeds"/* "$work"/ 2>/dev/null || true
# The regressions are seeds too: their neighbourhood is where bugs were.
if ls "$here/regressions/$target"/* >/dev/null 2>&1; then
    cp -n "$here/regressions/$target"/* "$work"/ 2>/dev/null || true
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec "$build/tests/fuzz_$target" -max_total_time="$secs" -max_len=$maxlen -timeout=20 -rss_limit_mb=3072 \
    -print_final_stats=1 -artifact_prefix="$art/" "$@" "$work"
