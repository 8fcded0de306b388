#!/usr/bin/env bash
# Oversubscription rounds: every protocol x interrupt x thread count, transfers then TPC-C, the
# thread counts of one configuration run back to back in a shuffled order each round, so that the
# 4- and 8-thread runs are compared with 2-thread runs taken minutes apart, not an hour apart.
# Usage: runs.sh JAR OUT ROUNDS_TRANSFER ROUNDS_TPCC
set -uo pipefail
jar="$1"; out="$2"; rt="${3:-6}"; rc="${4:-4}"
: > "$out"
run() { # kind protocol threads interrupt(yes|no) round
    local kind="$1" p="$2" t="$3" i="$4" round="$5" flag="" r tp ab ck
    [ "$i" = yes ] && flag="--interrupt"
    if [ "$kind" = transfer ]; then
        r=$(java -jar "$jar" transfer --protocol "$p" --threads "$t" $flag --warmup 1 --duration 3 --seed 42 2>/dev/null)
    else
        r=$(java -jar "$jar" tpcc --warehouses 1 --protocol "$p" --threads "$t" $flag --warmup 3 --duration 6 --seed 42 2>/dev/null)
    fi
    tp=$(echo "$r" | grep '^throughput' | awk '{print $2}')
    ab=$(echo "$r" | grep '^abort rate' | awk '{print $3}')
    ck=$(echo "$r" | grep '^check' | awk '{print $2}')
    echo "$kind | $round | $p | $t | $i | $tp | $ab | $ck" >> "$out"
}
for kind in transfer tpcc; do
    rounds=$rt; [ "$kind" = tpcc ] && rounds=$rc
    for round in $(seq 1 "$rounds"); do
        for p in occ tictoc global-lock; do
            for i in no yes; do
                for t in $(printf '2\n4\n8\n' | shuf); do
                    run "$kind" "$p" "$t" "$i" "$round"
                done
            done
        done
    done
done
echo DONE >> "$out"
