#!/usr/bin/env bash
# Base (main before insert-only maps) and new, alternating, 2 rounds: YCSB txn16 as compare.sh runs
# it (10M rows, coarse records, read-modify-write, occ) and TPC-C (occ). Usage: runs.sh BASE_DIR NEW_DIR OUT
set -u
base=$1 new=$2 out=$3
ycsb() { # dir theta writes threads
  (cd "$1" && ./jato ycsb --mix txn16 --theta "$2" --write-ratio "$3" --records 10m --layout coarse --writes rmw \
     --protocol occ --threads "$4" --duration 10 2>/dev/null | grep -E '^(throughput|abort rate|check)' | tr -s ' ' | tr '\n' ' ')
}
tpcc() { # dir warehouses threads mode
  (cd "$1" && ./jato tpcc --warehouses "$2" --threads "$3" --mode "$4" --duration 10 2>/dev/null | grep -E '^(throughput|abort rate|check)' | tr -s ' ' | tr '\n' ' ')
}
for round in 1 2; do
  for cfg in "B 0.8 0.05 1" "B 0.8 0.05 2" "A 0.99 0.5 1" "A 0.99 0.5 2"; do
    set -- $cfg
    for build in base new; do
      [ $round = 2 ] && { [ $build = base ] && b=new || b=base; } || b=$build
      dir=$base; [ $b = new ] && dir=$new
      echo "round=$round build=$b ycsb$1 t=$4 $(ycsb $dir $2 $3 $4)" | tee -a "$out"
    done
  done
  for cfg in "1 1 base" "1 2 base" "2 2 base" "1 1 cu+ts"; do
    set -- $cfg
    for build in base new; do
      [ $round = 2 ] && { [ $build = base ] && b=new || b=base; } || b=$build
      dir=$base; [ $b = new ] && dir=$new
      echo "round=$round build=$b tpcc w=$1 t=$2 $3 $(tpcc $dir $1 $2 $3)" | tee -a "$out"
    done
  done
done
