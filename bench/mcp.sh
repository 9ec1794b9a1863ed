#!/bin/sh
# The warm paths agents use, against the built image ($NVIDB_BIN, as bench/run), with the image's
# JVM floor (`java -version`) measured in the same run:
#   stdio   N (default 2000) sequential `submit` tool calls to one `nvidb mcp` (one client, one
#           call in flight, no pass after each: the daemon makes them): round trip p50/p90/p99/max
#   http    CLIENTS (8) threads POSTing /api/v1/jobs to `nvidb queue web` for SECONDS (60) while
#           `nvidb queue daemon` runs passes: submits/s, latency, and every acknowledged job found
#           in the database afterwards
#   wait    an idle `wait` tool call on 100 pending jobs (they never start: no GPU fits them) for
#           IDLE seconds (60): the server's CPU time over that time, as a share of one core
set -eu
n=${N:-2000}
clients=${CLIENTS:-8}
seconds=${SECONDS_HTTP:-60}
idle=${IDLE:-60}
# shellcheck source=bench/lib.sh
. "$(dirname -- "$0")/lib.sh"
bench_setup mcp
bench_image
# The programs that drive it run on a full JDK 25 (source-file mode needs jdk.compiler): $JAVA, else java.
java=${JAVA:-java}

floor_sample "$tmp/floor"
floor_sample "$tmp/floor"
floor_sample "$tmp/floor"
printf 'JVM floor (the image'"'"'s java -version): %s s wall\n' "$(median "$tmp/floor.wall")"

# --- stdio ---------------------------------------------------------------------------------------
home=$tmp/stdio
mkdir -p "$home"
printf 'queue:\n  job_root: %s\n' "$tmp/jobs" > "$home/queue.yml"
NVIDB_HOME=$home "$java" "$here/mcp/McpBench.java" stdio "$n" "$NVIDB_BIN"

# --- http, with a daemon ---------------------------------------------------------------------------
home=$tmp/http
mkdir -p "$home"
printf 'queue:\n  job_root: %s\n' "$tmp/jobs-http" > "$home/queue.yml"
NVIDB_HOME=$home "$NVIDB_BIN" queue daemon > "$tmp/daemon.out" 2>&1 &
daemon=$!
NVIDB_HOME=$home "$NVIDB_BIN" queue web --listen 127.0.0.1:0 --json > "$tmp/web.out" 2> "$tmp/web.err" &
web=$!
trap 'kill $web $daemon 2> /dev/null; rm -rf -- "$tmp"' EXIT
i=0
until [ -s "$tmp/web.out" ]; do
    i=$((i + 1))
    [ $i -lt 300 ] || { say "nvidb queue web printed no link: $(cat "$tmp/web.err")"; exit 1; }
    sleep 0.1
done
url=$(sed 's/.*"url":"\([^"]*\)".*/\1/' "$tmp/web.out")
token=$(cat "$home/web.token")
NVIDB_HOME=$home "$java" "$here/mcp/McpBench.java" http "$url" "$token" "$clients" "$seconds" > "$tmp/http.out"
head -n 1 "$tmp/http.out"
acked=$(sed -n 's/^ids \([0-9]*\) .*/\1/p' "$tmp/http.out")
kill $web $daemon 2> /dev/null || true
wait $web $daemon 2> /dev/null || true
stored=$(NVIDB_HOME=$home "$NVIDB_BIN" job ls -n 0 --no-tick --json | grep -c '"submitter"' || true)
printf 'acknowledged %s, in the database afterwards %s\n' "$acked" "$stored"

# --- an idle wait on 100 jobs ------------------------------------------------------------------------
home=$tmp/wait
mkdir -p "$home"
printf 'queue:\n  job_root: %s\n' "$tmp/jobs-wait" > "$home/queue.yml"
ids=
for _ in $(seq 100); do
    id=$(NVIDB_HOME=$home "$NVIDB_BIN" job submit --no-tick --json --gpus 1 --vram 1G -- true | sed -n 's/^    "id": \([0-9]*\),$/\1/p' | head -n 1)
    ids="$ids\"$id\","
done
ids=${ids%,}
fifo=$tmp/wait.in
mkfifo "$fifo"
NVIDB_HOME=$home "$NVIDB_BIN" mcp < "$fifo" > "$tmp/wait.out" 2> /dev/null &
server=$!
exec 3> "$fifo"
printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' >&3
printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' >&3
printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wait\",\"arguments\":{\"ids\":[$ids],\"no_tick\":true},\"_meta\":{\"progressToken\":\"w\"}}}" >&3
sleep 5 # start-up and the wait's first look
ticks=$(getconf CLK_TCK)
cpu0=$(awk '{print $14 + $15}' "/proc/$server/stat")
sleep "$idle"
cpu1=$(awk '{print $14 + $15}' "/proc/$server/stat")
exec 3>&-
wait $server 2> /dev/null || true
awk -v a="$cpu0" -v b="$cpu1" -v t="$ticks" -v s="$idle" \
    'BEGIN { printf "idle wait on 100 jobs for %d s: %.2f s of CPU, %.2f %% of a core\n", s, (b - a) / t, 100 * (b - a) / t / s }'
