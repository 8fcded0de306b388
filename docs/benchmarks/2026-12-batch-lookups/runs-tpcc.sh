#!/usr/bin/env bash
# TPC-C, occ: prev (1d636eb, main before batch lookups) and new (29e1ad0), alternating, the order
# reversed in even rounds. Usage: PREV=dir NEW=dir runs-tpcc.sh ROUNDS MIX SECONDS WAREHOUSES THREADS
# (each dir a worktree of its build); appends to runs-tpcc.txt next to this script.
set -u
rounds=$1 mix=$2 dur=$3 wh=$4 thr=$5
out=$(dirname "$0")/runs-tpcc.txt
for r in $(seq 1 "$rounds"); do
  for b in prev new; do
    [ $((r % 2)) = 0 ] && { [ $b = prev ] && b=new || b=prev; }
    d=$PREV; [ $b = new ] && d=$NEW
    res=$(cd "$d" && ./jato tpcc --warehouses "$wh" --threads "$thr" --duration "$dur" --mix "$mix" 2>&1)
    tp=$(echo "$res" | grep '^throughput' | awk '{print $2}')
    ab=$(echo "$res" | grep '^abort rate' | awk '{print $3}')
    no=$(echo "$res" | grep '^  new-order' | awk '{print $2, $5}')
    ck=$(echo "$res" | grep '^check ' | awk '{print $2}')
    echo "$mix w${wh}t$thr r$r $b tp=$tp aborts=$ab new-order=[$no] check=$ck" >> "$out"
  done
done
