#!/usr/bin/env bash
# Issue 15 §5 on an idle machine, from the repository root:
#   docs/benchmarks/2026-11-trees/run.sh OUT_DIR ROUNDS
# TPC-C (cu+ts, fast order ids, standard mix) at 1 W x 2 T, 2 W x 2 T, 1 W x 4 T and 1 W x 8 T for
# flat occ, tictoc, mvcc, 2pl and maat and Tebaldi's 2-layer and 3-layer trees. Each round runs every
# configuration once, in this order, with --seed ROUND; 5 s measured after a 5 s warm-up on at most
# 2 threads (the others join when measuring starts). Heap 4 GiB, fixed and pre-touched
# (JAVA_OPTS=-Xmx4g). Writes OUT_DIR/<config>-<setting>-r<round>.json and .out; prints one line per
# run: round setting config throughput abort% check.
set -euo pipefail
out="${1:?usage: run.sh OUT_DIR ROUNDS}"
rounds="${2:?usage: run.sh OUT_DIR ROUNDS}"
mkdir -p "$out"
export JAVA_OPTS="-Xmx4g"
configs=("occ" "tictoc" "mvcc" "2pl" "maat" "tree:2-layer" "tree:3-layer")
settings=("1 2" "2 2" "1 4" "1 8")
for r in $(seq 1 "$rounds"); do
    for s in "${settings[@]}"; do
        read -r w t <<< "$s"
        wt=$(( t < 2 ? t : 2 ))
        for c in "${configs[@]}"; do
            if [[ "$c" == tree:* ]]; then
                sel=(--tree "${c#tree:}")
                name="tebaldi-${c#tree:}"
            else
                sel=(--protocol "$c")
                name="$c"
            fi
            tag="$out/$name-w${w}t${t}-r$r"
            if ./jato tpcc "${sel[@]}" --warehouses "$w" --threads "$t" --warmup-threads "$wt" \
                    --duration 5 --warmup 5 --seed "$r" --json "$tag.json" > "$tag.out" 2>&1; then
                check=ok
            else
                check=FAILED
            fi
            tput=$(grep -m1 '^throughput' "$tag.out" | awk '{print $2}' | tr -d ,)
            abort=$(grep -m1 '^abort rate' "$tag.out" | awk '{print $3}' | tr -d %)
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "w${w}t${t}" "$name" "${tput:-NA}" "${abort:-NA}" "$check"
        done
    done
done
