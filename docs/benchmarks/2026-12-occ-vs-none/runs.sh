#!/usr/bin/env bash
# TPC-C at 1 W x 1 T: occ against the none baseline (same transaction code, no concurrency
# control), back to back, the order alternating per round; base and cu+ts modes.
set -u
cd "$(dirname "$0")/../../.."   # repository root
rounds=${ROUNDS:-3}
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then order="none occ"; else order="occ none"; fi
  for mode in base cu+ts; do
    for p in $order; do
      out=$(./jato tpcc --protocol "$p" --mode "$mode" --warehouses 1 --threads 1 --duration 10 --warmup 4 --seed 42 2>&1)
      tput=$(echo "$out" | grep -m1 -E "^throughput" | tr -s ' ')
      gc=$(echo "$out" | grep -m1 -E "^gc " | tr -s ' ' | sed 's/.*while measuring: //')
      chk=$(echo "$out" | grep -m1 -E "^check  " | tr -s ' ' | cut -c1-10)
      echo "round=$r mode=$mode protocol=$p | $tput | gc $gc | $chk"
    done
  done
done
