#!/usr/bin/env bash
# Loaded-guest measurements for docs/benchmarks/2026-11-durability.md
set -u
cd "$(dirname "$0")/../../.."
out=${OUT:-/tmp/jato-durability-bench}; mkdir -p $out
d=$out/data
for rep in 1 2; do
  for mode in off async durable; do
    rm -rf $d/$mode
    if [[ $mode == off ]]; then extra="--durability off"; else extra="--durable $d/$mode --durability $mode"; fi
    ./jato transfer --accounts 100000 --threads 2 --duration 10 --warmup 3 $extra --json $out/t-$mode-$rep.json > $out/t-$mode-$rep.txt 2>&1
    grep -E "throughput|latency" $out/t-$mode-$rep.txt | sed "s/^/$mode $rep: /"
  done
done
# Recovery of a log without checkpoints: write for 30 s (async), then reopen (1 s run).
rm -rf $d/rec
./jato transfer --accounts 100000 --threads 2 --duration 30 --warmup 1 --durable $d/rec --durability async --checkpoint 0 > $out/rec-write.txt 2>&1
du -sb $d/rec
./jato transfer --accounts 100000 --threads 1 --duration 1 --warmup 0 --durable $d/rec --durability async --checkpoint 0 > $out/rec-read.txt 2>&1
grep check $out/rec-read.txt
# Recovery from checkpoints of 1M and 4M accounts (written at load, checkpoint after 3 s).
for n in 1000000 4000000; do
  rm -rf $d/ck$n
  ./jato transfer --accounts $n --threads 2 --duration 6 --warmup 0 --durable $d/ck$n --durability async --checkpoint 3 > $out/ck-$n-write.txt 2>&1
  du -sb $d/ck$n; ls -la $d/ck$n
  ./jato transfer --accounts $n --threads 1 --duration 1 --warmup 0 --durable $d/ck$n --durability async --checkpoint 0 > $out/ck-$n-read.txt 2>&1
  grep check $out/ck-$n-read.txt
done
rm -rf $d
