#!/usr/bin/env bash
# TicToc vs OCC through the runner, interleaved: for each configuration, occ then tictoc.
# Usage, from the repository root: bash docs/benchmarks/2026-11-tictoc/bench.sh REP
# REP (1, 2, 3) names the output directory results-rREP and is the seed (the page's repetition 1 used 42).
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
for mix in ro med high; do
  case $mix in
    ro)   margs="--mix txn16 --theta 0 --write-ratio 0";;
    med)  margs="--mix txn16 --theta 0.8 --write-ratio 0.1";;
    high) margs="--mix txn16 --theta 0.9 --write-ratio 0.5";;
  esac
  for t in 1 2; do
    for p in occ tictoc; do
      run "$mix-t$t-$p" ycsb --protocol $p --threads $t --duration 5 --warmup 2 --seed $rep $margs
    done
  done
done
for cfg in "1 2 base" "1 2 cu+ts" "2 2 base" "2 2 cu+ts"; do
  set -- $cfg
  for p in occ tictoc; do
    run "tpcc-w$1-t$2-${3/+/}-$p" tpcc --protocol $p --warehouses $1 --threads $2 --mode $3 --duration 5 --warmup 2 --seed $rep
  done
done
echo finished >> "$out/runs.log"
