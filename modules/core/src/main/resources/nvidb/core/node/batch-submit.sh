# Hands a job to the node's batch system (a Slurm partition), or adopts the submission this
# attempt already has (its batch_id file): a retried submit, or one whose client died before it
# recorded the id, must never submit the attempt twice. Prints NVIDB_DIR=, NVIDB_BATCH_ID=, and
# NVIDB_ADOPTED=1 when adopted, or NVIDB_ERROR= when nothing was submitted.
# nvidb puts these values ahead of this text (NodeScripts.batchSubmit): the job root, the run
# directory's name, the texts of run.sh and command.sh, and the function nvidb_batch_submit (the
# batch plugin's: it submits "$1/run.sh" and prints the batch system's id of the job).
: "${nvidb_root?}" "${nvidb_run_name?}" "${nvidb_run_script?}" "${nvidb_command?}"

umask 077
case $nvidb_root in /*) ;; *) nvidb_root=$HOME/$nvidb_root ;; esac # a relative root lives under $HOME
d=$nvidb_root/$nvidb_run_name
mkdir -p "$d" 2>/dev/null || { echo "NVIDB_ERROR=cannot create $d"; exit 1; }
d=$(cd "$d" && pwd -P) || exit 1
printf 'NVIDB_DIR=%s\n' "$d"
if [ -s "$d/batch_id" ]; then
    echo NVIDB_ADOPTED=1
    echo "NVIDB_BATCH_ID=$(cat "$d/batch_id")"
    exit 0
fi
printf '%s' "$nvidb_run_script" > "$d/run.sh"
printf '%s' "$nvidb_command" > "$d/command.sh"
rm -f "$d/exit_code" "$d/exit_code.tmp" "$d/pid" "$d/pgid" "$d/result.json"
: > "$d/stdout.log"
: > "$d/stderr.log"
echo 0 > "$d/session" # the batch system owns the job's processes: nvidb never signals a group
if ! nvidb_id=$(nvidb_batch_submit "$d" < /dev/null 2> "$d/submit.err"); then
    printf 'NVIDB_ERROR=%s\n' "$(tr '\n' ' ' < "$d/submit.err" | cut -c1-300)"
    exit 1
fi
nvidb_id=$(printf '%s' "$nvidb_id" | tr -d '[:space:]')
[ -n "$nvidb_id" ] || { echo 'NVIDB_ERROR=the batch system answered no job id'; exit 1; }
printf '%s\n' "$nvidb_id" > "$d/batch_id.tmp" && mv -f "$d/batch_id.tmp" "$d/batch_id"
echo "NVIDB_BATCH_ID=$nvidb_id"
