#!/usr/bin/env bash
# After the cut of passed versions: occ and mvcc back to back (order alternating per round) on the
# read-mostly TPC-C mix (cu+ts) at 1Wx1T, 1Wx2T, 2Wx2T, and on YCSB txn16 at theta 0.99 / 50%
# writes and theta 0.8 / 5% writes, 1 and 2 threads, as 2026-11-mvcc-idle.md ran them.
#   docs/benchmarks/2026-11-read-mostly/after.sh OUT ROUNDS
# 5 s after 5 s of warm-up, seed 1, JAVA_OPTS=-Xmx4g. Prints: round setting protocol txn/s abort% gc-ms check.
set -euo pipefail
out="${1:?usage: after.sh OUT ROUNDS}"; rounds="${2:-2}"
mkdir -p "$out"
export JAVA_OPTS="-Xmx4g"
mix="new-order=9,payment=9,order-status=40,delivery=2,stock-level=40"
one() {  # ROUND SETTING PROTOCOL ARGS...
    local r="$1" s="$2" p="$3" tag
    shift 3
    tag="$out/r$r-$s-$p"
    ./jato "$@" --protocol "$p" --duration 5 --warmup 5 --seed 1 --json "$tag.json" > "$tag.out" 2>&1 || true
    python3 - "$tag.json" "$r" "$s" "$p" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
print("\t".join([sys.argv[2], sys.argv[3], sys.argv[4], f"{d['throughput_txn_per_s']:.0f}",
                 f"{100 * d['stm']['abort_rate']:.2f}", str(d['heap']['gc']['time_ms']),
                 "ok" if d['check']['passed'] else "FAILED"]))
P
}
for r in $(seq 1 "$rounds"); do
    if (( r % 2 )); then order=(occ mvcc); else order=(mvcc occ); fi
    for s in "1 1" "1 2" "2 2"; do
        read -r w t <<< "$s"
        for p in "${order[@]}"; do
            one "$r" "read-mostly-w${w}t${t}" "$p" tpcc --mix "$mix" --warehouses "$w" --threads "$t"
        done
    done
    for s in "0.99 0.5" "0.8 0.05"; do
        read -r theta wr <<< "$s"
        for t in 1 2; do
            for p in "${order[@]}"; do
                one "$r" "ycsb-theta$theta-w$wr-t$t" "$p" ycsb --mix txn16 --theta "$theta" --write-ratio "$wr" --threads "$t"
            done
        done
    done
done
