#!/usr/bin/env python3
"""Views of the per-second series that runs.sh keeps on every TPC-C line (one or more files).

windows: for each jar, protocol, interrupt setting and thread count, the median over rounds of the
  mean throughput in seconds 4-9 of the run (the window the second page measured: 3-s warm-up, 6-s
  run) and in seconds 16-21 (this page's window), and the 8/2-thread ratio in each.
equal-work: throughput at equal database size. TPC-C grows its tables with every new-order (and GC
  cost with them), so each run's throughput is averaged over the whole seconds in which its
  cumulative count of commits (from the start of the warm-up) stays within [0.6M, 1.0M); medians
  over rounds and the 8/2 ratio.

Usage: series.py windows|equal-work FILE..."""
import re
import statistics
import sys
from collections import defaultdict


def series(paths):
    """Yields (jar, protocol, interrupt, threads, per-second throughputs) for every TPC-C line."""
    for path in paths:
        text = re.sub(r'\|\s*\n(OK|FAILED):', r'| \1', open(path).read())
        for line in text.splitlines():
            p = [x.strip() for x in line.split('|')]
            if len(p) < 10 or p[1] != 'tpcc' or not p[9]:
                continue
            yield p[0], p[3], p[5], int(p[4]), [float(x.replace(',', '')) for x in p[9].split()]


def windows(paths):
    win = defaultdict(lambda: defaultdict(list))
    for jar, proto, intr, threads, s in series(paths):
        win[(jar, proto, intr)][threads].append((statistics.mean(s[3:9]), statistics.mean(s[15:21])))
    print('| jar | protocol | interrupt | s 4–9: 2 / 8 threads | 8/2 | s 16–21: 2 / 8 threads | 8/2 |')
    print('|---|---|---|---|---|---|---|')
    for key in sorted(win):
        byt = win[key]
        early = {t: statistics.median(v[0] for v in byt[t]) for t in byt}
        late = {t: statistics.median(v[1] for v in byt[t]) for t in byt}
        print('| %s | %s | %s | %.1fK / %.1fK | %.2f× | %.1fK / %.1fK | %.2f× |' % (
            key[0], key[1], key[2], early[2] / 1e3, early[8] / 1e3, early[8] / early[2],
            late[2] / 1e3, late[8] / 1e3, late[8] / late[2]))


def equal_work(paths, lo=0.6e6, hi=1.0e6):
    win = defaultdict(lambda: defaultdict(list))
    for jar, proto, intr, threads, s in series(paths):
        cum, secs = 0.0, []
        for v in s:
            if lo <= cum and cum + v <= hi:
                secs.append(v)
            cum += v
        if len(secs) >= 2:
            win[(jar, proto, intr)][threads].append(statistics.mean(secs))
    print('| jar | protocol | interrupt | 2 threads | 8 threads | 8/2 |')
    print('|---|---|---|---|---|---|')
    for key in sorted(win):
        b = win[key]
        if 2 in b and 8 in b:
            m2, m8 = statistics.median(b[2]), statistics.median(b[8])
            print('| %s | %s | %s | %.1fK | %.1fK | %.2f× |' % (key[0], key[1], key[2], m2 / 1e3, m8 / 1e3, m8 / m2))


{'windows': windows, 'equal-work': equal_work}[sys.argv[1]](sys.argv[2:])
