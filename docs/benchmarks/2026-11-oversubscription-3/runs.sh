#!/usr/bin/env bash
# Oversubscription rounds, third set: as ../2026-11-oversubscription-2/runs.sh, but TPC-C warms up
# for 15 s instead of 3 (at 8 threads on 2 cores the JIT's compiler threads get a fifth of the
# CPU and the store keeps warming up for ~10 s; a 3-s warm-up measured the warm-up), and every
# TPC-C line carries the run's per-second throughput so the warm-up can be seen.
# Usage: runs.sh JAR OUT ROUNDS_TRANSFER ROUNDS_TPCC [LABEL] [PROTOCOLS] [EXTRA_TPCC_ARGS]
# (e.g. EXTRA_TPCC_ARGS="--warmup-threads 2": every run warms up on 2 threads, then measures on T)
set -uo pipefail
jar="$1"; out="$2"; rt="${3:-4}"; rc="${4:-3}"; label="${5:-new}"; protocols="${6:-occ tictoc global-lock}"
extra="${7:-}"
run() { # kind protocol threads interrupt(yes|no) round
    local kind="$1" p="$2" t="$3" i="$4" round="$5" flag="" r tp ab ck series
    [ "$i" = yes ] && flag="--interrupt"
    if [ "$kind" = transfer ]; then
        r=$(java -jar "$jar" transfer --protocol "$p" --threads "$t" $flag --warmup 1 --duration 3 --seed 42 2>&1)
    else
        r=$(java -jar "$jar" tpcc --warehouses 1 --protocol "$p" --threads "$t" $flag --warmup 15 --duration 6 --seed 42 $extra 2>&1)
    fi
    tp=$(echo "$r" | grep '^throughput' | awk '{print $2}')
    ab=$(echo "$r" | grep '^abort rate' | awk '{print $3}')
    ck=$(echo "$r" | grep '^check' | awk '{print $2}')
    series=$(echo "$r" | grep -E 's  (warm-up|run) ' | awk '{print $3}' | tr '\n' ' ')
    echo "$label | $kind | $round | $p | $t | $i | $tp | $ab | $ck | $series" >> "$out"
}
for kind in transfer tpcc; do
    rounds=$rt; [ "$kind" = tpcc ] && rounds=$rc
    for round in $(seq 1 "$rounds"); do
        for p in $protocols; do
            for i in no yes; do
                for t in $(printf '2\n4\n8\n' | shuf); do
                    run "$kind" "$p" "$t" "$i" "$round"
                done
            done
        done
    done
done
echo DONE >> "$out"
