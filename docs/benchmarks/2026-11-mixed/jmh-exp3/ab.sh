#!/bin/bash
# usage: ab.sh tag jar...  ; runs each jar in order, 2 forks, writes json per jar+round
tag=$1; shift
for j in "$@"; do
  n=$(basename $j .jar)
  java -jar $j 'RecordBenchmark.recordRead[24]$|CounterBenchmark.counterAdd$' -f 2 -wi 3 -w 1 -i 5 -r 1 -rf json -rff /tmp/jmhrun/$tag-$n.json > /tmp/jmhrun/$tag-$n.log 2>&1
  echo "$tag $n"; grep -E "^(Benchmark|RecordBenchmark|CounterBenchmark)" /tmp/jmhrun/$tag-$n.log
done
