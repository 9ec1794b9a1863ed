#!/bin/sh
# How many classes the start-up commands load (-Xlog:class+load), once with the image's AOT
# cache as the launcher runs them and once without it (-XX:AOTMode=off): with the cache, the
# classes of every trained command are mapped and linked at start (JDK 25 AOT class linking), so
# "loaded" counts those too and "outside" the few loaded from the jars or made at run time, and
# "spun" those made at run time (lambdas, method-handle forms, switch bootstraps: classes the
# cache cannot hold, each generated anew on every start); without it, the count is what the
# command itself needs, by origin.
#
#   bench/class-loads.sh                                  the image under test ($NVIDB_BIN, as bench/run)
#   NVIDB_BIN=/opt/nvidb/bin/nvidb bench/class-loads.sh   another image
#
# Prints a Markdown table on stdout; runs against a fresh queue, and a queue of 10,000 jobs.
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname -- "$0")/lib.sh"
bench_setup class-loads
bench_image
populate "$tmp/full" 10000
empty=$tmp/empty
NVIDB_HOME=$empty "$NVIDB_BIN" job ls --json --no-tick > /dev/null

# count HOME ARGS...: one table row
count() {
    c_home=$1
    shift
    for mode in on off; do
        rm -rf "$tmp/run" && cp -R "$c_home" "$tmp/run"
        opts="-Xlog:class+load:file=$tmp/$mode.log:none" # one "NAME source: WHERE" a line
        [ "$mode" = on ] || opts="-XX:AOTMode=off $opts"
        NVIDB_HOME=$tmp/run NVIDB_JAVA_OPTS=$opts "$NVIDB_BIN" "$@" > /dev/null 2>&1 \
            || { say "failed: nvidb $*"; exit 1; }
    done
    off=$tmp/off.log
    # shellcheck disable=SC2016 # the backquotes are Markdown
    printf '| `nvidb %s` | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n' "$*" \
        "$(wc -l < "$tmp/on.log")" "$(grep -vc 'source: shared objects file' "$tmp/on.log")" \
        "$(grep '/0x' "$tmp/on.log" | grep -vc 'source: shared objects file')" "$(wc -l < "$off")" \
        "$(grep -c 'source: jrt:/' "$off")" "$(grep -c '^picocli\.' "$off")" "$(grep -c '^com\.fasterxml\.' "$off")" \
        "$(grep -c '^org\.sqlite\.' "$off")" "$(grep -c '^nvidb\.' "$off")" \
        "$(grep -c '^org\.apache\.sshd\.\|^org\.pf4j\.\|^org\.yaml\.\|^org\.jline\.' "$off")"
}

printf '| command | loaded (AOT cache) | of them outside the cache | of them spun at run time | loaded without the cache | JDK | picocli | Jackson | sqlite-jdbc | nvidb | sshd, pf4j, SnakeYAML, JLine |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|\n'
count "$empty" --version
count "$empty" job submit --json --gpus 0 --no-tick -- true
count "$tmp/full" job ls --json --no-tick
count "$tmp/full" queue status --json --no-tick
