#!/usr/bin/env bash
# The peer comparison (docs/peers.md): every Peer*Benchmark (counter, transfer, read-only sum,
# read-write 16, map) on Jato, ScalaSTM, Multiverse, Clojure refs, H2 MVStore and a global lock, at
# each thread count; one JMH JSON file and log per thread count, then the bar charts and summary.md
# (io.jato.jmh.charts.PeerCharts). Needs only a JVM and benchmarks.jar, so the jar can be copied to
# a quiet machine and run there.
#
#   jmh/peers.sh --out peers-run                       # threads 1 and 2, about 5.5 minutes
#   jmh/peers.sh --out smoke --quick                   # a smoke run: about a second per benchmark
#   JAVA=/opt/jdk-25/bin/java jmh/peers.sh --jar /tmp/benchmarks.jar --out /data/peers --threads "1 2 4 8"
#
# docs/benchmarks/2026-11-peers.md says how the published numbers were made with it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/target/benchmarks.jar"
out=""
threads="1 2"
benchmarks='^io\.jato\.jmh\.Peer[A-Za-z0-9]*Benchmark\.'
jvm_args=""
jmh_extra=""
charts=1
# JMH iteration settings: warm-up iterations x time, measurement iterations x time, forks.
wi=2; w=1s; mi=4; m=500ms; forks=1

usage() {
    cat <<'EOF'
Usage: jmh/peers.sh --out DIR [options]

Runs every Peer*Benchmark at each thread count (one JMH run per count, all systems and
transactions in it), writes peers-t<N>.json (results), peers-t<N>.log (JMH's report) and
peers-t<N>.out (the benchmarks' check lines) per count and machine.txt into DIR,
then renders the bar charts (peers-t<N>.png per count, peers-<transaction>.png per transaction) and
summary.md there. A benchmark whose invariant check fails gets no score; the script lists those at
the end and exits with status 1.

Options:
  --out DIR             output folder (required; created if missing)
  --jar FILE            benchmarks.jar (default: jmh/target/benchmarks.jar beside this script,
                        built with Maven if missing)
  --threads "N N ..."   thread counts (default "1 2")
  --benchmarks REGEX    JMH include pattern (default: every Peer*Benchmark method)
  --jvm-args "..."      extra flags for the benchmark JVMs (the benchmarks already set -Xms2g -Xmx2g)
  --jmh-args "..."      extra JMH options, e.g. "-p writePercent=0,20 -prof gc"
  --forks N             JMH forks per benchmark (default 1)
  --iterations "WI W MI M"
                        warm-up iterations and time, measurement iterations and time
                        (default "2 1s 4 500ms")
  --quick               a smoke run: 1 warm-up of 200 ms and 1 measurement of 300 ms, to check
                        that everything runs and passes its checks; its numbers mean nothing
  --no-charts           write the JSON files only (render later with PeerCharts)
  --help                this text

The JVM is $JAVA if set (a java executable), else $JAVA_HOME/bin/java, else java on the PATH.
Duration: about warm-up + measurement + 0.5 s per benchmark and thread count (a JVM per
benchmark); 36 benchmarks, so about 5.5 minutes for the defaults at two thread counts (4.4 s per
benchmark measured on a 2-core machine).
EOF
}

die() {
    echo "peers: $*" >&2
    echo "Try 'jmh/peers.sh --help'." >&2
    exit 2
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        --jar) jar="${2:?--jar needs a file}"; shift 2 ;;
        --threads) threads="${2:?--threads needs counts}"; shift 2 ;;
        --benchmarks) benchmarks="${2:?--benchmarks needs a pattern}"; shift 2 ;;
        --jvm-args) jvm_args="${2?--jvm-args needs flags}"; shift 2 ;;
        --jmh-args) jmh_extra="${2?--jmh-args needs options}"; shift 2 ;;
        --forks) forks="${2:?--forks needs a number}"; shift 2 ;;
        --iterations)
            read -r wi w mi m <<< "${2:?--iterations needs four values}" || true
            [[ -n "$m" ]] || die "--iterations: four values, e.g. \"2 1s 3 1s\""
            shift 2 ;;
        --quick) wi=1; w=200ms; mi=1; m=300ms; shift ;;
        --no-charts) charts=0; shift ;;
        --help|-h) usage; exit 0 ;;
        *) die "unknown option '$1'" ;;
    esac
done

[[ -n "$out" ]] || die "--out DIR is required"
if [[ -n "${JAVA:-}" ]]; then
    java_bin="$JAVA"
elif [[ -n "${JAVA_HOME:-}" ]]; then
    java_bin="$JAVA_HOME/bin/java"
else
    java_bin=java
fi
"$java_bin" -version >/dev/null 2>&1 || die "no JVM at '$java_bin' (set JAVA to a java executable)"
for t in $threads; do
    [[ "$t" =~ ^[1-9][0-9]*$ ]] || die "--threads: '$t' is not a positive number"
done
[[ "$forks" =~ ^[1-9][0-9]*$ ]] || die "--forks: '$forks' is not a positive number"
[[ "$wi" =~ ^[0-9]+$ && "$mi" =~ ^[1-9][0-9]*$ ]] || die "--iterations: iteration counts '$wi' and '$mi'"
[[ "$w" =~ ^[0-9]+(ms|s)$ && "$m" =~ ^[0-9]+(ms|s)$ ]] || die "--iterations: times like 1s or 500ms, got '$w' and '$m'"
if [[ ! -f "$jar" ]]; then
    [[ "$jar" == "$here/target/benchmarks.jar" ]] || die "no such jar: $jar"
    echo "peers: building $jar (mvn package -pl jmh -am)..." >&2
    (cd "$here/.." && mvn -B -q -Dmaven.test.skip=true -Dmaven.source.skip=true -Dmaven.javadoc.skip=true \
        package -pl jmh -am) || die "the build failed"
fi
jar="$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")"
mkdir -p "$out"

count="$("$java_bin" -jar "$jar" -l "$benchmarks" | grep -c '^io\.' || true)"
(( count > 0 )) || die "no benchmark matches '$benchmarks' in $jar"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//') ($(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN) cores online)"
    echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null)"
    echo "jvm: $java_bin: $("$java_bin" -version 2>&1 | head -n 2 | tail -n 1)"
    echo "jar: $jar"
    echo "benchmarks: $count matching $benchmarks; threads: $threads"
    echo "jmh: -wi $wi -w $w -i $mi -r $m -f $forks; jvm args: ${jvm_args:-none}; extra: ${jmh_extra:-none}"
} > "$out/machine.txt"
cat "$out/machine.txt" >&2

failed=()
inputs=()
for t in $threads; do
    name="peers-t$t"
    echo "peers: $name, $count benchmarks ($(date -u +%H:%M:%S))" >&2
    jmh_args=("$benchmarks" -t "$t" -wi "$wi" -w "$w" -i "$mi" -r "$m" -f "$forks"
              -rf json -rff "$out/$name.json" -o "$out/$name.log")
    if [[ -n "$jvm_args" ]]; then
        jmh_args+=(-jvmArgsAppend "$jvm_args")
    fi
    if [[ -n "$jmh_extra" ]]; then
        read -r -a extra <<< "$jmh_extra"
        jmh_args+=("${extra[@]}")
    fi
    # JMH's report goes to the .log (-o); what the benchmark JVMs print themselves, the check lines
    # after set-up and after each trial ([peer] ..., [jato] ...), to the .out. A benchmark whose
    # check fails gets no score: JMH reports the error in the .log and goes on with the next one;
    # the failures are listed at the end.
    if ! "$java_bin" -jar "$jar" "${jmh_args[@]}" > "$out/$name.out" || grep -q -F '<failure>' "$out/$name.log"; then
        # The benchmark (and its params) that each <failure> in the log belongs to.
        which="$(awk '/^# Benchmark: /{b=$3; p=""} /^# Parameters: /{p=" " substr($0, 15)} /<failure>/{print b p}' \
            "$out/$name.log" | sed 's/^io\.jato\.jmh\.//; s/ *$//' | paste -sd ';' -)"
        failed+=("$name: ${which:-see the log}")
        echo "peers: $name had a failure (see $out/$name.log): ${which:-?}" >&2
        grep -h -m3 'invariant violated' "$out/$name.log" >&2 || true
    fi
    sed -n '/^Benchmark  /,$p' "$out/$name.log" >&2
    if [[ -s "$out/$name.json" ]] && grep -q '"benchmark"' "$out/$name.json"; then
        inputs+=("$name.json")
    fi
done

if (( charts )) && (( ${#inputs[@]} )); then
    # Relative input names, so the summary reads the same wherever the folder is moved.
    (cd "$out" && "$java_bin" -Djava.awt.headless=true -cp "$jar" io.jato.jmh.charts.PeerCharts . "${inputs[@]}")
    echo "peers: charts and summary in $out/summary.md" >&2
fi
if (( ${#failed[@]} )); then
    echo "peers: failures (no score for the benchmarks that failed):" >&2
    printf '  %s\n' "${failed[@]}" >&2
    exit 1
fi
