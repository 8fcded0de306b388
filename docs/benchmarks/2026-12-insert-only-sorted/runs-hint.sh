#!/usr/bin/env bash
# TPC-C full mix, occ, 1 W x 1 T, 10 s: base (a5cae35), io (insert-only sorted maps) and hint (io and the put hint),
# rotating order, 4 rounds. Usage: BASE=dir IO=dir HINT=dir runs-hint.sh (worktrees of the builds)
set -u
out=$(dirname "$0")/runs-hint.txt; : > $out
builds=(base io hint)
for r in 1 2 3 4; do
  for j in 0 1 2; do
    b=${builds[$(( (j + r) % 3 ))]}
    case $b in base) d=$BASE;; io) d=$IO;; hint) d=$HINT;; esac
    res=$(cd $d && ./jato tpcc --warehouses 1 --threads 1 --duration 10 2>&1)
    tp=$(echo "$res" | grep '^throughput' | awk '{print $2}')
    no=$(echo "$res" | grep '^  new-order' | awk '{print $2, $5}')
    sl=$(echo "$res" | grep '^  stock-level' | awk '{print $2, $5}')
    gc=$(echo "$res" | grep '^gc' | sed 's/.*measuring: //')
    ck=$(echo "$res" | grep '^check' | awk '{print $2}')
    echo "r$r $b tp=$tp no=[$no] sl=[$sl] gc=[$gc] $ck" >> $out
  done
done
echo done >> $out
