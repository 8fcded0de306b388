#!/usr/bin/env bash
# Issue 13 §7, "ahead of OCC where read-only transactions dominate", from the repository root:
#   docs/benchmarks/2026-11-read-mostly/run.sh OUT_DIR ROUNDS
# TPC-C cu+ts with a read-mostly mix (80% read-only: order-status and stock-level 40% each,
# new-order and payment 9% each, delivery 2%) at 1 W x 1 T, 1 W x 2 T and 2 W x 2 T; occ, tictoc
# and mvcc back to back in each configuration, their order rotated from round to round.
# Then the bank with audits: transfer --accounts 10000 with 50% and 90% audits (a read-only sum of
# all 10,000 accounts) at 1 and 2 threads, the same three protocols, rotated likewise.
# 5 s measured after a 5 s warm-up, seed 1, heap 4 GiB fixed and pre-touched (JAVA_OPTS=-Xmx4g).
# Prints one line per run: round setting protocol throughput abort% gc% check audit-p50.
set -euo pipefail
out="${1:?usage: run.sh OUT_DIR ROUNDS}"
rounds="${2:-2}"
mkdir -p "$out"
export JAVA_OPTS="-Xmx4g"
mix="new-order=9,payment=9,order-status=40,delivery=2,stock-level=40"
one() {  # ROUND SETTING PROTOCOL ARGS...
    local r="$1" setting="$2" p="$3" tag check tput abort gc
    shift 3
    tag="$out/r$r-$setting-$p"
    if ./jato "$@" --protocol "$p" --duration 5 --warmup 5 --seed 1 --json "$tag.json" > "$tag.out" 2>&1; then
        check=ok
    else
        check=FAILED
    fi
    tput=$(grep -m1 '^throughput' "$tag.out" | awk '{print $2}' | tr -d ,)
    abort=$(grep -m1 '^abort rate' "$tag.out" | awk '{print $3}' | tr -d %)
    gc=$(grep -m1 '^gc' "$tag.out" | grep -o '[0-9.]*%' | head -1 | tr -d %)
    p50=$(grep -m1 '^  audit ' "$tag.out" | awk '{print $5 $6}' || true)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$setting" "$p" "${tput:-NA}" "${abort:-NA}" "${gc:-NA}" "$check" "${p50:--}"
}
protocols=(occ tictoc mvcc)
for r in $(seq 1 "$rounds"); do
    for s in "1 1" "1 2" "2 2"; do
        read -r w t <<< "$s"
        for i in 0 1 2; do
            p="${protocols[$(( (i + r) % 3 ))]}"
            one "$r" "w${w}t${t}" "$p" tpcc --mix "$mix" --warehouses "$w" --threads "$t"
        done
    done
    for a in 50 90; do
        for t in 1 2; do
            for i in 0 1 2; do
                p="${protocols[$(( (i + r) % 3 ))]}"
                one "$r" "audits${a}-t${t}" "$p" transfer --accounts 10000 --audits "$a" --threads "$t"
            done
        done
    done
done
