#!/usr/bin/env python3
"""Summarizes a before/after file from runs.sh: per configuration, each jar's runs, mean, and the
new/base ratio of the means and of each round's pair."""
import statistics
import sys
from collections import defaultdict

runs = defaultdict(lambda: defaultdict(list))
aborts = defaultdict(lambda: defaultdict(list))
for line in open(sys.argv[1]):
    parts = [p.strip() for p in line.split('|')]
    if len(parts) < 5 or not parts[2]:
        continue
    label, cfg, tp, ab = parts[0], parts[1], parts[2], parts[3]
    runs[cfg][label].append(float(tp.replace(',', '')))
    aborts[cfg][label].append(ab)
print('| configuration | base txn/s (runs) | new txn/s (runs) | new/base, means | per round | aborts base / new |')
print('|---|---|---|---|---|---|')
for cfg, by in runs.items():
    b, n = by['base'], by['new']
    pairs = ['%.2f' % (x / y) for x, y in zip(n, b)]
    print('| %s | %s (%s) | %s (%s) | %.2f× | %s | %s / %s |' % (
        cfg, '{:,.0f}'.format(statistics.mean(b)), ', '.join('%.0fK' % (x / 1e3) for x in b),
        '{:,.0f}'.format(statistics.mean(n)), ', '.join('%.0fK' % (x / 1e3) for x in n),
        statistics.mean(n) / statistics.mean(b), ' '.join(pairs),
        ' '.join(aborts[cfg]['base']), ' '.join(aborts[cfg]['new'])))
