#!/bin/sh
# Whole-command timings of the commands whose own work is mostly JSON: reading the JSON columns
# of every job row (env, tags, depends_on, gpu_ids, result, the GPUs' processes) and printing the
# --json document. This is the benchmark that decides whether a hand-written JSON path is kept
# beside the Jackson codec (nvidb.core.util.Json): one stays only if it saves at least 10 ms of a
# command here.
#
#   (b) nvidb job ls --json --no-tick          JOBS jobs in the queue (prints 100)
#   (c) nvidb job ls --json --no-tick -n 0     JOBS jobs in the queue (prints them all)
#   (d) nvidb queue status --json --no-tick    the same queue, one node with 8 GPUs and processes
#   (n) nvidb queue nodes --json --no-tick     the GPUs and their processes (processes_json)
#   (s) nvidb job show ID --json --no-tick     the seed job: a JSON result and its events
#   (w) nvidb job submit --json --no-tick ...  the write path (env, tags, depends_on); timed last
#
# Every job is a copy of one submitted through the CLI, with env, tags, a dependency and a JSON
# result of awkward numbers and text (1e-4, -0.0, 2^63-1, unicode, control characters).
#
#   bench/json-codec.sh                       times distribution/target/nvidb (built first via
#                                             ./nvidb when missing or stale)
#   BASE_BIN=/tmp/old/bin/nvidb bench/json-codec.sh
#                                             also times that launcher (e.g. a copy of the image
#                                             before a change; run its bin/nvidb-train-aot once
#                                             after copying) on the same queue, side by side, and
#                                             first checks that both print the same bytes for
#                                             every read command, --json and human. The queue is
#                                             filled by BASE_BIN and copied for NVIDB_BIN, which
#                                             upgrades its copy when the schemas differ
#   NVIDB_BIN=... JOBS=3000 RUNS=20 WARMUP=3 bench/json-codec.sh
#   ONLY='[bc]' bench/json-codec.sh          times only the commands (b) and (c)
#
# Timed with a `date +%s%N` loop, not hyperfine, so that the two launchers can take turns run by
# run (on a shared machine, load that comes and goes then weighs on both alike); the CPU time is
# the shell's `times` (in clock ticks, 10 ms on Linux). Needs sqlite3, or a JDK 25 (JAVA_HOME) to fill the queue with
# bench/PopulateJobs.java. Never touches ~/.nvidb: everything lives in a temporary
# NVIDB_HOME. Progress goes to stderr; the table alone goes to stdout.
set -eu

runs=${RUNS:-20}
warmup=${WARMUP:-3}
jobs=${JOBS:-3000}
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
root=${here%/*}
say() { printf 'json-codec: %s\n' "$*" >&2; }

case $(date +%N) in
    *[!0-9]* | '') say "needs a date that knows %N (GNU coreutils)"; exit 1 ;;
esac
if [ -z "${NVIDB_BIN:-}" ]; then
    "$root/nvidb" --version > /dev/null
    NVIDB_BIN=$root/distribution/target/nvidb/bin/nvidb
fi
for b in "$NVIDB_BIN" ${BASE_BIN:+"$BASE_BIN"}; do
    [ -x "$b" ] || { say "no nvidb launcher at $b"; exit 1; }
done
image=$(cd -P -- "$(dirname -- "$NVIDB_BIN")/.." && pwd -P)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvidb-bench.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT
unset NVIDB_QUEUE_DB NVIDB_QUEUE_CONFIG NVIDB_DEBUG NVIDB_JAVA_OPTS
export NO_COLOR=1 NVIDB_HOME="$tmp/home"
mkdir -p "$NVIDB_HOME" "$tmp/bin"

# sql FILE [LISTS]: runs the statements of FILE against the bench queue, then those of LISTS
# where the queue's schema keeps a job's lists in tables (4 and later).
sql() {
    if command -v sqlite3 > /dev/null 2>&1; then
        sqlite3 -bail -cmd '.timeout 10000' "$NVIDB_HOME/queue.db" < "$1"
        if [ -n "${2:-}" ] && [ "$(sqlite3 "$NVIDB_HOME/queue.db" \
            "SELECT count(*) FROM sqlite_master WHERE name = 'job_env'")" = 1 ]; then
            sqlite3 -bail -cmd '.timeout 10000' "$NVIDB_HOME/queue.db" < "$2"
        fi
    else
        "${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java" --enable-native-access=ALL-UNNAMED \
            -cp "$image/lib/*" "$here/PopulateJobs.java" "$NVIDB_HOME/queue.db" "$@"
    fi
}

# One local node whose nvidia-smi prints 8 GPUs, each with two compute processes (pid 1 is real,
# so it is attributed with its owner; 999999 is not).
cat > "$tmp/bin/nvidia-smi" << 'SMI'
#!/bin/sh
case "$*" in
    *query-gpu*) i=0; while [ $i -lt 8 ]; do echo "$i, GPU-00000000-0000-0000-0000-00000000000$i, NVIDIA A100-SXM4-80GB, 81920, 2048, 7, 3, 31"; i=$((i + 1)); done ;;
    *query-compute-apps*) i=0; while [ $i -lt 8 ]; do echo "1, GPU-00000000-0000-0000-0000-00000000000$i, 1024 MiB, /usr/bin/python3"; echo "999999, GPU-00000000-0000-0000-0000-00000000000$i, 1024 MiB, train \"ß\""; i=$((i + 1)); done ;;
esac
SMI
chmod +x "$tmp/bin/nvidia-smi"
# No pass but the ones asked for (tick_min_interval): the two launchers' copies of the queue stay
# alike while the commands compared run.
printf 'queue:\n  include_local: false\n  tick_min_interval: 3600\nservers:\n  - nickname: box\n    transport: local\n    nvidia_smi: %s\n    job_root: %s\n' \
    "$tmp/bin/nvidia-smi" "$tmp/jobs" > "$NVIDB_HOME/queue.yml"

# The queue is filled by the base launcher when there is one (an older schema upgrades, a newer
# one would refuse), and each launcher then runs on its own copy of it.
filler=${BASE_BIN:-$NVIDB_BIN}
say "filling a queue of $jobs jobs in $NVIDB_HOME"
"$filler" queue tick --json > /dev/null
"$filler" job submit --json --no-tick --gpus 0 --name dep -- true > /dev/null
"$filler" job submit --json --no-tick --gpus 1 --vram 2G --name 'bench-seed' --env LR=1e-4 \
    --env 'NOTE=tab	"quoted" ü' --tag bench --tag 'naïve' --after 1 -- python train.py > /dev/null
"$filler" job result 2 --set \
    '{"chosen_lr": 1e-4, "loss": [0.25, -0.0, 1.5e300, 9223372036854775807, -12], "ok": true, "none": null, "text": "é ✓ \u0001\t\"x\"", "nested": {"a": [[], {}], "b": 0.1}}' \
    > /dev/null
# Make the seed (job 2) the first job, then copy it (bench/populate-jobs.sql), then keep JOBS jobs.
printf 'DELETE FROM jobs WHERE id = 1;\n' > "$tmp/seed.sql"
sql "$tmp/seed.sql"
sql "$here/populate-jobs.sql" "$here/populate-job-lists.sql"
printf 'DELETE FROM jobs WHERE id > (SELECT min(id) FROM jobs) + %d - 1;\n' "$jobs" > "$tmp/trim.sql"
sql "$tmp/trim.sql"
first=$(sqlite3 "$NVIDB_HOME/queue.db" 'SELECT min(id) FROM jobs' 2> /dev/null || echo 2)
# Lanes are made when first listed: made here, both copies list the same ones.
"$filler" queue lanes --json --no-tick > /dev/null
cp -R "$NVIDB_HOME" "$tmp/new-home"
# run BIN ARGS...: BIN on its own copy of the queue.
run() {
    r_bin=$1
    shift
    if [ "$r_bin" = "$NVIDB_BIN" ]; then
        NVIDB_HOME=$tmp/new-home "$r_bin" "$@"
    else
        "$r_bin" "$@"
    fi
}

# name|arguments: the read commands (timed, and compared when BASE_BIN is set).
cat > "$tmp/commands" << EOF
(b) job ls --json --no-tick|job ls --json --no-tick
(c) job ls --json --no-tick -n 0|job ls --json --no-tick -n 0
(d) queue status --json --no-tick|queue status --json --no-tick
(n) queue nodes --json --no-tick|queue nodes --json --no-tick
(s) job show $first --json --no-tick|job show $first --json --no-tick
EOF
# Compared only: the human views print timestamps and env the same way (not `queue nodes`, which
# says how many seconds ago the node was seen).
compare_only="job show $first --no-tick|job ls --no-tick -n 0|queue alerts --json|queue events --json -n 500|queue lanes --json --no-tick"

if [ -n "${BASE_BIN:-}" ]; then
    say "comparing the output of $BASE_BIN and $NVIDB_BIN (less the clock's generated_at and each copy's db_path)"
    differ=0
    { cut -d'|' -f2 "$tmp/commands"; printf '%s\n' "$compare_only" | tr '|' '\n'; } > "$tmp/compare"
    while IFS= read -r args; do
        # shellcheck disable=SC2086 # the arguments are words
        run "$BASE_BIN" $args 2>&1 | grep -v '^  "generated_at": \|^  "db_path": ' > "$tmp/base.out" || true
        # shellcheck disable=SC2086
        run "$NVIDB_BIN" $args 2>&1 | grep -v '^  "generated_at": \|^  "db_path": ' > "$tmp/new.out" || true
        if cmp -s "$tmp/base.out" "$tmp/new.out"; then
            say "  same bytes ($(wc -c < "$tmp/new.out") B): nvidb $args"
        else
            say "  DIFFERENT: nvidb $args"
            diff "$tmp/base.out" "$tmp/new.out" | head -20 >&2 || true
            differ=1
        fi
    done < "$tmp/compare"
    [ "$differ" -eq 0 ] || { say "the two launchers print different output (above)"; exit 1; }
fi

# children_ms FILE: the CPU time (user + system) in ms of this shell's finished children, as the
# `times` written to FILE in this shell (not in a subshell, whose children are its own) says.
children_ms() {
    sed -n 2p "$1" | tr 'ms' '  ' | awk '{ printf "%d\n", ($1 * 60 + $2 + $3 * 60 + $4) * 1000 }'
}

# once BIN ARGS FILE: runs BIN with ARGS once and appends "wall_ms cpu_ms" to FILE.
once() {
    times > "$tmp/times0"
    t0=$(date +%s%N)
    # shellcheck disable=SC2086 # the arguments are words
    run "$1" $2 > /dev/null 2>&1 || true
    t1=$(date +%s%N)
    times > "$tmp/times1"
    c0=$(children_ms "$tmp/times0")
    c1=$(children_ms "$tmp/times1")
    echo "$(((t1 - t0) / 1000)) $((c1 - c0))" | awk '{ printf "%.1f %d\n", $1 / 1000, $2 }' >> "$3"
}

# summary FILE: "median min cpu" of the runs in FILE (cpu: the median), in ms.
summary() {
    sort -n "$1" | awk '{ w[NR] = $1 } END { n = NR; printf " %7.1f %7.1f", (n % 2) ? w[(n + 1) / 2] : (w[n / 2] + w[n / 2 + 1]) / 2, w[1] }'
    sort -n -k2 "$1" | awk '{ c[NR] = $2 } END { n = NR; printf " %7.1f", (n % 2) ? c[(n + 1) / 2] : (c[n / 2] + c[n / 2 + 1]) / 2 }'
}

# time_pair LABEL ARGS: WARMUP untimed runs, then RUNS rounds of BASE_BIN (when set) and NVIDB_BIN
# in turn, the order swapped every round, so that a machine getting busier or quieter weighs on
# both alike; prints a row.
time_pair() {
    say "$1"
    : > "$tmp/base.runs"
    : > "$tmp/new.runs"
    i=0
    while [ $i -lt "$warmup" ]; do
        [ -z "${BASE_BIN:-}" ] || once "$BASE_BIN" "$2" /dev/null
        once "$NVIDB_BIN" "$2" /dev/null
        i=$((i + 1))
    done
    i=0
    while [ $i -lt "$runs" ]; do
        [ $((i % 2)) -eq 1 ] || [ -z "${BASE_BIN:-}" ] || once "$BASE_BIN" "$2" "$tmp/base.runs"
        once "$NVIDB_BIN" "$2" "$tmp/new.runs"
        [ $((i % 2)) -eq 0 ] || [ -z "${BASE_BIN:-}" ] || once "$BASE_BIN" "$2" "$tmp/base.runs"
        i=$((i + 1))
    done
    printf '%-36s' "$1"
    [ -z "${BASE_BIN:-}" ] || summary "$tmp/base.runs"
    summary "$tmp/new.runs"
    echo
}

head="$(printf ' %7s %7s %7s' median min cpu)"
[ -z "${BASE_BIN:-}" ] || head="$(printf ' %-23s %-23s' '---- base (BASE_BIN) --' '---- new (NVIDB_BIN) ---')
$(printf '%-36s' '')$head$head"
{
    printf 'nvidb JSON codec timings: %s%s\n' "$image" "${BASE_BIN:+ against $BASE_BIN}"
    printf '%s jobs; %s runs after %s warm-up runs; wall time median and min, cpu (user+sys) median; ms\n' \
        "$jobs" "$runs" "$warmup"
    printf '%s CPUs, load %s\n' "$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo '?')" \
        "$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo '?')"
    printf '%-36s%s\n' command "$head"
} > "$tmp/table"
echo "(w) job submit --json --no-tick|job submit --json --no-tick --gpus 0 --env A=1 --tag t --after $first -- true" \
    >> "$tmp/commands"
while IFS='|' read -r label args; do
    case $label in
        \(${ONLY:-[a-z]}\)*) time_pair "$label" "$args" >> "$tmp/table" ;;
    esac
done < "$tmp/commands"
cat "$tmp/table"
