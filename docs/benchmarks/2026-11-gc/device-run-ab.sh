#!/usr/bin/env bash
# A/B on the device: core JMH micro benchmarks for c4a7afb (before issue 12), head, and head with
# Entry unpadded ("nopad"); G1 (default) and ParallelGC; each JVM pinned to its own 2 CPUs, all
# variants at once, CPU sets rotated between rounds. Then TPC-C runner G1 vs Parallel.
set -u
cd "$(dirname "$0")/.."
tar xJf jrt25.tar.xz
J="$PWD/jrt25/bin/java"
cd ab
{ nproc; grep -m1 'model name' /proc/cpuinfo; lscpu | grep -E 'Thread|Core|Socket|NUMA node'; "$J" -version 2>&1; } > "$OUT/machine.txt" 2>&1
M='CounterBenchmark.counterAdd$|RecordBenchmark.recordRead2|RecordBenchmark.recordRead4|RecordBenchmark.recordUpdate|ReadOnlySumBenchmark.readOnlySum'
variants=("c4a.jar:" "head.jar:" "nopad.jar:" "head.jar:-XX:+UseParallelGC" "nopad.jar:-XX:+UseParallelGC")
names=(c4a head nopad head-par nopad-par)
for round in 0 1; do
  pids=()
  for i in "${!variants[@]}"; do
    slot=$(( (i + round * 2) % 5 ))
    cpus="$((slot * 2)),$((slot * 2 + 1))"
    jar="${variants[$i]%%:*}"; opt="${variants[$i]#*:}"
    taskset -c "$cpus" "$J" -jar "$jar" "$M" -jvm "$J" -f 2 -wi 3 -w 1 -i 5 -r 1 ${opt:+-jvmArgsAppend "$opt"} \
        -rf json -rff "$OUT/jmh-${names[$i]}-r$round.json" > "$OUT/jmh-${names[$i]}-r$round.txt" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  echo "round $round done $(date +%T)"
done
for round in 0 1; do
  for wl in "--warehouses 1 --threads 1" "--warehouses 2 --threads 2"; do
    pids=()
    i=0
    for v in "head-runner.jar:" "head-runner.jar:-XX:+UseParallelGC" "nopad-runner.jar:" "nopad-runner.jar:-XX:+UseParallelGC"; do
      slot=$(( (i + round) % 4 ))
      cpus="$((slot * 2)),$((slot * 2 + 1))"
      jar="${v%%:*}"; opt="${v#*:}"
      tag="tpcc-$(echo "$wl" | tr -d ' -' )-${jar%.jar}${opt:+-par}-r$round"
      taskset -c "$cpus" "$J" $opt -jar "$jar" tpcc $wl --duration 10 --warmup 3 > "$OUT/$tag.txt" 2>&1 &
      pids+=($!); i=$((i + 1))
    done
    wait "${pids[@]}"
  done
  echo "tpcc round $round done $(date +%T)"
done
cd "$OUT" && for f in jmh-*.txt; do echo "== $f"; grep -E '^(Counter|Record|ReadOnly)' "$f"; done > summary.txt
for f in tpcc-*.txt; do echo "$f $(grep -E '^throughput' "$f")"; done >> summary.txt
cat summary.txt
