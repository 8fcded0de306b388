#!/usr/bin/env python3
"""Markdown tables for 2026-11-mvcc-idle.md from run.sh's JSON reports: tables.py OUT_DIR."""
import json
import os
import sys

out = sys.argv[1]
PROTOCOLS = ["occ", "tictoc", "mvcc"]
TPCC = [f"{m}-w{w}t{t}" for m in ("base", "cu+ts") for w, t in ((1, 1), (1, 2), (2, 2))]
YCSB = [f"theta{th}-w{wr}-t{t}" for th, wr in (("0.99", "0.5"), ("0.8", "0.05")) for t in (1, 2)]


def load(wl, setting, p):
    f = os.path.join(out, f"{wl}-{setting}-{p}.json")
    return json.load(open(f)) if os.path.exists(f) else None


def conflict(stm):
    a = stm["aborts"] - stm.get("aborts_by_cause", {}).get("USER_ABORT", 0)
    return 100.0 * a / stm["starts"] if stm["starts"] else 0.0


def table(wl, settings, label):
    print(f"| {label} | occ txn/s | tictoc txn/s | mvcc txn/s | mvcc / occ | conflict aborts occ / tictoc / mvcc | stock-level aborts occ / mvcc | heap used at end occ / mvcc (MiB) | gc while measuring occ / mvcc |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in settings:
        r = {p: load(wl, s, p) for p in PROTOCOLS}
        if any(v is None for v in r.values()):
            continue
        tp = {p: r[p]["throughput_txn_per_s"] for p in PROTOCOLS}
        ab = " / ".join(f"{conflict(r[p]['stm']):.2f}%" for p in PROTOCOLS)
        if "stock-level" in r["occ"].get("per_type", {}):
            sl = " / ".join(f"{conflict(r[p]['per_type']['stock-level']['stm']):.2f}%" for p in ("occ", "mvcc"))
        else:
            sl = "—"
        heap = " / ".join(f"{r[p]['heap']['used_bytes'] / 2**20:,.0f}" for p in ("occ", "mvcc"))
        gc = " / ".join(f"{r[p]['heap']['gc']['time_ms']:,} ms" for p in ("occ", "mvcc"))
        print(f"| {s} | {tp['occ']:,.0f} | {tp['tictoc']:,.0f} | {tp['mvcc']:,.0f} | {tp['mvcc'] / tp['occ']:.2f} | {ab} | {sl} | {heap} | {gc} |")
    print()


table("tpcc", TPCC, "TPC-C mode, setting")
table("ycsb", YCSB, "YCSB txn16 setting")
