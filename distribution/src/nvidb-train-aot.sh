#!/bin/sh
# nvidb-train-aot — (re)trains the AOT cache of this nvidb image (generated from
# distribution/src/nvidb-train-aot.sh; the build runs it once).
#
# The cache (lib/nvidb.aot, JEP 483/514) holds the classes a representative command loads, already
# parsed and linked, so later starts skip that work. It records the absolute path of the image's
# module path; after moving or copying the image elsewhere, run this script there once (it needs
# write access to lib/). The training command runs against a throwaway queue in a temporary
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
unset NVIDB_JAVA_OPTS NVIDB_QUEUE_DB NVIDB_QUEUE_CONFIG NVIDB_DEBUG NVIDB_AOT_TRAIN JAVA_TOOL_OPTIONS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-aot.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT
export NVIDB_HOME="$tmp/home"
# A queue.yml (its default values), so that the YAML reader is in the cache too: every configured
# machine reads one, and a client with remote: reads little else before it hands over to ssh.
mkdir -p "$NVIDB_HOME"
printf 'queue:\n  tick_min_interval: 3\n' > "$NVIDB_HOME/queue.yml"

rm -f -- "$cache" "$cache.home"
# One job in the queue first, so that the trained command reads, schedules and prints a real one.
"$home/bin/nvidb" job submit --json --gpus 0 --name aot-warm-up -- true > "$tmp/warm-up.json" 2> "$tmp/warm-up.log" || {
    cat "$tmp/warm-up.json" "$tmp/warm-up.log" >&2
    echo "nvidb-train-aot: the image does not run (bin/nvidb job submit failed, output above)" >&2
    exit 1
}
# The training run. The JVM writes the cache when it exits (in a second JVM it starts for that).
NVIDB_AOT_TRAIN=$tmp/nvidb.aot "$home/bin/nvidb" job submit --json --gpus 0 --name aot-training -- true \
    > "$tmp/train.json" 2> "$tmp/train.log" || {
    cat "$tmp/train.json" "$tmp/train.log" >&2
    echo "nvidb-train-aot: the training run failed (output above)" >&2
    exit 1
}
if [ ! -s "$tmp/nvidb.aot" ]; then
    cat "$tmp/train.log" >&2
    echo "nvidb-train-aot: the JVM wrote no AOT cache (log above)" >&2
    exit 1
fi
mv -f -- "$tmp/nvidb.aot" "$cache"
printf '%s\n' "$home" > "$cache.home"
echo "nvidb-train-aot: wrote $cache"
