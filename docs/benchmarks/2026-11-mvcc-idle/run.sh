#!/usr/bin/env bash
# Issue 13 §7 on an idle machine, from the repository root:
#   docs/benchmarks/2026-11-mvcc-idle/run.sh OUT_DIR
# mvcc interleaved with occ and tictoc (each configuration runs the three back to back):
#   TPC-C 1 W x 1 T, 1 W x 2 T, 2 W x 2 T, modes base and cu+ts;
#   YCSB txn16 at theta 0.99 / 50% writes and theta 0.8 / 5% writes, 1 and 2 threads.
# 5 s measured after a 5 s warm-up, seed 1, heap 4 GiB fixed and pre-touched (JAVA_OPTS=-Xmx4g).
# Prints one line per run: workload setting protocol throughput abort% check.
set -euo pipefail
out="${1:?usage: run.sh OUT_DIR}"
mkdir -p "$out"
export JAVA_OPTS="-Xmx4g"
one() {  # NAME SETTING PROTOCOL ARGS...
    local wl="$1" setting="$2" p="$3" tag check tput abort
    shift 3
    tag="$out/$wl-$setting-$p"
    if ./jato "$@" --protocol "$p" --duration 5 --warmup 5 --seed 1 --json "$tag.json" > "$tag.out" 2>&1; then
        check=ok
    else
        check=FAILED
    fi
    tput=$(grep -m1 '^throughput' "$tag.out" | awk '{print $2}' | tr -d ,)
    abort=$(grep -m1 '^abort rate' "$tag.out" | awk '{print $3}' | tr -d %)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$wl" "$setting" "$p" "${tput:-NA}" "${abort:-NA}" "$check"
}
for mode in base cu+ts; do
    for s in "1 1" "1 2" "2 2"; do
        read -r w t <<< "$s"
        for p in occ tictoc mvcc; do
            one tpcc "$mode-w${w}t${t}" "$p" tpcc --mode "$mode" --warehouses "$w" --threads "$t"
        done
    done
done
for s in "0.99 0.5" "0.8 0.05"; do
    read -r theta wr <<< "$s"
    for t in 1 2; do
        for p in occ tictoc mvcc; do
            one ycsb "theta$theta-w$wr-t$t" "$p" ycsb --mix txn16 --theta "$theta" --write-ratio "$wr" --threads "$t"
        done
    done
done
