#!/bin/sh
# The nvidb queue keeper of one queue database: keeps `nvidb queue daemon` running, starting it
# again whenever it stops — after 1 s, or, when it keeps stopping within 30 s of its start, after
# 2, 4, 8 … up to 60 s. Written by `nvidb queue keeper install`, which chose the values below;
# `nvidb queue keeper status | logs | stop | ensure | uninstall` manage it. POSIX sh only.
#
#   sh queue-keeper.sh start    start the supervisor detached (setsid), unless it runs
#   sh queue-keeper.sh stop     stop the supervisor and its daemon (which finishes its pass first)
#   sh queue-keeper.sh status   prints "up PID" (exit 0) or "down" (exit 1)
#   sh queue-keeper.sh run      the supervisor itself, in the foreground
set -u

NVIDB_HOME=@HOME@
export NVIDB_HOME
nvidb=@NVIDB@
db=@DB@
interval=@INTERVAL@
# Marks this keeper's supervisor on its command line, so a recycled pid is never taken for it.
token='@TOKEN@'

self=$NVIDB_HOME/queue-keeper.sh
lock=$NVIDB_HOME/queue-keeper.lock
pidfile=$lock/pid
log=$NVIDB_HOME/queue-keeper.log

say() {
    printf '%s keeper: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >> "$log"
}

nap() {
    sleep "$1" 2> /dev/null || sleep 1
}

# True when the supervisor runs; its pid is then in $pid. Cheap, for a forwarded command asks
# this before each command (keeper: ensure): the pid read by the shell itself, and the command
# line from /proc where there is one (one grep, no ps).
running() {
    pid=
    { read -r pid < "$pidfile" || [ -n "$pid" ]; } 2> /dev/null || return 1
    case $pid in '' | *[!0-9]*) return 1 ;; esac
    kill -0 "$pid" 2> /dev/null || return 1
    if [ -r "/proc/$pid/cmdline" ]; then
        grep -qaF -- "$token" "/proc/$pid/cmdline"
    else
        ps -o args= -p "$pid" 2> /dev/null | grep -qF -- "$token"
    fi
}

# Keeps the log under 1 MiB: the older lines move to queue-keeper.log.1.
rotate() {
    size=$(wc -c < "$log" 2> /dev/null) || return 0
    [ "$size" -le 1048576 ] || mv -f "$log" "$log.1"
}

# The supervisor holds the lock directory while it lives: a second one started meanwhile leaves.
take_lock() {
    mkdir "$lock" 2> /dev/null && return 0
    if running; then
        return 1
    fi
    rm -rf "$lock" # left by a supervisor that was killed
    mkdir "$lock" 2> /dev/null
}

supervise() {
    if ! take_lock; then
        say "another supervisor runs (pid $pid); this one leaves"
        return 0
    fi
    echo $$ > "$pidfile"
    child=
    stopping=0
    trap 'stopping=1; [ -z "$child" ] || kill -TERM "$child" 2> /dev/null' TERM INT HUP
    say "supervisor started (pid $$): $nvidb --db-path $db queue daemon --interval $interval"
    quick=0
    while [ "$stopping" = 0 ]; do
        began=$(date +%s)
        "$nvidb" --db-path "$db" queue daemon --interval "$interval" < /dev/null >> "$log" 2>&1 &
        child=$!
        wait "$child"
        rc=$?
        # A trapped signal ends the wait early; the daemon is finishing its pass: wait for it.
        while kill -0 "$child" 2> /dev/null; do
            wait "$child"
            rc=$?
        done
        child=
        [ "$stopping" = 0 ] || break
        ran=$(($(date +%s) - began))
        if [ "$ran" -lt 30 ]; then quick=$((quick + 1)); else quick=0; fi
        delay=1
        n=1
        while [ "$n" -lt "$quick" ] && [ "$delay" -lt 60 ]; do
            delay=$((delay * 2))
            n=$((n + 1))
        done
        [ "$delay" -le 60 ] || delay=60
        say "daemon ended with status $rc after $ran s; starting it again in $delay s"
        rotate
        nap "$delay" &
        child=$!
        wait "$child"
        child=
    done
    say "supervisor stopped"
    rm -rf "$lock"
}

start() {
    if running; then
        echo "up $pid"
        return 0
    fi
    rotate
    if command -v setsid > /dev/null 2>&1; then
        setsid sh "$self" run "$token" < /dev/null >> "$log" 2>&1 &
    else
        nohup sh "$self" run "$token" < /dev/null >> "$log" 2>&1 &
    fi
    n=0
    while [ "$n" -lt 100 ]; do
        if running; then
            echo "up $pid"
            return 0
        fi
        nap 0.05
        n=$((n + 1))
    done
    echo "the keeper did not start; see $log" >&2
    return 1
}

# SIGTERM to the supervisor, which passes it to the daemon and waits for it to finish its pass;
# after 120 s the supervisor's whole process group is killed.
stop() {
    if ! running; then
        echo "down"
        return 0
    fi
    kill -TERM "$pid" 2> /dev/null
    n=0
    while running && [ "$n" -lt 1200 ]; do
        nap 0.1
        n=$((n + 1))
    done
    if running; then
        kill -KILL -- "-$pid" 2> /dev/null || kill -KILL "$pid" 2> /dev/null
        rm -rf "$lock"
        say "supervisor did not stop within 120 s; killed"
    fi
    echo "down"
}

case ${1:-} in
    start) start ;;
    stop) stop ;;
    status)
        if running; then echo "up $pid"; else echo "down" && exit 1; fi
        ;;
    run)
        # Started by hand without the token: again with it, so that status can recognise it.
        [ "${2:-}" = "$token" ] || exec sh "$self" run "$token"
        supervise
        ;;
    *)
        echo "usage: sh $self start|stop|status|run" >&2
        exit 64
        ;;
esac
