#!/usr/bin/env bash
# Recovery times of TPC-C stores for docs/benchmarks/2026-11-durability.md (run after 155e355).
cd "$(dirname "$0")/../../.."
d=${OUT:-/tmp/jato-recovery}; mkdir -p $d
for secs in 0.1 5 10 20; do
  rm -rf $d/r$secs
  ./jato tpcc --threads 2 --duration $secs --warmup 0 --durable $d/r$secs --durability async > ${OUT:-/tmp/jato-recovery}/rec-$secs-write.txt 2>&1
  echo "recovery $secs s: log bytes $(cat $d/r$secs/*.jlog | wc -c) checkpoint bytes $(cat $d/r$secs/*.cmap | wc -c)"
  ./jato tpcc --threads 1 --duration 0.2 --warmup 0 --durable $d/r$secs --durability async > ${OUT:-/tmp/jato-recovery}/rec-$secs-read.txt 2>&1
  grep -o "store recovered: .* in [0-9]* ms" ${OUT:-/tmp/jato-recovery}/rec-$secs-read.txt | sed "s/^/recovery $secs s: /"
done
rm -rf $d/rc
./jato tpcc --threads 2 --duration 20 --warmup 0 --durable $d/rc --durability async --checkpoint 5 > ${OUT:-/tmp/jato-recovery}/rec-ck-write.txt 2>&1
echo "recovery checkpointed: log bytes $(cat $d/rc/*.jlog | wc -c) checkpoint bytes $(cat $d/rc/*.cmap | wc -c)"
./jato tpcc --threads 1 --duration 0.2 --warmup 0 --durable $d/rc --durability async > ${OUT:-/tmp/jato-recovery}/rec-ck-read.txt 2>&1
grep -o "store recovered: .* in [0-9]* ms" ${OUT:-/tmp/jato-recovery}/rec-ck-read.txt | sed "s/^/recovery checkpointed: /"
