# nvidb's job wrapper, run.sh in the job's run directory: records the job's pid, process group
# and start time, exports its environment, runs command.sh in the background and waits for it,
# and on any exit (TERM: 143, INT: 130) writes exit_code as "rc epoch", atomically.
# nvidb puts these values ahead of this text (NodeScripts.runScript), and the job's own
# variables in "$@" as NAME VALUE pairs:
: "${nvidb_job_id?}" "${nvidb_job_name?}" "${nvidb_node?}" "${nvidb_gpus?}" "${nvidb_batch?}" "${nvidb_workdir?}"

NVIDB_JOB_DIR=$(cd "$(dirname "$0")" && pwd -P)
export NVIDB_JOB_DIR
# The group before the pid: a launch reads both once the pid file appears.
ps -o pgid= -p $$ 2>/dev/null | tr -d ' ' > "$NVIDB_JOB_DIR/pgid"
echo $$ > "$NVIDB_JOB_DIR/pid.tmp" && mv -f "$NVIDB_JOB_DIR/pid.tmp" "$NVIDB_JOB_DIR/pid"
date +%s > "$NVIDB_JOB_DIR/started"
# shellcheck disable=SC2317 # called by the EXIT trap, which shellcheck 0.9 does not follow
nvidb_finish() {
    nvidb_rc=$?
    # A stop sends TERM to the group and again to this pid: a second TERM must not cut the rename short.
    trap '' TERM INT
    printf '%s %s\n' "$nvidb_rc" "$(date +%s)" > "$NVIDB_JOB_DIR/exit_code.tmp"
    mv -f "$NVIDB_JOB_DIR/exit_code.tmp" "$NVIDB_JOB_DIR/exit_code"
}
trap nvidb_finish EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
NVIDB_JOB_ID=$nvidb_job_id
export NVIDB_JOB_ID
NVIDB_JOB_NAME=$nvidb_job_name
export NVIDB_JOB_NAME
NVIDB_NODE=$nvidb_node
export NVIDB_NODE
NVIDB_STATUS_FILE="$NVIDB_JOB_DIR/status"
export NVIDB_STATUS_FILE
# A batch system (Slurm) chose the job's GPUs and said which in CUDA_VISIBLE_DEVICES: kept as it is.
if [ -z "$nvidb_batch" ]; then
    CUDA_VISIBLE_DEVICES=$nvidb_gpus
    export CUDA_VISIBLE_DEVICES
fi

# $1: the workdir, $2: the node's name, then the job's variables. They are exported last, so
# that they may override any of nvidb's, and they cannot change $1 and $2, which are used after.
nvidb_export_job_env() {
    shift 2
    while [ "$#" -gt 1 ]; do
        export "$1=$2"
        shift 2
    done
}
set -- "$nvidb_workdir" "$nvidb_node" "$@"
nvidb_export_job_env "$@"
# Where the job runs, the same rule whoever starts this (a launch or a lane runner): --workdir,
# which must exist; else the directory the submit was made from, when it exists on this node;
# else $HOME.
if [ -n "$1" ]; then
    cd "$1" 2>/dev/null || { echo "nvidb: workdir $1 does not exist on $2 (or is not a directory we may enter)" >&2; exit 127; }
elif [ -z "${NVIDB_SUBMIT_DIR:-}" ] || ! cd "$NVIDB_SUBMIT_DIR" 2>/dev/null; then
    cd "${HOME:-/}" 2>/dev/null || cd /
fi
sh "$NVIDB_JOB_DIR/command.sh" < /dev/null &
nvidb_child=$!
wait "$nvidb_child"
exit $?
