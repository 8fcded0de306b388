#!/usr/bin/env bash
# TPC-C on Temurin 25 with and without compact object headers, interleaved (order alternates per round).
set -u
cd "$(dirname "$0")/../../.."   # repository root when run from docs/benchmarks/<page>/
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
rounds=${ROUNDS:-3}
first=${FIRST_ROUND:-1}
for r in $(seq "$first" $((first + rounds - 1))); do
  if [ $((r % 2)) -eq 1 ]; then order="off on"; else order="on off"; fi
  for cfg in "1 1" "1 2"; do
    set -- $cfg
    for h in $order; do
      if [ "$h" = on ]; then opts="-XX:+UseCompactObjectHeaders"; else opts="-XX:-UseCompactObjectHeaders"; fi
      out=$(JAVA_OPTS="$opts" ./jato tpcc --warehouses $1 --threads $2 --duration 10 --warmup 4 --seed 42 2>&1)
      tput=$(echo "$out" | grep -m1 -E "^throughput" | tr -s ' ')
      gc=$(echo "$out" | grep -m1 -E "^gc" | tr -s ' ')
      heap=$(echo "$out" | grep -m1 -E "^heap" | tr -s ' ')
      chk=$(echo "$out" | grep -m1 -E "^check  " | cut -c1-20)
      echo "round=$r w=$1 t=$2 coh=$h | $tput | $gc | $heap | $chk"
    done
  done
done
