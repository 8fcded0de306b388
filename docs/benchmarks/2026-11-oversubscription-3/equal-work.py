#!/usr/bin/env python3
"""From the per-second series of runs.sh's TPC-C lines: throughput at equal database size. TPC-C
grows its tables with every new-order (and GC cost with them), so a 2-thread run at second 16 has a
larger database than an 8-thread run at second 16. Here each run's throughput is averaged over the
whole seconds in which its cumulative count of committed transactions stays within [LO, HI)
(default 0.6M-1.0M, counted from the start of the warm-up); the table gives the medians over rounds
and the 8/2 ratio."""
import re
import statistics
import sys
from collections import defaultdict

lo, hi = 0.6e6, 1.0e6
win = defaultdict(lambda: defaultdict(list))
for path in sys.argv[1:]:
    text = re.sub(r'\|\s*\n(OK|FAILED):', r'| \1', open(path).read())
    for line in text.splitlines():
        p = [x.strip() for x in line.split('|')]
        if len(p) < 10 or p[1] != 'tpcc' or not p[9]:
            continue
        cum, secs = 0.0, []
        for v in (float(x.replace(',', '')) for x in p[9].split()):
            if lo <= cum and cum + v <= hi:
                secs.append(v)
            cum += v
        if len(secs) >= 2:
            win[(p[0], p[3], p[5])][int(p[4])].append(statistics.mean(secs))

print('| jar | protocol | interrupt | 2 threads | 8 threads | 8/2 |')
print('|---|---|---|---|---|---|')
for key in sorted(win):
    b = win[key]
    if 2 in b and 8 in b:
        m2, m8 = statistics.median(b[2]), statistics.median(b[8])
        print('| %s | %s | %s | %.1fK | %.1fK | %.2f× |' % (key[0], key[1], key[2], m2 / 1e3, m8 / 1e3, m8 / m2))
