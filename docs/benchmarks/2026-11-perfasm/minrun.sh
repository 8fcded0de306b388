#!/bin/bash
# minrun.sh OUT REGEX NAME... : for a guest whose speed swings by several times from second to
# second (the low of each run is what repeats): per jar $JARS/NAME.jar, in the order given, one
# JMH fork of 40 iterations of 200 ms after 5 of warm-up; appends one line per jar to OUT with each
# benchmark's lowest, 25th-percentile and median iteration (ns/op).
out=$1; re=$2; shift 2
jars=${JARS:-/tmp/bis/jars}
json=$(mktemp)
for c in "$@"; do
  java -jar "$jars/$c.jar" "$re" -f 1 -wi 5 -w 200ms -i 40 -r 200ms -rf json -rff "$json" > /dev/null 2>&1
  python3 - "$c" "$json" >> "$out" <<'PY'
import json, sys
line = sys.argv[1]
for b in json.load(open(sys.argv[2])):
    raw = sorted(x for fork in b['primaryMetric']['rawData'] for x in fork)
    line += "  %s min %.1f p25 %.1f med %.1f" % (b['benchmark'].split('.')[-1], raw[0], raw[len(raw) // 4], raw[len(raw) // 2])
print(line)
PY
  tail -n 1 "$out"
done
rm -f "$json"
