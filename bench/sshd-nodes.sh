# shellcheck shell=sh disable=SC2154
# Sourced by the benchmarks that need SSH nodes: real OpenSSH sshd processes on loopback ports,
# one per node, all accepting one key and logging at VERBOSE (so that their logs show every
# connection and every exec session). Needs openssh-server. Uses and sets:
#
#   tmp       a private temporary folder (set by the caller; the keys and logs go there)
#   pids      the sshd pids, for the caller's cleanup (appended to)
#
#   sshd_nodes N           starts N sshd processes
#   sshd_config HOME N     writes HOME/queue.yml with the first N of them as nodes n1..nN
#   sshd_sessions          exec sessions all the sshd processes have served so far
#   sshd_connections       connections (authentications) they have accepted so far
sshd=/usr/sbin/sshd
[ -x $sshd ] || { echo "needs openssh-server ($sshd)" >&2; exit 1; }

sshd_nodes() {
    ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
    ssh-keygen -q -t ed25519 -N '' -f "$tmp/user_key"
    cp "$tmp/user_key.pub" "$tmp/authorized_keys"
    : > "$tmp/known_hosts"
    i=1
    while [ "$i" -le "$1" ]; do
        port=$((42000 + $$ % 1000 + i))
        cat > "$tmp/sshd_$i.conf" << CONF
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
}

sshd_config() {
    mkdir -p "$1"
    {
        printf 'queue:\n  include_local: false\nservers:\n'
        j=1
        while [ "$j" -le "$2" ]; do
            printf '  - nickname: n%s\n    hostname: 127.0.0.1\n    port: %s\n    username: %s\n' "$j" \
                "$(sed -n 's/^Port //p' "$tmp/sshd_$j.conf")" "$(id -un)"
            printf '    auth: key\n    identityfile: %s\n    known_hosts: %s\n    job_root: %s/jobs-n%s\n' \
                "$tmp/user_key" "$tmp/known_hosts" "$tmp" "$j"
            j=$((j + 1))
        done
    } > "$1/queue.yml"
}

sshd_sessions() { cat "$tmp"/sshd_*.log | grep -c 'Starting session: command' || true; }
sshd_connections() { cat "$tmp"/sshd_*.log | grep -c 'Accepted publickey' || true; }
