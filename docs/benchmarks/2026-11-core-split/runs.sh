#!/usr/bin/env bash
# Before/after, interleaved: the same configurations on two frozen runner jars, alternating which
# jar goes first in each round (ABBA), so drift over the session falls on both.
# Usage: runs.sh BASE_JAR NEW_JAR OUT ROUNDS [CONFIGS_FILE]
# CONFIGS_FILE: one runner command line per line (default: the four configurations below).
set -uo pipefail
base="$1"; new="$2"; out="$3"; rounds="${4:-4}"; configs="${5:-}"
: > "$out"
one() { # label jar args...
    local label="$1" jar="$2" r tp ab ck
    shift 2
    r=$(java -jar "$jar" "$@" --warmup 4 --duration 8 --seed 42 2>/dev/null)
    tp=$(echo "$r" | grep '^throughput' | awk '{print $2}')
    ab=$(echo "$r" | grep '^abort rate' | awk '{print $3}')
    ck=$(echo "$r" | grep '^check' | awk '{print $2}')
    echo "$label | $* | $tp | $ab | $ck" >> "$out"
}
for round in $(seq 1 "$rounds"); do
    while read -r cfg; do
        if [ $((round % 2)) -eq 1 ]; then
            one base "$base" $cfg; one new "$new" $cfg
        else
            one new "$new" $cfg; one base "$base" $cfg
        fi
    done < <(if [ -n "$configs" ]; then cat "$configs"; else cat <<'CFGS'
tpcc --warehouses 1 --threads 1
tpcc --warehouses 2 --threads 2
ycsb --mix txn16 --threads 2
ycsb --mix a --threads 2
CFGS
fi)
done
echo DONE >> "$out"
