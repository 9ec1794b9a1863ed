#!/bin/sh
# The CLI fuzzer at length: VECTORS random command lines (default 5000) against a scratch queue,
# with SEED (default: a new one each run, printed). Every command line must end with an exit code
# from the table, no stack trace or unexpected exception, one JSON document under --json, and the
# database unchanged when it was rejected (modules/cli CliFuzzTest, which CI runs with 400).
# A failure prints the seed and the vector: `SEED=... bench/cli-fuzz.sh` repeats it.
#
# Builds what it needs from this checkout with the reactor (nothing is written to ~/.m2).
set -eu
root=$(cd -P -- "$(dirname -- "$0")/.." && pwd -P)
. "$root/scripts/find-jdk25.sh"
use_jdk25
cd "$root"
vectors=${VECTORS:-5000}
seed=${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "cli-fuzz: $vectors vectors, seed $seed" >&2
mvn -q -B -ntp -pl modules/cli -am verify -Dtest=CliFuzzTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=none -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dnvidb.fuzz.vectors="$vectors" -Dnvidb.fuzz.seed="$seed"
