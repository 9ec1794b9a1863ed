#!/bin/sh
# A forced `queue tick` over N loopback SSH nodes (real OpenSSH sshd, one per node) against the
# same over 1 node: with nodes probed in parallel the times stay close. Also counts the SSH
# round trips (exec sessions, from sshd's own log) one pass makes per node, and per node with one
# job launched. Needs openssh-server (sshd) and hyperfine; uses the built image.
#
#   bench/ssh-tick.sh            8 nodes against 1
#   NODES=4 bench/ssh-tick.sh
set -eu
nodes=${NODES:-8}
runs=${RUNS:-10}
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
root=${here%/*}
nvidb=${NVIDB_BIN:-$root/distribution/target/nvidb/bin/nvidb}
[ -x "$nvidb" ] || "$root/nvidb" --version > /dev/null
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-ssh-bench.XXXXXX")
pids=
cleanup() { for p in $pids; do kill "$p" 2> /dev/null || true; done; rm -rf -- "$tmp"; }
trap cleanup EXIT
# shellcheck source=bench/sshd-nodes.sh
. "$here/sshd-nodes.sh"
sshd_nodes "$nodes"
sshd_config "$tmp/one" 1
sshd_config "$tmp/all" "$nodes"
NVIDB_HOME=$tmp/one "$nvidb" queue tick --json > /dev/null
NVIDB_HOME=$tmp/all "$nvidb" queue tick --json > /dev/null
hyperfine --style none --warmup 2 --runs "$runs" --export-markdown "$tmp/table.md" \
    -n "queue tick, 1 SSH node" "NVIDB_HOME=$tmp/one $nvidb queue tick --json" \
    -n "queue tick, $nodes SSH nodes" "NVIDB_HOME=$tmp/all $nvidb queue tick --json" > /dev/null
before=$(sshd_sessions)
NVIDB_HOME=$tmp/all "$nvidb" queue tick --json > /dev/null
per_pass=$(( $(sshd_sessions) - before ))
before=$(sshd_sessions)
NVIDB_HOME=$tmp/all "$nvidb" job submit --json --gpus 0 --node n1 -- true > /dev/null
launch_pass=$(( $(sshd_sessions) - before ))
cat "$tmp/table.md"
printf '\nSSH round trips (exec sessions seen by sshd): one pass over %s nodes: %s (%s per node);\n' \
    "$nodes" "$per_pass" "$(awk "BEGIN { printf \"%.1f\", $per_pass / $nodes }")"
printf 'job submit (its pass launches one job on n1): %s = %s probes + %s launch\n' \
    "$launch_pass" "$nodes" "$((launch_pass - nodes))"
