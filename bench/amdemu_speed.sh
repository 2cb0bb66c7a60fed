#!/bin/sh
# amdemu_speed.sh [BUILD_DIR] [N]: the AMD ISA emulator's speed (docs/amdemu.md):
# vadd of N (default 10^6) Float32 elements, and matmul 256x256, on
# --device amdemu:gfx942, gfx1100 and gfx1201, on one thread and on one per core,
# with the emulator's count of lane-instructions (one instruction on one active
# lane): the rate per second of the launch (wall clock) and per second of CPU
# time (the rate of one core, also on a machine busy with other work).
build=${1:-build}
n=${2:-1000000}
juke=$(cd "$build" && pwd)/juke
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
# .npy files of Float32 without numpy: a header padded to 64 bytes, then the data
python3 - "$n" <<'PY'
import struct, sys, random
def save(path, vals, shape):
    hdr = "{'descr': '<f4', 'fortran_order': True, 'shape': %s, }" % (str(tuple(shape)).replace(',)', ',)'),)
    pad = 64 - (10 + len(hdr) + 1) % 64
    h = (hdr + ' ' * pad + '\n').encode()
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h + struct.pack('<%df' % len(vals), *vals))
n = int(sys.argv[1])
r = random.Random(1)
save('a.npy', [r.random() for _ in range(n)], [n])
save('b.npy', [r.random() for _ in range(n)], [n])
save('c.npy', [0.0] * n, [n])
m = 256
save('ma.npy', [r.random() for _ in range(m * m)], [m, m])
save('mb.npy', [r.random() for _ in range(m * m)], [m, m])
save('mc.npy', [0.0] * (m * m), [m, m])
PY
for arch in gfx942 gfx1100 gfx1201; do
    for threads in 1 ""; do
        echo "vadd, $n elements, $arch, ${threads:-one per core} thread(s):"
        JUKE_AMDEMU_THREADS=$threads JUKE_AMDEMU_STATS=1 "$juke" run --device "amdemu:$arch" --groupsize 256 \
            "$root/tests/kernels/acceptance/vadd.jl" vadd! c.npy a.npy b.npy 2>&1 | grep '^amdemu'
        echo "matmul 256x256, $arch, ${threads:-one per core} thread(s):"
        JUKE_AMDEMU_THREADS=$threads JUKE_AMDEMU_STATS=1 "$juke" run --device "amdemu:$arch" --groupsize 16,16 \
            --gridsize 16,16 "$root/tests/kernels/acceptance/matmul.jl" matmul! mc.npy ma.npy mb.npy 2>&1 | grep '^amdemu'
    done
done
