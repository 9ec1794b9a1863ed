#!/bin/sh
# A sweep of RUNS runs (default 1,000): submitting it, `sweep show` over it once every run has
# a result, then one requeue of all of them (failed) and one cancel of all of them (pending),
# each timed against the image's own JVM start-up (runtime/bin/java -version) in the same run,
# so that a loaded machine moves both. Wall time, CPU time (user + system) and peak resident size
# from GNU time; medians of REPEAT rounds (default 5), each on a fresh queue.
# While each submit runs, another process counts the queue's jobs over and over: it must see 0 or
# RUNS and nothing between, because the sweep and all its runs are one transaction.
#
#   bench/sweep.sh                         the image under test ($NVIDB_BIN, as bench/run)
#   RUNS=10000 REPEAT=3 bench/sweep.sh
#
# Needs GNU time (/usr/bin/time), and sqlite3 or python3. Prints a Markdown table on stdout.
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname -- "$0")/lib.sh"
bench_setup sweep
# sql DB STATEMENT: what the bench reads and writes behind nvidb's back, with sqlite3 or python3.
if command -v sqlite3 > /dev/null 2>&1; then
    sql() { sqlite3 -bail -cmd '.timeout 5000' "$1" "$2"; }
elif command -v python3 > /dev/null 2>&1; then
    sql() {
        python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=5)
for row in c.execute(sys.argv[2]):
    print(*row)
c.commit()' "$1" "$2"
    }
else
    say "needs sqlite3 or python3"
    exit 1
fi
bench_image
java=$image/runtime/bin/java
[ -x "$java" ] || { say "no runtime at $java"; exit 1; }
runs=${RUNS:-1000}
repeat=${REPEAT:-5}
values=$(seq -s, 0 $((runs - 1)))

# measure COMMAND...: runs it, writing "wall user sys maxrss-KiB" to $tmp/last.time: GNU time, or
# python3's getrusage of the child where GNU time is missing.
if [ -x /usr/bin/time ]; then
    measure() { /usr/bin/time -f '%e %U %S %M' -o "$tmp/last.time" "$@"; }
elif command -v python3 > /dev/null 2>&1; then
    measure() {
        python3 -c 'import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[2:])
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.3f %.3f %.3f %d\n" % (time.monotonic() - t, u.ru_utime, u.ru_stime, u.ru_maxrss))
sys.exit(rc)' "$tmp/last.time" "$@"
    }
else
    say "needs GNU time (/usr/bin/time) or python3"
    exit 1
fi

# timed LABEL COMMAND...: one run's wall, CPU and peak RSS, appended to $tmp/LABEL.*
timed() {
    t_label=$1
    shift
    measure "$@" > "$tmp/last.out" 2> "$tmp/last.err" || { say "failed: $*"; cat "$tmp/last.err" >&2; exit 1; }
    tail -n 1 "$tmp/last.time" | awk '{ printf "%.3f\n", $1 }' >> "$tmp/$t_label.wall"
    tail -n 1 "$tmp/last.time" | awk '{ printf "%.3f\n", $2 + $3 }' >> "$tmp/$t_label.cpu"
    tail -n 1 "$tmp/last.time" | awk '{ printf "%.1f\n", $4 / 1024 }' >> "$tmp/$t_label.rss"
}

r=1
while [ "$r" -le "$repeat" ]; do
    home=$tmp/q$r
    mkdir -p "$home"
    printf 'queue:\n  include_local: false\n' > "$home/queue.yml" # no node: nothing starts, the pass is short
    NVIDB_HOME=$home "$NVIDB_BIN" job ls --json --no-tick > /dev/null # the schema, before the watcher opens it
    : > "$tmp/seen"
    ( while [ ! -f "$tmp/stop" ]; do
          sql "$home/queue.db" 'SELECT COUNT(*) FROM jobs' >> "$tmp/seen" 2> /dev/null || true
      done ) &
    watcher=$!
    timed java "$java" -version
    timed submit env NVIDB_HOME="$home" "$NVIDB_BIN" job sweep --json --no-tick --gpus 0 -n bench --grid "i=$values" \
        -- python train.py --seed '{i}'
    sleep 0.2
    touch "$tmp/stop"
    wait "$watcher"
    rm -f "$tmp/stop"
    between=$(sort -u "$tmp/seen" | grep -v -x -e 0 -e "$runs" || true)
    [ -z "$between" ] || { say "a reader saw a part of the sweep: $between jobs"; exit 1; }
    [ "$(sort -u "$tmp/seen" | tail -n 1)" = "$runs" ] || { say "the reader never saw the $runs runs"; exit 1; }
    # Every run done, with a result: a number, a nested one, and one run in ten without any.
    sql "$home/queue.db" "UPDATE jobs SET state = 'completed', exit_code = 0, started_at = created_at,
        finished_at = created_at, progress = 'epoch 10/10', result = CASE WHEN id % 10 = 0 THEN NULL ELSE
        json_object('loss', (id * 7919 % 1000) / 1000.0, 'eval', json_object('acc', (id * 104729 % 1000) / 1000.0,
        'split', 'val')) END;"
    timed show env NVIDB_HOME="$home" "$NVIDB_BIN" sweep show 1 --json --no-tick --metric loss
    grep -q "\"best_index\"" "$tmp/last.out" || { say "sweep show printed no best run"; exit 1; }
    timed human env NVIDB_HOME="$home" "$NVIDB_BIN" sweep show 1 --no-tick --metric eval.acc --max
    # Every run failed: one requeue of them all, then one cancel of them all (pending again).
    sql "$home/queue.db" "UPDATE jobs SET state = 'failed', exit_code = 1"
    timed requeue env NVIDB_HOME="$home" "$NVIDB_BIN" sweep requeue 1 --failed --json --no-tick
    n=$(grep -c '^    [0-9]' "$tmp/last.out" || true)
    [ "$n" = "$runs" ] || { say "sweep requeue requeued $n runs, not $runs"; exit 1; }
    timed cancel env NVIDB_HOME="$home" "$NVIDB_BIN" sweep cancel 1 --json
    n=$(grep -c '^    [0-9]' "$tmp/last.out" || true)
    [ "$n" = "$runs" ] || { say "sweep cancel cancelled $n runs, not $runs"; exit 1; }
    timed java "$java" -version
    r=$((r + 1))
done

jw=$(median "$tmp/java.wall") jc=$(median "$tmp/java.cpu")
row() {
    w=$(median "$tmp/$2.wall") c=$(median "$tmp/$2.cpu")
    printf '| %s | %s s | %s s | %s MiB | %s | %s |\n' "$1" "$w" "$c" "$(median "$tmp/$2.rss")" \
        "$(awk -v a="$w" -v b="$jw" 'BEGIN { printf "%.2f", a / b }')" \
        "$(awk -v a="$c" -v b="$jc" 'BEGIN { printf "%.2f", a / b }')"
}
printf '%s runs, median of %s rounds, %s CPUs, load %s\n\n' "$runs" "$repeat" \
    "$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo '?')" "$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')"
printf '| command | wall | CPU (user+sys) | peak RSS | wall / java -version | CPU / java -version |\n'
printf '|---|---|---|---|---|---|\n'
row '`runtime/bin/java -version`' java
row "\`job sweep --grid i=0..$((runs - 1))\` (one transaction)" submit
row "\`sweep show 1 --json --metric loss\` ($runs rows)" show
row "\`sweep show 1 --metric eval.acc --max\` (table)" human
row "\`sweep requeue 1 --failed\` ($runs failed runs, one command)" requeue
row "\`sweep cancel 1\` ($runs pending runs, one command)" cancel
