#!/usr/bin/env bash
# ABAB: base (f76401b) and new (the seqlock word log), 1 and 2 threads.
set -u
cd "$(dirname "$0")"
for r in 1 2; do
  for j in base new; do
    echo "## round $r $j 1T"
    java -jar ../$j.jar 'ReadOnlySumBenchmark.readOnlySum|PeerReadOnlySumBenchmark.scalaStm' -f 2 -wi 3 -w 1 -i 5 -r 1 2>&1 | grep -E "^(Benchmark|ReadOnly|PeerRead)"
    echo "## round $r $j 2T"
    java -jar ../$j.jar 'ReadOnlySumBenchmark.readOnlySum|PeerReadOnlySumBenchmark.scalaStm' -f 2 -wi 3 -w 1 -i 5 -r 1 -t 2 2>&1 | grep -E "^(Benchmark|ReadOnly|PeerRead)"
  done
done
