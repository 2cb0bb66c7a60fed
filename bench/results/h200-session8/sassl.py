#!/usr/bin/env python3
"""sassl.py (RESULTS.md §19): a rough SASS listing of sm_90 cubins without cuobjdump: each 16-byte instruction's opcode (the low
12 bits of its first word) named from SASS listings that carry encodings (cuobjdump -sass output)."""
import re, struct, sys, glob
table = {}
import os
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
for f in glob.glob(root + '/*/raw*/sass.txt') + glob.glob(root + '/*/sass.txt'):
    lines = open(f, errors='replace').read().split('\n')
    for i, l in enumerate(lines):
        m = re.match(r'\s+/\*[0-9a-f]{4}\*/\s+(.*?);\s*/\* (0x[0-9a-f]{16}) \*/', l)
        if m:
            w = int(m.group(2), 16)
            txt = m.group(1).strip()
            op = txt.split()[0] if not txt.startswith('@') else txt.split()[1]
            table.setdefault(w & 0xfff, op)
def sections(data):
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]
    stro = hdrs[shstrndx][4]
    for h in hdrs:
        name = data[stro + h[0]: data.index(b'\0', stro + h[0])].decode()
        yield name, data[h[4]: h[4] + h[5]]
for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    for name, sec in sections(data):
        if not name.startswith('.text.'):
            continue
        ops = []
        for k in range(0, len(sec), 16):
            w, = struct.unpack_from('<Q', sec, k)
            op = table.get(w & 0xfff, '?%03x' % (w & 0xfff))
            if op in ('NOP', 'BRA') and w & 0xfff in (0x918, 0x947):
                continue
            ops.append(op)
        # drop the trailing self-branch and padding
        while ops and ops[-1] in ('BRA', 'NOP'):
            ops.pop()
        print('%s %s: %d' % (path, name, len(ops)))
        print('  ' + ' '.join(ops))
