# One round trip that syncs lanes of a node: for each, writes lane.conf and the staged specs
# (run.sh and command.sh into each run directory first), withdraws every other unclaimed spec,
# then starts, replaces or stops the runner, and prints "<marker> lane <k>" and its answer.
# nvidb puts these values ahead of this text (LaneRunner.syncScript): the marker m, the spool
# root, the runner's version, its timing and text, and in "$@" the lanes (see nvidb_sync_lane).
: "${m?}" "${nvidb_root?}" "${nvidb_version?}" "${nvidb_naps?}" "${nvidb_idle_exit?}" "${nvidb_runner?}"

umask 077
case $nvidb_root in /*) ;; *) nvidb_root=$HOME/$nvidb_root ;; esac # a relative root lives under $HOME

# Stages one job unless this attempt already started (a pid or exit code in its run directory)
# or the runner holds it: a job must never be handed over twice. $1: the spec's name
# (<seq>-<job id>), $2: the run directory, $3: the spec, $4 and $5: run.sh's and command.sh's text.
nvidb_stage() {
    rd=$2
    # Claimed under any sequence number (the lane was reordered since): not handed over again.
    held=0; for c in claimed/*-"${1#*-}"; do [ -f "$c" ] && held=1; done
    if [ $held = 0 ] && [ ! -f "$rd/pid" ] && [ ! -f "$rd/exit_code" ] && [ ! -f "queue/$1" ]; then
        mkdir -p "$rd"
        printf '%s' "$4" > "$rd/.run.sh.tmp"
        printf '%s' "$5" > "$rd/.command.sh.tmp"
        mv -f "$rd/.run.sh.tmp" "$rd/run.sh" && mv -f "$rd/.command.sh.tmp" "$rd/command.sh"
        printf '%s' "$3" > "queue/.$1.tmp" && mv -f "queue/.$1.tmp" "queue/$1"
    fi
}

# Starts this lane's runner unless one of this version runs; one of another version is replaced.
# $1: the lane's slug, $2: its name.
nvidb_want_runner() {
    rm -f stop
    if nvidb_runner_alive "$1" && [ "$(cat runner.version 2>/dev/null)" != "$nvidb_version" ]; then
        kill -TERM "$(cat runner.pid)" 2>/dev/null
        nvidb_wait_while 40 nvidb_runner_alive "$1"
        echo replaced=1
    fi
    if ! nvidb_runner_alive "$1"; then
        printf '%s' "$nvidb_runner" > .runner.sh.tmp
        mv -f .runner.sh.tmp runner.sh && echo "$nvidb_version" > runner.version
        rm -f state exit
        nvidb_detach runner.log runner.log "$d/runner.sh" "$d" "$2" "NVIDB_LANE=$1" "$nvidb_version" "$nvidb_naps" \
            "$nvidb_idle_exit"
        nvidb_wait_while 40 test ! -s state
        echo started=1
    fi
}

# One lane, in a subshell so that its failure leaves the other lanes alone. $1: the lane's slug,
# $2: its name, $3: 1 when a runner should live (else a live one stops once idle), $4: lane.conf's
# text, $5: how many jobs are staged, then five words per staged job (those of nvidb_stage).
nvidb_sync_lane() (
    slug=$1
    lane=$2
    wanted=$3
    d=$nvidb_root/$slug
    if ! mkdir -p "$d/queue" "$d/claimed" 2>/dev/null || ! cd "$d"; then
        echo "error=cannot create $d"
        exit 0
    fi
    echo "spool=$d"
    printf '%s' "$4" > .lane.conf.tmp && mv -f .lane.conf.tmp lane.conf
    n=$5
    shift 5
    keep=
    while [ "$n" -gt 0 ]; do
        nvidb_stage "$1" "$2" "$3" "$4" "$5"
        keep="$keep $1"
        shift 5
        n=$((n - 1))
    done
    for f in queue/*; do
        [ -f "$f" ] || continue
        staged=0
        for s in $keep; do [ "$s" != "${f#queue/}" ] || staged=1; done
        [ $staged = 1 ] || rm -f "$f"
    done
    if [ "$wanted" = 1 ]; then
        nvidb_want_runner "$slug" "$lane"
    else
        [ ! -f runner.pid ] || : > stop
    fi
    nvidb_lane_answer "$slug" "$m"
)

k=0
while [ "$#" -gt 0 ]; do
    echo "$m lane $k"
    nvidb_sync_lane "$@"
    shift $((5 + $5 * 5))
    k=$((k + 1))
done
echo "$m end"
