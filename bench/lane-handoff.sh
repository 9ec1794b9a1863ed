#!/bin/sh
# Lane hand-off: how long a lane's card sits idle between one job's exit and the next job's start
# when the lane runner on the node starts them (no scheduler pass starts anything). JOBS lane jobs
# of one second each run on a local node; a client makes a pass every PASS_EVERY seconds, which
# only keeps the runner supplied with the lane's next job. Each job writes its own start and end
# time (date +%s.%N); the gaps between an end and the next start are reported (min, median, max).
# DAEMON=1: no client passes; a queue daemon (default interval) makes them (PASS_EVERY is then only
# how often this script looks whether the jobs are done).
set -eu
jobs=${JOBS:-10}
pass_every=${PASS_EVERY:-0.5}
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
root=${here%/*}
nvidb=${NVIDB_BIN:-$root/distribution/target/nvidb/bin/nvidb}
[ -x "$nvidb" ] || "$root/nvidb" --version > /dev/null
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-lanes.XXXXXX")
cleanup() {
    [ ! -f "$tmp/spool"/*/runner.pid ] || kill "$(cat "$tmp/spool"/*/runner.pid)" 2> /dev/null || true
    rm -rf -- "$tmp"
}
trap cleanup EXIT

# One local node whose stand-in nvidia-smi shows one idle 80 GB GPU (also to the runner's query).
mkdir -p "$tmp/bin"
cat > "$tmp/bin/nvidia-smi" <<'SMI'
#!/bin/sh
case "$*" in
    *memory.free*) echo "0, 81000" ;;
    *query-gpu*) echo "0, GPU-00000000-0000-0000-0000-000000000000, NVIDIA A100-SXM4-80GB, 81920, 3, 0, 0, 31" ;;
    *query-compute-apps*) ;;
esac
SMI
chmod +x "$tmp/bin/nvidia-smi"
printf 'queue:\n  lane_spool_root: %s\n  lane_idle_exit: 30\nservers:\n  - nickname: box\n    transport: local\n    nvidia_smi: %s\n    job_root: %s\n' \
    "$tmp/spool" "$tmp/bin/nvidia-smi" "$tmp/jobs" > "$tmp/queue.yml"
export NVIDB_HOME="$tmp"
log=$tmp/times.log
: > "$log"
i=0
while [ $i -lt "$jobs" ]; do
    "$nvidb" job submit --lane box:0 --no-tick -- \
        "echo \"\$NVIDB_JOB_ID start \$(date +%s.%N)\" >> $log; sleep 1; echo \"\$NVIDB_JOB_ID end \$(date +%s.%N)\" >> $log" > /dev/null
    i=$((i + 1))
done
started=$(date +%s)
if [ -n "${DAEMON:-}" ]; then
    # The queue daemon makes the passes (at its default interval); no client command runs meanwhile.
    "$nvidb" queue daemon --json > "${DAEMON_OUT:-/dev/null}" 2>&1 &
    daemon=$!
fi
while [ "$(grep -c ' end ' "$log")" -lt "$jobs" ]; do
    [ -n "${DAEMON:-}" ] || "$nvidb" queue tick > /dev/null
    sleep "$pass_every"
    [ $(($(date +%s) - started)) -lt $((jobs * 10 + 30)) ] || { echo "lane-handoff: jobs did not finish" >&2; exit 1; }
done
[ -z "${DAEMON:-}" ] || { kill "$daemon"; wait "$daemon" || true; pass_every="the daemon's"; }
"$nvidb" job wait --timeout 60 $(seq 1 "$jobs") > /dev/null

sort -n -k1,1 -s "$log" | awk -v jobs="$jobs" -v every="$pass_every" '
    $2 == "start" { start[$1] = $3 }
    $2 == "end" { end[$1] = $3 }
    END {
        n = 0
        for (k = 2; k <= jobs; k++) { gap[n++] = (start[k] - end[k - 1]) * 1000 }
        for (a = 0; a < n; a++) for (b = a + 1; b < n; b++) if (gap[b] < gap[a]) { t = gap[a]; gap[a] = gap[b]; gap[b] = t }
        printf "| lane hand-off, %d jobs of 1 s, a pass every %s s | min %.0f ms | median %.0f ms | max %.0f ms |\n",
            jobs, every, gap[0], gap[int(n / 2)], gap[n - 1]
    }'
