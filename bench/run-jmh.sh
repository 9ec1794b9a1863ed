#!/bin/sh
# Runs the JMH benchmarks of bench/jmh (hot paths: one dispatch pass over 10,000 jobs, one node
# refresh step, one whole pass over 32 nodes answering from memory). Arguments go to JMH, e.g.
# `bench/run-jmh.sh DispatchBenchmark -f 1 -wi 3 -i 5`.
#
# Builds bench/jmh and what it needs from this checkout (package, not install: nothing is written
# to ~/.m2), then runs JMH on the class path Maven resolved within that build.
set -eu
root=$(cd -P -- "$(dirname -- "$0")/.." && pwd -P)
. "$root/scripts/find-jdk25.sh"
use_jdk25
cd "$root"
mvn -q -B -ntp -DskipTests package dependency:build-classpath -Dmdep.outputFile="$root/bench/jmh/target/classpath.txt" \
    -pl bench/jmh -am >&2
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
    -cp "bench/jmh/target/classes:$(cat bench/jmh/target/classpath.txt)" org.openjdk.jmh.Main "$@"
