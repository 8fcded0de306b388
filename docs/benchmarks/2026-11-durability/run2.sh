#!/usr/bin/env bash
set -u
cd "$(dirname "$0")/../../.."
out=${OUT:-/tmp/jato-durability-bench}; mkdir -p $out
d=$out/data
for rep in 1 2 3; do
  for mode in off async durable; do
    rm -rf $d/$mode
    if [[ $mode == off ]]; then extra="--durability off"; else extra="--durable $d/$mode --durability $mode"; fi
    ./jato transfer --accounts 100000 --threads 2 --duration 8 --warmup 2 $extra > $out/r2-$mode-$rep.txt 2>&1
    grep -E "throughput|latency" $out/r2-$mode-$rep.txt | sed "s/^/$mode $rep: /"
  done
done
for th in 8 32; do
  rm -rf $d/g
  ./jato transfer --accounts 100000 --threads $th --duration 8 --warmup 2 --durable $d/g --durability durable > $out/r2-g$th.txt 2>&1
  grep -E "throughput|latency" $out/r2-g$th.txt | sed "s/^/durable threads=$th: /"
done
rm -rf $d
uptime
