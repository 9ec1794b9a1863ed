# Stops a job's process group: TERM now, KILL after a grace period to whatever of the group is
# left (a child that ignores TERM). Only when the pid still runs this job's run.sh: a recycled
# pid is never signalled. Prints NVIDB_SIGNALLED=1 or NVIDB_SIGNALLED=0.
# nvidb puts these values ahead of this text (NodeScripts.terminate); the group may be empty
# (unknown: the job has no session of its own, so only the pid and its children are signalled).
: "${nvidb_run_dir?}" "${nvidb_pid?}" "${nvidb_pgid?}" "${nvidb_grace?}"

d=$nvidb_run_dir
p=$nvidb_pid
g=$nvidb_pgid
if nvidb_alive "$p" "$d"; then
    if [ -n "$g" ]; then kill -TERM -"$g" 2>/dev/null; fi
    kill -TERM "$p" 2>/dev/null
    if [ -z "$g" ]; then pkill -TERM -P "$p" 2>/dev/null; fi
    (
        sleep "$nvidb_grace"
        if [ -n "$g" ]; then kill -KILL -"$g" 2>/dev/null; fi
        if nvidb_alive "$p" "$d"; then kill -KILL "$p" 2>/dev/null; fi
    ) < /dev/null > /dev/null 2>&1 &
    echo NVIDB_SIGNALLED=1
else
    echo NVIDB_SIGNALLED=0
fi
