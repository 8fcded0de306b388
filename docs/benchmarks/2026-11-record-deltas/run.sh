#!/bin/bash
# Record delta versions under mvcc: TPC-C cu+ts (payment's warehouse, district and customer
# updaters are @Commutative), before (a worktree of the commit before them, BEFORE=dir) and after
# (this tree), interleaved, plus occ (unchanged by the change) for the ratio at 1 and 2 threads.
# Usage: BEFORE=/tmp/wt-before docs/benchmarks/2026-11-record-deltas/run.sh OUT_DIR
set -uo pipefail
before="${BEFORE:?set BEFORE to a built worktree of the commit before record deltas}"
after="$(cd "$(dirname "$0")/../../.." && pwd)"
out="${1:?OUT_DIR}"
mkdir -p "$out"
for round in 1 2; do
  for t in 1 2 4 8; do
    for v in before after occ; do
      if [ "$v" = occ ] && [ "$t" -gt 2 ]; then continue; fi
      dir="$after"; p=mvcc
      [ "$v" = before ] && dir="$before"
      [ "$v" = occ ] && p=occ
      (cd "$dir" && ./jato tpcc --protocol "$p" --warehouses 1 --threads "$t" --duration 10 --warmup 3 \
          --seed 42 > "$out/$v-1w${t}t-r$round.txt" 2>&1) || true
    done
  done
done
