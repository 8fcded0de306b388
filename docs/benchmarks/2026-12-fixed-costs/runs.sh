#!/bin/bash
# Interleaved runs for docs/benchmarks/2026-12-fixed-costs.md.
# JMH: the core benchmarks from three frozen jars, rounds A B C then C B A:
#   c4a7afb (before the core issue), e342fd1 (main before this change), new (this change).
# TPC-C: ./jato of a checkout at e342fd1 ($PREV) against this checkout's, alternating.
# Usage: runs.sh C4A7AFB_JAR PREV_JAR NEW_JAR PREV_CHECKOUT OUT_DIR
set -u
c4=$1 prev=$2 new=$3 prevdir=$4 out=$5
mkdir -p "$out"
benches='CounterBenchmark.counterAdd$|RecordBenchmark.recordRead2$|RecordBenchmark.recordWrite$|RecordBenchmark.recordUpdate$|ReadOnlySumBenchmark.readOnlySum$'
jmh() { # name jar round
    java -jar "$2" "$benches" -f 1 -wi 3 -w 1 -i 5 -r 1 2>&1 \
        | grep -E '^(Counter|Record|ReadOnly)Benchmark' | awk -v n="$1" -v r="$3" '{print r, n, $1, $(NF-3), $(NF-1)}'
}
for r in 1 2; do
    if [ $r = 1 ]; then order="c4a7afb:$c4 e342fd1:$prev new:$new"; else order="new:$new e342fd1:$prev c4a7afb:$c4"; fi
    for x in $order; do jmh "${x%%:*}" "${x#*:}" $r >> "$out/jmh.txt"; done
done
here=$(cd "$(dirname "$0")/../../.." && pwd)
tpcc() { # name dir round
    (cd "$2" && ./jato tpcc --warehouses 1 --threads 1 --warmup 3 --duration 8 2>&1) \
        | grep -E '^(throughput|abort rate)' | tr -s ' ' | tr '\n' ' ' | sed "s/^/$3 $1 /"; echo
}
for r in 1 2 3 4; do
    if [ $((r % 2)) = 1 ]; then tpcc e342fd1 "$prevdir" $r; tpcc new "$here" $r; else tpcc new "$here" $r; tpcc e342fd1 "$prevdir" $r; fi
done >> "$out/tpcc.txt"
