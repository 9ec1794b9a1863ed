# The one round trip a pass makes to each node: its kernel and home, the process table, the
# probe plugin's GPU section, and the state of every job directory asked about. Each section
# starts with a line "<marker> <section>"; the marker carries a random nonce, so no job output
# can forge one.
# nvidb puts these ahead of this text (NodeProbeScript.script): the marker m, the function
# nvidb_gpu (the probe plugin's fragment), nvidb_oom (the out-of-memory signatures, one per line;
# may be unset), and in "$@" a job id and run directory per job.
: "${m?}"

echo "$m node"
echo "kernel=$(uname -r 2>/dev/null)"
echo "home=$HOME"
echo "$m ps"
ps -eo pid=,pgid=,user=,args= 2>/dev/null
echo "$m gpu"
nvidb_gpu < /dev/null 2>&1

# $1: a file. Sets nvidb_v to its first line, empty when there is none: with the shell's own read,
# not a process, since a pass reads a few files of every job it asks about (hundreds on a Slurm node).
nvidb_line() {
    nvidb_v=
    if [ -f "$1" ]; then IFS= read -r nvidb_v < "$1" || :; fi
}

# $1: the job id, $2: its run directory.
nvidb_job() {
    d=$2
    echo "$m job $1"
    nvidb_line "$d/pid"
    p=$nvidb_v
    echo "pid=$p"
    nvidb_line "$d/pgid"
    echo "pgid=$nvidb_v"
    nvidb_line "$d/session"
    echo "session=$nvidb_v"
    if nvidb_alive "$p" "$d"; then echo alive=1; else echo alive=0; fi
    nvidb_line "$d/exit_code"
    nvidb_exit=$nvidb_v
    echo "exit=$nvidb_exit"
    nvidb_line "$d/started"
    echo "started=$nvidb_v"
    nvidb_line "$d/timed_out"
    echo "timed_out=$nvidb_v"
    if [ -s "$d/status" ]; then echo "$m status $1"; tail -n 1 "$d/status"; echo; fi
    if [ -f "$d/exit_code" ]; then
        if [ -f "$d/result.json" ]; then echo "$m result $1"; head -c 65536 "$d/result.json"; echo; fi
        rc=${nvidb_exit%% *}
        if [ "$rc" != 0 ]; then
            echo "$m tail $1"
            if [ -s "$d/stderr.log" ]; then tail -n 25 "$d/stderr.log"; else tail -n 25 "$d/stdout.log" 2>/dev/null; fi
            echo
            # The first line of the end of stderr holding an out-of-memory signature (nvidb_oom: one
            # per line, found as plain text), cut to 400 bytes.
            if [ -n "${nvidb_oom-}" ] && [ -s "$d/stderr.log" ]; then
                nvidb_v=$(tail -c 65536 "$d/stderr.log" | grep -F -m 1 -e "$nvidb_oom" | head -c 400) || :
                if [ -n "$nvidb_v" ]; then echo "$m oom $1"; printf '%s\n' "$nvidb_v"; fi
            fi
        fi
    fi
}
while [ "$#" -gt 1 ]; do
    nvidb_job "$1" "$2"
    shift 2
done
echo "$m end"
