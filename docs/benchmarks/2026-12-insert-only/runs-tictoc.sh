#!/usr/bin/env bash
# TicToc before (e1858b8: insert-only maps, tictoc still reads their keys with entries) and after
# (entry-free lookups under tictoc too), alternating, 2 rounds. Usage: runs-tictoc.sh BEFORE_DIR AFTER_DIR OUT
set -u
before=$1 after=$2 out=$3
ycsb() { (cd "$1" && ./jato ycsb --mix txn16 --theta "$2" --write-ratio "$3" --records 10m --layout coarse --writes rmw \
     --protocol tictoc --threads "$4" --duration 10 2>/dev/null | grep -E '^(throughput|abort rate|check)' | tr -s ' ' | tr '\n' ' '); }
tpcc() { (cd "$1" && ./jato tpcc --protocol tictoc --warehouses "$2" --threads "$3" --mode base --duration 10 2>/dev/null \
     | grep -E '^(throughput|abort rate|check)' | tr -s ' ' | tr '\n' ' '); }
for round in 1 2; do
  order="before after"; [ $round = 2 ] && order="after before"
  for cfg in "B 0.8 0.05 1" "B 0.8 0.05 2" "A 0.99 0.5 1" "A 0.99 0.5 2"; do
    set -- $cfg
    for b in $order; do
      dir=$before; [ $b = after ] && dir=$after
      echo "round=$round build=$b tictoc ycsb$1 t=$4 $(ycsb $dir $2 $3 $4)" | tee -a "$out"
    done
  done
  for cfg in "1 1" "2 2"; do
    set -- $cfg
    for b in $order; do
      dir=$before; [ $b = after ] && dir=$after
      echo "round=$round build=$b tictoc tpcc w=$1 t=$2 base $(tpcc $dir $1 $2)" | tee -a "$out"
    done
  done
done
