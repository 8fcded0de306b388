#!/usr/bin/env bash
# TPC-C, occ, 1 warehouse: prev (1d636eb) and new (batch lookups), alternating, reversed in even rounds.
# Usage: PREV=dir NEW=dir runs-tpcc-1w1t.sh ROUNDS MIX SECONDS THREADS (here: 4 standard 10 1)
set -u
rounds=$1 mix=$2 dur=$3 thr=${4:-1}
out=$(dirname "$0")/runs-tpcc-1w1t.txt; : > $out
for r in $(seq 1 $rounds); do
  for b in prev new; do
    [ $((r % 2)) = 0 ] && { [ $b = prev ] && b=new || b=prev; }
    d=$PREV; [ $b = new ] && d=$NEW
    res=$(cd $d && ./jato tpcc --warehouses 1 --threads $thr --duration $dur --mix $mix 2>&1)
    tp=$(echo "$res" | grep '^throughput' | awk '{print $2}')
    p50=$(echo "$res" | grep '^latency' | awk '{print $3}')
    no=$(echo "$res" | grep '^  new-order' | awk '{print $2, $5}')
    ck=$(echo "$res" | grep '^check ' | awk '{print $2}')
    echo "r$r $b tp=$tp p50=$p50 no=[$no] $ck" >> $out
  done
done
