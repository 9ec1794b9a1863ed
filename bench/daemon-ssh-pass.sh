#!/bin/sh
# A scheduler pass over N loopback SSH nodes (real OpenSSH sshd, one per node, default 8), made
# two ways:
#   - by a fresh CLI process: `nvidb queue tick --json`, whole command (JVM start, configuration,
#     one SSH connection per node, the pass), hyperfine median of RUNS after 2 warm-ups;
#   - by the daemon, which keeps its connections: `queue daemon --interval 1`, the duration_ms of
#     its PASSES interval passes after the first (which connects).
# And the SSH connections each way made (sshd's "Accepted publickey" lines).
#
#   bench/daemon-ssh-pass.sh
#   NODES=4 PASSES=50 bench/daemon-ssh-pass.sh
set -eu
nodes=${NODES:-8}
runs=${RUNS:-10}
passes=${PASSES:-20}
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
root=${here%/*}
nvidb=${NVIDB_BIN:-$root/distribution/target/nvidb/bin/nvidb}
[ -x "$nvidb" ] || "$root/nvidb" --version > /dev/null
command -v hyperfine > /dev/null || { echo "daemon-ssh-pass: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-ssh-daemon.XXXXXX")
pids=
cleanup() { for p in $pids; do kill "$p" 2> /dev/null || true; done; rm -rf -- "$tmp"; }
trap cleanup EXIT
# shellcheck source=bench/sshd-nodes.sh
. "$here/sshd-nodes.sh"
sshd_nodes "$nodes"
sshd_config "$tmp/home" "$nodes"
export NVIDB_HOME="$tmp/home"

"$nvidb" queue tick --json > /dev/null
hyperfine --style none --warmup 2 --runs "$runs" --export-json "$tmp/cli.json" \
    -n "queue tick" "$nvidb queue tick --json" > /dev/null
before=$(sshd_connections)
"$nvidb" queue tick --json > /dev/null
cli_connections=$(($(sshd_connections) - before))

before=$(sshd_connections)
"$nvidb" queue daemon --interval 1 --json > "$tmp/daemon.out" 2> "$tmp/daemon.err" &
pids="$pids $!"
daemon=$!
n=0
until [ "$(grep -c '"woken_by":"interval"' "$tmp/daemon.out" 2> /dev/null)" -ge "$passes" ]; do
    sleep 0.5
    n=$((n + 1))
    [ $n -lt $((passes * 8 + 60)) ] || { echo "daemon-ssh-pass: too few passes" >&2; cat "$tmp/daemon.err" >&2; exit 1; }
done
kill -TERM "$daemon"
wait "$daemon" || true
daemon_connections=$(($(sshd_connections) - before))

awk -F'"median":' 'NF > 1 { split($2, a, ","); printf "| fresh CLI `queue tick`, %s SSH nodes | median %.0f ms (whole command) |\n", n, a[1] * 1000 }' \
    n="$nodes" "$tmp/cli.json"
grep '"woken_by":"interval"' "$tmp/daemon.out" | head -n "$passes" \
    | awk -F'"duration_ms":' '{ split($2, a, ","); print a[1] }' | sort -n \
    | awk -v n="$nodes" '{ v[NR] = $1 } END {
        printf "| daemon pass, %s SSH nodes, %d passes | median %d ms | p95 %d ms | max %d ms |\n",
            n, NR, v[int((NR + 1) / 2)], v[int(NR * 0.95 + 0.5)], v[NR] }'
first=$(grep '"woken_by":"start"' "$tmp/daemon.out" | awk -F'"duration_ms":' '{ split($2, a, ","); print a[1] }')
printf '| daemon first pass (connects) | %s ms |\n' "$first"
printf '| SSH connections: one CLI pass | %s |\n| SSH connections: the daemon, all its passes | %s |\n' \
    "$cli_connections" "$daemon_connections"
