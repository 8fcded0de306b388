#!/usr/bin/env bash
# TPC-C through ./jato on OpenJDK 17 and Temurin 25 (the same jar, ./jato's default flags), back to
# back, the order alternating per round.
set -u
cd "$(dirname "$0")/../../.."   # repository root
rounds=${ROUNDS:-2}
jdk17=/usr/lib/jvm/java-17-openjdk-amd64
jdk25=/usr/lib/jvm/temurin-25-jdk-amd64
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then order="17 25"; else order="25 17"; fi
  for cfg in "1 1" "1 2" "2 2"; do
    set -- $cfg
    for v in $order; do
      if [ "$v" = 17 ]; then home=$jdk17; else home=$jdk25; fi
      out=$(JAVA_HOME=$home ./jato tpcc --warehouses $1 --threads $2 --duration 10 --warmup 4 --seed 42 2>&1)
      tput=$(echo "$out" | grep -m1 -E "^throughput" | tr -s ' ')
      ab=$(echo "$out" | grep -m1 -E "^abort rate" | tr -s ' ' | cut -c1-40)
      gc=$(echo "$out" | grep -m1 -E "^gc " | tr -s ' ' | sed 's/.*while measuring: //')
      chk=$(echo "$out" | grep -m1 -E "^check  " | tr -s ' ' | cut -c1-10)
      echo "round=$r w=$1 t=$2 jdk=$v | $tput | $ab | gc $gc | $chk"
    done
  done
done
