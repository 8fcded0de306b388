#!/bin/bash
# Second set for docs/benchmarks/2026-12-fixed-costs.md: 2 forks per benchmark, rounds A B C / C B A.
# Usage: runs-f2.sh C4A7AFB_JAR PREV_JAR NEW_JAR OUT_FILE [JAVA]
set -u
c4=$1 prev=$2 new=$3 out=$4 java=${5:-java}
benches='CounterBenchmark.counterAdd$|RecordBenchmark.recordRead2$|RecordBenchmark.recordWrite$|RecordBenchmark.recordUpdate$'
for r in 1 2; do
    if [ $r = 1 ]; then order="c4a7afb:$c4 e342fd1:$prev new:$new"; else order="new:$new e342fd1:$prev c4a7afb:$c4"; fi
    for x in $order; do
        "$java" -jar "${x#*:}" "$benches" -f 2 -wi 3 -w 1 -i 5 -r 1 2>&1 \
            | grep -E '^(Counter|Record)Benchmark' | awk -v n="${x%%:*}" -v r=$r '{print r, n, $1, $(NF-3), $(NF-1)}' >> "$out"
    done
done
