#!/bin/sh
# nvidb @VERSION@ — launcher of the jlink image (generated from distribution/src/nvidb.sh).
#
# Runs the image's own Java runtime on the image's modules. Environment:
#   NVIDB_JAVA_OPTS   extra JVM options, appended after the defaults (split on blanks)
#   NVIDB_AOT_TRAIN   for bin/nvidb-train-aot: run the training (nvidb.cli.startup.build.AotTraining)
#                     and record its configuration in $NVIDB_AOT_TRAIN.conf instead of using a cache;
#                     with NVIDB_AOT_STEP=create, write the cache from it to this file
# Everything else (NVIDB_HOME, NVIDB_QUEUE_DB, ...) is read by nvidb itself.

# This script's real location, following symlinks (bin/nvidb may be linked from ~/bin or such).
self=$0
while [ -L "$self" ]; do
    if command -v readlink > /dev/null 2>&1; then
        link=$(readlink -- "$self")
    else
        link=$(ls -ld -- "$self")
        link=${link#* -> }
    fi
    case $link in
        /*) self=$link ;;
        *) case $self in */*) self=${self%/*}/$link ;; *) self=$link ;; esac ;;
    esac
done
case $self in */*) bin=${self%/*} ;; *) bin=. ;; esac
home=$(cd -P -- "$bin/.." && pwd -P) || {
    echo "nvidb: cannot find the nvidb image around $self" >&2
    exit 1
}
java=$home/runtime/bin/java
if [ ! -x "$java" ]; then
    echo "nvidb: the image at $home is incomplete: no runtime/bin/java (rebuild it: mvn install)" >&2
    exit 1
fi

# The queue's servers (`queue daemon`, `queue web`) run for days and allocate a document a second:
# told nothing, the serial collector moves what a request still holds at a young collection to the
# old generation and grows that generation rather than collect it (a web server serving a status
# of 10,000 jobs every second passed 1 GB within ten minutes, with ~50 MB live). They get a young
# generation big enough for a request's objects to die in it, and a ceiling on the heap.
server=
previous=
for arg in "$@"; do
    [ "$arg" != "--" ] || break
    case "$previous $arg" in
        "queue daemon" | "queue web") server=yes ;;
    esac
    previous=$arg
done

# JVM options are put in front of the command's own arguments one by one, last first, so that
# paths with blanks survive (a POSIX sh has no arrays). The AOT training (bin/nvidb-train-aot) runs
# its own main class, which runs the usual command lines one after the other in this same JVM.
if [ -n "${NVIDB_AOT_TRAIN:-}" ]; then
    set -- -m @AOT_TRAINING_MAIN@ "$@"
else
    set -- -m @MAIN@ "$@"
fi
if [ -n "${NVIDB_JAVA_OPTS:-}" ]; then
    set -f
    # shellcheck disable=SC2086
    set -- $NVIDB_JAVA_OPTS "$@"
    set +f
fi
if [ -n "$server" ]; then
    # After the defaults, before NVIDB_JAVA_OPTS (which may set others).
    set -- -Xmn64m -Xmx512m "$@"
fi
if [ -d "$home/lib/classpath" ]; then
    set -- -cp "$home/lib/classpath/*" "$@"
fi
# JDK modules that automatic modules or class-path jars use (nothing else would resolve them).
add_modules="@ADD_MODULES@"
if [ -n "$add_modules" ]; then
    set -- --add-modules "$add_modules" "$@"
fi
# sqlite-jdbc loads the library unpacked at build time rather than unpacking one into /tmp. Its
# temporary folder is native/ too: before loading, it lists that folder for stale copies of its
# own, and listing a busy /tmp costs every command milliseconds.
if [ -f "$home/native/@SQLITE_LIB@" ]; then
    set -- "-Dorg.sqlite.lib.path=$home/native" "-Dorg.sqlite.lib.name=@SQLITE_LIB@" \
        "-Dorg.sqlite.tmpdir=$home/native" "$@"
fi
# Reflective calls of methods and constructors (picocli sets options through them) go through the
# JVM's native accessor: the default builds method handles for each one, whose classes are spun at
# run time on every start (the AOT cache cannot hold them). Measured: 5 fewer classes spun and
# ~5% less CPU for a submit (bench/class-loads.sh, docs/performance.md).
set -- -Djdk.reflect.useNativeAccessorOnly=true "$@"
# slf4j (the logging API of sqlite-jdbc, pf4j and sshd; slf4j-nop drops it all) is given its
# provider by name, so that it does not search every module for one (~9 ms of every command), and
# says nothing about having been given it.
set -- -Dslf4j.provider=org.slf4j.nop.NOPServiceProvider -Dslf4j.internal.verbosity=WARN "$@"
# AOT cache (JEP 483/514): classes loaded and linked ahead of time, trained by bin/nvidb-train-aot.
# A cache records the module path it was trained with, and the JVM uses it only with the same
# one. The module path is therefore named through a descriptor of the image's folder that this
# script opens (/proc/self/fd/9/lib): the same text wherever the image lies, so the cache trained
# at build time holds for an extracted or installed copy too (as long as the jars keep their
# modification times, as tar, cp -a and dpkg keep them; else bin/nvidb-train-aot trains afresh).
# AOTMode=auto runs on without the cache when it is stale or made for other JVM flags, and the
# aot/cds log tags are silenced so that nothing of that reaches the user.
# The training records no method profiles (AOTRecordTraining, JDK 25's JEP 515): they are for C2,
# which the launcher leaves off, and with them C1 compiles more, early: measured, a submit then
# costs ~15 ms more CPU for ~5 ms less wall time, and 8 processes submitting at once on 2 cores
# made 11.2 instead of 12.9 submits/s. The training is two JVMs (record, then create), each
# started here, so that both see the descriptor (a JVM's own child would not inherit it).
modules=$home/lib
if [ -d /proc/self/fd ] && { command exec 9< "$home"; } 2> /dev/null; then
    modules=/proc/self/fd/9/lib
fi
if [ -n "${NVIDB_AOT_TRAIN:-}" ]; then
    if [ "${NVIDB_AOT_STEP:-}" = create ]; then
        set -- -XX:AOTMode=create "-XX:AOTConfiguration=$NVIDB_AOT_TRAIN.conf" "-XX:AOTCache=$NVIDB_AOT_TRAIN" "$@"
    else
        set -- -XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining -XX:AOTMode=record \
            "-XX:AOTConfiguration=$NVIDB_AOT_TRAIN.conf" "$@"
    fi
elif [ -f "$home/lib/nvidb.aot" ]; then
    set -- -XX:AOTMode=auto "-XX:AOTCache=$home/lib/nvidb.aot" "$@"
fi
# Serial GC and C1 only (TieredStopAtLevel=1): a command is short and mostly single-threaded;
# measured faster than G1 or full tiered compilation, even listing 10,000 jobs. C1 compiles a
# method after twice the usual calls (CompileThresholdScaling=2): a submit then burns ~10% less
# CPU in the compiler thread, and no command measured slower (bench/cli-timings.sh). Compact
# object headers (JEP 519): listing 10,000 jobs takes ~8% less memory and time. A young
# generation of 8 MiB (-Xmn8m): a command's objects die young, so a collection copies almost
# nothing (~0.2 ms each), and a command's resident size stays flat in the number of jobs it
# streams instead of growing with all it ever allocated (`queue status --json --no-tick` with
# 10,000 pending jobs: 123 MiB with the JVM's default, 83 MiB with 16 MiB, 76 MiB with 8 MiB and
# 5% less time; submit and `job ls` the same; bench/status-pending.sh). No hsperfdata file in /tmp
# (-UsePerfData). JVM log output (warnings only) goes to stderr, never into a command's JSON on stdout.
exec "$java" \
    -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=2 -XX:+UseCompactObjectHeaders \
    -Xmn8m -XX:-UsePerfData \
    -Xlog:disable -Xlog:all=warning,aot*=off,cds*=off:stderr \
    --enable-native-access=@NATIVE_ACCESS@ \
    "-Dnvidb.dist.plugins=$home/plugins" "-Dnvidb.launcher=$home/bin/nvidb" \
    -p "$modules" \
    "$@"
