#!/bin/sh
# Submit-to-running latency with the queue daemon up: how long after `nvidb job submit --gpus 0`
# returns the job's command is running on a local node. The daemon notices the submit (it polls
# PRAGMA data_version on its connection) and makes the pass that starts the job; the submit
# makes none. Each job writes `date +%s%N` as its first act; the latency is that time less the
# time the submit process had exited (also `date +%s%N`, right after it). SUBMITS submits
# (default 50), one at a time, each after the previous job started. Also the daemon's CPU time
# while idle for IDLE seconds (default 30): what polling the database costs.
#
#   bench/daemon-latency.sh                 the built image (distribution/target/nvidb)
#   SUBMITS=200 bench/daemon-latency.sh
set -eu
submits=${SUBMITS:-50}
idle=${IDLE:-30}
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
root=${here%/*}
nvidb=${NVIDB_BIN:-$root/distribution/target/nvidb/bin/nvidb}
[ -x "$nvidb" ] || "$root/nvidb" --version > /dev/null
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-latency.XXXXXX")
daemon=
cleanup() {
    [ -z "$daemon" ] || kill "$daemon" 2> /dev/null || true
    rm -rf -- "$tmp"
}
trap cleanup EXIT

# One local node whose stand-in nvidia-smi shows one idle 80 GB GPU.
mkdir -p "$tmp/bin" "$tmp/starts"
cat > "$tmp/bin/nvidia-smi" << 'SMI'
#!/bin/sh
case "$*" in
    *query-gpu*) echo "0, GPU-00000000-0000-0000-0000-000000000000, NVIDIA A100-SXM4-80GB, 81920, 3, 0, 0, 31" ;;
    *query-compute-apps*) ;;
esac
SMI
chmod +x "$tmp/bin/nvidia-smi"
printf 'queue:\n  max_cpu_jobs_per_node: 0\nservers:\n  - nickname: box\n    transport: local\n    nvidia_smi: %s\n    job_root: %s\n' \
    "$tmp/bin/nvidia-smi" "$tmp/jobs" > "$tmp/queue.yml"
export NVIDB_HOME="$tmp"

"$nvidb" queue daemon --json > "$tmp/daemon.out" 2> "$tmp/daemon.err" &
daemon=$!
n=0
until grep -q '"tick"' "$tmp/daemon.out" 2> /dev/null; do
    sleep 0.1
    n=$((n + 1))
    [ $n -lt 300 ] || { echo "daemon-latency: the daemon did not start" >&2; cat "$tmp/daemon.err" >&2; exit 1; }
done

# Idle cost first: utime + stime (clock ticks) of the daemon over IDLE seconds with nothing to do.
ticks() { awk '{ print $14 + $15 }' "/proc/$daemon/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks)
sleep "$idle"
after=$(ticks)

: > "$tmp/latencies"
i=1
while [ $i -le "$submits" ]; do
    "$nvidb" job submit --gpus 0 --json -- "date +%s%N > $tmp/starts/$i" > "$tmp/submit.out"
    returned=$(date +%s%N)
    grep -q "\"skipped\": \"daemon\"" "$tmp/submit.out" || { echo "daemon-latency: the submit made a pass itself" >&2; exit 1; }
    n=0
    until [ -s "$tmp/starts/$i" ]; do
        sleep 0.01
        n=$((n + 1))
        [ $n -lt 3000 ] || { echo "daemon-latency: job $i never started" >&2; exit 1; }
    done
    echo $((($(cat "$tmp/starts/$i") - returned) / 1000000)) >> "$tmp/latencies"
    i=$((i + 1))
done

sort -n "$tmp/latencies" | awk -v n="$submits" -v used=$((after - before)) -v hz="$hz" -v idle="$idle" '
    { v[NR] = $1 }
    END {
        p50 = v[int((n + 1) * 0.50)]; p95 = v[int(n * 0.95 + 0.5)]; if (p95 == "") p95 = v[n]
        printf "| submit returned -> job running, --gpus 0, local node, %d submits | min %d ms | median %d ms | p95 %d ms | max %d ms |\n",
            n, v[1], p50, p95, v[n]
        printf "| daemon idle for %d s: CPU time | %.2f s (%.2f%% of one core) |\n", idle, used / hz, 100 * used / hz / idle
    }'
awk -F'"duration_ms":' 'NF > 1 { split($2, a, ","); print a[1] }' "$tmp/daemon.out" | sort -n | awk '
    { v[NR] = $1 } END { printf "| daemon passes (%d): duration | median %d ms | p95 %d ms |\n", NR, v[int((NR + 1) / 2)], v[int(NR * 0.95 + 0.5)] }'
