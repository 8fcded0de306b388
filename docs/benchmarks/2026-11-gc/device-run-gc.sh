#!/usr/bin/env bash
# Device: the runner on G1 vs Parallel, with and without transparent huge pages; TPC-C 1Wx1T and
# 2Wx2T, YCSB txn16 (theta 0.99, 50% writes, 1M rows) at 2 threads. Four JVMs at once, each pinned
# to its own 2 CPUs, the CPU sets rotated between rounds. Results into $OUT/gc.
set -u
cd "$(dirname "$0")/.."
[[ -d jrt25 ]] || tar xJf jrt25.tar.xz
J="$PWD/jrt25/bin/java"
mkdir -p "$OUT/gc"
{ nproc; grep -m1 'model name' /proc/cpuinfo; lscpu | grep -E 'Thread|Core|Socket'; cat /sys/kernel/mm/transparent_hugepage/enabled; "$J" -version 2>&1; } > "$OUT/gc/machine.txt" 2>&1
cfgs=("-XX:+UseG1GC" "-XX:+UseParallelGC" "-XX:+UseG1GC -XX:+UseTransparentHugePages" "-XX:+UseParallelGC -XX:+UseTransparentHugePages")
names=(g1 par g1-thp par-thp)
for round in 0 1; do
  for wl in "tpcc --warehouses 1 --threads 1" "tpcc --warehouses 2 --threads 2" "ycsb --mix txn16 --theta 0.99 --write-ratio 0.5 --records 1m --threads 2"; do
    pids=()
    for i in 0 1 2 3; do
      slot=$(( (i + round) % 4 + ${SLOT0:-0} ))
      tag="$(echo "$wl" | tr -s ' ' '_' | tr -d '-')-${names[$i]}-r$round"
      taskset -c "$((slot * 2)),$((slot * 2 + 1))" "$J" -Xmx16g ${cfgs[$i]} -jar ab/perf-runner.jar $wl --duration 10 --warmup 3 \
          > "$OUT/gc/$tag.txt" 2>&1 &
      pids+=($!)
    done
    wait "${pids[@]}"
  done
done
cd "$OUT/gc" && for f in *-r*.txt; do echo "$f | $(grep -E '^throughput' "$f" | tr -s ' ') | $(grep -E '^abort rate' "$f" | tr -s ' ') | $(grep -E '^gc' "$f" | tr -s ' ')"; done > summary.txt
cat summary.txt
