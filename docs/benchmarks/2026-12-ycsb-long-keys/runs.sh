#!/bin/bash
# The A/B of docs/benchmarks/2026-12-ycsb-long-keys.md: YCSB txn16 as compare.sh runs it (10M rows,
# coarse records, read-modify-write, occ), base (a worktree at the commit before) and new (this
# repository) back to back, for 2 rounds.
# usage: runs.sh OUT BASE_DIR NEW_DIR ROUNDS
out=$1; base=$2; new=$3; rounds=$4
for r in $(seq "$rounds"); do
 for cfg in "0.8 0.05 1" "0.8 0.05 2" "0.99 0.5 1" "0.99 0.5 2"; do
  set -- $cfg
  for v in base new; do
    if [ $v = base ]; then d=$base; else d=$new; fi
    res=$(cd "$d" && ./jato ycsb --mix txn16 --theta $1 --write-ratio $2 --records 10m --layout coarse \
          --writes rmw --protocol occ --threads $3 --duration 10 2>&1)
    t=$(echo "$res" | grep -E "^throughput" | awk '{print $2}')
    a=$(echo "$res" | grep -E "^abort rate" | awk '{print $3}')
    h=$(echo "$res" | grep -E "^heap" | sed 's/.*end; //; s/ live.*//')
    c=$(echo "$res" | grep -cE "^check +OK")
    echo "$r theta=$1 t=$3 $v $t aborts=$a live=$h ok=$c" >> "$out"
  done
 done
done
