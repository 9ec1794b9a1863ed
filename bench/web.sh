#!/bin/sh
# nvidb queue web under load, against the built image ($NVIDB_BIN, as bench/run):
#   overview   GET /api/v1/status (the overview's one document) over a queue of 10,000 jobs, all
#              of them pending (PENDING=0: the usual mix, 1 in 20 pending): p50 and p95 of RUNS
#   live       a commit (job submit --no-tick returned) until its change event reached a client
#              of /api/v1/stream: p50 and max of 20 submits
#   memory     the server's resident size (VmRSS, and its peak VmHWM) after BUSY seconds of a
#              busy queue: a submit and a cancel every 0.5 s, a status read every second, a client
#              on the stream; and VmRSS every RSS_EVERY seconds along the way (a tenth of BUSY)
# Needs curl. Prints a Markdown table on stdout.
set -eu
runs=${RUNS:-50}
busy=${BUSY:-120}
pending=${PENDING:-1}
# shellcheck source=bench/lib.sh
. "$(dirname -- "$0")/lib.sh"
bench_setup web
bench_image
command -v curl > /dev/null || { say "needs curl"; exit 1; }

home=$tmp/home
populate "$home" 10000
if [ "$pending" = 1 ]; then
    command -v sqlite3 > /dev/null || { say "needs sqlite3 to make every job pending (or PENDING=0)"; exit 1; }
    sqlite3 "$home/queue.db" "UPDATE jobs SET state = 'pending', started_at = NULL, finished_at = NULL, exit_code = NULL"
fi
NVIDB_HOME=$home "$NVIDB_BIN" queue web --listen 127.0.0.1:0 --json > "$tmp/web.out" 2> "$tmp/web.err" &
web=$!
trap 'kill $web 2> /dev/null; rm -rf -- "$tmp"' EXIT
i=0
until [ -s "$tmp/web.out" ]; do
    i=$((i + 1))
    [ $i -lt 300 ] || { say "nvidb queue web printed no link: $(cat "$tmp/web.err")"; exit 1; }
    sleep 0.1
done
url=$(sed 's/.*"url":"\([^"]*\)".*/\1/' "$tmp/web.out")
# The launcher execs java: $web is the server's JVM.

for _ in $(seq 3); do curl -s -o /dev/null "${url}api/v1/status"; done
: > "$tmp/status.ms"
for _ in $(seq "$runs"); do
    curl -s -o /dev/null -w '%{time_total}\n' "${url}api/v1/status" | awk '{ printf "%.1f\n", $1 * 1000 }' >> "$tmp/status.ms"
done
size=$(curl -s "${url}api/v1/status" | wc -c)
p95=$(sort -n "$tmp/status.ms" | awk '{ v[NR] = $1 } END { r = int(0.95 * NR); if (r < 0.95 * NR) r++; print v[r] }')

# One client on the stream, each line stamped as it arrives (ms).
curl -s -N "${url}api/v1/stream" | while IFS= read -r line; do
    printf '%s %s\n' "$(date +%s%3N)" "$line"
done > "$tmp/stream.log" &
sleep 1
: > "$tmp/live.ms"
for _ in $(seq 20); do
    id=$(NVIDB_HOME=$home "$NVIDB_BIN" job submit --json --no-tick --gpus 0 -- true | sed -n 's/.*"id": \([0-9]*\),.*/\1/p' | head -1)
    done_at=$(date +%s%3N)
    j=0
    until grep -q "\"job_id\":$id," "$tmp/stream.log"; do
        j=$((j + 1))
        [ $j -lt 500 ] || { say "no change event for job $id"; exit 1; }
        sleep 0.01
    done
    seen=$(grep "\"job_id\":$id," "$tmp/stream.log" | head -1 | cut -d' ' -f1)
    echo $((seen - done_at)) >> "$tmp/live.ms"
done

start=$(date +%s)
end=$((start + busy))
# The server's resident size along the way: a line every RSS_EVERY seconds (default a tenth of BUSY).
every=${RSS_EVERY:-$(( busy / 10 > 0 ? busy / 10 : 1 ))}
next=$((start + every))
: > "$tmp/rss.series"
while [ "$(date +%s)" -lt "$end" ]; do
    if [ "$(date +%s)" -ge "$next" ]; then
        printf '%s s: %s MB\n' "$(($(date +%s) - start))" \
            "$(awk '/VmRSS/ { printf "%d", $2 / 1024 }' "/proc/$web/status")" >> "$tmp/rss.series"
        next=$((next + every))
    fi
    id=$(NVIDB_HOME=$home "$NVIDB_BIN" job submit --json --no-tick --gpus 0 -- sleep 60 | sed -n 's/.*"id": \([0-9]*\),.*/\1/p' | head -1)
    NVIDB_HOME=$home "$NVIDB_BIN" job cancel "$id" > /dev/null || true
    curl -s -o /dev/null "${url}api/v1/status"
    sleep 0.5
done
rss=$(awk '/VmRSS/ { print $2 }' "/proc/$web/status")
hwm=$(awk '/VmHWM/ { print $2 }' "/proc/$web/status")

printf '| figure | value |\n|---|---|\n'
printf '| GET /api/v1/status, 10,000 jobs (%s pending), %s runs, %s KB | p50 %s ms, p95 %s ms |\n' \
    "$(NVIDB_HOME=$home "$NVIDB_BIN" job ls --json --no-tick --state pending -n 0 | grep -c '"command"')" "$runs" \
    "$((size / 1024))" "$(median "$tmp/status.ms")" "$p95"
printf '| commit (job submit returned) to its change event on the stream, 20 submits | p50 %s ms, max %s ms |\n' \
    "$(median "$tmp/live.ms")" "$(sort -n "$tmp/live.ms" | tail -1)"
printf '| server memory after %s s of a busy queue | VmRSS %s MB, VmHWM %s MB |\n' "$busy" "$((rss / 1024))" "$((hwm / 1024))"
printf '\nThe server'"'"'s VmRSS during the busy period (the JVM'"'"'s heap, with its collections, in the middle):\n'
tr '\n' ';' < "$tmp/rss.series" | sed 's/;$/\n/; s/;/; /g'
