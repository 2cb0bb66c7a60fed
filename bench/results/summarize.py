#!/usr/bin/env python3
"""summarize.py: the tables of bench/RESULTS.md from the RESULT lines of the
H200 runs (bench/results/h200-run*/bench*.txt): per size, the median over every
pass of every run of each variant's median time, and the spread (min..max)
of the juke/nvcc ratio across passes.  Usage: summarize.py [DIR...]"""
import glob, re, statistics, sys
from collections import defaultdict

dirs = sys.argv[1:] or sorted(glob.glob('bench/results/h200-run*'))
files = [f for d in dirs for f in sorted(glob.glob(d + '/bench*.txt'))]
t = defaultdict(list)          # (kind, T, size, variant) -> [median_us per pass]
for f in files:
    for line in open(f):
        m = re.match(r'RESULT (memcopy|diffusion2d) (\S+) (\d+) (\S+) median_us=([\d.]+)', line)
        if m:
            k, T, n, v, us = m.groups()
            t[(k, T, int(n), v)].append(float(us))

def teff(k, T, n, us):
    es = 8 if T == 'Float64' else 4
    b = 2 * n * es if k == 'memcopy' else (n * n + (n + 2) ** 2) * es
    return b / (us * 1e-6) / 1e9

def label(k, n):
    return f'2^{n.bit_length() - 1}' if k == 'memcopy' else f'{n}²'

print(f'passes: {len(files)} ({", ".join(files)})\n')
for k in ('memcopy', 'diffusion2d'):
    variants = ['juke', 'nvcc', 'nvcc_i64'] + (['memcpy'] if k == 'memcopy' else [])
    hdr = '| T | size | ' + ' | '.join(f'{v} µs' for v in variants) + ' | ' + \
          ' | '.join(f'{v} GB/s' for v in variants) + ' | juke/nvcc (min..max) | juke/nvcc_i64' + \
          (' | juke/memcpy |' if k == 'memcopy' else ' |')
    print(f'### {k}\n')
    print(hdr)
    print('|' + '---|' * (hdr.count('|') - 1))
    for T in ('Float64', 'Float32'):
        for n in sorted({key[2] for key in t if key[0] == k and key[1] == T}):
            med = {v: statistics.median(t[(k, T, n, v)]) for v in variants}
            g = {v: teff(k, T, n, med[v]) for v in variants}
            ratios = [b / a for a, b in zip(t[(k, T, n, 'juke')], t[(k, T, n, 'nvcc')])]
            row = f'| {T} | {label(k, n)} | ' + ' | '.join(f'{med[v]:.2f}' for v in variants) + ' | ' + \
                  ' | '.join(f'{g[v]:.0f}' for v in variants) + \
                  f' | {g["juke"] / g["nvcc"]:.3f} ({min(ratios):.3f}..{max(ratios):.3f}) | {g["juke"] / g["nvcc_i64"]:.3f}'
            if k == 'memcopy':
                row += f' | {g["juke"] / g["memcpy"]:.3f}'
            print(row + ' |')
    print()
