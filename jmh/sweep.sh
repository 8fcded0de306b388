#!/usr/bin/env bash
# Thread-scaling sweep of the JMH workload benchmarks (TpccBenchmark, YcsbBenchmark): every
# protocol at every thread count, one JMH JSON file per benchmark and thread count, then the
# scaling charts and a summary table (io.jato.jmh.charts.ScalingCharts). Self-contained: it needs
# only a JVM and benchmarks.jar, so the jar can be copied to a many-core machine and run there.
#
#   jmh/sweep.sh                                   # here: threads 1, 2, 4, ... cores
#   jmh/sweep.sh --threads "1 2 4 8" --quick       # oversubscribed on a 2-core machine, short
#   java_home=/opt/jdk jmh/sweep.sh --jar benchmarks.jar --out /data/sweep --jvm-args "-Xmx64g"
#
# docs/benchmarking.md explains the options, the recommended JVM flags per machine size and how
# to read the results against the runner's.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/target/benchmarks.jar"
out=""
threads=""
protocols="occ,tictoc"
benchmarks="TpccBenchmark,YcsbBenchmark"
tpcc_modes="cu+ts"
tpcc_mix="standard"
warehouses="threads"
ycsb_workloads="txn16-high,txn16-medium"
records="1000000"
jvm_args=""
extra_cp=""
charts=1
# JMH iteration settings: warm-up iterations x seconds, measurement iterations x seconds, forks.
wi=3; w=5; mi=5; m=5; forks=1

usage() {
    cat <<'EOF'
Usage: jmh/sweep.sh [options]

Runs TpccBenchmark and YcsbBenchmark at each thread count for each protocol, writes one JMH JSON
file per benchmark and thread count into the output folder, then renders scaling charts
(throughput and abort rate against threads, a series per protocol) and summary.md there.

Options:
  --jar FILE            benchmarks.jar (default: jmh/target/benchmarks.jar beside this script)
  --out DIR             output folder (default: sweep-<date>-<time> in the current folder)
  --threads "N N ..."   thread counts (default: 1 2 4 ... up to the cores, and the core count)
  --protocols LIST      comma-separated protocols or mixes, e.g. occ,tictoc,occ+stock=tictoc
                        (default occ,tictoc)
  --benchmarks LIST     TpccBenchmark, YcsbBenchmark or both (default both)
  --tpcc-modes LIST     TPC-C modes, comma-separated: base, ts, cu, cu+ts (default cu+ts)
  --tpcc-mix MIX        standard, or one type: new-order, payment, ... (default standard)
  --warehouses W        'threads' (one warehouse per thread) or a fixed number (default threads)
  --ycsb-workloads LIST txn16-high, txn16-medium, a, b (default txn16-high,txn16-medium)
  --records N           YCSB table size (default 1000000)
  --jvm-args "..."      extra flags for the benchmark JVMs (e.g. "-Xmx64g -XX:+UseNUMA")
  --extra-cp PATH       jars to add to the class path, e.g. your own protocol's (found by
                        ServiceLoader; name it in --protocols)
  --quick               1 warm-up and 2 measured iterations of 3 s (default 3 x 5 s and 5 x 5 s)
  --forks N             JMH forks per point (default 1)
  --no-charts           write the JSON files only (render later with ScalingCharts)
  --help                this text

The JVM is $java_home/bin/java if java_home is set, else $JAVA_HOME/bin/java, else java.
EOF
}

die() {
    echo "sweep: $*" >&2
    echo "Try 'jmh/sweep.sh --help'." >&2
    exit 2
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --jar) jar="${2:?--jar needs a file}"; shift 2 ;;
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        --threads) threads="${2:?--threads needs counts}"; shift 2 ;;
        --protocols) protocols="${2:?--protocols needs a list}"; shift 2 ;;
        --benchmarks) benchmarks="${2:?--benchmarks needs a list}"; shift 2 ;;
        --tpcc-modes) tpcc_modes="${2:?--tpcc-modes needs a list}"; shift 2 ;;
        --tpcc-mix) tpcc_mix="${2:?--tpcc-mix needs a mix}"; shift 2 ;;
        --warehouses) warehouses="${2:?--warehouses needs a value}"; shift 2 ;;
        --ycsb-workloads) ycsb_workloads="${2:?--ycsb-workloads needs a list}"; shift 2 ;;
        --records) records="${2:?--records needs a number}"; shift 2 ;;
        --jvm-args) jvm_args="${2?--jvm-args needs flags}"; shift 2 ;;
        --extra-cp) extra_cp="${2:?--extra-cp needs a path}"; shift 2 ;;
        --quick) wi=1; w=3; mi=2; m=3; shift ;;
        --forks) forks="${2:?--forks needs a number}"; shift 2 ;;
        --no-charts) charts=0; shift ;;
        --help|-h) usage; exit 0 ;;
        *) die "unknown option '$1'" ;;
    esac
done

java_bin=java
if [[ -n "${java_home:-}" ]]; then
    java_bin="$java_home/bin/java"
elif [[ -n "${JAVA_HOME:-}" ]]; then
    java_bin="$JAVA_HOME/bin/java"
fi
"$java_bin" -version >/dev/null 2>&1 || die "no JVM at '$java_bin'"
if [[ ! -f "$jar" ]]; then
    [[ "$jar" == "$here/target/benchmarks.jar" ]] || die "no such jar: $jar"
    echo "sweep: building $jar (mvn package -pl jmh -am)..." >&2
    (cd "$here/.." && mvn -B -q -Dmaven.test.skip=true -Dmaven.source.skip=true -Dmaven.javadoc.skip=true \
        package -pl jmh -am) || die "the build failed"
fi

jar="$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")"

cores="$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)"
if [[ -z "$threads" ]]; then
    t=1
    while (( t < cores )); do threads+="$t "; t=$((t * 2)); done
    threads+="$cores"
fi
for t in $threads; do
    [[ "$t" =~ ^[1-9][0-9]*$ ]] || die "--threads: '$t' is not a positive number"
done
[[ "$forks" =~ ^[1-9][0-9]*$ ]] || die "--forks: '$forks' is not a positive number"
[[ "$warehouses" == threads || "$warehouses" =~ ^[1-9][0-9]*$ ]] || die "--warehouses: 'threads' or a number, got '$warehouses'"
[[ -n "$out" ]] || out="sweep-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//') ($cores cores online)"
    echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null)"
    echo "jvm: $("$java_bin" -version 2>&1 | head -n 2 | tail -n 1)"
    echo "jar: $jar"
    echo "threads: $threads; protocols: $protocols; benchmarks: $benchmarks"
    echo "tpcc: modes $tpcc_modes, mix $tpcc_mix, warehouses $warehouses; ycsb: $ycsb_workloads, $records records"
    echo "jmh: -wi $wi -w ${w}s -i $mi -r ${m}s -f $forks; jvm args: ${jvm_args:-none}"
} > "$out/machine.txt"
cat "$out/machine.txt" >&2

failed=()
for bench in ${benchmarks//,/ }; do
    case "$bench" in
        TpccBenchmark) params=(-p "mode=$tpcc_modes" -p "mix=$tpcc_mix" -p "warehouses=$warehouses") ;;
        YcsbBenchmark) params=(-p "workload=$ycsb_workloads" -p "records=$records") ;;
        *) die "--benchmarks: unknown benchmark '$bench' (TpccBenchmark, YcsbBenchmark)" ;;
    esac
    for t in $threads; do
        name="$bench-t$t"
        echo "sweep: $name ($(date -u +%H:%M:%S))" >&2
        jmh_args=("^io\.jato\.jmh\.workloads\.$bench\." -t "$t" -p "protocol=$protocols" "${params[@]}"
                  -wi "$wi" -w "${w}s" -i "$mi" -r "${m}s" -f "$forks"
                  -rf json -rff "$out/$name.json" -o "$out/$name.log")
        if [[ -n "$jvm_args" ]]; then
            jmh_args+=(-jvmArgsAppend "$jvm_args")
        fi
        # A configuration whose check fails after its trial (a protocol that broke an invariant)
        # gets no score: JMH reports the error and goes on with the next one; listed at the end.
        if ! "$java_bin" -cp "$jar${extra_cp:+:$extra_cp}" org.openjdk.jmh.Main "${jmh_args[@]}" || grep -q -F '<failure>' "$out/$name.log"; then
            failed+=("$name")
            echo "sweep: $name had a failure (see $out/$name.log)" >&2
        fi
        grep -E '^(Benchmark|[A-Za-z]+Benchmark\.transaction )' "$out/$name.log" >&2 || true
    done
done

if (( charts )); then
    # Relative input names, so the summary reads the same wherever the folder is moved.
    (cd "$out" && "$java_bin" -Djava.awt.headless=true -cp "$jar" io.jato.jmh.charts.ScalingCharts . ./*.json)
    echo "sweep: charts and summary in $out/summary.md" >&2
fi
if (( ${#failed[@]} )); then
    echo "sweep: failures (no score for the configurations that failed): ${failed[*]}" >&2
    exit 1
fi
