#!/usr/bin/env bash
# Two more rounds of runs-tictoc.sh's TPC-C part (its two rounds disagreed). Usage: BEFORE_DIR AFTER_DIR OUT
set -u
before=$1 after=$2 out=$3
tpcc() { (cd "$1" && ./jato tpcc --protocol tictoc --warehouses "$2" --threads "$3" --mode base --duration 10 2>/dev/null \
     | grep -E '^(throughput|abort rate|check)' | tr -s ' ' | tr '\n' ' '); }
for round in 3 4; do
  order="before after"; [ $round = 4 ] && order="after before"
  for cfg in "1 1" "2 2"; do
    set -- $cfg
    for b in $order; do
      dir=$before; [ $b = after ] && dir=$after
      echo "round=$round build=$b tictoc tpcc w=$1 t=$2 base $(tpcc $dir $1 $2)" | tee -a "$out"
    done
  done
done
