#!/usr/bin/env bash
# Base (main before insert-only sorted maps) and new, alternating: TPC-C full mix, occ, 1W x 1T, 1W x 2T, 2W x 2T, 10 s, 3 rounds.
# Usage: BASE=dir NEW=dir runs-tpcc.sh (each dir a worktree of its build; writes next to this script)
set -u
out=$(dirname "$0")/runs-tpcc.txt; : > $out
for r in 1 2 3; do
 for cfg in "1 1" "1 2" "2 2"; do
  set -- $cfg
  for b in base new; do
   d=$BASE; [ $b = new ] && d=$NEW
   res=$(cd $d && ./jato tpcc --warehouses $1 --threads $2 --duration 10 2>&1)
   tp=$(echo "$res" | grep '^throughput' | awk '{print $2}')
   ab=$(echo "$res" | grep '^abort rate' | awk '{print $3}')
   sl=$(echo "$res" | grep '^  stock-level' | awk '{print $2, $5}')
   dl=$(echo "$res" | grep '^  delivery' | awk '{print $2, $5}')
   os=$(echo "$res" | grep '^  order-status' | awk '{print $2, $5}')
   ck=$(echo "$res" | grep '^check' | awk '{print $2}')
   echo "r$r w$1t$2 $b tp=$tp ab=$ab sl=[$sl] dl=[$dl] os=[$os] $ck" >> $out
  done
 done
done
echo done >> $out
