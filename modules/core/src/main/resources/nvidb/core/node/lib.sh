# nvidb's shell library: sent ahead of every script nvidb runs on a node (the job's own run.sh
# excepted, which needs none of it). POSIX sh only: a node's sh may be dash, ash or bash. Every
# value reaches these functions as an argument; none reads a variable a caller must set.

# A job is alive only if its pid runs that job's own run.sh: a recycled pid never counts.
# $1: the pid, $2: the job's run directory.
nvidb_alive() {
    [ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 1
    ps -o args= -p "$1" 2>/dev/null | grep -qF -- "$2/run.sh"
}

# A lane's runner is alive only if the pid in runner.pid (of the current directory, the lane's
# spool) carries that lane's marker NVIDB_LANE=<slug> ($1) among its arguments.
nvidb_runner_alive() {
    p=$(cat runner.pid 2>/dev/null)
    [ -n "$p" ] && kill -0 "$p" 2>/dev/null || return 1
    ps -o args= -p "$p" 2>/dev/null | grep -qF -- "NVIDB_LANE=$1"
}

# Runs "$@" every 50 ms while it succeeds, at most $1 times.
nvidb_wait_while() {
    nvidb_waits=$1
    shift
    while "$@" && [ "$nvidb_waits" -gt 0 ]; do
        sleep 0.05 2>/dev/null || sleep 1
        nvidb_waits=$((nvidb_waits - 1))
    done
}

# Runs the script $3 with sh and the arguments after it, in the background and detached from
# this round trip: in a session of its own where setsid exists, else immune to the hangup.
# Its stdout is appended to $1, its stderr to $2.
nvidb_detach() {
    nvidb_out=$1
    nvidb_err=$2
    shift 2
    if command -v setsid >/dev/null 2>&1; then
        setsid sh "$@" >> "$nvidb_out" 2>> "$nvidb_err" < /dev/null &
    else
        nohup sh "$@" >> "$nvidb_out" 2>> "$nvidb_err" < /dev/null &
    fi
}

# Starts the run.sh of the job directory $1 detached, its output in stdout.log and stderr.log.
# The file session says whether it has a session, and so a process group, of its own.
# One launch of an attempt at a time: the launch of a client killed mid-launch goes on here, and
# the next pass's launch of the same attempt must adopt what it starts, not start it again.
# Succeeds when this shell holds the attempt's lock ($1: the run directory); frees a lock whose
# holder died (the scheduler lease keeps a second live launcher of one attempt away).
nvidb_lock_launch() {
    if mkdir "$1/launching" 2>/dev/null; then
        echo $$ > "$1/launching/pid"
        return 0
    fi
    nvidb_holder=$(cat "$1/launching/pid" 2>/dev/null)
    if [ -n "$nvidb_holder" ] && ! kill -0 "$nvidb_holder" 2>/dev/null; then
        rm -rf "$1/launching"
    fi
    return 1
}

nvidb_launch_busy() {
    ! nvidb_lock_launch "$1"
}

nvidb_start_job() {
    if command -v setsid >/dev/null 2>&1; then echo 1; else echo 0; fi > "$1/session"
    nvidb_detach "$1/stdout.log" "$1/stderr.log" "$1/run.sh"
}

# A lane's part of the answer, from its spool (the current directory): whether its runner ($1:
# the lane's slug) lives, the specs staged now, then after the line "$2 state" the runner's state.
nvidb_lane_answer() {
    if nvidb_runner_alive "$1"; then echo alive=1; else echo alive=0; fi
    for q in queue/*; do [ -f "$q" ] && echo "spec=${q#queue/}"; done
    echo "$2 state"
    cat state 2>/dev/null
}
