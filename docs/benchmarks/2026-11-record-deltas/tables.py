#!/usr/bin/env python3
"""Summarizes run.sh's reports: per thread count, each round's throughput, abort rate and
payment's abort rate for before / after (mvcc) and occ, and after/before per round."""
import re
import sys
from pathlib import Path


def read(path):
    text = path.read_text()
    tput = re.search(r"^throughput\s+([\d,]+) txn/s", text, re.M)
    abort = re.search(r"^abort rate\s+([\d.]+)%", text, re.M)
    pay = re.search(r"^  payment\s+[\d,]+\s+[\d.]+%\s+([\d.]+)%", text, re.M)
    ok = re.search(r"^check\s+OK", text, re.M)
    if not (tput and abort and pay and ok):
        return None
    return int(tput.group(1).replace(",", "")), float(abort.group(1)), float(pay.group(1))


def main(out):
    runs = {}
    for p in Path(out).glob("*.txt"):
        m = re.match(r"(before|after|occ)-1w(\d+)t-r(\d+)\.txt", p.name)
        if m:
            runs[(m.group(1), int(m.group(2)), int(m.group(3)))] = read(p)
    print("| threads | round | before (mvcc) txn/s, aborts, payment aborts | after (mvcc) | after / before | occ | after / occ |")
    print("|---|---|---|---|---|---|---|")
    for t in sorted({k[1] for k in runs}):
        for r in sorted({k[2] for k in runs if k[1] == t}):
            b, a, o = runs.get(("before", t, r)), runs.get(("after", t, r)), runs.get(("occ", t, r))
            cell = lambda x: "failed" if x is None else f"{x[0]:,}, {x[1]:.2f}%, {x[2]:.2f}%"
            ratio = f"{a[0] / b[0]:.2f}" if a and b else "-"
            occ = cell(o) if ("occ", t, r) in runs else "-"
            occ_ratio = f"{a[0] / o[0]:.2f}" if a and o else "-"
            print(f"| {t} | {r} | {cell(b)} | {cell(a)} | {ratio} | {occ} | {occ_ratio} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "runs")
