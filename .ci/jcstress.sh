#!/usr/bin/env bash
# Runs Jato's jcstress tests in a short mode fit for CI on 2 cores (1-3 minutes).
#
#   mvn -B package -pl jcstress-tests -am     # or mvn -B verify: builds jcstress-tests/target/jcstress.jar
#   bash .ci/jcstress.sh                      # from the repository root
#
# Mode: jcstress's "quick" preset on 2 CPUs, one 200 ms iteration per configuration and unified
# (not split per-actor) compilation, which gives 8 configurations per test: interpreter, C1, C2
# and C2 with the code-motion stress flags, each with and without biased locking where the JVM
# still has it (JDK 17: 8, JDK 25: 4). The full "quick" preset (28 configurations of 5 iterations
# per test) takes over 10 minutes on 2 cores.
#
# Everything jcstress writes (results/, jcstress-results-*.bin.gz) and the captured output
# (jcstress.log) goes to jcstress-tests/target/jcstress-ci/. The last line printed is
#   jcstress: N passed, N failed
# counting tests (each summarised over all its configurations). The script exits non-zero if the
# jar is missing, jcstress fails or times out, no test ran, or any test did not pass.
#
# Environment: JAVA_HOME selects the JVM (else `java` on PATH); JCSTRESS_JAR overrides the jar;
# JCSTRESS_OPTS replaces the mode options below; JCSTRESS_TIMEOUT (seconds, default 900) bounds
# the whole run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="${JCSTRESS_JAR:-$root/jcstress-tests/target/jcstress.jar}"
work="$root/jcstress-tests/target/jcstress-ci"
log="$work/jcstress.log"
java_cmd="${JAVA_HOME:+$JAVA_HOME/bin/}java"
read -r -a opts <<< "${JCSTRESS_OPTS:--m quick -c 2 -sc false -iters 1 -time 200}"

if [[ ! -f "$jar" ]]; then
    echo "jcstress: jar not found: $jar (build it with: mvn -B package -pl jcstress-tests -am)" >&2
    echo "jcstress: 0 passed, 0 failed"
    exit 1
fi
jar="$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")"

rm -rf "$work"
mkdir -p "$work"
echo "jcstress: running $jar (${opts[*]}) with $("$java_cmd" -version 2>&1 | head -n 1)"
echo "jcstress: output in $log"

start=$SECONDS
status=0
# -v makes the final report list every test with its status, which is what is counted below.
(cd "$work" && timeout "${JCSTRESS_TIMEOUT:-900}" "$java_cmd" -jar "$jar" "${opts[@]}" -v) > "$log" 2>&1 || status=$?
elapsed=$((SECONDS - start))

# The report after "RUN RESULTS:" has one "....[STATUS] test.Name" line per test and group it
# falls in (interesting, failed, error, all remaining). A test passed if every line says OK.
summary="$(awk '
    /^RUN RESULTS:/ { report = 1; next }
    report && match($0, /^\.* *\[[A-Z ]+\] [A-Za-z0-9_.$]+$/) {
        line = substr($0, RSTART, RLENGTH)
        sub(/^\.* *\[/, "", line)
        split(line, parts, "] ")
        name = parts[2]
        if (!(name in state)) { state[name] = "OK"; order[++n] = name }
        if (parts[1] != "OK") { state[name] = parts[1] }
    }
    END {
        for (i = 1; i <= n; i++) {
            if (state[order[i]] == "OK") { passed++ } else { failed++; print "FAILED " state[order[i]] " " order[i] }
        }
        printf "COUNTS %d %d\n", passed, failed
    }' "$log")"
read -r _ passed failed <<< "$(grep '^COUNTS ' <<< "$summary")"

# Show the final report (per-test results across configurations) and any failing test names.
sed -n '/^RUN RESULTS:/,$p' "$log"
grep '^FAILED ' <<< "$summary" | sed 's/^FAILED /jcstress: not passed: /' || true
grep -E '^\(Results: ' "$log" | tail -n 1 | sed 's/^/jcstress: configurations /' || true
echo "jcstress: finished in ${elapsed}s (exit status $status)"

# jcstress itself exits with 1 when a test failed; any other non-zero exit (or a timeout) with no
# failed test reported means the run did not complete, which counts as a failure too.
if (( status != 0 && failed == 0 )); then
    if (( status == 124 )); then
        echo "jcstress: timed out after ${JCSTRESS_TIMEOUT:-900}s; see $log" >&2
    else
        echo "jcstress: the harness exited with status $status; see $log" >&2
    fi
    failed=1
fi
if (( passed + failed == 0 )); then
    echo "jcstress: no test ran; see $log" >&2
fi

echo "jcstress: $passed passed, $failed failed"
(( status == 0 && failed == 0 && passed > 0 ))
