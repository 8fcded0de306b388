#!/usr/bin/env python3
"""From the per-second series of runs.sh's TPC-C lines: for each jar, protocol, interrupt setting
and thread count, the median over rounds of the mean throughput in seconds 4-9 of the run (the
window the second page measured: 3-s warm-up, 6-s run) and in seconds 16-21 (this page's window),
and the 8/2-thread ratio in each window."""
import re
import statistics
import sys
from collections import defaultdict

win = defaultdict(lambda: defaultdict(list))
for path in sys.argv[1:]:
    text = re.sub(r'\|\s*\n(OK|FAILED):', r'| \1', open(path).read())
    for line in text.splitlines():
        p = [x.strip() for x in line.split('|')]
        if len(p) < 10 or p[1] != 'tpcc' or not p[9]:
            continue
        s = [float(x.replace(',', '')) for x in p[9].split()]
        key = (p[0], p[3], p[5])
        win[key][int(p[4])].append((statistics.mean(s[3:9]), statistics.mean(s[15:21])))

print('| jar | protocol | interrupt | s 4–9: 2 / 8 threads | 8/2 | s 16–21: 2 / 8 threads | 8/2 |')
print('|---|---|---|---|---|---|---|')
for key in sorted(win):
    byt = win[key]
    early = {t: statistics.median(v[0] for v in byt[t]) for t in byt}
    late = {t: statistics.median(v[1] for v in byt[t]) for t in byt}
    print('| %s | %s | %s | %.1fK / %.1fK | %.2f× | %.1fK / %.1fK | %.2f× |' % (
        key[0], key[1], key[2], early[2] / 1e3, early[8] / 1e3, early[8] / early[2],
        late[2] / 1e3, late[8] / 1e3, late[8] / late[2]))
