#!/bin/sh
# Whole-command timings for the scheduler's views (hyperfine, median of RUNS after 3 warm-ups):
#   (d) nvidb queue status --json --no-tick   10,000 jobs and 32 nodes in the database
#   (e) nvidb queue tick --json               a forced pass over one local node with 8 GPUs
#                                             (a static stand-in for nvidia-smi prints them)
set -eu
runs=${RUNS:-20}
# shellcheck source=bench/lib.sh
. "$(dirname -- "$0")/lib.sh"
bench_setup status-tick
bench_image
nvidb=$NVIDB_BIN
command -v hyperfine > /dev/null || { say "needs hyperfine (apt-get install hyperfine)"; exit 1; }

# (d): 32 nodes (local transport, never contacted with --no-tick) and 10,000 jobs.
mkdir -p "$tmp/status"
{
    printf 'queue:\n  include_local: false\nservers:\n'
    i=1
    while [ $i -le 32 ]; do
        printf '  - nickname: node%02d\n    transport: local\n' $i
        i=$((i + 1))
    done
} > "$tmp/status/queue.yml"
populate "$tmp/status" 10000

# (e): one local node whose nvidia-smi prints 8 idle GPUs.
mkdir -p "$tmp/tick/bin"
cat > "$tmp/tick/bin/nvidia-smi" <<'SMI'
#!/bin/sh
case "$*" in
    *query-gpu*) i=0; while [ $i -lt 8 ]; do echo "$i, GPU-00000000-0000-0000-0000-00000000000$i, NVIDIA A100-SXM4-80GB, 81920, 3, 0, 0, 31"; i=$((i + 1)); done ;;
    *query-compute-apps*) ;;
esac
SMI
chmod +x "$tmp/tick/bin/nvidia-smi"
printf 'servers:\n  - nickname: box\n    transport: local\n    nvidia_smi: %s\n    job_root: %s\n' \
    "$tmp/tick/bin/nvidia-smi" "$tmp/tick/jobs" > "$tmp/tick/queue.yml"
NVIDB_HOME=$tmp/tick "$nvidb" queue tick --json > /dev/null

hyperfine --style none --warmup 3 --runs "$runs" --export-markdown "$tmp/table.md" \
    -n "(d) queue status --json --no-tick (10,000 jobs, 32 nodes)" "NVIDB_HOME=$tmp/status $nvidb queue status --json --no-tick" \
    -n "(e) queue tick --json (1 local node, 8 GPUs)" "NVIDB_HOME=$tmp/tick $nvidb queue tick --json" > /dev/null
cat "$tmp/table.md"
