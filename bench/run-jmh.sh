#!/bin/sh
# Runs the JMH benchmarks of bench/jmh (hot paths: one dispatch pass over 10,000 jobs, one node
# refresh step). Arguments go to JMH, e.g. `bench/run-jmh.sh DispatchBenchmark -f 1 -wi 3 -i 5`.
set -eu
root=$(cd -P -- "$(dirname -- "$0")/.." && pwd -P)
. "$root/scripts/find-jdk25.sh"
use_jdk25
cd "$root"
mvn -q -B -ntp -DskipTests install -pl bench/jmh -am >&2
mvn -q -B -ntp dependency:build-classpath -pl bench/jmh -Dmdep.outputFile=bench/jmh/target/classpath.txt >&2
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
    -cp "bench/jmh/target/classes:$(cat bench/jmh/target/classpath.txt)" org.openjdk.jmh.Main "$@"
