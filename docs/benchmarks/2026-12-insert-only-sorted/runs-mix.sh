#!/usr/bin/env bash
# Base (main before insert-only sorted maps) and new, alternating: TPC-C one read-side type alone (--mix stock-level|delivery|order-status), occ, 1W x 1T, 5 s, 3 rounds.
# Usage: BASE=dir NEW=dir runs-mix.sh (each dir a worktree of its build; writes next to this script)
set -u
out=$(dirname "$0")/runs-mix.txt; : > $out
for r in 1 2 3; do
 for mix in stock-level delivery order-status; do
  for b in base new; do
   d=$BASE; [ $b = new ] && d=$NEW
   res=$(cd $d && ./jato tpcc --warehouses 1 --threads 1 --duration 5 --mix $mix 2>&1)
   tp=$(echo "$res" | grep '^throughput' | awk '{print $2}')
   p50=$(echo "$res" | grep '^latency' | awk '{print $3}')
   echo "r$r $mix $b tp=$tp p50=$p50" >> $out
  done
 done
done
echo done >> $out
