#!/bin/sh
# A Slurm partition as a node (issue 21): what a pass costs with N nvidb jobs held in Slurm
# (default 200; pinned to the node, one GPU each, sleeping, so most wait there as pending).
# Needs a running Slurm the caller owns: SLURM_CONF (its slurm.conf) and SLURM_PARTITION
# (default gpu); for example the one SlurmNodesTest starts (modules/testkit SlurmFixture) kept
# alive, or a throwaway cluster. Prints the CPU (user+sys) and wall time of:
#   (a) the pass that hands all N jobs over (N sbatch round trips through the login)
#   (b) three passes over the N held jobs: one round trip, one squeue for all of them, one sinfo
# next to `java -version` of the same runtime, for a machine under other load. Cancels its jobs.
set -eu
n=${JOBS:-200}
: "${SLURM_CONF:?set SLURM_CONF to the slurm.conf of a Slurm you own}"
partition=${SLURM_PARTITION:-gpu}
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
root=${here%/*}
nvidb=${NVIDB_BIN:-$root/distribution/target/nvidb/bin/nvidb}
[ -x "$nvidb" ] || { echo "slurm-pass: build the image first (or set NVIDB_BIN)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-bench.XXXXXX")
cleanup() {
    # This run's jobs only: those named nvidb-<id> whose output goes to this run's folder.
    squeue -h -p "$partition" -o '%i %j %o' | awk -v d="$tmp" '$2 ~ /^nvidb-/ && index($3, d) == 1 {print $1}' \
        | xargs -r scancel
    rm -rf -- "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/home"
cat > "$tmp/home/queue.yml" <<YML
queue:
  tick_min_interval: 0
  launch_timeout: 60
servers:
  - nickname: cluster
    transport: slurm
    login: local
    partition: $partition
    slurm_conf: $SLURM_CONF
    job_root: $tmp/jobs
YML
export NVIDB_HOME="$tmp/home"
i=0
while [ "$i" -lt "$n" ]; do
    "$nvidb" job submit --no-tick --node cluster --gpus 1 -- sleep 600 > /dev/null
    i=$((i + 1))
done
timed() {
    label=$1
    shift
    /usr/bin/time -f "$label: wall %e s, user %U s, sys %S s" "$@" > /dev/null
}
timed "(a) pass handing $n jobs to Slurm" "$nvidb" queue tick
echo "held in Slurm: $(squeue -h -p "$partition" | wc -l)"
for _ in 1 2 3; do
    timed "(b) pass over $n held jobs" "$nvidb" queue tick
done
java=$(dirname "$nvidb")/../runtime/bin/java
[ -x "$java" ] && timed "java -version" "$java" -version
