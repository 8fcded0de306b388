#!/bin/bash
# Record delta versions under mvcc on YCSB txn16 with blind commit-time increments (--writes
# updater: each write is a @Commutative updater on a record group), theta 0.99, 50% writes, split
# layout; before (BEFORE=dir, a built worktree of the commit before record deltas) and after (this
# tree) back to back, two rounds, and occ (unchanged) beside them.
# Usage: BEFORE=/tmp/wt-before docs/benchmarks/2026-11-record-deltas/ycsb.sh OUT_DIR
set -uo pipefail
before="${BEFORE:?set BEFORE to a built worktree of the commit before record deltas}"
after="$(cd "$(dirname "$0")/../../.." && pwd)"
out="${1:?OUT_DIR}"
mkdir -p "$out"
for round in 1 2; do
  for t in 1 2 4; do
    for v in before after occ; do
      dir="$after"; p=mvcc
      [ "$v" = before ] && dir="$before"
      [ "$v" = occ ] && p=occ
      (cd "$dir" && ./jato ycsb --protocol "$p" --mix txn16 --theta 0.99 --write-ratio 0.5 --layout split \
          --writes updater --threads "$t" --duration 10 --warmup 3 --seed 42 \
          > "$out/ycsb-$v-${t}t-r$round.txt" 2>&1) || true
    done
  done
done
