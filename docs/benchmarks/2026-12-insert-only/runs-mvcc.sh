#!/usr/bin/env bash
# mvcc before (7ff001b: insert-only keys read with entries under mvcc) and after (entry-free in
# tracked attempts), alternating, one round. Usage: runs-mvcc.sh BEFORE_DIR AFTER_DIR OUT
set -u
before=$1 after=$2 out=$3
run() { (cd "$1" && shift && ./jato "$@" 2>/dev/null | grep -E '^(throughput|abort rate|check)' | tr -s ' ' | tr '\n' ' '); }
for cfg in "B 0.8 0.05 1" "A 0.99 0.5 1" "B 0.8 0.05 2" "A 0.99 0.5 2"; do
  set -- $cfg
  for b in before after; do
    dir=$before; [ $b = after ] && dir=$after
    echo "build=$b mvcc ycsb$1 t=$4 $(run $dir ycsb --mix txn16 --theta $2 --write-ratio $3 --records 10m --layout coarse --writes rmw --protocol mvcc --threads $4 --duration 10)" | tee -a "$out"
  done
done
for b in before after; do
  dir=$before; [ $b = after ] && dir=$after
  echo "build=$b mvcc tpcc w=1 t=1 base $(run $dir tpcc --protocol mvcc --warehouses 1 --threads 1 --mode base --duration 10)" | tee -a "$out"
done
