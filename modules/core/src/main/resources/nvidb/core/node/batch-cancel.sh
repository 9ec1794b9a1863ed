# Cancels a job held by the node's batch system: the id is the one its run directory recorded
# when it was submitted. Prints NVIDB_SIGNALLED=1, or NVIDB_SIGNALLED=0 when the directory has no
# id (nothing was submitted); a batch system that refuses or does not answer exits non-zero.
# nvidb puts these values ahead of this text (NodeScripts.batchCancel): the run directory, and
# the function nvidb_batch_cancel (the batch plugin's: it cancels the job whose id is $1).
: "${nvidb_run_dir?}"

nvidb_id=$(cat "$nvidb_run_dir/batch_id" 2>/dev/null)
if [ -z "$nvidb_id" ]; then
    echo NVIDB_SIGNALLED=0
    exit 0
fi
nvidb_batch_cancel "$nvidb_id" < /dev/null || exit 1
echo NVIDB_SIGNALLED=1
