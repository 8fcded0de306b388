#!/bin/bash
# Interleaved base (e41afb0 + this session's runner) / new runs on this machine.
out=/tmp/bench/all.txt; : > $out
run() { # build label args...
  local b=$1; shift; local d=/work/wt-base; [ $b = new ] && d=/work/main
  local r; r=$(cd /tmp/bench && java -jar /tmp/bench/$b.jar "$@" --seed 42 2>&1)
  local tp ab ck
  tp=$(echo "$r" | grep '^throughput' | awk '{print $2}')
  ab=$(echo "$r" | grep '^abort rate' | awk '{print $3}')
  ck=$(echo "$r" | grep '^check' | awk '{print $2}')
  echo "$b | $* | $tp | $ab | $ck" >> $out
}

for rep in 1 2; do
for p in occ tictoc global-lock; do for t in 2 4 8; do for intr in "" "--interrupt"; do for b in base new; do
  run $b transfer --protocol $p --threads $t --warmup 1 --duration 3 $intr
done; done; done; done; done
for p in occ tictoc; do for t in 2 4 8; do for intr in "" "--interrupt"; do for b in base new; do
  run $b tpcc --warehouses 1 --protocol $p --threads $t --warmup 2 --duration 5 $intr
done; done; done; done
for b in base new; do run $b tpcc --warehouses 1 --threads 1 --warmup 2 --duration 5; done
for b in base new; do run $b tpcc --warehouses 2 --threads 2 --warmup 2 --duration 5; done
for b in base new; do run $b tpcc --warehouses 1 --threads 1 --warmup 2 --duration 5; done
for b in base new; do run $b tpcc --warehouses 2 --threads 2 --warmup 2 --duration 5; done
echo DONE >> $out
