#!/bin/bash
# updaterDeltas=contended (ADAPT: a built tree whose updaterDeltas=true behaved as contended does now:
# a group opened only in a retry, joined when open) against main's off and true, interleaved, two rounds.
#   ycsb: txn16 theta 0.99, 50% writes, split layout, blind @Commutative increments, 1 and 2 threads
#   tpcc: cu+ts, 1 warehouse, 4 and 8 threads (payment's updaters are @Commutative)
# Usage: MAIN=/work/main ADAPT=/tmp/bis/exp run.sh ycsb|tpcc OUT_DIR
set -uo pipefail
main="${MAIN:?}"; adapt="${ADAPT:?}"; workload="$1"; out="$2"; mkdir -p "$out"
case "$workload" in
  tpcc) threads="4 8"; args=(tpcc --warehouses 1 --mode cu+ts) ;;
  ycsb) threads="1 2"; args=(ycsb --mix txn16 --theta 0.99 --write-ratio 0.5 --layout split --writes updater) ;;
esac
for round in 1 2; do
  for t in $threads; do
    for v in off on adaptive; do
      dir="$main"; o="updaterDeltas=true"
      [ "$v" = off ] && o="updaterDeltas=false"
      [ "$v" = adaptive ] && dir="$adapt"
      (cd "$dir" && ./jato "${args[@]}" --protocol mvcc --options "$o" --threads "$t" --duration 8 --warmup 3 \
          --seed 42 > "$out/$workload-$v-${t}t-r$round.txt" 2>&1) || true
    done
  done
done
