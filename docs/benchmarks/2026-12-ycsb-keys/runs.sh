#!/usr/bin/env bash
# YCSB txn16 on 10M rows as the STO comparison runs it (coarse records, read-modify-write, occ,
# 1 thread), with scrambled and with ranked Zipf keys, back to back, the order alternating per round.
set -u
cd "$(dirname "$0")/../../.."   # repository root
rounds=${ROUNDS:-2}
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then order="scrambled ranked"; else order="ranked scrambled"; fi
  for mix in "A 0.99 0.5" "B 0.8 0.05"; do
    set -- $mix
    for k in $order; do
      line=$(./jato ycsb --mix txn16 --theta "$2" --write-ratio "$3" --records 10m --layout coarse --writes rmw \
          --protocol occ --threads 1 --duration 10 --warmup 3 --keys "$k" 2>&1 | grep -E "^(throughput|check) " \
          | tr -s ' ' | cut -c1-60 | tr '\n' ' ')
      echo "round=$r ycsb$1 keys=$k | $line"
    done
  done
done
