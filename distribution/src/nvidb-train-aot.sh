#!/bin/sh
# nvidb-train-aot — (re)trains the AOT cache of this nvidb image (generated from
# distribution/src/nvidb-train-aot.sh; the build runs it once).
#
# The cache (lib/nvidb.aot, JEP 483/514) holds the classes the usual commands load, already parsed
# and linked, so later starts skip that work. A JDK 25 cache records one JVM run, so the training is
# one JVM (nvidb.cli.startup.build.AotTraining, started by bin/nvidb with the same flags) that runs
# the usual command lines one after the other: submit (with and without a scheduler pass), queue
# tick, job wait, ls, show, logs, queue status, a sweep, --version and --help, and a submit and a
# list forwarded to a queue host (remote:). The cache holds wherever the image is
# moved or copied with its files' modification times (see bin/nvidb); run this script again where
# they changed (it needs write access to lib/). The training runs against a throwaway queue in a temporary
# directory and never touches $NVIDB_HOME.
set -eu

self=$0
while [ -L "$self" ]; do
    link=$(readlink -- "$self")
    case $link in
        /*) self=$link ;;
        *) case $self in */*) self=${self%/*}/$link ;; *) self=$link ;; esac ;;
    esac
done
case $self in */*) bin=${self%/*} ;; *) bin=. ;; esac
home=$(cd -P -- "$bin/.." && pwd -P)
cache=$home/lib/nvidb.aot

# Nothing of the caller's setup may shape the training run.
unset NVIDB_JAVA_OPTS NVIDB_QUEUE_DB NVIDB_QUEUE_CONFIG NVIDB_DEBUG NVIDB_AOT_TRAIN NVIDB_AOT_STEP JAVA_TOOL_OPTIONS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-aot.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT
export NVIDB_HOME="$tmp/home"
# A queue.yml (its default values), so that the YAML reader is in the cache too: every configured
# machine reads one, and a client with remote: reads little else before it hands over to ssh.
mkdir -p "$NVIDB_HOME"
printf 'queue:\n  tick_min_interval: 3\n' > "$NVIDB_HOME/queue.yml"

# A client whose queue is on another host (remote:), so that forwarding is in the cache too. Its
# "ssh" runs the host's command right here, as a host's login shell would: bin/nvidb with the
# training's queue, started without the training's variables (a host knows nothing of them).
mkdir -p "$tmp/client" "$tmp/ssh-bin"
printf 'remote:\n  host: aot-training-host\n  nvidb: %s\n  nvidb_home: %s\n  ssh_options:\n    - "BatchMode=yes"\n' \
    "$home/bin/nvidb" "$NVIDB_HOME" > "$tmp/client/queue.yml"
cat > "$tmp/ssh-bin/ssh" <<'SSH'
#!/bin/sh
# The last argument is the command the host's shell runs.
for command; do :; done
unset NVIDB_AOT_TRAIN NVIDB_AOT_STEP NVIDB_AOT_CLIENT_HOME NVIDB_AOT_SSH_PATH
exec /bin/sh -c "$command"
SSH
chmod +x "$tmp/ssh-bin/ssh"
export NVIDB_AOT_CLIENT_HOME="$tmp/client" NVIDB_AOT_SSH_PATH="$tmp/ssh-bin"

rm -f -- "$cache" "$cache.home" # (.home: what older images bound the cache to)
# A first command without the cache's output, so that the training reads a queue that exists.
"$home/bin/nvidb" job ls --json --no-tick > "$tmp/warm-up.json" 2> "$tmp/warm-up.log" || {
    cat "$tmp/warm-up.json" "$tmp/warm-up.log" >&2
    echo "nvidb-train-aot: the image does not run (bin/nvidb job ls failed, output above)" >&2
    exit 1
}
# The training run. The JVM writes the cache when it exits (in a second JVM it starts for that).
# It runs in the temporary directory: a job's working directory is where it was submitted.
# Two JVMs, both started by bin/nvidb (see there): the training run records what it loaded, then
# a second JVM writes the cache from that record.
(cd "$tmp" && NVIDB_AOT_TRAIN=$tmp/nvidb.aot "$home/bin/nvidb" \
    && NVIDB_AOT_TRAIN=$tmp/nvidb.aot NVIDB_AOT_STEP=create "$home/bin/nvidb") > "$tmp/train.log" 2>&1 || {
    cat "$tmp/train.log" >&2
    echo "nvidb-train-aot: the training run failed (output above)" >&2
    exit 1
}
if [ ! -s "$tmp/nvidb.aot" ]; then
    cat "$tmp/train.log" >&2
    echo "nvidb-train-aot: the JVM wrote no AOT cache (log above)" >&2
    exit 1
fi
mv -f -- "$tmp/nvidb.aot" "$cache"
echo "nvidb-train-aot: wrote $cache"
