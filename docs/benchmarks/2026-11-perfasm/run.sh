#!/bin/bash
# run.sh OUT REGEX NAME... : one JMH round of the benchmarks matching REGEX per jar $JARS/NAME.jar,
# in the order given (call it again with the names reversed for an ABBA round); appends one line
# per jar to OUT: the name, then each benchmark's score and error in ns/op.
out=$1; re=$2; shift 2
jars=${JARS:-/tmp/bis/jars}
for c in "$@"; do
  r=$(java -jar "$jars/$c.jar" "$re" -f 1 -wi 3 -w 1 -i 5 -r 1 2>&1 | grep -E '^[A-Za-z]+Benchmark\.' \
      | awk '{printf "%s %s±%s  ", $1, $(NF-3), $(NF-1)}')
  echo "$c $r" | tee -a "$out"
done
