#!/usr/bin/env python3
"""Markdown tables for 2026-11-read-mostly.md from run.sh's JSON reports: tables.py OUT_DIR ROUNDS."""
import json
import os
import statistics
import sys

out = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
PROTOCOLS = ["occ", "tictoc", "mvcc"]


def load(r, setting, p):
    f = os.path.join(out, f"r{r}-{setting}-{p}.json")
    return json.load(open(f)) if os.path.exists(f) else None


def conflict(stm):
    a = stm["aborts"] - stm.get("aborts_by_cause", {}).get("USER_ABORT", 0)
    return 100.0 * a / stm["starts"] if stm["starts"] else 0.0


def spread(values, fmt):
    return fmt(statistics.median(values)) + " (" + fmt(min(values)) + "–" + fmt(max(values)) + ")"


def table(settings, label, kind):
    ro = "stock-level" if kind == "tpcc" else "audit"
    print(f"| {label} | occ txn/s | tictoc txn/s | mvcc txn/s | mvcc / occ | {ro} aborts occ / tictoc / mvcc"
          f" | {ro} p50 µs occ / tictoc / mvcc | gc while measuring occ / mvcc |")
    print("|---|---|---|---|---|---|---|---|")
    for s in settings:
        runs = {p: [load(r, s, p) for r in range(1, rounds + 1)] for p in PROTOCOLS}
        runs = {p: [x for x in v if x is not None] for p, v in runs.items()}
        if any(not v for v in runs.values()):
            continue
        tp = {p: [x["throughput_txn_per_s"] for x in runs[p]] for p in PROTOCOLS}
        ratio = [m / o for m, o in zip(tp["mvcc"], tp["occ"])]
        ab = " / ".join(f"{statistics.median(conflict(x['per_type'][ro]['stm']) for x in runs[p]):.2f}%"
                        for p in PROTOCOLS)
        lat = " / ".join(f"{statistics.median(x['per_type'][ro]['latency_us']['p50'] for x in runs[p]):.1f}"
                         for p in PROTOCOLS)
        gc = " / ".join(f"{statistics.median(x['heap']['gc']['time_ms'] for x in runs[p]):,.0f} ms"
                        for p in ("occ", "mvcc"))
        k = lambda v: f"{v / 1000:,.1f}K"
        print(f"| {s} | {spread(tp['occ'], k)} | {spread(tp['tictoc'], k)} | {spread(tp['mvcc'], k)}"
              f" | {spread(ratio, lambda v: f'{v:.2f}')} | {ab} | {lat} | {gc} |")
    print()


table(["w1t1", "w1t2", "w2t2"], "TPC-C read-mostly, setting", "tpcc")
table(["audits50-t1", "audits50-t2", "audits90-t1", "audits90-t2"], "bank, audits and threads", "bank")
