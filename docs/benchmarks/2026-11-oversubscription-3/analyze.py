#!/usr/bin/env python3
"""Summarizes the runs of runs.sh (one or more files): per label (jar), workload, protocol and
interrupt setting, the median throughput at 2, 4 and 8 threads and the 4- and 8-thread medians over
the 2-thread median, with the range of the per-round ratios (each round runs the three thread
counts back to back). Lines carry a leading label column and a trailing per-second series."""
import re
import statistics
import sys
from collections import defaultdict

runs = defaultdict(dict)
checks = set()
for path in sys.argv[1:]:
    text = open(path).read()
    # The runner's progress line 'checking...' also matches the script's '^check' grep: join the
    # line break it puts into the check column.
    text = re.sub(r'\|\s*\n(OK|FAILED):', r'| \1', text)
    for line in text.splitlines():
        parts = [p.strip() for p in line.split('|')]
        if len(parts) < 9:
            continue
        label, kind, rnd, proto, threads, intr, tp, ab, ck = parts[:9]
        if not tp:
            continue
        runs[(label, kind, proto, intr)][(int(rnd), int(threads))] = float(tp.replace(',', ''))
        checks.add(ck)


def fmt(x):
    return '%.2fM' % (x / 1e6) if x >= 1e6 else '%.1fK' % (x / 1e3)


print('checks seen:', ', '.join(sorted(checks)))
print()
print('| jar | workload | protocol | interrupt | 2 threads: median (range) | 4 threads | 8 threads | 4/2 (rounds) | 8/2 (rounds) |')
print('|---|---|---|---|---|---|---|---|---|')
for (label, kind, proto, intr), byrt in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][3], kv[0][0])):
    rounds = sorted({r for r, _ in byrt})
    cols = []
    med = {}
    for t in (2, 4, 8):
        v = [byrt[(r, t)] for r in rounds if (r, t) in byrt]
        med[t] = statistics.median(v)
        cols.append('%s (%s–%s)' % (fmt(med[t]), fmt(min(v)), fmt(max(v))))
    ratios = []
    for t in (4, 8):
        rr = [byrt[(r, t)] / byrt[(r, 2)] for r in rounds if (r, t) in byrt and (r, 2) in byrt]
        ratios.append('%.2f× (%.2f–%.2f)' % (med[t] / med[2], min(rr), max(rr)))
    print('| %s | %s | %s | %s | %s | %s |' % (label, kind, proto, intr, ' | '.join(cols), ' | '.join(ratios)))
