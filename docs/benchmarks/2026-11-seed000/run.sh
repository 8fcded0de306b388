#!/usr/bin/env bash
# Seed 000's experiment (issue 14 §7) through ./jato, from the repository root:
#   docs/benchmarks/2026-11-seed000/run.sh OUT_DIR
# YCSB txn16 (theta 0.9, 50% writes, 100 000 records), coarse vs split, and TPC-C at 1 warehouse,
# base vs ts; occ, tictoc, 2pl wait-die, 2pl no-wait, swisstm, adaptive; 1, 2, 4, 8 threads.
# One run each: 5 s measured after a 5 s warm-up on at most 2 threads (the rest join when
# measuring starts, so that 8 workers do not starve the JIT's compiler threads; see
# ../2026-11-oversubscription-3.md). Heap 4 GiB, fixed and pre-touched (./jato's default with
# JAVA_OPTS=-Xmx4g). Prints one tab-separated line per run:
#   workload variant protocol threads txn_per_s abort_pct check
set -euo pipefail
out="${1:?usage: run.sh OUT_DIR}"
mkdir -p "$out"
export JAVA_OPTS="-Xmx4g"
protocols=("occ" "tictoc" "2pl" "2pl:deadlock=no-wait" "swisstm" "adaptive")
for threads in 1 2 4 8; do
    wt=$(( threads < 2 ? threads : 2 ))
    for spec in "${protocols[@]}"; do
        p="${spec%%:*}"
        opts=()
        name="$p"
        if [[ "$spec" == *:* ]]; then
            opts=(--options "${spec#*:}")
            name="$p-no-wait"
        fi
        for v in coarse split base ts; do
            case "$v" in
                coarse|split) args=(ycsb --mix txn16 --layout "$v"); wl=ycsb-txn16 ;;
                *) args=(tpcc --warehouses 1 --mode "$v"); wl=tpcc-1w ;;
            esac
            tag="$out/$wl-$v-$name-t$threads"
            if ./jato "${args[@]}" --protocol "$p" ${opts[@]+"${opts[@]}"} --threads "$threads" \
                    --warmup-threads "$wt" --duration 5 --warmup 5 --seed 7 --json "$tag.json" > "$tag.out" 2>&1; then
                check=ok
            else
                check=FAILED
            fi
            tput=$(grep -m1 '^throughput' "$tag.out" | awk '{print $2}' | tr -d ,)
            abort=$(grep -m1 '^abort rate' "$tag.out" | awk '{print $3}' | tr -d %)
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$wl" "$v" "$name" "$threads" "${tput:-NA}" "${abort:-NA}" "$check"
        done
    done
done
