#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")"
re='io.jato.jmh.(CounterBenchmark.counterAdd$|RecordBenchmark.record(Read4|Write))'
for jar in base a5782b9 634af9a 01ce321 56be1e9 e92615d new; do
    java -jar "${JARS:-/tmp/bench}"/jmh-$jar.jar "$re" -f 1 -wi 3 -w 1 -i 4 -r 1 -p protocol=occ -rf json -rff "$jar.json" > "$jar.log" 2>&1
done
echo DONE > done
