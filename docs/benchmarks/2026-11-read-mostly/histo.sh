#!/usr/bin/env bash
# From the repository root (or a worktree); writes OUT.run and OUT.histo. A tool of 2026-11-read-mostly.md.
# histo.sh PROTOCOL OUT: runs TPC-C 1Wx1T cu+ts for 12 s and takes a class histogram of live objects 10 s into it
cd "$(git rev-parse --show-toplevel)"
p=$1; out=$2
JAVA_OPTS="-Xmx4g" ./jato tpcc --protocol $p --threads 1 --duration 12 --warmup 2 --seed 1 > $out.run 2>&1 &
sleep 3
for i in $(seq 1 60); do pid=$(pgrep -f "jar.* tpcc --protocol" | head -1); [ -n "$pid" ] && break; sleep 1; done
# wait until measuring (load + warmup) plus 8 s
for i in $(seq 1 120); do grep -q " run  " $out.run 2>/dev/null && break; sleep 1; done
sleep 8
jmap -histo:live $pid > $out.histo 2>&1
wait
