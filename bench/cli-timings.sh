#!/bin/sh
# Whole-command timings of the built nvidb distribution: each command is started RUNS times
# (default 20) after WARMUP untimed runs (default 3), against a fresh NVIDB_HOME in a temporary
# folder, and the table printed on stdout gives median, p90 and min wall time per command:
#
#   (0) nvidb --version                                   the JVM and the launcher alone
#   (a) nvidb job submit --json --gpus 0 -- true          on an empty queue (reset before each run)
#   (a') the same with --no-tick                          (a) less the scheduler pass it runs after
#                                                         the insert (probe the local node, start the job)
#   (b) nvidb job ls --json --no-tick                     10,000 jobs in the queue (prints 100)
#   (c) nvidb job ls --json --no-tick -n 0                10,000 jobs in the queue (prints them all)
#
# Uses hyperfine when it is installed (Debian: apt-get install hyperfine), else a loop timed with
# `date +%s%N`. The 10,000 jobs are one job submitted through the CLI and copied in SQL
# (bench/lib.sh: populate). bench/run prints the issue's table, with a reference program beside.
#
#   bench/cli-timings.sh                 times distribution/target/nvidb (built first via ./nvidb
#                                        when missing or stale)
#   NVIDB_BIN=/opt/nvidb/bin/nvidb bench/cli-timings.sh      times another launcher
#   RUNS=50 WARMUP=5 bench/cli-timings.sh
#   BENCH_TOOL=loop bench/cli-timings.sh  the date loop even where hyperfine is installed
#
# Progress goes to stderr; the table alone goes to stdout.
set -eu

runs=${RUNS:-20}
warmup=${WARMUP:-3}
# shellcheck source=bench/lib.sh
. "$(dirname -- "$0")/lib.sh"
bench_setup cli-timings
bench_image

# --- the timer --------------------------------------------------------------------------------
tool="a date +%s%N loop"
if [ "${BENCH_TOOL:-}" != loop ] && command -v hyperfine > /dev/null 2>&1; then
    tool="hyperfine $(hyperfine --version | awk '{print $2}')"
else
    case $(date +%N) in
        *[!0-9]* | '') say "need hyperfine or a date that knows %N (GNU coreutils)"; exit 1 ;;
    esac
fi

# measure LABEL PREPARE -- COMMAND...: writes the run times in milliseconds, one a line, to
# $tmp/LABEL.ms. PREPARE (a sh command line, or "") runs untimed before every run.
measure() {
    label=$1 prepare=$2
    shift 3
    out=$tmp/$label.ms
    if [ "$tool" != "a date +%s%N loop" ]; then
        set -- hyperfine --style none --warmup "$warmup" --runs "$runs" --export-json "$tmp/$label.json" \
            --output null ${prepare:+--prepare "$prepare"} -- "$(quote_all "$@")"
        "$@" > /dev/null
        # The "times" array of the only result, in seconds.
        tr -d ' \n\t' < "$tmp/$label.json" | sed 's/.*"times":\[\([^]]*\)\].*/\1/' | tr ',' '\n' \
            | awk 'NF { printf "%.3f\n", $1 * 1000 }' > "$out"
        # Mean CPU time (user + system) per run: steadier than wall time on a busy machine.
        tr -d ' \n\t' < "$tmp/$label.json" | sed 's/.*"user":\([0-9.e-]*\),"system":\([0-9.e-]*\).*/\1 \2/' \
            | awk '{ printf "%.1f\n", ($1 + $2) * 1000 }' > "$tmp/$label.cpu"
    else
        : > "$out"
        i=0
        while [ $i -lt $((warmup + runs)) ]; do
            [ -z "$prepare" ] || sh -c "$prepare"
            start=$(date +%s%N)
            "$@" > /dev/null
            end=$(date +%s%N)
            [ $i -lt "$warmup" ] || echo "$(( (end - start) / 1000 ))" | awk '{ printf "%.3f\n", $1 / 1000 }' >> "$out"
            i=$((i + 1))
        done
    fi
}

# Single-quotes each argument for the shell hyperfine runs the command line in.
quote_all() {
    q=
    for a in "$@"; do
        q="$q '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
    done
    printf '%s' "${q# }"
}

# stats LABEL: "median p90 min" in ms (p90: nearest rank).
stats() {
    sort -n "$tmp/$1.ms" | awk '{ v[NR] = $1 } END {
        n = NR; med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        r = int(0.9 * n); if (r < 0.9 * n) r++; if (r < 1) r = 1
        printf "%8.1f %8.1f %8.1f", med, v[r], v[1] }'
}

row() { printf '%-62s %s %8s\n' "$1" "$(stats "$2")" "$(cat "$tmp/$2.cpu" 2> /dev/null || echo -)"; }

# --- (0) and (a): an empty queue ------------------------------------------------------------------
empty=$tmp/empty-home
snapshot=$tmp/empty-snapshot
NVIDB_HOME=$snapshot "$NVIDB_BIN" job ls --json --no-tick > /dev/null # creates the schema
export NVIDB_HOME="$empty"
cp -R "$snapshot" "$empty"
say "(0) --version"
measure version "" -- "$NVIDB_BIN" --version
say "(a) job submit on an empty queue"
measure submit "rm -rf '$empty' && cp -R '$snapshot' '$empty'" -- "$NVIDB_BIN" job submit --json --gpus 0 -- true
say "(a') job submit --no-tick on an empty queue"
measure submitnt "rm -rf '$empty' && cp -R '$snapshot' '$empty'" -- "$NVIDB_BIN" job submit --json --gpus 0 --no-tick -- true

# --- (b) and (c): 10,000 jobs -------------------------------------------------------------------
full=$tmp/full-home
populate "$full" 10000
export NVIDB_HOME="$full"
say "(b) job ls, 10,000 jobs"
measure ls100 "" -- "$NVIDB_BIN" job ls --json --no-tick
say "(c) job ls -n 0, 10,000 jobs"
measure lsall "" -- "$NVIDB_BIN" job ls --json --no-tick -n 0

# --- the table ------------------------------------------------------------------------------------
aot=no
if [ -f "$image/lib/nvidb.aot" ]; then aot=yes; fi
printf 'nvidb CLI timings: %s\n' "$image"
printf '%s runs after %s warm-up runs, timed with %s; %s CPUs, load %s; AOT cache: %s\n' \
    "$runs" "$warmup" "$tool" "$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo '?')" \
    "$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')" "$aot"
printf '%-62s %8s %8s %8s %8s\n' "command (wall time, ms; cpu: mean user+sys)" median p90 min cpu
row "(0) nvidb --version" version
row "(a) nvidb job submit --json --gpus 0 -- true  (empty queue)" submit
row "(a') ... --no-tick  (no scheduler pass)" submitnt
row "(b) nvidb job ls --json --no-tick  (10,000 jobs)" ls100
row "(c) nvidb job ls --json --no-tick -n 0  (10,000 jobs)" lsall
