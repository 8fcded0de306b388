#!/bin/bash
out=/tmp/bench/tpcc.txt; : > $out
for rep in 1 2 3; do
for cfg in "--protocol occ --threads 2" "--protocol occ --threads 4" "--protocol tictoc --threads 4" "--protocol occ --threads 4 --interrupt"; do
for b in base new; do
  r=$(cd /tmp/bench && java -jar /tmp/bench/$b.jar tpcc --warehouses 1 $cfg --warmup 5 --duration 10 --seed 42 2>&1)
  tp=$(echo "$r" | grep '^throughput' | awk '{print $2}'); ab=$(echo "$r" | grep '^abort rate' | awk '{print $3}')
  ck=$(echo "$r" | grep '^check' | awk '{print $2}')
  echo "$b | $cfg | $tp | $ab | $ck" >> $out
done; done; done
echo DONE >> $out
