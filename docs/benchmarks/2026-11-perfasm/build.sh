#!/bin/bash
# build.sh COMMIT... : builds the JMH jar of each commit (in a throwaway worktree) into $JARS/COMMIT.jar.
# JARS defaults to /tmp/bis/jars; run from inside the repository.
set -u
jars=${JARS:-/tmp/bis/jars}
repo=$(git rev-parse --show-toplevel)
mkdir -p "$jars"
for c in "$@"; do
  [ -f "$jars/$c.jar" ] && continue
  wt=$(mktemp -d)/wt
  git -C "$repo" worktree add -q --detach "$wt" "$c" || continue
  ( cd "$wt" && mvn -B -q -o -Dmaven.test.skip=true -Dmaven.source.skip=true -Dmaven.javadoc.skip=true \
      -Djcstress.skip=true package -pl jmh -am > "$jars/build-$c.log" 2>&1 )
  if [ -f "$wt/jmh/target/benchmarks.jar" ]; then
    cp "$wt/jmh/target/benchmarks.jar" "$jars/$c.jar" && echo "built $c"
  else
    echo "no jar for $c (see $jars/build-$c.log)"
  fi
  git -C "$repo" worktree remove --force "$wt"
done
