#!/usr/bin/env bash
# TPC-C 1W x 2T, cu+ts, 10 s: occ and mvcc from the mvccdelta tree, mvcc from the base commit 3d3230a.
set -u
out=/tmp/mvccbench
for rep in 1 2; do
  seed=$((41 + rep))
  for cfg in mvcc-new occ-new mvcc-base; do
    proto=${cfg%-*}; tree=/work/wt/mvccdelta; [[ $cfg == *-base ]] && tree=/tmp/mvccbase
    (cd $tree && ./jato tpcc --protocol $proto --warehouses 1 --threads 2 --duration 10 --warmup 2 --seed $seed --json $out/$cfg-$rep.json) > $out/$cfg-$rep.txt 2>&1
  done
done
echo done > $out/DONE
