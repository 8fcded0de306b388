#!/usr/bin/env bash
# TPC-C 1 W x 2 T on one jar: occ, tictoc, and occ with STOCK on tictoc, rotating which goes first.
# Usage: protocols.sh JAR OUT ROUNDS
set -uo pipefail
jar="$1"; out="$2"; rounds="${3:-3}"
: > "$out"
configs=("--protocol occ" "--protocol tictoc" "--protocol occ --table-protocols stock=tictoc")
for round in $(seq 1 "$rounds"); do
    for k in 0 1 2; do
        cfg="${configs[$(( (k + round) % 3 ))]}"
        r=$(java -jar "$jar" tpcc --warehouses 1 --threads 2 $cfg --warmup 4 --duration 8 --seed 42 2>/dev/null)
        tp=$(echo "$r" | grep '^throughput' | awk '{print $2}')
        ab=$(echo "$r" | grep '^abort rate' | awk '{print $3}')
        ck=$(echo "$r" | grep '^check' | awk '{print $2}')
        pt=$(echo "$r" | grep '^per type' | sed 's/^per type: //')
        echo "$round | $cfg | $tp | $ab | $ck | $pt" >> "$out"
    done
done
echo DONE >> "$out"
