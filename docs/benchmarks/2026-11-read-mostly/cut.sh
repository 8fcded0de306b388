#!/usr/bin/env bash
# Before/after mvcc's cut of pushed versions (PushedVersions), TPC-C cu+ts standard mix:
#   docs/benchmarks/2026-11-read-mostly/cut.sh BEFORE_TREE AFTER_TREE OUT ROUNDS
# BEFORE_TREE and AFTER_TREE are worktrees whose ./jato runs the two commits. Per round and
# setting: mvcc before, mvcc after, occ (after), back to back; 5 s after 5 s of warm-up, seed 1,
# JAVA_OPTS=-Xmx4g. Prints: round setting variant throughput abort% gc-ms heap-used-MiB.
set -euo pipefail
before="$1"; after="$2"; out="$3"; rounds="${4:-2}"
mkdir -p "$out"
export JAVA_OPTS="-Xmx4g"
one() {  # ROUND SETTING VARIANT TREE PROTOCOL W T
    local tag="$out/r$1-$2-$3"
    (cd "$4" && ./jato tpcc --protocol "$5" --warehouses "$6" --threads "$7" --duration 5 --warmup 5 --seed 1 \
        --json "$tag.json" > "$tag.out" 2>&1) || true
    python3 - "$tag.json" "$1" "$2" "$3" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
print("\t".join([sys.argv[2], sys.argv[3], sys.argv[4], f"{d['throughput_txn_per_s']:.0f}",
                 f"{100 * d['stm']['abort_rate']:.2f}", str(d['heap']['gc']['time_ms']),
                 f"{d['heap']['used_bytes'] / 2**20:.0f}", 'ok' if d['check']['passed'] else 'FAILED']))
P
}
for r in $(seq 1 "$rounds"); do
    for s in "1 1" "1 2" "2 2"; do
        read -r w t <<< "$s"
        one "$r" "w${w}t${t}" mvcc-before "$before" mvcc "$w" "$t"
        one "$r" "w${w}t${t}" mvcc-after "$after" mvcc "$w" "$t"
        one "$r" "w${w}t${t}" occ "$after" occ "$w" "$t"
    done
done
