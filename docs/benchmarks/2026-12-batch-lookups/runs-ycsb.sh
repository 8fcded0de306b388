#!/usr/bin/env bash
# YCSB txn16 as compare.sh runs it (10M rows, coarse records, read-modify-write, occ): prev (1d636eb)
# and new (batch lookups), alternating, reversed in even rounds. Usage: PREV=dir NEW=dir runs-ycsb.sh ROUNDS
set -u
out=$(dirname "$0")/runs-ycsb.txt; : > $out
for r in $(seq 1 $1); do
 for cfg in "B 0.8 0.05 1" "A 0.99 0.5 1" "B 0.8 0.05 2" "A 0.99 0.5 2"; do
  set -- $cfg
  for b in prev new; do
    [ $((r % 2)) = 0 ] && { [ $b = prev ] && b=new || b=prev; }
    d=$PREV; [ $b = new ] && d=$NEW
    res=$(cd $d && ./jato ycsb --mix txn16 --theta $2 --write-ratio $3 --records 10m --layout coarse --writes rmw --protocol occ --threads $4 --duration 10 2>&1)
    tp=$(echo "$res" | grep '^throughput' | awk '{print $2}')
    ab=$(echo "$res" | grep '^abort rate' | awk '{print $3}')
    ck=$(echo "$res" | grep '^check ' | awk '{print $2}')
    echo "r$r ycsb$1 t$4 $b tp=$tp ab=$ab $ck" >> $out
  done
 done
done
