#!/bin/sh
# A forwarded command (remote:) against the same command run on the queue host itself, over a
# real OpenSSH sshd on loopback: the user's ssh without connection sharing (ControlMaster=no in
# ssh_options) and with the connection nvidb shares by itself (ControlMaster in NVIDB_HOME/ssh),
# with keeper: ensure while the host's keeper runs, and, for comparison, Apache MINA SSHD inside a
# fresh client JVM (the library the SSH node transport uses) running the same host command.
# Medians of hyperfine runs; then the two goals of issue 19 (forwarded ≤ host + 80 ms once a
# connection exists; keeper: ensure ≤ +20 ms) from those medians.
# Needs openssh-server (sshd), hyperfine, jq and the built image; the MINA case needs ~/.m2's jars.
#
#   bench/remote-forward.sh            RUNS=20 by default
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
# shellcheck source=bench/image.sh
. "$here/image.sh"
sshd=/usr/sbin/sshd
[ -x $sshd ] || { echo "remote-forward: needs openssh-server ($sshd)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-forward-bench.XXXXXX")
pid=
cleanup() {
    NVIDB_HOME=$tmp/host "$nvidb" queue keeper stop > /dev/null 2>&1 || true
    for socket in "$tmp"/*/ssh/cm-*; do
        [ -S "$socket" ] && ssh -O exit -o ControlPath="$socket" -p "$port" 127.0.0.1 2> /dev/null || true
    done
    [ -z "$pid" ] || kill "$pid" 2> /dev/null || true
    rm -rf -- "$tmp"
}
trap cleanup EXIT
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/user_key"
cp "$tmp/user_key.pub" "$tmp/authorized_keys"
port=$(( 43000 + $$ % 1000 ))
cat > "$tmp/sshd.conf" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $tmp/host_key
PidFile $tmp/sshd.pid
AuthorizedKeysFile $tmp/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
MaxStartups 100
MaxSessions 100
LogLevel VERBOSE
# Bash reads ~/.bashrc for a command sshd starts unless it is a nested shell: what this account's
# ~/.bashrc does (pyenv init took ~1 s of every session on our dev VM) is not nvidb's cost. As
# the tests' sshd (SshdFixture); a person's host pays for its own rc files in every ssh command.
SetEnv SHLVL=1
CONF
# sshd refuses to start without its privilege separation folder, which a fresh install of
# openssh-server in a container has not made yet (as the tests' SshdFixture, made when root).
[ -d /run/sshd ] || [ "$(id -u)" -ne 0 ] || mkdir -m 0755 /run/sshd
$sshd -D -E "$tmp/sshd.log" -f "$tmp/sshd.conf" &
pid=$!
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$tmp/host_key.pub")" > "$tmp/known_hosts"
user=$(id -un)
sleep 1
kill -0 "$pid" 2> /dev/null || { echo "remote-forward: sshd did not start:" >&2; cat "$tmp/sshd.log" >&2; exit 1; }

# The queue host's home, and one client home per way of reaching it.
mkdir -p "$tmp/host"
printf 'queue:\n  job_root: %s/jobs\n  lane_spool_root: %s/spool\n' "$tmp" "$tmp" > "$tmp/host/queue.yml"
client() { # client NAME KEEPER [SSH_OPTION...]
    name=$1 keeper=$2
    shift 2
    mkdir -p "$tmp/$name"
    {
        printf 'remote:\n  host: 127.0.0.1\n  port: %s\n  username: %s\n  nvidb: %s\n' "$port" "$user" "$nvidb"
        printf '  nvidb_home: %s/host\n  keeper: %s\n  ssh_options:\n' "$tmp" "$keeper"
        for o in BatchMode=yes "IdentityFile=$tmp/user_key" IdentitiesOnly=yes "UserKnownHostsFile=$tmp/known_hosts" \
            StrictHostKeyChecking=yes "$@"; do
            printf '    - "%s"\n' "$o"
        done
    } > "$tmp/$name/queue.yml"
}
client plain off ControlMaster=no
# A host "nvidb" that answers the handshake and does nothing: what the client and ssh cost alone.
printf '#!/bin/sh\nprintf "nvidb-forwarded/1\\n"\n' > "$tmp/noop-nvidb"
chmod +x "$tmp/noop-nvidb"
client noop off
sed -i "s|  nvidb: .*|  nvidb: $tmp/noop-nvidb|" "$tmp/noop/queue.yml"
client shared off
client keeper ensure
# The host's keeper runs (keeper: ensure then only looks at its pid file); stopped on exit.
NVIDB_HOME=$tmp/host "$nvidb" queue keeper install --start --nvidb "$nvidb" --interval 60 > /dev/null
submit='job submit --json --gpus 0 --no-tick -- true'
ssh_plain="ssh -T -p $port -o BatchMode=yes -o IdentityFile=$tmp/user_key -o IdentitiesOnly=yes -o UserKnownHostsFile=$tmp/known_hosts 127.0.0.1"
host_cmd="env NVIDB_HOME=$tmp/host $nvidb $submit"

# MINA SSHD: a compiled helper on the jars the ssh transport ships, with an AOT cache of its own
# (as the image has one), so that both clients start as fast as they can.
mina=
m2=${M2_REPO:-$HOME/.m2/repository}
jars=$m2/org/apache/sshd/sshd-osgi/2.16.0/sshd-osgi-2.16.0.jar:$m2/org/slf4j/slf4j-api/2.0.17/slf4j-api-2.0.17.jar
jars=$jars:$m2/org/slf4j/slf4j-nop/2.0.17/slf4j-nop-2.0.17.jar:$m2/net/i2p/crypto/eddsa/0.3.0/eddsa-0.3.0.jar
java=$(dirname "$nvidb")/../runtime/bin/java
if [ -f "${jars%%:*}" ] && command -v javac > /dev/null 2>&1; then
    mkdir -p "$tmp/mina"
    javac -nowarn -d "$tmp/mina" -cp "$jars" "$here/forward/MinaExec.java" 2> /dev/null
    mina_java="$java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp $jars:$tmp/mina"
    mina_args="MinaExec $user 127.0.0.1 $port $tmp/user_key $tmp/known_hosts"
    # shellcheck disable=SC2086 # the words of the command are meant to split
    $mina_java -XX:AOTCacheOutput="$tmp/mina.aot" $mina_args "$host_cmd" > /dev/null 2>&1 || true
    mina="$mina_java -XX:AOTMode=auto -XX:AOTCache=$tmp/mina.aot $mina_args"
fi

# shellcheck disable=SC2086 # as above
NVIDB_HOME=$tmp/host "$nvidb" $submit > /dev/null
# shellcheck disable=SC2086
for c in shared keeper noop; do   # each client home opens its shared connection (it persists 600 s)
    NVIDB_HOME=$tmp/$c "$nvidb" $submit > /dev/null
done
shared_socket=$(ls "$tmp"/shared/ssh/cm-*)
set -- -n "nvidb --version (a JVM start)" "$nvidb --version" \
    -n "the host command alone, on the host" "$host_cmd" \
    -n "ssh true (one OpenSSH session, no sharing)" "$ssh_plain true" \
    -n "ssh true over the shared connection" "$ssh_plain -o ControlPath=$shared_socket true" \
    -n "forwarded: OpenSSH, no connection sharing (ControlMaster=no)" "NVIDB_HOME=$tmp/plain $nvidb $submit" \
    -n "forwarded: the shared connection" "NVIDB_HOME=$tmp/shared $nvidb $submit" \
    -n "forwarded: the shared connection, keeper: ensure (keeper up)" "NVIDB_HOME=$tmp/keeper $nvidb $submit" \
    -n "forwarded to a host that does nothing: client + ssh (shared connection)" "NVIDB_HOME=$tmp/noop $nvidb $submit"
[ -z "$mina" ] || set -- "$@" -n "MINA SSHD in a fresh JVM: the host command" "$mina '$host_cmd'"
hyperfine --style none --warmup 3 --runs "$runs" --export-json "$tmp/times.json" "$@" > /dev/null
printf 'median ms  p90 ms  min ms  command (load average: %s)\n' "$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')"
jq -r '.results[] | (.times | sort) as $t | "\($t[($t | length) / 2 | floor] * 1000 | round)\t\($t[($t | length) * 9 / 10 | floor] * 1000 | round)\t\($t[0] * 1000 | round)\t\(.command)"' \
    "$tmp/times.json" | awk -F '\t' '{ printf "%9s  %6s  %6s  %s\n", $1, $2, $3, $4 }'
median_of() { jq -r --arg n "$1" '.results[] | select(.command == $n) | (.times | sort) as $t | $t[($t | length) / 2 | floor] * 1000 | round' "$tmp/times.json"; }
host_ms=$(median_of "the host command alone, on the host")
shared_ms=$(median_of "forwarded: the shared connection")
keeper_ms=$(median_of "forwarded: the shared connection, keeper: ensure (keeper up)")
printf '\nforwarded over the shared connection: host command + %s ms (goal: ≤ + 80 ms)\n' "$((shared_ms - host_ms))"
printf 'keeper: ensure with the keeper up: + %s ms (goal: ≤ + 20 ms)\n' "$((keeper_ms - shared_ms))"
sessions() { grep -c 'Starting session: command' "$tmp/sshd.log" || true; }
before=$(sessions)
# shellcheck disable=SC2086
NVIDB_HOME=$tmp/plain "$nvidb" $submit > /dev/null
printf '\nSSH sessions one forwarded command opens (sshd log): %s\n' "$(( $(sessions) - before ))"
