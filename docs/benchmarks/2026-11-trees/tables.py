#!/usr/bin/env python3
"""Markdown tables for 2026-11-trees.md from run.sh's JSON reports: tables.py OUT_DIR."""
import glob
import json
import os
import statistics
import sys

CONFIGS = ["occ", "tictoc", "mvcc", "2pl", "maat", "tebaldi-2-layer", "tebaldi-3-layer"]
SETTINGS = [("w1t2", "1 W × 2 T"), ("w2t2", "2 W × 2 T"), ("w1t4", "1 W × 4 T"), ("w1t8", "1 W × 8 T")]
TYPES = ["new-order", "payment", "order-status", "delivery", "stock-level"]

runs = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    base = os.path.basename(f)[:-5]
    name, setting, rnd = base.rsplit("-", 2)
    runs.setdefault((name, setting), []).append(json.load(open(f)))


def conflict_rate(stm):
    """Aborted attempts other than the workload's own rollbacks, as % of attempts."""
    aborts = stm["aborts"] - stm.get("aborts_by_cause", {}).get("USER_ABORT", 0)
    return 100.0 * aborts / stm["starts"] if stm["starts"] else 0.0


def med(xs):
    return statistics.median(xs) if xs else float("nan")


print("| setting | configuration | throughput txn/s (runs → median) | conflict aborts, % of attempts (median) | checks |")
print("|---|---|---|---|---|")
for s, label in SETTINGS:
    for c in CONFIGS:
        rs = runs.get((c, s), [])
        if not rs:
            continue
        tp = [r["throughput_txn_per_s"] for r in rs]
        ab = [conflict_rate(r["stm"]) for r in rs]
        ok = all(r["check"]["passed"] if isinstance(r["check"], dict) and "passed" in r["check"] else True for r in rs)
        runs_txt = ", ".join(f"{x / 1000:.0f}K" for x in tp)
        print(f"| {label} | {c} | {runs_txt} → **{med(tp) / 1000:.0f}K** | {med(ab):.2f}% | {'OK' if ok else 'FAILED'} |")
print()
for s, label in SETTINGS:
    print(f"### {label}: per type, conflict aborts % of attempts (medians)\n")
    print("| configuration | " + " | ".join(TYPES) + " |")
    print("|---|" + "---|" * len(TYPES))
    for c in CONFIGS:
        rs = runs.get((c, s), [])
        if not rs:
            continue
        cells = []
        for t in TYPES:
            cells.append(f"{med([conflict_rate(r['per_type'][t]['stm']) for r in rs if t in r['per_type']]):.2f}")
        print(f"| {c} | " + " | ".join(cells) + " |")
    print()
