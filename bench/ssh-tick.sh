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
sshd=/usr/sbin/sshd
[ -x $sshd ] || { echo "ssh-tick: needs openssh-server ($sshd)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-ssh-bench.XXXXXX")
pids=
cleanup() { for p in $pids; do kill "$p" 2> /dev/null || true; done; rm -rf -- "$tmp"; }
trap cleanup EXIT
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/user_key"
cp "$tmp/user_key.pub" "$tmp/authorized_keys"
: > "$tmp/known_hosts"
user=$(id -un)
i=1
while [ $i -le "$nodes" ]; do
    port=$(( 42000 + $$ % 1000 + i ))
    cat > "$tmp/sshd_$i.conf" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $tmp/host_key
PidFile $tmp/sshd_$i.pid
AuthorizedKeysFile $tmp/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
LogLevel VERBOSE
CONF
    $sshd -D -E "$tmp/sshd_$i.log" -f "$tmp/sshd_$i.conf" &
    pids="$pids $!"
    echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$tmp/host_key.pub")" >> "$tmp/known_hosts"
    i=$((i + 1))
done
sleep 1
config() { # config HOME N: a queue.yml with the first N nodes
    mkdir -p "$1"
    {
        printf 'queue:\n  include_local: false\nservers:\n'
        j=1
        while [ $j -le "$2" ]; do
            printf '  - nickname: n%s\n    hostname: 127.0.0.1\n    port: %s\n    username: %s\n' "$j" \
                "$(sed -n 's/^Port //p' "$tmp/sshd_$j.conf")" "$user"
            printf '    auth: key\n    identityfile: %s\n    known_hosts: %s\n    job_root: %s/jobs-n%s\n' \
                "$tmp/user_key" "$tmp/known_hosts" "$tmp" "$j"
            j=$((j + 1))
        done
    } > "$1/queue.yml"
}
sessions() { cat "$tmp"/sshd_*.log | grep -c 'Starting session: command' || true; }
config "$tmp/one" 1
config "$tmp/all" "$nodes"
NVIDB_HOME=$tmp/one "$nvidb" queue tick --json > /dev/null
NVIDB_HOME=$tmp/all "$nvidb" queue tick --json > /dev/null
hyperfine --style none --warmup 2 --runs "$runs" --export-markdown "$tmp/table.md" \
    -n "queue tick, 1 SSH node" "NVIDB_HOME=$tmp/one $nvidb queue tick --json" \
    -n "queue tick, $nodes SSH nodes" "NVIDB_HOME=$tmp/all $nvidb queue tick --json" > /dev/null
before=$(sessions)
NVIDB_HOME=$tmp/all "$nvidb" queue tick --json > /dev/null
per_pass=$(( $(sessions) - before ))
before=$(sessions)
NVIDB_HOME=$tmp/all "$nvidb" job submit --json --gpus 0 --node n1 -- true > /dev/null
launch_pass=$(( $(sessions) - before ))
cat "$tmp/table.md"
printf '\nSSH round trips (exec sessions seen by sshd): one pass over %s nodes: %s (%s per node);\n' \
    "$nodes" "$per_pass" "$(awk "BEGIN { printf \"%.1f\", $per_pass / $nodes }")"
printf 'job submit (its pass launches one job on n1): %s = %s probes + %s launch\n' \
    "$launch_pass" "$nodes" "$((launch_pass - nodes))"
