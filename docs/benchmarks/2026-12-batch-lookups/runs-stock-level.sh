#!/usr/bin/env bash
# TPC-C, occ, 1 W x 1 T: prev (c9ca504) and new (stock-level batches its stock lookups), alternating,
# reversed in even rounds. Usage: PREV=dir NEW=dir runs-stock-level.sh ROUNDS MIX SECONDS
# (here: 4 stock-level 5, then 2 standard 10); appends to runs-stock-level.txt next to this script.
set -u
rounds=$1 mix=$2 dur=$3
out=$(dirname "$0")/runs-stock-level.txt
for r in $(seq 1 $rounds); do
  for b in prev new; do
    [ $((r % 2)) = 0 ] && { [ $b = prev ] && b=new || b=prev; }
    d=$PREV; [ $b = new ] && d=$NEW
    res=$(cd $d && ./jato tpcc --warehouses 1 --threads 1 --duration $dur --mix $mix 2>&1)
    tp=$(echo "$res" | grep '^throughput' | awk '{print $2}')
    sl=$(echo "$res" | grep '^  stock-level' | awk '{print $2, $5}')
    p50=$(echo "$res" | grep '^latency' | awk '{print $3}')
    ck=$(echo "$res" | grep '^check ' | awk '{print $2}')
    echo "$mix r$r $b tp=$tp p50=$p50 stock-level=[$sl] check=$ck" >> $out
  done
done
