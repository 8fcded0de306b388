#!/usr/bin/env bash
# Device run: (B) oversubscribed transfers pinned to 2 CPUs (issue 11 §4), (A) the JMH scaling
# sweep on all cores (issue 20 §3). Results into $OUT.
set -u
cd "$(dirname "$0")"
tar xJf jrt25.tar.xz
export java_home="$PWD/jrt25"
J="$java_home/bin/java"
{
  echo "== machine"; nproc; grep -m1 'model name' /proc/cpuinfo; free -g | head -2; uname -a
  "$J" -version 2>&1
  echo "== affinity check: 4 busy loops, pinned to cpu 0 vs unpinned"
  busy='for i in 1 2 3 4; do (n=0; while ((n<400000)); do ((n++)); done) & done; wait'
  command -v taskset || echo "NO taskset"
  s=$(date +%s%N); taskset -c 0 bash -c "$busy"; e=$(date +%s%N); echo "pinned 1 cpu: $(( (e - s) / 1000000 )) ms"
  s=$(date +%s%N); bash -c "$busy"; e=$(date +%s%N); echo "unpinned:     $(( (e - s) / 1000000 )) ms"
  "$J" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -E ' ActiveProcessorCount|MaxHeapSize ' 
  taskset -c 0,1 "$J" -XshowSettings:system -version 2>&1 | grep -i -E 'cpu|processor' | head -3
} 2>&1 | tee "$OUT/machine.txt"

if [[ "${SKIP_B:-0}" != 1 ]]; then
  echo "== B: transfers on cpus 0,1 (warm-up 3 s on 2 threads, 3 s measured)" | tee "$OUT/transfers.txt"
  for p in occ tictoc global-lock; do
    for intr in "" "--interrupt"; do
      for t in 2 4 8; do
        line=$(taskset -c 0,1 "$J" -Xmx2g -cp jato-workloads.jar io.jato.workloads.Main transfer --protocol "$p" \
               --threads "$t" --warmup 3 --duration 3 --warmup-threads 2 --seed 1 $intr 2>/dev/null \
               | grep -E '^(throughput|abort rate|check)' | tr -s ' ' | tr '\n' ' ')
        echo "$p ${intr:-no-interrupt} t=$t $line" | tee -a "$OUT/transfers.txt"
      done
    done
  done
fi

if [[ "${SKIP_A:-0}" != 1 ]]; then
  echo "== A: JMH sweep" 
  bash ../jmh/sweep.sh --jar benchmarks.jar --out /tmp/sweep --threads "1 2 4 8 16" --quick --no-charts \
       --jvm-args "-Xmx24g" --ycsb-workloads txn16-high 2>&1 | grep -v '^ *[0-9.]*s  load' > "$OUT/sweep-console.txt"
  echo "sweep rc=$?"
  tar -C /tmp -czf "$OUT/sweep.tar.gz" sweep
  tail -5 "$OUT/sweep-console.txt"
fi
