# Starts a job detached, or adopts it when this attempt already started: its wrapper still runs,
# or it already ran to the end (an exit code). A retried launch, or one whose client died before
# it recorded the start, must never start the attempt twice. Prints NVIDB_DIR=, NVIDB_PID=, NVIDB_PGID=, NVIDB_SETSID=, and NVIDB_ADOPTED=1
# when adopted, or NVIDB_ERROR= when nothing started.
# nvidb puts these values ahead of this text (NodeScripts.launch): the job root, the run
# directory's name, and the texts of run.sh and command.sh, each ending in a newline.
: "${nvidb_root?}" "${nvidb_run_name?}" "${nvidb_run_script?}" "${nvidb_command?}"

umask 077
case $nvidb_root in /*) ;; *) nvidb_root=$HOME/$nvidb_root ;; esac # a relative root lives under $HOME
d=$nvidb_root/$nvidb_run_name
mkdir -p "$d" 2>/dev/null || { echo "NVIDB_ERROR=cannot create $d"; exit 1; }
d=$(cd "$d" && pwd -P) || exit 1
printf 'NVIDB_DIR=%s\n' "$d" # not echo: dash's echo would rewrite backslashes in the path
if nvidb_launch_busy "$d"; then
    nvidb_wait_while 100 nvidb_launch_busy "$d"
    # Not NVIDB_ERROR: the other launch may still start the attempt, so the place must stand.
    [ "$(cat "$d/launching/pid" 2>/dev/null)" = "$$" ] || { echo "another launch of $d is still going" >&2; exit 1; }
fi
trap 'rm -rf "$d/launching"' EXIT
if [ -f "$d/exit_code" ] || { [ -f "$d/pid" ] && nvidb_alive "$(cat "$d/pid")" "$d"; }; then
    echo NVIDB_ADOPTED=1
    echo "NVIDB_PID=$(cat "$d/pid")"
    echo "NVIDB_PGID=$(cat "$d/pgid" 2>/dev/null)"
    echo "NVIDB_SETSID=$(cat "$d/session" 2>/dev/null)"
    exit 0
fi
printf '%s' "$nvidb_run_script" > "$d/run.sh"
printf '%s' "$nvidb_command" > "$d/command.sh"
rm -f "$d/exit_code" "$d/exit_code.tmp" "$d/pid" "$d/pgid" "$d/result.json"
: > "$d/stdout.log"; : > "$d/stderr.log"
nvidb_start_job "$d"
nvidb_wait_while 100 test ! -s "$d/pid"
[ -s "$d/pid" ] || { echo 'NVIDB_ERROR=the job did not start (no pid file after 5 s)'; exit 1; }
echo "NVIDB_PID=$(cat "$d/pid")"
echo "NVIDB_PGID=$(cat "$d/pgid" 2>/dev/null)"
echo "NVIDB_SETSID=$(cat "$d/session")"
