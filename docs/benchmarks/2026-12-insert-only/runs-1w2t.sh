#!/usr/bin/env bash
# TPC-C 1 W x 2 T, base and cu+ts: base/new alternating, 3 more rounds (order flipped per round)
out=$1
tpcc() { (cd "$1" && ./jato tpcc --warehouses 1 --threads 2 --mode "$2" --duration 10 2>/dev/null | grep -E '^(throughput|abort rate|check)' | tr -s ' ' | tr '\n' ' '); }
for round in 3 4 5; do
  for mode in base cu+ts; do
    order="base new"; [ $((round % 2)) = 0 ] && order="new base"
    for b in $order; do
      echo "round=$round build=$b tpcc w=1 t=2 $mode $(tpcc /tmp/s40/$b $mode)" | tee -a "$out"
    done
  done
done
