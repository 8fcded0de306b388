#!/bin/bash
# Alternating YCSB B and A at 1 thread: /work/main at 465b4d6 ("main") against a throwaway
# worktree /tmp/exp with node-hash.diff applied ("exp"), as run for 2026-12-tried.md.
for r in 1 2 3; do
  for cfg in "B --theta 0.8 --write-ratio 0.05" "A --theta 0.99 --write-ratio 0.5"; do
    name=${cfg%% *}; args=${cfg#* }
    if [ $((r%2)) = 1 ]; then order="main exp"; else order="exp main"; fi
    for x in $order; do d=/work/main; [ $x = exp ] && d=/tmp/exp
      echo "$r $name $x $(cd $d && ./jato ycsb --mix txn16 $args --records 10m --layout coarse --writes rmw --protocol occ --threads 1 --warmup 3 --duration 10 2>&1 | grep -E '^(throughput|abort rate|heap|gc)' | tr -s ' ' | tr '\n' ' ')"
    done
  done
done
