# Sourced by the benchmark scripts: the nvidb image they time, built from this checkout when it
# is missing ($NVIDB_BIN names another one), and the number of timed runs ($RUNS, default 20).
# Sets root, nvidb and runs.
# shellcheck shell=sh disable=SC2034 # the sourcing script uses them
runs=${RUNS:-20}
root=$(cd -P -- "$(dirname -- "$0")/.." && pwd -P)
nvidb=${NVIDB_BIN:-$root/distribution/target/nvidb/bin/nvidb}
[ -x "$nvidb" ] || "$root/nvidb" --version > /dev/null
