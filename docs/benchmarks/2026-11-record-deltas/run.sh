#!/bin/bash
# Record delta versions under mvcc, before (BEFORE: a built worktree of a029010, the commit before
# them, whose mvcc is what the default, updaterDeltas=false, runs today) and after (this tree with
# --options updaterDeltas=true; when these runs were made the option did not exist yet and deltas
# were always on), interleaved, two rounds, with occ (unchanged) beside them.
#   tpcc: TPC-C cu+ts, 1 warehouse, 1/2/4/8 threads (occ at 1 and 2): payment's three updaters
#         are @Commutative.
#   ycsb: YCSB txn16, theta 0.99, 50% writes, split layout, blind commit-time increments
#         (--writes updater, @Commutative), 1/2/4 threads.
# Usage: BEFORE=/tmp/wt-before docs/benchmarks/2026-11-record-deltas/run.sh tpcc|ycsb OUT_DIR
set -uo pipefail
before="${BEFORE:?set BEFORE to a built worktree of the commit before record deltas}"
after="$(cd "$(dirname "$0")/../../.." && pwd)"
workload="${1:?tpcc or ycsb}"
out="${2:?OUT_DIR}"
mkdir -p "$out"
case "$workload" in
  tpcc) threads="1 2 4 8"; args=(tpcc --warehouses 1); prefix="" ;;
  ycsb) threads="1 2 4"; args=(ycsb --mix txn16 --theta 0.99 --write-ratio 0.5 --layout split --writes updater)
        prefix="ycsb-" ;;
  *) echo "workload must be tpcc or ycsb" >&2; exit 2 ;;
esac
for round in 1 2; do
  for t in $threads; do
    for v in before after occ; do
      if [ "$workload" = tpcc ] && [ "$v" = occ ] && [ "$t" -gt 2 ]; then continue; fi
      dir="$after"; p=(--protocol mvcc --options updaterDeltas=true)
      [ "$v" = before ] && { dir="$before"; p=(--protocol mvcc); }
      [ "$v" = occ ] && p=(--protocol occ)
      name="$out/$prefix$v-$([ "$workload" = tpcc ] && echo 1w)${t}t-r$round.txt"
      (cd "$dir" && ./jato "${args[@]}" "${p[@]}" --threads "$t" --duration 10 --warmup 3 --seed 42 \
          > "$name" 2>&1) || true
    done
  done
done
