#!/bin/sh
# A simulated lab day played through nvidb's own VRAM sizing rules (bench/vram/VramDay.java, run
# against the built image's nvidb-core): JOBS (default 500) jobs in 5 families whose true peaks
# vary run to run, submitted over 8 hours onto 16 GPUs, with --vram auto, with a fixed guess too
# low and with one too high. Prints a Markdown table: GPU-hours reserved but unused, out-of-memory
# deaths, jobs lost to OOM, mean wait, when the last job ends. SEED (default 42) picks the day.
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname -- "$0")/lib.sh"
bench_setup vram-day
bench_image
# Source-file mode needs a full JDK 25 (jdk.compiler): $JAVA, else java.
"${JAVA:-java}" -cp "$image/lib/*" "$here/vram/VramDay.java" "${JOBS:-500}" "${SEED:-42}"
