#!/bin/sh
# `queue status --json --no-tick` over a backlog: every job of the queue pending (PENDING jobs,
# 1,000 and 10,000 by default), against the floor of the same run (the image's own
# `runtime/bin/java -version`). Its peak RSS must not grow with the backlog: the pending jobs
# are streamed, one job's record at a time, never a tree of them all.
#
#   bench/status-pending.sh                       the image of this checkout (built when stale)
#   BASE_BIN=/tmp/old/bin/nvidb bench/status-pending.sh
#                                                 the same queues on another image, run for run
#   NVIDB_BIN=... RUNS=10 PENDING='1000 10000' bench/status-pending.sh
#
# Medians of RUNS; CPU is user + sys and peak RSS is GNU time's, of the whole launcher process.
set -eu
runs=${RUNS:-10}
pending=${PENDING:-1000 10000}
# shellcheck source=bench/lib.sh
. "$(dirname -- "$0")/lib.sh"
bench_setup status-pending
bench_image
[ -x /usr/bin/time ] || { say "needs GNU time at /usr/bin/time (apt-get install time)"; exit 1; }
command -v sqlite3 > /dev/null || { say "needs sqlite3 (apt-get install sqlite3)"; exit 1; }

# sample LABEL BIN HOME ARGS...: one run, its wall, CPU and peak RSS appended to LABEL's files.
sample() {
    s_label=$1 s_bin=$2 s_home=$3
    shift 3
    s_start=$(date +%s%N)
    NVIDB_HOME=$s_home /usr/bin/time -f '%U %S %M' -o "$tmp/last.time" "$s_bin" "$@" > /dev/null 2> "$tmp/last.err" \
        || { say "failed: $s_bin $*"; cat "$tmp/last.err" >&2; exit 1; }
    s_end=$(date +%s%N)
    echo "$(((s_end - s_start) / 1000000))" | awk '{ printf "%.3f\n", $1 / 1000 }' >> "$tmp/$s_label.wall"
    tail -n 1 "$tmp/last.time" | awk '{ printf "%.3f %.1f\n", $1 + $2, $3 / 1024 }' > "$tmp/last.cr"
    cut -d' ' -f1 "$tmp/last.cr" >> "$tmp/$s_label.cpu"
    cut -d' ' -f2 "$tmp/last.cr" >> "$tmp/$s_label.rss"
}

bins="new:$NVIDB_BIN${BASE_BIN:+ base:$BASE_BIN}"
for n in $pending; do
    for b in $bins; do
        populate "$tmp/${b%%:*}-$n" "$n" "${b#*:}"
        sqlite3 "$tmp/${b%%:*}-$n/queue.db" "UPDATE jobs SET state = 'pending', started_at = NULL,
            finished_at = NULL, exit_code = NULL"
    done
done

i=0
while [ $i -lt "$runs" ]; do
    sample floor "$image/runtime/bin/java" "$tmp" -version
    for n in $pending; do
        for b in $bins; do
            sample "${b%%:*}-$n" "${b#*:}" "$tmp/${b%%:*}-$n" queue status --json --no-tick
        done
    done
    i=$((i + 1))
done

floor=$(median "$tmp/floor.wall")
floor_cpu=$(median "$tmp/floor.cpu")
printf 'queue status --json --no-tick, every job pending; medians of %s runs; load %s\n' "$runs" \
    "$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')"
printf '| image | pending | wall | × floor | CPU | × floor CPU | peak RSS |\n|---|---|---|---|---|---|---|\n'
printf '| floor (java -version) | | %s s | 1.0 | %s s | 1.0 | %s MiB |\n' "$floor" "$floor_cpu" "$(median "$tmp/floor.rss")"
for n in $pending; do
    for b in $bins; do
        w=$(median "$tmp/${b%%:*}-$n.wall")
        c=$(median "$tmp/${b%%:*}-$n.cpu")
        printf '| %s | %s | %s s | %s | %s s | %s | %s MiB |\n' "${b%%:*}" "$n" "$w" \
            "$(echo "$w $floor" | awk '{ printf "%.1f", $1 / $2 }')" "$c" \
            "$(echo "$c $floor_cpu" | awk '{ printf "%.1f", ($2 > 0) ? $1 / $2 : 0 }')" "$(median "$tmp/${b%%:*}-$n.rss")"
    done
done
