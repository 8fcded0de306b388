#!/usr/bin/env bash
# TPC-C and YCSB with logging off, async and durable, back to back; then recovery times.
# For docs/benchmarks/2026-11-durability.md ("TPC-C and YCSB"). Raw lines: runs3.txt.
set -u
cd "$(dirname "$0")/../../.."
out=${OUT:-/tmp/jato-durability-bench3}; mkdir -p $out
d=$out/data
for rep in 1 2 3; do
  for mode in off async durable; do
    rm -rf $d/t-$mode
    extra=""; [[ $mode != off ]] && extra="--durable $d/t-$mode --durability $mode"
    ./jato tpcc --threads 2 --duration 10 --warmup 2 $extra --json $out/tpcc-$mode-$rep.json > $out/tpcc-$mode-$rep.txt 2>&1
    grep -E "throughput|abort rate|^latency|check" $out/tpcc-$mode-$rep.txt | cut -c1-160 | sed "s/^/tpcc $mode $rep: /"
  done
  for mode in off async durable; do
    rm -rf $d/y-$mode
    extra=""; [[ $mode != off ]] && extra="--durable $d/y-$mode --durability $mode"
    ./jato ycsb --mix txn16 --records 100000 --threads 2 --duration 10 --warmup 2 $extra --json $out/ycsb-$mode-$rep.json > $out/ycsb-$mode-$rep.txt 2>&1
    grep -E "throughput|abort rate|^latency|check" $out/ycsb-$mode-$rep.txt | cut -c1-160 | sed "s/^/ycsb $mode $rep: /"
  done
done
# Recovery: a TPC-C store after 5 s and after 20 s of async logging (no checkpoint but the load's),
# then with a checkpoint taken at the end (--checkpoint 1 over a 20 s run).
for secs in 5 20; do
  rm -rf $d/r$secs
  ./jato tpcc --threads 2 --duration $secs --warmup 0 --durable $d/r$secs --durability async > $out/rec-$secs-write.txt 2>&1
  du -sb $d/r$secs | sed "s/^/recovery $secs s: dir bytes /"
  ls -la $d/r$secs | grep -c jlog | sed "s/^/recovery $secs s: segments /"
  ./jato tpcc --threads 1 --duration 0.2 --warmup 0 --durable $d/r$secs --durability async > $out/rec-$secs-read.txt 2>&1
  grep -o "store recovered: .* in [0-9]* ms" $out/rec-$secs-read.txt | sed "s/^/recovery $secs s: /"
done
rm -rf $d/rc
./jato tpcc --threads 2 --duration 20 --warmup 0 --durable $d/rc --durability async --checkpoint 5 > $out/rec-ck-write.txt 2>&1
du -sb $d/rc | sed "s/^/recovery checkpointed: dir bytes /"
./jato tpcc --threads 1 --duration 0.2 --warmup 0 --durable $d/rc --durability async > $out/rec-ck-read.txt 2>&1
grep -o "store recovered: .* in [0-9]* ms" $out/rec-ck-read.txt | sed "s/^/recovery checkpointed: /"
rm -rf $d
