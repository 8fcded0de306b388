#!/usr/bin/env python3
"""Summarizes runs.txt: per workload, protocol and interrupt setting, the median throughput at 2, 4
and 8 threads, and the 4- and 8-thread medians over the 2-thread median, with the range of the
per-round ratios (each round runs the three thread counts back to back)."""
import re
import statistics
import sys
from collections import defaultdict

text = open(sys.argv[1]).read()
# The runner's progress line 'checking...' also matched the script's '^check' grep: drop the
# line breaks it put into the check column.
text = re.sub(r'\|\s*\n(OK|FAILED):', r'| \1', text)
runs = defaultdict(dict)
checks = set()
for line in text.splitlines():
    parts = [p.strip() for p in line.split('|')]
    if len(parts) < 8:
        continue
    kind, rnd, proto, threads, intr, tp, ab, ck = parts[:8]
    if not tp:
        continue
    runs[(kind, proto, intr)][(int(rnd), int(threads))] = (float(tp.replace(',', '')), ab)
    checks.add(ck)
def fmt(x):
    return '%.2fM' % (x / 1e6) if x >= 1e6 else '%.1fK' % (x / 1e3)


print('checks seen:', ', '.join(sorted(checks)))
print()
print('| workload | protocol | interrupt | 2 threads: median (range) | 4 threads | 8 threads | 4/2 (rounds) | 8/2 (rounds) |')
print('|---|---|---|---|---|---|---|---|')
for (kind, proto, intr), byrt in sorted(runs.items()):
    rounds = sorted({r for r, _ in byrt})
    cols = []
    med = {}
    for t in (2, 4, 8):
        v = [byrt[(r, t)][0] for r in rounds if (r, t) in byrt]
        med[t] = statistics.median(v)
        cols.append('%s (%s–%s)' % (fmt(med[t]), fmt(min(v)), fmt(max(v))))
    ratios = []
    for t in (4, 8):
        rr = [byrt[(r, t)][0] / byrt[(r, 2)][0] for r in rounds if (r, t) in byrt and (r, 2) in byrt]
        ratios.append('%.2f× (%.2f–%.2f)' % (med[t] / med[2], min(rr), max(rr)))
    print('| %s | %s | %s | %s | %s |' % (kind, proto, intr, ' | '.join(cols), ' | '.join(ratios)))
