#!/usr/bin/env bash
# MaaT vs OCC (and TicToc for reference) through the runner, interleaved: per configuration and
# repetition, occ, then maat, then tictoc, back to back.
# Usage, from the repository root: bash docs/benchmarks/2026-11-maat/bench.sh REP
# REP (1, 2, 3) names the output directory results-rREP and is the seed.
set -u
rep=$1
out=results-r${rep}
mkdir -p "$out"
run() { # name, args...
    local name=$1; shift
    echo "=== $name: ./jato $*" | tee -a "$out/runs.log"
    ./jato "$@" --json "$out/$name.json" >> "$out/runs.log" 2>/dev/null
    echo "rc=$?" >> "$out/runs.log"
}
for p in occ maat tictoc; do
    run "high-t2-$p" ycsb --protocol $p --threads 2 --duration 5 --warmup 2 --seed $rep \
        --mix txn16 --theta 0.9 --write-ratio 0.5
done
for p in occ maat tictoc; do
    run "tpcc-w1-t2-base-$p" tpcc --protocol $p --warehouses 1 --threads 2 --mode base \
        --duration 5 --warmup 2 --seed $rep
done
echo finished >> "$out/runs.log"
