#!/bin/sh
# PROCS processes (default 8) each submitting EACH jobs (default 50) one after another, all at
# once, against one queue with no node (each submit still runs its scheduler pass): the burst of
# agents a small queue host sees. Checks what came back, then prints one line on stdout:
#
#   submits=400 distinct_ids=400 errors=0 lost=0 wall_s=41.2 submits_per_s=9.7 cpu_s_per_submit=0.31
#
#   distinct_ids  job ids the submits printed, each counted once (must equal submits)
#   errors        submits that exited non-zero or wrote to stderr
#   lost          submitted names missing from `job ls -n 0` afterwards, plus names listed twice
#   cpu_s_per_submit  user + system time of every process involved, over the submits (GNU time)
#
#   bench/concurrent-submits.sh                      the image under test ($NVIDB_BIN, as bench/run)
#   bench/concurrent-submits.sh /path/to/nvidb       another program with the same command line
#   PROCS=4 EACH=20 NO_TICK=1 bench/concurrent-submits.sh     smaller, and submits without a pass
#
# Exits 1 when a check fails. The queue is created before the burst starts.
set -eu
procs=${PROCS:-8}
each=${EACH:-50}
# shellcheck source=bench/lib.sh
. "$(dirname -- "$0")/lib.sh"
bench_setup concurrent-submits
if [ "$#" -gt 0 ]; then
    bin=$1
else
    bench_image
    bin=$NVIDB_BIN
fi
tick=
[ -z "${NO_TICK:-}" ] || tick=--no-tick

home=$tmp/home
out=$tmp/out
mkdir -p "$home" "$out"
: > "$out/failures"
printf 'queue:\n  include_local: false\n' > "$home/queue.yml"
export NVIDB_HOME="$home"
"$bin" job ls --json --no-tick > /dev/null # creates the queue

# One process per client, each a loop of submits; the outer sh waits for them all, so GNU time
# counts every nvidb process's CPU time. Its arguments: procs, each, program, output folder, option.
# shellcheck disable=SC2016 # the script of the inner sh, expanded there
burst='p=0
while [ $p -lt "$1" ]; do
    (
        i=0
        while [ $i -lt "$2" ]; do
            "$3" job submit --json --gpus 0 $5 --name "p$p-$i" -- true > "$4/p$p-$i.json" 2> "$4/p$p-$i.err" \
                || echo "p$p-$i: exit $?" >> "$4/failures"
            i=$((i + 1))
        done
    ) &
    p=$((p + 1))
done
wait'
say "$procs processes x $each submits at once: $bin"
start=$(date +%s%N)
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%U %S' -o "$tmp/cpu" sh -c "$burst" sh "$procs" "$each" "$bin" "$out" "$tick"
else
    sh -c "$burst" sh "$procs" "$each" "$bin" "$out" "$tick"
fi
end=$(date +%s%N)

total=$((procs * each))
errors=$(($(wc -l < "$out/failures") + $(find "$out" -name '*.err' -size +0 | wc -l)))
# The first "id" of each answer is the job's (the answer is {"ok", "duplicate", "job": {"id", ...}}).
distinct=$(awk 'FNR == 1 { seen = 0 } !seen && /"id"/ { sub(/.*"id" *: */, ""); sub(/[^0-9].*/, ""); print; seen = 1 }' \
    "$out"/*.json | sort -u | wc -l)
"$bin" job ls --json --no-tick -n 0 | grep -o '"name": *"p[0-9]*-[0-9]*"' | sed 's/.*"\(p[0-9]*-[0-9]*\)"/\1/' \
    | sort > "$tmp/listed"
listed=$(wc -l < "$tmp/listed")
listed_once=$(sort -u "$tmp/listed" | wc -l)
lost=$((total - listed_once + listed - listed_once)) # missing, and listed more than once
cpu=-
[ ! -s "$tmp/cpu" ] || cpu=$(tail -n 1 "$tmp/cpu" | awk -v n="$total" '{ printf "%.3f", ($1 + $2) / n }')
awk -v n="$total" -v d="$distinct" -v e="$errors" -v l="$lost" -v ns=$((end - start)) -v c="$cpu" 'BEGIN {
    s = ns / 1e9
    printf "submits=%d distinct_ids=%d errors=%d lost=%d wall_s=%.1f submits_per_s=%.2f cpu_s_per_submit=%s\n",
        n, d, e, l, s, n / s, c }'
if [ "$distinct" -ne "$total" ] || [ "$errors" -ne 0 ] || [ "$lost" -ne 0 ]; then
    say "FAILED: expected $total distinct ids, no error and nothing lost"
    head -n 5 "$out/failures" >&2
    exit 1
fi
