#!/usr/bin/env bash
# Core JMH benchmarks, base vs new, ABBA: each jar runs twice (one fork per run), alternating first.
set -uo pipefail
cd "$(dirname "$0")"
re='io.jato.jmh.(CounterBenchmark.counterAdd$|MapReadBenchmark.readOnly10$|MapReadBenchmark.readOnly10LongKeys|RecordBenchmark.record(Read4|Write|Update)|SortedMapBenchmark.(get10Sorted|insertMixSorted$|scan100Sorted)|TransferBenchmark.transfer$)'
opts="-f 1 -wi 3 -w 1 -i 5 -r 1 -p protocol=occ"
n=0
for jar in base new new base; do
    n=$((n+1))
    java -jar "${JARS:-/tmp/bench}"/jmh-$jar.jar "$re" $opts -rf json -rff "$n-$jar.json" > "$n-$jar.log" 2>&1
done
echo DONE > done
