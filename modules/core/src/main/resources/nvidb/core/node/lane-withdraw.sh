# Withdraws one job from its lane's runner (it was cancelled while staged): deletes its spec if
# still unclaimed, prints pid= when its run.sh already runs, for the caller to stop, and exit=
# (its exit_code file: "rc epoch") when the runner already ran it to the end.
# nvidb puts these values ahead of this text (LaneRunner.withdrawScript); the job id is padded
# to twelve digits, as in the spec's name.
: "${nvidb_root?}" "${nvidb_slug?}" "${nvidb_job?}" "${nvidb_run_dir?}"

case $nvidb_root in /*) ;; *) nvidb_root=$HOME/$nvidb_root ;; esac # a relative root lives under $HOME
rm -f "$nvidb_root/$nvidb_slug"/queue/*-"$nvidb_job" 2>/dev/null
p=$(cat "$nvidb_run_dir/pid" 2>/dev/null)
if nvidb_alive "$p" "$nvidb_run_dir"; then echo "pid=$p"; fi
if [ -f "$nvidb_run_dir/exit_code" ]; then echo "exit=$(cat "$nvidb_run_dir/exit_code" 2>/dev/null)"; fi
