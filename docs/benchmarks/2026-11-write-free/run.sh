#!/bin/bash
# run.sh OUT ROUNDS : YCSB txn16 theta 0.8 / 5% writes at 1 and 2 threads; occ (after jar), mvcc
# before and after, interleaved (the order flips every round). JARS holds before.jar and after.jar,
# each a copy of workloads/target/jato-workloads.jar built at that commit
# (mvn -B -q -Dmaven.test.skip=true -Djcstress.skip=true package -pl workloads -am);
# OUTDIR keeps each run's report. The JVM flags are the ones ./jato passes, with a 4 GiB heap.
out=$1; rounds=$2
JARS=${JARS:?set JARS}; OUTDIR=${OUTDIR:-$(mktemp -d)}
J="java -XX:+UseParallelGC -XX:+UseTransparentHugePages -Xmx4g -Xms4g -XX:+AlwaysPreTouch -jar"
one() { # round t variant jar protocol
  local f=$OUTDIR/r$1-t$2-$3.out
  $J $JARS/$4.jar ycsb --mix txn16 --theta 0.8 --write-ratio 0.05 --threads $2 --protocol $5 --duration 5 --warmup 5 --seed $1 > $f 2>&1
  local tput=$(grep -m1 '^throughput' $f | awk '{print $2}' | tr -d ,)
  local ab=$(grep -m1 '^abort rate' $f | awk '{print $3}')
  local ck=$(grep -m1 '^check ' $f | awk '{print $2}' | tr -d :)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' $1 $2 $3 $tput $ab $ck | tee -a $out
}
for r in $(seq 1 $rounds); do
  for t in 1 2; do
    if [ $((r % 2)) = 1 ]; then
      one $r $t occ after occ; one $r $t mvcc-before before mvcc; one $r $t mvcc-after after mvcc
    else
      one $r $t mvcc-after after mvcc; one $r $t mvcc-before before mvcc; one $r $t occ after occ
    fi
  done
done
