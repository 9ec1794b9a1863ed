#!/bin/sh
# Whole-command timings of backups (hyperfine, mean of RUNS after 3 warm-ups) over a queue of
# 10,000 jobs (bench/populate-jobs.sql):
#   (f) nvidb queue backup --json --keep 3    online copy, quick_check, fsync, publish, rotation
#   (g) nvidb queue restore PATH --json       check and migrate a copy, back up the current content,
#                                             swap every row in one transaction
set -eu
runs=${RUNS:-10}
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
root=${here%/*}
nvidb=${NVIDB_BIN:-$root/distribution/target/nvidb/bin/nvidb}
[ -x "$nvidb" ] || "$root/nvidb" --version > /dev/null
command -v hyperfine > /dev/null || { echo "backup-restore: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
command -v sqlite3 > /dev/null || { echo "backup-restore: needs sqlite3 (apt-get install sqlite3)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-bench.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

mkdir -p "$tmp/home"
printf 'queue:\n  include_local: false\n' > "$tmp/home/queue.yml"
NVIDB_HOME=$tmp/home "$nvidb" job submit --json --gpus 0 --no-tick --name bench-seed -- true > /dev/null
sqlite3 -bail -cmd '.timeout 10000' "$tmp/home/queue.db" < "$here/populate-jobs.sql"
sqlite3 -bail -cmd '.timeout 10000' "$tmp/home/queue.db" < "$here/populate-job-lists.sql" # schema 4 and later
NVIDB_HOME=$tmp/home "$nvidb" queue backup "$tmp/snapshot.db" > /dev/null
echo "queue.db: $(wc -c < "$tmp/home/queue.db") bytes (10,000 jobs); a backup: $(wc -c < "$tmp/snapshot.db") bytes"

hyperfine --style none --warmup 3 --runs "$runs" --export-markdown "$tmp/table.md" \
    -n "(f) queue backup --json --keep 3 (10,000 jobs)" "NVIDB_HOME=$tmp/home $nvidb queue backup --json --keep 3" \
    -n "(g) queue restore PATH --json (10,000 jobs)" "NVIDB_HOME=$tmp/home $nvidb queue restore $tmp/snapshot.db --json" \
    > /dev/null
cat "$tmp/table.md"
