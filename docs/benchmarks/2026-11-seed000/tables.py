#!/usr/bin/env python3
"""Markdown tables for 2026-11-seed000.md from run.sh's tab-separated lines (stdin or a file)."""
import sys

PROTOCOLS = ["occ", "tictoc", "2pl", "2pl-no-wait", "swisstm", "adaptive"]
THREADS = ["1", "2", "4", "8"]
WORKLOADS = [("ycsb-txn16", "coarse", "split"), ("tpcc-1w", "base", "ts")]

rows = {}
for line in (open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin):
    f = line.rstrip("\n").split("\t")
    if len(f) == 7:
        rows[(f[0], f[1], f[2], f[3])] = (f[4], f[5], f[6])


def cell(wl, v, p, t):
    tput, abort, check = rows.get((wl, v, p, t), ("NA", "NA", "missing"))
    if tput == "NA":
        return "n/a (" + check + ")"
    mark = "" if check == "ok" else " FAILED"
    return f"{int(tput):,} ({float(abort):.2f}%){mark}"


for wl, a, b in WORKLOADS:
    print(f"### {wl}: throughput in txn/s (abort rate)\n")
    print("| protocol | variant | " + " | ".join(t + " T" for t in THREADS) + " |")
    print("|---|---|" + "---|" * len(THREADS))
    for v in (a, b):
        for p in PROTOCOLS:
            print(f"| {p} | {v} | " + " | ".join(cell(wl, v, p, t) for t in THREADS) + " |")
    print()
    print(f"### {wl}: {b} / {a} throughput\n")
    print("| protocol | " + " | ".join(t + " T" for t in THREADS) + " |")
    print("|---|" + "---|" * len(THREADS))
    for p in PROTOCOLS:
        out = []
        for t in THREADS:
            x, y = rows.get((wl, a, p, t)), rows.get((wl, b, p, t))
            if x and y and x[0] != "NA" and y[0] != "NA" and int(x[0]) > 0:
                out.append(f"{int(y[0]) / int(x[0]):.2f}")
            else:
                out.append("n/a")
        print(f"| {p} | " + " | ".join(out) + " |")
    print()
