# shellcheck shell=sh
# Shared by the whole-command benchmarks (bench/run, bench/cli-timings.sh, bench/status-tick.sh,
# bench/concurrent-submits.sh, bench/class-loads.sh): sourced, never run. POSIX sh.
#
#   bench_setup NAME      $here, $root, $tmp (removed on exit), a clean environment, say()
#   bench_image           $NVIDB_BIN (default: distribution/target/nvidb, built first via ./nvidb
#                         when missing or stale) and $image, the image folder around it
#   populate HOME N [BIN] a queue in HOME holding N jobs: one submitted through BIN (default
#                         $NVIDB_BIN), copied in SQL by bench/populate-jobs.sql (sqlite3, or
#                         PopulateJobs.java on a JDK 25); with PENDING=yes every job is pending
#   floor_sample FILE     one run of the image's own `runtime/bin/java -version`: its wall time (s)
#                         appended to FILE.wall, its CPU time to FILE.cpu
#   median FILE, p90 FILE  of the numbers in FILE, one a line

bench_setup() {
    here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
    root=${here%/*}
    bench_name=$1
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-bench.XXXXXX")
    trap 'rm -rf -- "$tmp"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    # Nothing of the caller's queue may reach the commands timed.
    unset NVIDB_QUEUE_DB NVIDB_QUEUE_CONFIG NVIDB_DEBUG NVIDB_JAVA_OPTS NVIDB_SUBMITTER
    export NO_COLOR=1
}

say() { printf '%s: %s\n' "$bench_name" "$*" >&2; }

bench_image() {
    if [ -z "${NVIDB_BIN:-}" ]; then
        # Builds the image when it is missing or older than the sources; its output goes to stderr.
        "$root/nvidb" --version > /dev/null
        NVIDB_BIN=$root/distribution/target/nvidb/bin/nvidb
    fi
    [ -x "$NVIDB_BIN" ] || { say "no nvidb launcher at $NVIDB_BIN"; exit 1; }
    # shellcheck disable=SC2034 # for the scripts that source this one
    image=$(cd -P -- "$(dirname -- "$NVIDB_BIN")/.." && pwd -P)
}

# populate HOME N [BIN]: HOME gets a queue of N jobs (mostly finished, 1 in 20 pending; all of
# them pending with PENDING=yes); an existing HOME/queue.yml is kept, else one with no node is
# written (nothing ever runs).
populate() {
    p_home=$1 p_count=$2 p_bin=${3:-$NVIDB_BIN}
    mkdir -p "$p_home"
    [ -f "$p_home/queue.yml" ] || printf 'queue:\n  include_local: false\n' > "$p_home/queue.yml"
    NVIDB_HOME=$p_home "$p_bin" job submit --json --gpus 0 --no-tick --name bench-seed -- true > /dev/null
    # The size goes in a temporary table the SQL reads (it makes 10,000 without one).
    p_sql=$tmp/populate-$p_count-${PENDING:-no}.sql
    { printf 'CREATE TEMP TABLE bench_size (n INTEGER);\nINSERT INTO bench_size VALUES (%s);\n' "$p_count"
        printf 'CREATE TEMP TABLE bench_pending (p INTEGER);\nINSERT INTO bench_pending VALUES (%s);\n' \
            "$([ "${PENDING:-no}" = yes ] && echo 1 || echo 0)"
        cat "$here/populate-jobs.sql"; } > "$p_sql"
    if command -v sqlite3 > /dev/null 2>&1; then
        sqlite3 -bail -cmd '.timeout 10000' "$p_home/queue.db" < "$p_sql"
        if [ "$(sqlite3 "$p_home/queue.db" "SELECT count(*) FROM sqlite_master WHERE name = 'job_env'")" = 1 ]; then
            sqlite3 -bail -cmd '.timeout 10000' "$p_home/queue.db" < "$here/populate-job-lists.sql"
        fi
    else
        p_jdk=
        for c in "${JAVA_HOME:-}" /usr/lib/jvm/*25*; do
            if [ -n "$c" ] && [ -x "$c/bin/javac" ] && grep -q '^JAVA_VERSION="25' "$c/release" 2> /dev/null; then
                p_jdk=$c
                break
            fi
        done
        [ -n "$p_jdk" ] || { say "need sqlite3 or a JDK 25 (JAVA_HOME) to fill the queue"; exit 1; }
        p_image=$(cd -P -- "$(dirname -- "$NVIDB_BIN")/.." && pwd -P)
        "$p_jdk/bin/java" --enable-native-access=ALL-UNNAMED -cp "$p_image/lib/*" \
            "$here/PopulateJobs.java" "$p_home/queue.db" "$p_sql" "$here/populate-job-lists.sql"
    fi
    p_found=$(NVIDB_HOME=$p_home "$p_bin" job ls --json --no-tick -n 0 | grep -o '"command"' | wc -l)
    [ "$p_found" -eq "$p_count" ] || { say "expected $p_count jobs in $p_home, found $p_found"; exit 1; }
}

# median FILE / p90 FILE (nearest rank) / maximum FILE: of the numbers in FILE, one a line.
median() {
    sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
        print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

p90() {
    sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
        r = int(0.9 * NR); if (r < 0.9 * NR) r++; if (r < 1) r = 1; print v[r] }'
}

# floor_sample FILE: the JVM's own start-up, measured like a command (GNU time): the image's
# runtime printing its version. Commands are compared with it run for run, so that a loaded or
# slower machine moves both alike.
floor_sample() {
    f_start=$(date +%s%N)
    /usr/bin/time -f '%U %S' -o "$tmp/floor.time" "$image/runtime/bin/java" -version 2> /dev/null
    f_end=$(date +%s%N)
    echo "$(((f_end - f_start) / 1000000))" | awk '{ printf "%.3f\n", $1 / 1000 }' >> "$1.wall"
    tail -n 1 "$tmp/floor.time" | awk '{ printf "%.3f\n", $1 + $2 }' >> "$1.cpu"
}
