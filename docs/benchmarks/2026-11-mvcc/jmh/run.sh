#!/usr/bin/env bash
# CounterBenchmark.counterAdd under mvcc at 1 and 2 threads: base.jar (jmh/target/benchmarks.jar of
# commit 3d3230a) and new.jar (of this branch), each frozen as a file, interleaved, 2 rounds.
# The logs here keep the lines that matter of each run: h<round>-t<threads>-<jar>.log.
for r in 1 2; do
  for t in 1 2; do
    for jar in base new; do
      java -Djmh.ignoreLock=true -jar $jar.jar 'CounterBenchmark.counterAdd$' -p protocol=mvcc -t $t \
          -f 1 -wi 2 -w 1 -i 3 -r 1 > h$r-t$t-$jar.txt 2>&1
    done
  done
done
