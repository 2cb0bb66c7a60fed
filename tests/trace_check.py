#!/usr/bin/env python3
"""Check a juke trace (Chrome/Perfetto Trace Event Format JSON) against its schema.

usage: trace_check.py TRACE [--expect NAME]... [--contained]
Every event has name, ph, ts, pid, tid; "X" events have dur >= 0; "M" events
name a process or a thread and every (pid, tid) used by an "X" event is named.
--expect NAME: an event of that name must appear. --contained: the i-th
kernel (cat "kernel") lies inside [start of the i-th launch, end of the first
synchronisation that ends after that launch] (one launching thread).
Exit status 0 when the trace passes, 1 with the reasons on stderr."""
import json
import sys


def main(argv):
    path, expect, contained = argv[1], [], False
    i = 2
    while i < len(argv):
        if argv[i] == '--expect':
            expect.append(argv[i + 1])
            i += 2
        elif argv[i] == '--contained':
            contained = True
            i += 1
        else:
            raise SystemExit('unknown argument ' + argv[i])
    with open(path) as f:
        doc = json.load(f)
    bad = []
    evs = doc.get('traceEvents') if isinstance(doc, dict) else None
    if not isinstance(evs, list):
        bad.append('no traceEvents array')
        evs = []
    procs, threads = set(), set()
    for e in evs:
        for k in ('name', 'ph', 'ts', 'pid', 'tid'):
            if k not in e:
                bad.append('event without %s: %r' % (k, e))
        if not isinstance(e.get('ts'), (int, float)) or e.get('ts', -1) < 0:
            bad.append('bad ts: %r' % e)
        if e.get('ph') == 'M':
            if e.get('name') not in ('process_name', 'thread_name') or not e.get('args', {}).get('name'):
                bad.append('M event names nothing: %r' % e)
            (procs if e['name'] == 'process_name' else threads).add(
                e['pid'] if e['name'] == 'process_name' else (e['pid'], e['tid']))
        elif e.get('ph') == 'X':
            if not isinstance(e.get('dur'), (int, float)) or e['dur'] < 0:
                bad.append('X event without dur >= 0: %r' % e)
        else:
            bad.append('unexpected ph: %r' % e)
    xs = [e for e in evs if e.get('ph') == 'X']
    for e in xs:
        if e['pid'] not in procs or (e['pid'], e['tid']) not in threads:
            bad.append('X event on an unnamed track: %r' % e)
    names = {e['name'] for e in xs}
    for n in expect:
        if n not in names:
            bad.append('no %r event (have: %s)' % (n, ', '.join(sorted(names))))
    if contained:
        launches = sorted((e for e in xs if e.get('cat') == 'launch'), key=lambda e: e['ts'])
        kernels = sorted((e for e in xs if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
        syncs = sorted((e for e in xs if e.get('cat') == 'sync'), key=lambda e: e['ts'])
        if len(kernels) != len(launches) or not kernels:
            bad.append('%d kernels for %d launches' % (len(kernels), len(launches)))
        for la, k in zip(launches, kernels):
            end = la['ts'] + la['dur']
            after = [s for s in syncs if s['ts'] + s['dur'] >= end]
            limit = (after[0]['ts'] + after[0]['dur']) if after else None
            if k['ts'] < la['ts'] or limit is None or k['ts'] + k['dur'] > limit + 1e-3:
                bad.append('kernel %r at %.3f+%.3f outside launch at %.3f .. sync end %s' %
                           (k['name'], k['ts'], k['dur'], la['ts'], limit))
    for b in bad:
        print('trace_check: ' + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
